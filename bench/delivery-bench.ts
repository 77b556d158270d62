// What one complete game costs in Discord's request budget, with Discord's rate limits on: the
// real bot (startBot, as npm start runs it) against the project's fake Discord, players clicking
// as fast as they can. Reports, per rule set, the REST calls that count against the global limit
// (everything but interaction responses) against the lower bound, and the share of each timed
// turn's time that was left when its message became visible.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGame, apply } from '../src/engine/apply';
import { seatView } from '../src/engine/view';
import type { Action, GameState, RulesetId } from '../src/engine/types';
import { parseScenario } from '../src/scenario/parse';
import { FakeDiscord } from '../testkit/fake-discord';
import { OWN_DIR, readJson } from '../testkit/scenario-files';
import { Driver } from '../testkit/driver';
import { fixedDealer, makeWorld } from '../testkit/world';

const FILES: Record<RulesetId, string> = {
  'chnu-2016': 'chnu-red-full-strength.json',
  'classic-10': 'classic-all-leave-ends-game.json',
  'kiev-12': 'kiev-draw-quiet-rounds.json',
};

/**
 * The fewest calls a game needs (the delivery issue's bound): one DM per role card, per night
 * prompt and per check answer, one channel message per stage or turn, and the result. Since issue
 * 20 a night where anyone acts sends every living player a DM at nightfall (the panel, or "nothing
 * to do tonight"), so that a DM, or one that cannot be delivered, marks nobody: one per living
 * player on such a night.
 */
export function lowerBound(initial: GameState, log: { action: Action; at: number }[]): number {
  let s = initial;
  const players = s.players.length;
  let stages = 1; // night 0
  let prompts = 0;
  for (const { action, at } of log) {
    const r = apply(s, action, { now: at });
    if (!r.ok) continue;
    const next = r.state;
    if (next.seq !== s.seq && next.stage.kind !== 'over') {
      stages++;
      if (next.stage.kind === 'night') {
        const acting = next.players.filter((p) => seatView(next, p.seat).prompts.length > 0).length;
        if (acting > 0) prompts += next.players.filter((p) => p.alive).length;
      }
    }
    s = next;
  }
  return players + prompts + s.checks.length + stages + 1;
}

export async function benchDelivery(ruleset: RulesetId) {
  const sc = parseScenario(readJson(join(OWN_DIR, FILES[ruleset])));
  const fake = await FakeDiscord.start({ interactionTimeout: 30_000, rateLimits: true });
  const dir = mkdtempSync(join(tmpdir(), 'mafia-bench-delivery-'));
  const w = await makeWorld({
    players: sc.roles.length,
    dealer: fixedDealer(sc.roles),
    fake,
    dbPath: join(dir, 'db.sqlite'),
    limits: 'real',
    deliveryDebounceMs: 1200,
  });
  try {
    // A club's evening: the same ten (or twelve) players play twice. The first game pays for
    // opening every DM channel and checking every player's DMs; the second shows the steady state.
    const first = await playOne(w, sc, ruleset, 'first game (new players)');
    const second = await playOne(w, sc, ruleset, 'next game (same players)');
    return { ruleset, games: [first, second] };
  } finally {
    await w.stop();
    await fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function playOne(
  w: Awaited<ReturnType<typeof makeWorld>>,
  sc: ReturnType<typeof parseScenario>,
  ruleset: RulesetId,
  label: string,
) {
  const fake = w.fake;
  const t0 = Date.now();
  const d = new Driver(w);
  fake.resetStats();
  w.bot.deliverer.counts.clear();
  const before = new Set(fake.publicMessages(w.channel.id).map((m) => m.id));
  await d.createAndStart(sc.ruleset, sc.pace);
  for (const step of sc.steps) await d.step(step);
  await w.bot.idle();
  const stats = fake.stats;
  const byRoute: Record<string, number> = {};
  for (const [route, n] of Object.entries(stats.byRoute))
    if (!route.includes('/interactions/') && !route.includes('/webhooks/')) byRoute[route] = n;
  const game = (await w.bot.store.getGame(d.gameId))!;
  const initial = createGame(game.ruleset, { roles: game.deal! }, game.options, game.pace, { now: game.startedAt! });
  const bound = lowerBound(initial, await w.bot.store.log(d.gameId));
  // Each timed stage message: how much of its time was left when players could see it.
  const state = (await w.bot.store.getState(d.gameId))!;
  const timers = state.options.timers;
  const shares: number[] = [];
  let lowest: { share: number; message: string } | null = null;
  for (const m of fake.publicMessages(w.channel.id)) {
    if (before.has(m.id)) continue;
    // The stage's own part is the paragraph with the deadline (news of the last stage may come first).
    const part = m.content.split('\n\n').find((p) => /<t:\d+:R>/.test(p)) ?? '';
    const shown = /<t:(\d+):R>/.exec(part);
    const kind = /^(🎤|🗳️|🌙|💬)/u.exec(part)?.[1];
    if (!shown || !kind) continue;
    const visibleAt = Date.parse(m.timestamp);
    const timer =
      kind === '🗳️'
        ? timers.vote
        : kind === '🌙'
          ? part.includes('Night 0')
            ? timers.night0
            : timers.night
          : kind === '💬'
            ? timers.discussion
            : /Shootout/.test(part)
              ? timers.shootout
              : /Last words/.test(part)
                ? timers.lastWords
                : /accusation/.test(part)
                  ? timers.accusation
                  : timers.speech;
    // Discord shows whole seconds: a second is the precision of what players see.
    const share = Math.min(1, (Number(shown[1]) * 1000 + 999 - visibleAt) / (timer * 1000));
    shares.push(share);
    if (!lowest || share < lowest.share) lowest = { share: round(share), message: m.content.slice(0, 160) };
  }
  shares.sort((a, b) => a - b);
  return {
    game: label,
    ruleset,
    seconds: Math.round((Date.now() - t0) / 1000),
    globalCalls: stats.globalCounted,
    lowerBound: bound,
    ratio: Math.round((stats.globalCounted / bound) * 100) / 100,
    interactionResponses: stats.total - stats.globalCounted,
    rateLimited429: stats.rateLimited429,
    byRoute,
    byPurpose: Object.fromEntries(
      [...w.bot.deliverer.counts].filter(([k]) => k.startsWith('post ') || k.startsWith('edit ')),
    ),
    turnTimeLeftWhenVisible: {
      messages: shares.length,
      min: round(shares[0] ?? 1),
      median: round(shares[Math.floor(shares.length / 2)] ?? 1),
      lowest,
    },
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** `npm run bench:delivery [ruleset...]`: the delivery figures alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(FILES)) as RulesetId[];
  const out = [];
  for (const rs of sets) out.push(await benchDelivery(rs));
  console.log(JSON.stringify({ node: process.version, delivery: out }, null, 2));
  process.exit(0);
}
