// S-2 (classic-10) point items, checked on result.points after whole games driven through apply().
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/engine/types';
import { Driver } from './drive';

// classic-10 deal: mafia 1 and 10, Don 7, Sheriff 5.
const CLASSIC: Role[] = [
  'mafia',
  'civilian',
  'civilian',
  'civilian',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'civilian',
  'mafia',
];

/** A night in which nobody is hit: every shooter lets the timer run out. */
const quietNight = (g: Driver) => {
  expect(g.s.stage.kind).toBe('night');
  g.timeout();
};

/** Votes the one candidate out and lets him say his last words. */
const voteOut = (g: Driver, seat: number) => {
  g.voteFor(seat);
  expect(g.s.out.at(-1)).toMatchObject({ seat, by: 'vote' });
  if (g.s.stage.kind === 'lastWords') g.act({ kind: 'pass', seat });
};

describe('S-2 right candidate (classic-10, decision)', () => {
  /**
   * Day 1: black 1 nominates black 10 (and red 2 nominates red 3); 10 is voted out.
   * Day 2: red 2 nominates the Don 7 (and 3 nominates 4); 7 is voted out.
   * Day 3: red 3 nominates red 4 (and 4 nominates 1); red 4 is voted out.
   * Day 4: black 1 nominates red 6, red 6 nominates black 1; 1 is voted out: red wins.
   */
  function game() {
    const g = new Driver('classic-10', CLASSIC);
    g.timeout(); // night 0
    g.speeches({ 1: 10, 2: 3 });
    expect(g.s.stage).toMatchObject({ kind: 'vote', candidates: [10, 3] });
    voteOut(g, 10);
    quietNight(g);
    g.speeches({ 2: 7, 3: 4 });
    voteOut(g, 7);
    quietNight(g);
    g.speeches({ 3: 4, 4: 1 });
    voteOut(g, 4);
    quietNight(g);
    g.speeches({ 1: 6, 6: 1 });
    expect(g.s.stage).toMatchObject({ kind: 'vote' });
    g.voteFor(1);
    expect(g.s.result).toMatchObject({ winner: 'red', reason: 'rules' });
    expect(g.s.out.map((o) => [o.seat, o.nominatedBy])).toEqual([
      [10, 1],
      [7, 2],
      [4, 3],
      [1, 6],
    ]);
    return g;
  }

  it('S-2: a black nominator of a fellow black who leaves by the day vote gets no right-candidate point', () => {
    const g = game();
    expect(g.itemsOf(1).rightCandidate).toBeUndefined();
    // Mafia on the losing side: no win, no loss, nothing else.
    expect(g.itemsOf(1)).toEqual({});
  });

  it('S-2: a red nominator gets +1 for each black he nominated who left by the day vote', () => {
    const g = game();
    expect(g.itemsOf(2)).toEqual({ win: 3, rightCandidate: 1 }); // nominated the Don (7)
    expect(g.itemsOf(6)).toEqual({ win: 3, rightCandidate: 1 }); // nominated mafia 1
  });

  it('S-2: a red nominator of a red player who leaves by the day vote gets no right-candidate point', () => {
    const g = game();
    expect(g.itemsOf(3)).toEqual({ win: 3 }); // nominated red 4, who left
    expect(g.itemsOf(4)).toEqual({ win: 3 });
    const total = Object.fromEntries(g.points().map((p) => [p.seat, p.total]));
    expect(total).toEqual({ 1: 0, 2: 4, 3: 3, 4: 3, 5: 4, 6: 4, 7: -1, 8: 3, 9: 3, 10: 0 });
  });

  it('S-2 option rightCandidate off: nobody gets the item', () => {
    const g = new Driver('classic-10', CLASSIC, { rightCandidate: false });
    g.timeout();
    g.speeches({ 2: 10, 3: 4 });
    voteOut(g, 10);
    g.act({ kind: 'host-end', winner: 'red' });
    expect(g.points().every((p) => p.items.rightCandidate === undefined)).toBe(true);
  });

  it('S-2: each black player whose shot killed the Sheriff gets +1; a shot that killed a red civilian gets nothing', () => {
    const g = new Driver('classic-10', CLASSIC);
    g.timeout();
    g.speeches();
    // Night 1: all three blacks shoot civilian 2.
    for (const seat of [1, 7, 10]) g.act({ kind: 'shoot', seat, target: 2 });
    g.timeout();
    g.act({ kind: 'pass', seat: 2 }); // morning last words
    g.speeches();
    // Night 2: all three blacks shoot the Sheriff (5).
    for (const seat of [1, 7, 10]) g.act({ kind: 'shoot', seat, target: 5 });
    g.timeout();
    expect(g.s.out).toEqual([
      expect.objectContaining({ seat: 2, by: 'night', shooters: [1, 7, 10] }),
      expect.objectContaining({ seat: 5, by: 'night', shooters: [1, 7, 10] }),
    ]);
    g.act({ kind: 'host-end', winner: 'black' });
    expect(g.itemsOf(1)).toEqual({ win: 4, sheriffShot: 1 });
    expect(g.itemsOf(7)).toEqual({ win: 5, sheriffShot: 1 });
    expect(g.itemsOf(10)).toEqual({ win: 4, sheriffShot: 1 });
    for (const seat of [2, 3, 4, 6, 8, 9]) expect(g.itemsOf(seat)).toEqual({});
    // S-2: a Sheriff killed on night 2 (not night 1) is charged the -1 of a loss.
    expect(g.itemsOf(5)).toEqual({ loss: -1 });
  });

  it('S-2: a Sheriff killed on night 1 is not charged the -1 of a loss', () => {
    const g = new Driver('classic-10', CLASSIC);
    g.timeout();
    g.speeches();
    for (const seat of [1, 7, 10]) g.act({ kind: 'shoot', seat, target: 5 });
    g.timeout();
    g.act({ kind: 'host-end', winner: 'black' });
    expect(g.itemsOf(5)).toEqual({});
    for (const seat of [1, 7, 10]) expect(g.itemsOf(seat).sheriffShot).toBe(1);
  });
});
