// Achievements (issue 24): the pure rules. `gameFeats` reads a finished game's final state (what a
// seat did in it), `earnedBy` one counted result with the player's standings after it. Each
// achievement earned and not earned; the rule ids are those of the facts (docs/rules.md).
import { describe, expect, it } from 'vitest';
import { ACHIEVEMENTS, earnedBy, gameFeats, type SeatFacts, type Tally } from '../../src/stats/achievements';
import type { CheckEntry, GameState, OutEntry, Role, Winner } from '../../src/engine/types';

const TEN: Role[] = [
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
const KIEV: Role[] = [
  'civilian',
  'commissioner',
  'mafia',
  'doctor',
  'don',
  'civilian',
  'prostitute',
  'maniac',
  'mafia',
  'civilian',
  'civilian',
  'civilian',
];

const night = (n: number) => ({ phase: 'night' as const, n });
const day = (n: number) => ({ phase: 'day' as const, n });

/** The parts of a finished game's state the feats read. */
function finished(
  roles: Role[],
  winner: Winner | null,
  checks: CheckEntry[] = [],
  out: OutEntry[] = [],
  ruleset = 'chnu-2016',
): GameState {
  return {
    ruleset,
    players: roles.map((role, i) => ({ seat: i + 1, role, alive: !out.some((o) => o.seat === i + 1) })),
    checks,
    out,
    result: winner === null ? null : { winner, reason: 'rules', at: day(4), points: [], bestPlayer: null },
  } as unknown as GameState;
}

const sheriffCheck = (target: number, answer: 'black' | 'red', n: number): CheckEntry => ({
  seat: 4,
  target,
  at: night(n),
  kind: 'sheriff',
  answer,
});

describe('gameFeats: what one seat did in one game', () => {
  it('clear-sight: the Sheriff checked all three black players (N-6) and red won (E-1)', () => {
    const checks = [sheriffCheck(3, 'black', 1), sheriffCheck(6, 'black', 2), sheriffCheck(8, 'black', 3)];
    expect(gameFeats(finished(TEN, 'red', checks), 4)).toContain('clear-sight');
    // Red lost: not earned.
    expect(gameFeats(finished(TEN, 'black', checks), 4)).not.toContain('clear-sight');
    // Two of three found: not earned.
    expect(gameFeats(finished(TEN, 'red', checks.slice(0, 2)), 4)).not.toContain('clear-sight');
    // A red answer, or chnu-2016's follow-up "Don?" question, is not a black player found.
    const withDon = [
      sheriffCheck(3, 'black', 1),
      { ...sheriffCheck(6, 'black', 2), kind: 'askDon' as const, answer: 'don' as const },
    ];
    expect(gameFeats(finished(TEN, 'red', [...withDon, sheriffCheck(8, 'black', 3)]), 4)).not.toContain('clear-sight');
    // Only the checker earns it.
    expect(gameFeats(finished(TEN, 'red', checks), 1)).not.toContain('clear-sight');
  });

  it('clear-sight in kiev-12: the Commissioner (N-11) found all four black players, the prostitute too (G-2)', () => {
    const c = (target: number, n: number): CheckEntry => ({
      seat: 2,
      target,
      at: night(n),
      kind: 'commissioner',
      answer: 'black',
    });
    const all = [c(3, 1), c(5, 2), c(7, 3), c(9, 4)];
    expect(gameFeats(finished(KIEV, 'red', all, [], 'kiev-12'), 2)).toContain('clear-sight');
    // A frozen check (N-7) has no answer: the prostitute not found.
    const frozen = [...all.slice(0, 2), { ...c(7, 3), answer: 'frozen' as const }, c(9, 4)];
    expect(gameFeats(finished(KIEV, 'red', frozen, [], 'kiev-12'), 2)).not.toContain('clear-sight');
  });

  it('sharp-nose: the Don found the Sheriff with the check of night 1 (N-5), whoever won', () => {
    const don = (target: number, n: number, answer: 'sheriff' | 'not sheriff'): CheckEntry => ({
      seat: 6,
      target,
      at: night(n),
      kind: 'don',
      answer,
    });
    expect(gameFeats(finished(TEN, 'red', [don(4, 1, 'sheriff')]), 6)).toContain('sharp-nose');
    expect(gameFeats(finished(TEN, 'black', [don(4, 1, 'sheriff')]), 6)).toContain('sharp-nose');
    // Found on night 2: not earned.
    expect(gameFeats(finished(TEN, 'red', [don(1, 1, 'not sheriff'), don(4, 2, 'sheriff')]), 6)).not.toContain(
      'sharp-nose',
    );
    // A mafioso is not the Don.
    expect(gameFeats(finished(TEN, 'red', [{ ...don(4, 1, 'sheriff'), seat: 3 }]), 3)).not.toContain('sharp-nose');
  });

  it('full-strength: the winning team with nobody of it gone from the table (S-1, G-5)', () => {
    const redGone: OutEntry[] = [
      { seat: 3, by: 'vote', at: day(1) },
      { seat: 6, by: 'vote', at: day(2) },
      { seat: 8, by: 'vote', at: day(3) },
    ];
    expect(gameFeats(finished(TEN, 'red', [], redGone), 1)).toContain('full-strength');
    expect(gameFeats(finished(TEN, 'red', [], redGone), 4)).toContain('full-strength');
    // The losers: not earned.
    expect(gameFeats(finished(TEN, 'red', [], redGone), 6)).not.toContain('full-strength');
    // One red player killed at night: nobody of red earns it.
    const oneDown = [...redGone, { seat: 1, by: 'night' as const, at: night(1) }];
    expect(gameFeats(finished(TEN, 'red', [], oneDown), 4)).not.toContain('full-strength');
    // Black wins with the whole mafia at the table; a draw earns nothing.
    const blackWins: OutEntry[] = [1, 2, 4, 5].map((seat, i) => ({ seat, by: 'vote' as const, at: day(i + 1) }));
    expect(gameFeats(finished(TEN, 'black', [], blackWins), 3)).toContain('full-strength');
    expect(gameFeats(finished(TEN, 'draw', [], []), 3)).toEqual([]);
  });

  it('a game without a result earns nothing', () => {
    expect(gameFeats(finished(TEN, null, [sheriffCheck(3, 'black', 1)]), 4)).toEqual([]);
  });
});

const seat = (o: Partial<SeatFacts> = {}): SeatFacts => ({
  ruleset: 'chnu-2016',
  role: 'civilian',
  outcome: 'win',
  feats: '',
  bestMoveBlack: null,
  holders: null,
  ...o,
});
const tally = (o: Partial<Tally> = {}): Tally => ({
  wins: 1,
  winsDon: 0,
  winsSheriff: 0,
  winsMafia: 0,
  bestPlayer: 0,
  ...o,
});

describe('earnedBy: one counted result and the standings after it', () => {
  it('the feats of the game become achievements', () => {
    expect(earnedBy(seat({ feats: 'clear-sight,full-strength' }), tally())).toEqual(['clear-sight', 'full-strength']);
    expect(earnedBy(seat({ role: 'don', outcome: 'loss', feats: 'sharp-nose' }), tally({ wins: 0 }))).toEqual([
      'sharp-nose',
    ]);
    expect(earnedBy(seat({ feats: '' }), tally())).toEqual([]);
    // Results stored before achievements have no feats.
    expect(earnedBy(seat({ feats: null }), tally())).toEqual([]);
  });

  it('three-of-three: the best move named three black players (D-10); two is not enough', () => {
    expect(earnedBy(seat({ outcome: 'loss', bestMoveBlack: 3 }), tally({ wins: 0 }))).toEqual(['three-of-three']);
    expect(earnedBy(seat({ bestMoveBlack: 2 }), tally())).toEqual([]);
    expect(earnedBy(seat({ bestMoveBlack: null }), tally())).toEqual([]);
  });

  it('a seat a substitute played earns nothing of what one game shows', () => {
    const holders = JSON.stringify([
      { userId: 'a', share: 0.5 },
      { userId: 'b', share: 0.5 },
    ]);
    expect(earnedBy(seat({ feats: 'full-strength', bestMoveBlack: 3, holders }), tally())).toEqual([]);
  });

  it('every-role: wins as a civilian, the Sheriff, a mafioso and the Don in one rule set (G-2)', () => {
    const all = tally({ wins: 4, winsDon: 1, winsSheriff: 1, winsMafia: 1 });
    expect(earnedBy(seat({ role: 'don' }), all)).toEqual(['every-role']);
    expect(earnedBy(seat({ ruleset: 'classic-10', role: 'don' }), all)).toEqual(['every-role']);
    // No civilian win yet (the wins are the three roles' only).
    expect(earnedBy(seat({ role: 'don' }), tally({ wins: 3, winsDon: 1, winsSheriff: 1, winsMafia: 1 }))).toEqual([]);
    // No Don win yet.
    expect(earnedBy(seat(), tally({ wins: 4, winsDon: 0, winsSheriff: 2, winsMafia: 1 }))).toEqual([]);
    // Earned by a win (a lost game completes nothing), and not in kiev-12 (its other roles).
    expect(earnedBy(seat({ outcome: 'loss' }), all)).toEqual([]);
    expect(earnedBy(seat({ ruleset: 'kiev-12' }), all)).toEqual([]);
    // The standings not yet written (no counted game): nothing.
    expect(earnedBy(seat(), null)).toEqual([]);
  });

  it('best-player-3: the best player of the game (S-4) three times', () => {
    expect(earnedBy(seat(), tally({ bestPlayer: 3 }))).toEqual(['best-player-3']);
    expect(earnedBy(seat({ outcome: 'loss' }), tally({ wins: 0, bestPlayer: 4 }))).toEqual(['best-player-3']);
    expect(earnedBy(seat(), tally({ bestPlayer: 2 }))).toEqual([]);
  });

  it('the codes are the catalog’s, each once', () => {
    expect(new Set(ACHIEVEMENTS).size).toBe(ACHIEVEMENTS.length);
    expect(ACHIEVEMENTS.length).toBeGreaterThanOrEqual(6);
  });
});
