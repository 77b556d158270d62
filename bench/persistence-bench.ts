// Actions per second through the game service with SQLite persistence (one transaction each,
// with the outbox rows the planner writes for it, as the bot does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GameService } from '../src/app/game-service';
import { OutboxStore } from '../src/db/outbox-store';
import { Contexts } from '../src/discord/context';
import { Planner } from '../src/discord/planner';
import { openDatabase } from '../src/db/client';
import { Store } from '../src/db/store';
import type { RulesetId } from '../src/engine/types';
import { randomAction, randomDeal, seededRng } from '../src/sim/random-play';

export async function benchPersistence(ruleset: RulesetId, games: number, seed: number) {
  const dir = mkdtempSync(join(tmpdir(), 'mafia-bench-'));
  const open = openDatabase(join(dir, 'bench.sqlite'));
  const store = new Store(open.connection);
  let clock = 1_700_000_000_000;
  // The bot's real write path: every action's outbox rows are planned in its own transaction.
  const service = new GameService(store, {
    now: () => clock,
    timers: { setTimeout: () => null, clearTimeout: () => {} },
  });
  const planner = new Planner(
    new OutboxStore(open.connection),
    new Contexts(store, service, 'en'),
    () => ({ manageRoles: true, threads: true }),
    () => clock,
  );
  service.use({ plan: (e) => planner.plan(e) });
  const rng = seededRng(seed);
  let actions = 0;
  const t0 = performance.now();
  for (let g = 0; g < games; g++) {
    const game = await service.createLobby({
      guildId: 'bench',
      channelId: `c${g}`,
      hostId: 'h',
      ruleset,
      pace: 'live',
      options: {},
    });
    const roles = randomDeal(rng, ruleset);
    await service.start(
      game.id,
      roles.map((_, i) => `u${i}`),
      roles,
    );
    for (;;) {
      const s = await service.state(game.id);
      if (!s || s.stage.kind === 'over') break;
      const a = randomAction(s, rng)!;
      if (a.kind === 'timeout' && s.deadline !== null) clock = Math.max(clock, s.deadline);
      else clock += 100;
      const r = await service.dispatch(game.id, a, 'system');
      if (r.ok) actions++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  await service.close();
  open.close();
  rmSync(dir, { recursive: true, force: true });
  return { ruleset, games, actions, persistedActionsPerSecond: Math.round(actions / seconds) };
}
