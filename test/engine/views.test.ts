// What each audience may know (N-13, G-4, G-6, E-5), deadlines from the pace (P-1, P-3), options.
import { describe, expect, it } from 'vitest';
import { acquaintance, apply, createGame, currentSpeaker } from '../../src/engine/apply';
import { optionOverridesSchema, resolveOptions } from '../../src/engine/options';
import { RULESET_IDS } from '../../src/engine/rulesets';
import { mafiaView, publicView, seatView } from '../../src/engine/view';
import type { Action, GameEvent, GameState, Role } from '../../src/engine/types';
import { randomAction, randomDeal, seededRng } from '../../src/sim/random-play';

const chnuDeal: Role[] = [
  'civilian',
  'civilian',
  'mafia',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'mafia',
  'civilian',
  'civilian',
];
const kievDeal: Role[] = [
  'civilian',
  'mafia',
  'commissioner',
  'civilian',
  'doctor',
  'don',
  'civilian',
  'prostitute',
  'maniac',
  'civilian',
  'mafia',
  'civilian',
];

function step(s: GameState, a: Action, now = 0): { s: GameState; events: readonly GameEvent[] } {
  const r = apply(s, a, { now: a.kind === 'timeout' ? (s.deadline ?? now) : now });
  if (!r.ok) throw new Error(`refused ${r.code}: ${JSON.stringify(a)}`);
  return { s: r.state, events: r.events };
}

const ROLE_WORDS = /"(civilian|sheriff|mafia|don|commissioner|doctor|maniac|prostitute)"/;

describe('N-13 secrecy: public output never reveals a role before the rules do', () => {
  for (const ruleset of RULESET_IDS) {
    it(`${ruleset}: public views and public events over 300 random games`, () => {
      for (let seed = 1; seed <= 300; seed++) {
        const rng = seededRng(seed);
        let s = createGame(ruleset, { roles: randomDeal(rng, ruleset) }, {}, 'live', { now: 0 });
        while (s.stage.kind !== 'over') {
          const a = randomAction(s, rng)!;
          const { s: next, events } = step(s, a, s.deadline ?? 0);
          for (const ev of events) {
            if (ev.to.kind !== 'public') continue;
            if (ev.body.type === 'game-over' || ev.body.type === 'points') continue; // E-5
            if (ev.body.type === 'left' || ev.body.type === 'morning') {
              // G-6: kiev-12 shows the card of a player who leaves; the others never.
              if (ruleset !== 'kiev-12') expect(JSON.stringify(ev.body)).not.toMatch(ROLE_WORDS);
              continue;
            }
            expect(JSON.stringify(ev.body), `${ruleset} seed ${seed}: ${ev.body.type}`).not.toMatch(ROLE_WORDS);
          }
          const view = publicView(next);
          for (const seat of view.seats) {
            if (seat.role === null) continue;
            const allowed = next.result !== null || (ruleset === 'kiev-12' && !seat.alive);
            expect(allowed, `${ruleset} seed ${seed}: seat ${seat.seat} role shown at ${view.position}`).toBe(true);
          }
          s = next;
        }
        expect(publicView(s).seats.every((x) => x.role !== null)).toBe(true); // E-5
      }
    });
  }

  it('N-5, N-6, N-11: check answers go only to the checker', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal });
    s = step(s, { kind: 'timeout', seq: s.seq }).s;
    // Day 1: everybody passes, no candidates, night 1.
    for (let seat = 1; seat <= 10; seat++) s = step(s, { kind: 'pass', seat }).s;
    const r = step(s, { kind: 'check', seat: 4, target: 3 });
    const answers = r.events.filter((e) => e.body.type === 'check-result');
    expect(answers).toEqual([
      {
        to: { kind: 'seat', seat: 4 },
        body: {
          type: 'check-result',
          seat: 4,
          target: 3,
          kind: 'sheriff',
          answer: 'black',
          at: { phase: 'night', n: 1 },
        },
      },
    ]);
    expect(seatView(r.s, 4).checks).toHaveLength(1);
    expect(seatView(r.s, 6).checks).toHaveLength(0);
    expect(JSON.stringify(publicView(r.s))).not.toMatch(/black|sheriff/);
  });

  it('mafia shots are shown to the mafia only (their "gestures"), never in public', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal });
    s = step(s, { kind: 'timeout', seq: s.seq }).s;
    for (let seat = 1; seat <= 10; seat++) s = step(s, { kind: 'pass', seat }).s;
    const r = step(s, { kind: 'shoot', seat: 3, target: 5 });
    expect(r.events.filter((e) => e.to.kind === 'public')).toEqual([]);
    expect(r.events.find((e) => e.body.type === 'shot-picked')?.to).toEqual({ kind: 'mafia' });
    expect(mafiaView(r.s).shots).toEqual([{ seat: 3, target: 5 }]);
  });
});

describe('G-4 acquaintance', () => {
  it('mafia and Don know each other; the kiev-12 prostitute knows nobody and nobody knows her (decision)', () => {
    const s = createGame('kiev-12', { roles: kievDeal });
    expect(seatView(s, 2).knownBlack).toEqual([
      { seat: 6, role: 'don' },
      { seat: 11, role: 'mafia' },
    ]);
    expect(seatView(s, 8).knownBlack).toEqual([]);
    expect(seatView(s, 8).team).toBe('black');
    expect(seatView(s, 1).knownBlack).toEqual([]);
    expect(acquaintance(s)).toEqual({ members: [2, 6, 11], don: 6, helpers: [8], helpersKnown: false });
  });

  it('G-4 option prostituteKnowsMafia: she and the mafia know each other', () => {
    const s = createGame('kiev-12', { roles: kievDeal }, { prostituteKnowsMafia: true });
    expect(seatView(s, 8).knownBlack.map((k) => k.seat)).toEqual([2, 6, 11]);
    expect(seatView(s, 2).knownBlack.map((k) => k.seat)).toEqual([6, 8, 11]);
  });
});

describe('P-1, P-3 deadlines come from the pace and the time in ctx', () => {
  it('live: night 0 60 s, speech 60 s per speaker, vote 60 s', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal }, {}, 'live', { now: 1000 });
    expect(s.deadline).toBe(61_000);
    s = step(s, { kind: 'timeout', seq: s.seq }).s;
    expect(s.stage.kind).toBe('turns');
    expect(s.deadline).toBe(121_000);
    s = step(s, { kind: 'pass', seat: 1 }, 130_000).s;
    expect(s.deadline).toBe(190_000); // the next speaker's own timer
  });

  it('async: night 12 h, discussion window 24 h; the host may change timers per game', () => {
    let s = createGame('classic-10', { roles: chnuDeal }, { timers: { discussion: 600 } }, 'async', { now: 0 });
    expect(s.deadline).toBe(12 * 3600 * 1000);
    s = step(s, { kind: 'timeout', seq: s.seq }).s;
    expect(s.stage.kind).toBe('window');
    expect(s.deadline).toBe(12 * 3600 * 1000 + 600 * 1000);
  });

  it('a timeout before the deadline or for an earlier stage is refused', () => {
    const s = createGame('kiev-12', { roles: kievDeal }, {}, 'live', { now: 0 });
    expect(apply(s, { kind: 'timeout', seq: s.seq }, { now: 59_999 })).toEqual({ ok: false, code: 'timeout/early' });
    expect(apply(s, { kind: 'timeout', seq: s.seq - 1 }, { now: 60_000 })).toEqual({
      ok: false,
      code: 'timeout/stale',
    });
    expect(apply(s, { kind: 'timeout', seq: s.seq }, { now: 60_000 }).ok).toBe(true);
  });

  it('a button of a closed stage (stale seq) is refused', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal });
    const oldSeq = s.seq;
    s = step(s, { kind: 'timeout', seq: s.seq }).s;
    expect(apply(s, { kind: 'pass', seat: 1, seq: oldSeq }, { now: 0 })).toEqual({ ok: false, code: 'stage/stale' });
    expect(apply(s, { kind: 'pass', seat: 1, seq: s.seq }, { now: 0 }).ok).toBe(true);
  });
});

describe('options', () => {
  it('each rule set has its documented defaults', () => {
    expect(resolveOptions('chnu-2016', 'live')).toMatchObject({
      askDon: true,
      nonVoter: 'last-candidate',
      tieAgain: 'nobody',
    });
    expect(resolveOptions('classic-10', 'live')).toMatchObject({
      askDon: false,
      tieAgain: 'all-leave-vote',
      noTieBreakAtAlive: 4,
      dayOpener: 'after-previous-first',
    });
    expect(resolveOptions('kiev-12', 'live')).toMatchObject({
      selfVote: false,
      nonVoter: 'abstain',
      foulVotes: true,
      donTake: true,
      timers: { lastWords: 30, discussion: 150, accusation: 30 },
    });
    expect(resolveOptions('kiev-12', 'async').timers).toMatchObject({
      night: 43_200,
      discussion: 86_400,
      accusation: 21_600,
      vote: 21_600,
      lastWords: 7_200,
    });
  });

  it('overrides are validated: unknown names and wrong types are rejected', () => {
    expect(optionOverridesSchema.safeParse({ selfVote: true }).success).toBe(true);
    expect(optionOverridesSchema.safeParse({ timers: { vote: 30 } }).success).toBe(true);
    expect(optionOverridesSchema.safeParse({ selfvote: true }).success).toBe(false);
    expect(optionOverridesSchema.safeParse({ timers: { vote: -1 } }).success).toBe(false);
    expect(optionOverridesSchema.safeParse({ nonVoter: 'random' }).success).toBe(false);
  });

  it('createGame refuses a deal that does not fit the rule set (G-2)', () => {
    expect(() => createGame('kiev-12', { roles: chnuDeal })).toThrow(/expected 12 roles/);
  });
});

describe('G-6, N-12: leaving and the morning announcement', () => {
  const timeout = (s: GameState): Action => ({ kind: 'timeout', seq: s.seq });

  it('G-6, N-12: kiev-12 shows the cards of those who left at night, in seat order, never who shot', () => {
    let s = createGame('kiev-12', { roles: kievDeal });
    s = step(s, timeout(s)).s; // night 0
    s = step(s, timeout(s)).s; // discussion
    while (s.stage.kind === 'turns') s = step(s, { kind: 'pass', seat: currentSpeaker(s)! }).s;
    // Night 1: the maniac kills 10, the Don shoots 4.
    const night: Action[] = [
      { kind: 'kill', seat: 9, target: 10 },
      { kind: 'shoot', seat: 6, target: 4 },
      { kind: 'shoot', seat: 2, target: 4 },
      { kind: 'shoot', seat: 11, target: 4 },
      { kind: 'skip', seat: 8 },
      { kind: 'skip', seat: 5 },
      { kind: 'skip', seat: 3 },
    ];
    let events: readonly GameEvent[] = [];
    for (const a of night) ({ s, events } = step(s, a));
    const ev = events.filter((e) => e.to.kind === 'public').map((e) => e.body);
    const morning = ev.find((b) => b.type === 'morning');
    expect(morning).toEqual({
      type: 'morning',
      night: 1,
      out: [
        { seat: 4, role: 'civilian' },
        { seat: 10, role: 'civilian' },
      ],
      note: null,
    });
    expect(JSON.stringify(ev)).not.toMatch(/"(by|shooters|shotBy)":\s*\[|"seat":\s*(6|9),/);
    expect(
      publicView(s)
        .seats.filter((x) => x.role !== null)
        .map((x) => [x.seat, x.role]),
    ).toEqual([
      [4, 'civilian'],
      [10, 'civilian'],
    ]);
  });

  it('G-6: chnu-2016 and classic-10 keep the card of a player who left hidden until the end', () => {
    let s = createGame('classic-10', { roles: chnuDeal });
    s = step(s, { kind: 'host-kill', target: 3 }).s;
    expect(publicView(s).seats[2]).toMatchObject({ alive: false, role: null, left: { by: 'host' } });
    s = step(s, { kind: 'host-end', winner: 'red' }).s;
    expect(publicView(s).seats[2]!.role).toBe('mafia'); // E-5
  });

  it('N-12: a quiet night is announced as such', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal });
    s = step(s, timeout(s)).s;
    for (let seat = 1; seat <= 10; seat++) s = step(s, { kind: 'pass', seat }).s;
    const { events } = step(s, timeout(s), s.deadline!);
    expect(events.find((e) => e.body.type === 'morning')?.body).toEqual({
      type: 'morning',
      night: 1,
      out: [],
      note: null,
    });
  });
});
