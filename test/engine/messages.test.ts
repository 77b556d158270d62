// M-1..M-3: who may write where, as a function of the state (the Discord layer enforces it).
import { describe, expect, it } from 'vitest';
import { apply, createGame } from '../../src/engine/apply';
import { channelWriters, mafiaTalkOpen } from '../../src/engine/view';
import { RULESET_IDS } from '../../src/engine/rulesets';
import type { Action, GameState, Role } from '../../src/engine/types';
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

function run(s: GameState, ...actions: Action[]): GameState {
  for (const a of actions) {
    const r = apply(s, a.kind === 'timeout' ? { ...a, seq: s.seq } : a, { now: s.deadline ?? 0 });
    if (!r.ok) throw new Error(`${r.code}: ${JSON.stringify(a)}`);
    s = r.state;
  }
  return s;
}
const timeout: Action = { kind: 'timeout', seq: 0 };

describe('M. messages among players', () => {
  it('M-1: nobody writes at night; only the speaker during his speech; nobody during the vote', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal });
    expect(channelWriters(s)).toEqual({ mode: 'nobody' });
    s = run(s, timeout);
    expect(channelWriters(s)).toEqual({ mode: 'seats', seats: [1] });
    s = run(s, { kind: 'nominate', seat: 1, target: 3 }, { kind: 'pass', seat: 1 });
    expect(channelWriters(s)).toEqual({ mode: 'seats', seats: [2] });
    s = run(
      s,
      { kind: 'nominate', seat: 2, target: 5 },
      ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((seat) => ({ kind: 'pass', seat }) as Action),
    );
    expect(s.stage.kind).toBe('vote');
    expect(channelWriters(s)).toEqual({ mode: 'nobody' });
  });

  it('M-1: kiev-12 discussion is free talk for the living who keep the right to speak (F-3)', () => {
    let s = createGame('kiev-12', { roles: kievDeal });
    s = run(s, timeout, { kind: 'host-foul', target: 4, count: 3 });
    expect(channelWriters(s)).toEqual({ mode: 'seats', seats: [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12] });
  });

  it('M-3: a player who left writes only his own last words, then never again', () => {
    let s = createGame('chnu-2016', { roles: chnuDeal });
    s = run(
      s,
      timeout,
      { kind: 'nominate', seat: 1, target: 3 },
      { kind: 'pass', seat: 1 },
      { kind: 'nominate', seat: 2, target: 5 },
    );
    s = run(s, ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((seat) => ({ kind: 'pass', seat }) as Action));
    s = run(s, ...[1, 2, 4, 5, 6, 7, 8, 9, 10].map((seat) => ({ kind: 'vote', seat, target: 3 }) as Action), {
      kind: 'vote',
      seat: 3,
      target: 5,
    });
    expect(s.stage.kind).toBe('lastWords');
    expect(channelWriters(s)).toEqual({ mode: 'seats', seats: [3] });
    s = run(s, { kind: 'pass', seat: 3 }, timeout, { kind: 'pass', seat: 2 });
    const w = channelWriters(s);
    expect(w.mode === 'seats' && w.seats.includes(3)).toBe(false);
  });

  it('M-2: the mafia talk in private on night 0 only, or every night when the server allows it', () => {
    let s = createGame('kiev-12', { roles: kievDeal });
    expect(mafiaTalkOpen(s)).toBe(true);
    s = run(s, timeout);
    expect(mafiaTalkOpen(s)).toBe(false);
    let t = createGame('kiev-12', { roles: kievDeal }, { mafiaTalk: 'every-night' });
    t = run(t, timeout, timeout, ...Array.from({ length: 12 }, () => timeout));
    expect(t.stage.kind).toBe('night');
    expect(mafiaTalkOpen(t)).toBe(true);
  });
});

describe('M-1, M-3 over whole games', () => {
  it('M-1, M-3: nobody writes at night (night 1 on); a player who left writes only in his own last words and after the game', () => {
    let nights = 0;
    for (const ruleset of RULESET_IDS) {
      for (let seed = 1; seed <= 40; seed++) {
        const rng = seededRng(seed);
        // Both paces: the async open window (P-1) lists its writers too.
        const pace = seed % 2 === 0 ? 'async' : 'live';
        let s = createGame(ruleset, { roles: randomDeal(rng, ruleset) }, {}, pace);
        while (s.stage.kind !== 'over') {
          const w = channelWriters(s);
          const where = `${ruleset} ${pace} seed ${seed} ${s.stage.kind} ${s.clock.phase} ${s.clock.n}`;
          if (s.stage.kind === 'night0' || s.stage.kind === 'night') {
            expect(w, where).toEqual({ mode: 'nobody' });
            if (s.stage.kind === 'night') nights++;
          }
          if (w.mode === 'seats') {
            for (const seat of w.seats) {
              const ownLastWords = s.stage.kind === 'lastWords' && s.stage.speaker === seat;
              expect(s.players[seat - 1]!.alive || ownLastWords, `${where}: seat ${seat} left but may write`).toBe(
                true,
              );
            }
          }
          if (w.mode === 'everyone') expect(s.stage.kind === 'postGame', where).toBe(true);
          const a = randomAction(s, rng)!;
          const r = apply(s, a, { now: a.kind === 'timeout' ? (s.deadline ?? 0) : 0 });
          if (!r.ok) throw new Error(`${where}: ${r.code}`);
          s = r.state;
        }
      }
    }
    // The random games do reach nights 1, 2, ... (so the night check above is not vacuous).
    expect(nights).toBeGreaterThan(100);
  });
});
