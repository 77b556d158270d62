// Issue 21: every message states its rule before it applies (a vote's default for a missing vote,
// what a night choice may target and how it counts), and closed is closed (a night's message, a
// discussion's, a DM panel of a seat that acted from the channel's private panel). Whole games
// played through the fake Discord, read as the players read them.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { allComponents, type StoredMessage } from '../../testkit/fake-discord';
import { OWN_DIR, readJson, ROOT } from '../../testkit/scenario-files';
import { Driver } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

let world: World | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

const KIEV = join(ROOT, 'test', 'golden', 'scenarios', 'kiev-full-game.json');
const CLASSIC = join(OWN_DIR, 'classic-all-leave-ends-game.json');

/** Plays a scenario to its end; `panelSeats` play their nights from the channel's private panel. */
async function play(file: string, panelSeats: number[] = []): Promise<{ w: World; d: Driver; roles: string[] }> {
  const sc = parseScenario(readJson(file));
  const w = (world = await makeWorld({ players: sc.roles.length, dealer: fixedDealer(sc.roles) }));
  const d = new Driver(w);
  for (const seat of panelSeats) d.panelUsers.add(w.users[seat - 1]!.id);
  await d.createAndStart(sc.ruleset, sc.pace);
  for (const step of sc.steps) await d.step(step);
  return { w, d, roles: sc.roles };
}

const live = (m: StoredMessage) => allComponents(m).filter((c) => c.type !== 1 && !c.disabled);
const countdown = /<t:\d+:R>/;

/** Every version of every DM a user was sent (a panel is edited as the night goes on). */
function dmVersions(w: World, userId: string): string[] {
  return w.fake.dms(userId).flatMap((m) => w.fake.history(m.id).map((v) => v.content));
}

describe('rules said before they apply (issue 21)', () => {
  it('D-5: the vote says what a missing vote counts for: the last candidate (classic-10), an abstention and no vote for oneself (kiev-12)', async () => {
    const classic = await play(CLASSIC);
    const votes = classic.w.fake.publicMessages(classic.w.channel.id).filter((m) => m.content.startsWith('🗳️ Day'));
    expect(votes.length).toBeGreaterThan(0);
    for (const m of votes) {
      // The last candidate named in the stage line is the one a missing vote counts for.
      const line = m.content.split('\n')[0]!;
      const last = [...line.matchAll(/#(\d+)/g)].at(-1)![1];
      expect(m.content).toContain(`No vote by the end counts for #${last} `);
    }
    await classic.w.stop();
    world = null;

    const kiev = await play(KIEV);
    const kvotes = kiev.w.fake.publicMessages(kiev.w.channel.id).filter((m) => m.content.startsWith('🗳️ Day'));
    expect(kvotes.length).toBeGreaterThan(0);
    for (const m of kvotes) {
      expect(m.content).toContain('One vote each, final; not for yourself. No vote by the end is an abstention.');
      expect(m.content).not.toContain('counts for');
    }
  });

  it('N-3, N-4, N-7, N-8, N-11: a night panel says how its choice counts and what it may target, before the choice', async () => {
    const classic = await play(CLASSIC);
    const don = classic.w.users[1]!; // seat 2
    expect(
      dmVersions(classic.w, don.id).some((c) =>
        c.includes('The shot lands only if every black player picks the same seat.'),
      ),
    ).toBe(true);
    await classic.w.stop();
    world = null;

    const { w, roles } = await play(KIEV);
    const seatOf = (role: string) => roles.indexOf(role) + 1;
    const said = (role: string, text: string) =>
      dmVersions(w, w.users[seatOf(role) - 1]!.id).some((c) => c.includes(text) && c.includes('Choose below'));
    // The Don leaves on day 1 (so a mafia player decides from night 1), yet the rule is said as it stands.
    expect(said('mafia', 'The Don’s pick counts; without the Don, the mafia player on the lowest seat decides.')).toBe(
      true,
    );
    expect(said('doctor', 'You may heal yourself, but not the same seat three nights in a row.')).toBe(true);
    expect(said('prostitute', 'Not the same seat three nights in a row.')).toBe(true);
    // The maniac's kill has no rule beyond its menu; no line is added for it.
    expect(dmVersions(w, w.users[seatOf('maniac') - 1]!.id).some((c) => c.includes('▸'))).toBe(false);
    await w.stop();
    world = null;

    // The commissioner's note while he still has it (here he lives through night 1).
    const note = await play(join(OWN_DIR, 'kiev-note-read.json'));
    const commissioner = note.w.users[note.roles.indexOf('commissioner')]!;
    expect(
      dmVersions(note.w, commissioner.id).some((c) =>
        c.includes('▸ The note (once a game) is read out in the morning only if you are killed tonight.'),
      ),
    ).toBe(true);
  });
});

describe('closed is closed (issue 21)', () => {
  it('a night’s and a discussion’s message lose their countdown when they end and say so; at the end nothing public shows a countdown', async () => {
    const { w } = await play(KIEV);
    const pub = w.fake.publicMessages(w.channel.id);
    const nights = pub.filter((m) => /^🌙 Night \d/m.test(m.content));
    expect(nights.length).toBeGreaterThanOrEqual(3); // night 0, 1, 2
    for (const m of nights) expect(m.content).toContain('The night is over.');
    const talks = pub.filter((m) => /free discussion/i.test(m.content));
    expect(talks.length).toBeGreaterThan(0);
    for (const m of talks) expect(m.content).toMatch(/Closed\.$/);
    for (const m of pub) expect(m.content, m.content.slice(0, 80)).not.toMatch(countdown);
  });

  it('a seat that finishes its night from the channel’s private panel: its DM panel of that night is closed too', async () => {
    // Seat 2 (the Don) plays from the channel's panel; its DM panel got the night's panel as well.
    const { w } = await play(CLASSIC, [2]);
    const dms = w.fake.dms(w.users[1]!.id).filter((m) => m.content.includes('Game #1, seat 2'));
    expect(dms.length).toBeGreaterThan(0);
    for (const m of dms) {
      expect(live(m), m.content).toEqual([]);
      expect(m.content, m.content).not.toMatch(countdown);
    }
    expect(dms.some((m) => m.content.includes('night 2 is over.'))).toBe(true);
  });

  it('S-3: where every point comes from the best-player vote (kiev-12), the result lists the roles without a column of zeros', async () => {
    const { w } = await play(KIEV);
    const roles = w.fake
      .publicMessages(w.channel.id)
      .flatMap((m) => m.embeds)
      .find((e) => e.title === 'Roles');
    expect(roles, 'the roles embed').toBeDefined();
    expect(roles!.description).toContain('Points come from the best-player vote.');
    expect(roles!.description).not.toMatch(/· \*\*0\*\*/);
  });
});
