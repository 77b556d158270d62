// Options whose difference a scenario result cannot show (they change what a player is told, or
// seconds): each test fails if the option were ignored.
import { describe, expect, it } from 'vitest';
import { acquaintance, apply, createGame } from '../../src/engine/apply';
import { mafiaTalkOpen, mafiaView, publicView, seatView } from '../../src/engine/view';
import type { Action, GameState, OptionOverrides, Role } from '../../src/engine/types';

// kiev-12: 1 mafia, 2 civ, 3 maniac, 4 civ, 5 don, 6 doctor, 7 civ, 8 civ, 9 prostitute, 10 commissioner, 11 civ, 12 mafia
const KIEV: Role[] = [
  'mafia',
  'civilian',
  'maniac',
  'civilian',
  'don',
  'doctor',
  'civilian',
  'civilian',
  'prostitute',
  'commissioner',
  'civilian',
  'mafia',
];

function play(s: GameState, actions: Action[], now = 0): GameState {
  for (const a of actions) {
    const r = apply(s, a.kind === 'timeout' ? { kind: 'timeout', seq: s.seq } : a, {
      now: a.kind === 'timeout' ? (s.deadline ?? now) : now,
    });
    if (!r.ok) throw new Error(`${JSON.stringify(a)} refused: ${r.code}`);
    s = r.state;
  }
  return s;
}

/** kiev-12 to night 1 with nobody leaving on day 1 (discussion, everyone passes, no candidate). */
function kievNight1(options: OptionOverrides = {}): GameState {
  let s = createGame('kiev-12', { roles: KIEV }, options);
  s = play(s, [
    { kind: 'timeout', seq: 0 },
    { kind: 'timeout', seq: 0 },
  ]);
  for (let seat = 1; seat <= 12; seat++) s = play(s, [{ kind: 'pass', seat }]);
  expect(s.stage.kind).toBe('night');
  return s;
}

describe('options a scenario cannot show', () => {
  it('G-4 prostituteKnowsMafia: she and the mafia know each other only with the option', () => {
    const plain = createGame('kiev-12', { roles: KIEV });
    const known = createGame('kiev-12', { roles: KIEV }, { prostituteKnowsMafia: true });
    expect(seatView(plain, 9).knownBlack).toEqual([]);
    expect(seatView(known, 9).knownBlack.map((k) => k.seat)).toEqual([1, 5, 12]);
    expect(seatView(plain, 1).knownBlack.map((k) => k.seat)).toEqual([5, 12]);
    expect(seatView(known, 1).knownBlack.map((k) => k.seat)).toEqual([5, 9, 12]);
    expect(mafiaView(known).members.map((m) => m.seat)).toContain(9);
    expect(mafiaView(plain).members.map((m) => m.seat)).not.toContain(9);
    expect(acquaintance(known).helpersKnown).toBe(true);
    expect(acquaintance(plain).helpersKnown).toBe(false);
  });

  it('N-7 tellFrozen: the frozen maniac is told with the night results only with the option', () => {
    const night = (o: OptionOverrides) => {
      const s = kievNight1(o);
      const r = apply(
        play(s, [{ kind: 'freeze', seat: 9, target: 3 }]),
        { kind: 'timeout', seq: s.seq + 0 },
        { now: s.deadline! },
      );
      if (!r.ok) throw new Error(r.code);
      return r.events.filter((e) => e.body.type === 'frozen');
    };
    expect(night({})).toEqual([{ to: { kind: 'seat', seat: 3 }, body: { type: 'frozen', seat: 3 } }]);
    expect(night({ tellFrozen: false })).toEqual([]);
  });

  it('M-2 mafiaTalk: the mafia may talk on night 1 only with every-night; always on night 0, never by day', () => {
    const zero = createGame('chnu-2016', {
      roles: [
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
      ],
    });
    expect(mafiaTalkOpen(zero)).toBe(true);
    expect(mafiaTalkOpen(kievNight1())).toBe(false);
    const every = kievNight1({ mafiaTalk: 'every-night' });
    expect(mafiaTalkOpen(every)).toBe(true);
    const day = play(createGame('kiev-12', { roles: KIEV }, { mafiaTalk: 'every-night' }), [
      { kind: 'timeout', seq: 0 },
    ]);
    expect(mafiaTalkOpen(day)).toBe(false);
  });

  it('P-1 timers: a stage ends at now + its timer; a timeout a moment early is refused, on time accepted', () => {
    const s = createGame(
      'chnu-2016',
      {
        roles: [
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
        ],
      },
      { timers: { night0: 42, speech: 17 } },
      'live',
      { now: 1000 },
    );
    expect(publicView(s).stage.deadline).toBe(1000 + 42_000);
    expect(apply(s, { kind: 'timeout', seq: s.seq }, { now: 1000 + 41_999 })).toEqual({
      ok: false,
      code: 'timeout/early',
    });
    const day = apply(s, { kind: 'timeout', seq: s.seq }, { now: 43_000 });
    expect(day.ok).toBe(true);
    if (day.ok) expect(day.state.deadline).toBe(43_000 + 17_000);
    const dflt = createGame(
      'chnu-2016',
      {
        roles: [
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
        ],
      },
      {},
      'live',
      { now: 1000 },
    );
    expect(dflt.deadline).toBe(1000 + 60_000);
  });
});
