// Golden transcripts (issue 21): a seeded whole game of each rule set, each in its language, played
// through the real bot against the fake Discord and rendered to a text file a person can read:
// every public message of the game channel in order (its final version and how often it was
// edited), the DMs of three seats and the ephemeral replies those seats saw. The files under
// test/golden/ are snapshots: any change to what players read shows up in review as a diff.
// `npm run golden:update` (UPDATE_GOLDEN=1) rewrites them; docs/testing.md says more.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord.js';
import { parseScenario } from '../../src/scenario/parse';
import { resultOf } from '../../src/scenario/run';
import { t, toLocale } from '../../src/i18n';
import { compareExpect, OWN_DIR, readJson, ROOT } from '../../testkit/scenario-files';
import { allComponents, type FakeComponent, type StoredMessage } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

const GOLDEN_DIR = join(ROOT, 'test', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

interface Golden {
  /** The transcript's file under test/golden/. */
  out: string;
  /** The scenario file played (the two from the shared set are copied to test/golden/scenarios/). */
  scenario: string;
  /** Discord locale of the guild and of every user. */
  locale: string;
  /** Seats whose DMs and ephemeral replies are shown: the checker, a black player, a civilian. */
  seats: number[];
  /** Of those, the seat that plays its nights from the channel's private panel ("My actions"). */
  panelSeat: number;
}

const GOLDEN: Golden[] = [
  {
    out: 'chnu-2016.uk.txt',
    scenario: join(GOLDEN_DIR, 'scenarios', 'chnu-full-game.json'),
    locale: 'uk',
    seats: [4, 6, 1],
    panelSeat: 6,
  },
  {
    out: 'kiev-12.ru.txt',
    scenario: join(GOLDEN_DIR, 'scenarios', 'kiev-full-game.json'),
    locale: 'ru',
    seats: [3, 2, 1],
    panelSeat: 2,
  },
  {
    out: 'classic-10.en.txt',
    scenario: join(OWN_DIR, 'classic-all-leave-ends-game.json'),
    locale: 'en-US',
    seats: [7, 2, 1],
    panelSeat: 2,
  },
];

/** A fixed start for the bot's clock: its timers never fire by themselves (the steps end every stage). */
const START = Date.UTC(2030, 0, 7, 18);

let world: World | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

/** Replaces what changes from run to run (snowflakes, times) with stable tokens. */
function stabilizer(w: World, seatOf: Map<string, number>): (s: string) => string {
  const names = new Map<string, string>([
    [w.host.id, 'host'],
    [w.fake.botUser.id, 'bot'],
  ]);
  for (const [id, seat] of seatOf) names.set(id, `seat${seat}`);
  const name = (id: string) => names.get(id) ?? 'someone';
  return (s) =>
    s
      .replace(/<@!?(\d+)>/g, (_m, id: string) => `<@${name(id)}>`)
      .replace(/<@&\d+>/g, '<@&role>')
      .replace(/<#(\d+)>/g, (_m, id: string) => (id === w.channel.id ? '<#channel>' : '<#other-channel>'))
      .replace(/<\/([^:>]+):\d+>/g, '</$1>')
      .replace(/<t:\d+(?::([a-zA-Z]))?>/g, (_m, style?: string) => `<t:${style ?? 'f'}>`)
      .replace(/https:\/\/discord\.com\/channels\/[\d/@me]+/g, 'https://discord.com/channels/…')
      .replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?/g, '<date>')
      .replace(/\b\d{17,20}\b/g, '<id>');
}

function renderComponent(c: FakeComponent): string | null {
  const off = c.disabled ? ' (disabled)' : '';
  const emoji = c.emoji?.name ? `${c.emoji.name} ` : '';
  if (c.type === 2) return `[Button ${emoji}${c.label ?? ''}${off}]`;
  if ([3, 5, 6, 7, 8].includes(c.type)) {
    const opts = (c.options ?? []).map((o) => o.label + (o.description ? ` (${o.description})` : '')).join(' | ');
    return `[Menu${off}: ${c.placeholder ?? ''}${opts ? `: ${opts}` : ''}]`;
  }
  if (c.type === 10 && c.content) return c.content;
  return null;
}

function renderEmbed(e: APIEmbed): string[] {
  const out: string[] = [];
  if (e.author?.name) out.push(`  ▌ author: ${e.author.name}`);
  if (e.title) out.push(`  ▌ ## ${e.title}`);
  if (e.description) out.push(...e.description.split('\n').map((l) => `  ▌ ${l}`));
  for (const f of e.fields ?? []) {
    out.push(`  ▌ • ${f.name}${f.inline ? ' (inline)' : ''}`);
    out.push(...f.value.split('\n').map((l) => `  ▌   ${l}`));
  }
  if (e.image?.url) out.push(`  ▌ [image]`);
  if (e.footer?.text) out.push(...e.footer.text.split('\n').map((l) => `  ▌ footer: ${l}`));
  return out;
}

/**
 * How often a message changed as its reader sees it: edits that changed its text, embeds or
 * components. An edit that repeats the version before it (a click's answer and the deliverer
 * writing the same thing, which one comes first depending on timing) changes nothing a player
 * reads, so it is not counted.
 */
function visibleEdits(w: World, id: string): number {
  let n = 0;
  let last = '';
  for (const v of w.fake.history(id)) {
    const key = JSON.stringify([v.content, v.embeds, v.components]);
    if (v.kind === 'edit' && key !== last) n++;
    last = key;
  }
  return n;
}

/** How a transcript names a user, a message of the same list and a seat. */
interface Names {
  fix: (s: string) => string;
  seatOf: Map<string, number>;
  /** Message id -> its number in the list being rendered. */
  index: Map<string, number>;
}

function renderMessage(w: World, m: StoredMessage, n: number, names: Names): string[] {
  const { fix, seatOf, index } = names;
  const who = (id: string) => (seatOf.has(id) ? `seat${seatOf.get(id)}` : id === w.host.id ? 'host' : 'someone');
  const edits = visibleEdits(w, m.id);
  const head = [`--- #${n}`, edits === 0 ? 'never edited' : edits === 1 ? 'edited once' : `edited ${edits} times`];
  if (m.pinned) head.push('pinned');
  if (m.ephemeralFor) head.push(m.channel_id === w.channel.id ? 'in the channel' : 'in DMs');
  const ref = m.message_reference?.message_id;
  if (m.type === 6) head.push(`system: the bot pinned ${ref && index.has(ref) ? `#${index.get(ref)}` : 'a message'}`);
  else if (m.type === 19 && ref) head.push(`reply to ${index.has(ref) ? `#${index.get(ref)}` : 'a message'}`);
  else if (m.type !== 0 && m.type !== 20) head.push(`message type ${m.type}`);
  // Discord shows who used the command or clicked the button a follow-up answers.
  if (m.interaction_metadata) head.push(`answers ${who(m.interaction_metadata.user.id)}'s interaction`);
  const lines = [head.join(' · ')];
  if (m.content) lines.push(...m.content.split('\n'));
  for (const e of m.embeds) lines.push(...renderEmbed(e));
  for (const row of m.components) {
    const parts = (row.components ? allComponents({ components: row.components }) : [row])
      .map(renderComponent)
      .filter((x): x is string => x !== null);
    if (parts.length > 0) lines.push(parts.join(' '));
  }
  for (const a of m.attachments) lines.push(`[attachment ${a.filename}]`);
  const pinged = (m.pinged ?? []).map(who).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (pinged.length > 0) lines.push(`(pings: ${pinged.join(', ')})`);
  return lines.map(fix);
}

/** Plays the golden game and returns its transcript. */
async function transcript(g: Golden, acknowledgeClicksAfterMs?: number): Promise<string> {
  const raw = readJson(g.scenario) as { expect: Record<string, unknown> };
  const sc = parseScenario(raw);
  const clock = new FakeClock(START);
  world = await makeWorld({
    players: sc.roles.length,
    dealer: fixedDealer(sc.roles),
    guildLocale: g.locale,
    userLocale: g.locale,
    clock: { now: clock.now, timers: clock },
    ...(acknowledgeClicksAfterMs !== undefined ? { acknowledgeClicksAfterMs } : {}),
  });
  const w = world;
  const d = new Driver(w);
  d.panelUsers.add(w.users[g.panelSeat - 1]!.id);
  // The lobby as Driver.createAndStart fills it, but one join at a time (the bot idle after each),
  // so that how often the lobby message is edited does not depend on timing.
  const created = await d.slash(w.host.id, 'mafia', 'create', { ruleset: sc.ruleset, pace: sc.pace });
  d.gameId = Number(/[#№](\d+)/.exec(created.content ?? '')?.[1]);
  const clicks = [...w.users.map((u) => [u.id, 'join'] as const), [w.host.id, 'start'] as const];
  for (const [who, verb] of clicks) {
    const r = await w.fake.click(who, d.lobbyMessage(), `v1:l:${d.gameId}:${verb}`);
    await r.settled();
    await w.bot.idle();
  }
  const refused: number[] = [];
  for (const [i, step] of sc.steps.entries()) {
    if ((await d.step(step)) === 'refused') refused.push(i);
    await w.bot.idle();
  }
  await w.bot.idle();
  const state = (await w.bot.store.getState(d.gameId))!;
  // The game the transcript shows is the one the scenario describes.
  expect(compareExpect(resultOf(state, refused) as never, raw.expect)).toEqual([]);

  const seatOf = new Map(w.users.map((u, i) => [u.id, i + 1] as const));
  const fix = stabilizer(w, seatOf);
  const list = (msgs: StoredMessage[]) => {
    const names: Names = { fix, seatOf, index: new Map(msgs.map((m, i) => [m.id, i + 1])) };
    return msgs.flatMap((m, i) => [...renderMessage(w, m, i + 1, names), '']);
  };
  const out: string[] = [
    `# Golden transcript: ${sc.ruleset}, locale ${g.locale}, scenario ${g.scenario.split('/').pop()}`,
    '# Generated by test/e2e/golden.test.ts; regenerate with `npm run golden:update` (docs/testing.md).',
    `# Seats (dealt in join order): ${sc.roles.map((r, i) => `${i + 1} ${r}`).join(', ')}`,
    `# Seat ${g.panelSeat} plays its nights from the channel's private panel; the others from DMs.`,
    '',
  ];
  const pub = w.fake.publicMessages(w.channel.id);
  out.push(`==================== Channel <#channel>: ${pub.length} public messages ====================`);
  out.push(...list(pub));
  // The game's threads: the black team's night talk, then the spectators'. (Both are made when the
  // game starts, each by its own delivery task: Discord may see either first.)
  const spectators = t(toLocale(g.locale)!, 'spectators.name', { id: d.gameId });
  const threads = w.fake.threads(w.channel.id);
  for (const th of [...threads.filter((x) => x.name !== spectators), ...threads.filter((x) => x.name === spectators)]) {
    const msgs = w.fake.messages(th.id).filter((m) => !m.ephemeralFor);
    const state = [th.locked ? 'locked' : 'open', th.archived ? 'archived' : 'active'].join(', ');
    out.push(
      `==================== Thread "${fix(th.name)}" (${state}; ${th.members.length} members): ${msgs.length} messages ====================`,
    );
    out.push(...list(msgs));
  }
  for (const seat of g.seats) {
    const u = w.users[seat - 1]!;
    const dms = w.fake.dms(u.id).filter((m) => !m.ephemeralFor);
    out.push(`==================== DMs of seat ${seat} (${sc.roles[seat - 1]}): ${dms.length} ====================`);
    out.push(...list(dms));
    const eph = w.fake.ephemeralsFor(u.id);
    out.push(
      `==================== Ephemeral replies to seat ${seat} (${sc.roles[seat - 1]}): ${eph.length} ====================`,
    );
    out.push(...list(eph));
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

describe('golden transcripts (issue 21): what players read in a whole game of each rule set', () => {
  for (const g of GOLDEN) {
    it(`${g.out}`, async () => {
      const text = await transcript(g);
      const file = join(GOLDEN_DIR, g.out);
      if (UPDATE || !existsSync(file)) {
        writeFileSync(file, text);
        if (!UPDATE) throw new Error(`${g.out} did not exist: written; run again (or npm run golden:update)`);
        return;
      }
      const want = readFileSync(file, 'utf8');
      if (text !== want) {
        // The new text, to diff with the file (the assertion's own diff is long).
        const actual = join(tmpdir(), `golden-${process.pid}-${g.out}`);
        writeFileSync(actual, text);
        expect(text, `${g.out} differs (new text: ${actual}); npm run golden:update rewrites it`).toBe(want);
      }
    });
  }

  // Issue 22: after a restart a burst of clicks is acknowledged on arrival and worked through
  // afterwards. Players must see exactly the same game: every click acknowledged first here.
  for (const g of GOLDEN) {
    it(`${g.out}, every click acknowledged before its work`, async () => {
      const text = await transcript(g, 0);
      const want = readFileSync(join(GOLDEN_DIR, g.out), 'utf8');
      if (text !== want) {
        const actual = join(tmpdir(), `golden-${process.pid}-acked-${g.out}`);
        writeFileSync(actual, text);
        expect(text, `${g.out} differs when clicks are acknowledged first (new text: ${actual})`).toBe(want);
      }
    });
  }
});
