// The common frame where no scenario asserts it: the host's log (G-7), the end of the game (E-5) and
// the morning belonging to the next day (P-4). Games are driven through apply().
import { describe, expect, it } from 'vitest';
import { positionLabel } from '../../src/engine/state';
import { publicView } from '../../src/engine/view';
import type { HostAction, Role } from '../../src/engine/types';
import { Driver, TEN } from './drive';

const KIEV: Role[] = [
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

const hostLog = (g: Driver) =>
  g.events
    .filter((e) => e.to.kind === 'host' && e.body.type === 'host')
    .map((e) => (e.body as { action: HostAction }).action);

describe('G-7 the host', () => {
  it("G-7: every host override is written in the game's log, with its reason, and only to the host", () => {
    const g = new Driver('chnu-2016', TEN);
    const overrides: HostAction[] = [
      { kind: 'host-kill', target: 10, reason: 'left the building' },
      { kind: 'host-skip' }, // night 0
      { kind: 'host-foul', target: 2, count: 2, reason: 'talked out of turn' },
      { kind: 'host-skip' }, // seat 1's speech
      { kind: 'host-remove', target: 9, reason: 'phone at the table' },
      { kind: 'host-end', winner: 'red', reason: 'ruling' },
      { kind: 'host-best', target: 4 },
    ];
    for (const a of overrides) g.act(a);
    expect(hostLog(g)).toEqual(overrides);
    // Nothing else was addressed to the host but these log entries.
    expect(g.events.filter((e) => e.to.kind === 'host').length).toBe(overrides.length);
    // The rulings stand: the host's kill and removal are leaves, his end is the result.
    expect(g.s.out.map((o) => [o.seat, o.by])).toEqual([
      [10, 'host'],
      [9, 'removed'],
    ]);
    expect(g.s.result).toMatchObject({ winner: 'red', reason: 'host' });
  });

  it('G-7: kiev-12 host bonus is logged too; a refused override is not', () => {
    const g = new Driver('kiev-12', KIEV);
    g.act({ kind: 'host-end', winner: 'black' });
    g.act({ kind: 'host-bonus', target: 3, points: 2 });
    expect(g.refused({ kind: 'host-bonus', target: 3, points: 1 })).toBe('bonus/already-given');
    expect(hostLog(g)).toEqual([
      { kind: 'host-end', winner: 'black' },
      { kind: 'host-bonus', target: 3, points: 2 },
    ]);
  });
});

describe('E-5 the end of the game', () => {
  it('E-5: at the end every role is shown and the result announced; the post-game vote opens; points are final only when it closes', () => {
    const g = new Driver('chnu-2016', TEN);
    g.timeout();
    // Host rulings take four reds out: black reaches parity (E-1) and wins by the rules.
    for (const seat of [2, 5, 7, 9]) g.act({ kind: 'host-kill', target: seat });
    const over = g.events.find((e) => e.body.type === 'game-over')!;
    expect(over).toEqual({
      to: { kind: 'public' },
      body: {
        type: 'game-over',
        winner: 'black',
        reason: 'rules',
        why: 'parity',
        left: { red: 3, black: 3 },
        roles: TEN,
      },
    });
    expect(publicView(g.s).seats.map((x) => x.role)).toEqual(TEN);
    expect(g.s.stage.kind).toBe('postGame');
    expect(positionLabel(g.s)).toBe('post-game');
    // Not final yet: no points while the vote is open, even after votes come in.
    g.act({ kind: 'best', seat: 1, target: 4 });
    g.act({ kind: 'host-best', target: 4 });
    expect(g.s.result!.points).toBeNull();
    expect(g.events.some((e) => e.body.type === 'points')).toBe(false);
    g.act({ kind: 'host-skip' });
    expect(g.s.stage.kind).toBe('over');
    expect(g.s.result!.points).toHaveLength(10);
    const pts = g.events.find((e) => e.body.type === 'points')!;
    expect(pts.to).toEqual({ kind: 'public' });
    // ... and then nothing changes them.
    expect(g.refused({ kind: 'host-best', target: 6 })).toBe('game/over');
  });
});

describe('P-4 the morning belongs to the next day', () => {
  it.each(['chnu-2016', 'classic-10'] as const)(
    'P-4, D-9 %s: the morning last words are day 2, and what happens in them is dated day 2',
    (ruleset) => {
      const g = new Driver(ruleset, TEN);
      g.timeout();
      for (let seat = 1; seat <= 10; seat++) g.act({ kind: 'pass', seat });
      for (const seat of [3, 6, 8]) g.act({ kind: 'shoot', seat, target: 10 });
      g.timeout();
      expect(g.s.stage).toMatchObject({ kind: 'lastWords', speaker: 10 });
      expect(g.s.clock).toEqual({ phase: 'day', n: 2 });
      expect(positionLabel(g.s)).toBe('day 2');
      expect(g.s.out).toEqual([expect.objectContaining({ seat: 10, by: 'night', at: { phase: 'night', n: 1 } })]);
      g.act({ kind: 'host-remove', target: 9 });
      expect(g.s.out.at(-1)).toMatchObject({ seat: 9, by: 'removed', at: { phase: 'day', n: 2 } });
    },
  );

  it('P-4 kiev-12: once night 1 is resolved it is day 2 (the discussion), with no last words', () => {
    const g = new Driver('kiev-12', KIEV);
    g.timeout(); // night 0
    g.timeout(); // discussion
    while (g.s.stage.kind === 'turns') g.act({ kind: 'pass', seat: g.speaker()! });
    expect(g.s.clock).toEqual({ phase: 'night', n: 1 });
    for (const seat of [2, 6, 11]) g.act({ kind: 'shoot', seat, target: 4 });
    g.timeout();
    expect(g.s.out).toEqual([expect.objectContaining({ seat: 4, at: { phase: 'night', n: 1 } })]);
    expect(g.s.clock).toEqual({ phase: 'day', n: 2 });
    expect(g.s.stage.kind).toBe('discussion');
  });
});
