// F-1, F-2 (chnu-2016, classic-10 warnings): which speech the 3rd warning takes away, by the moment
// it is given. Games are driven through apply(); the round of speeches is played out turn by turn
// and the seats that actually got a turn are compared.
import { describe, expect, it } from 'vitest';
import type { RulesetId, Seat } from '../../src/engine/types';
import { Driver, TEN } from './drive';

const FOULED = 5;

/**
 * Plays the current round of speeches; `at(speaker)` runs when each speaker's turn begins (before he
 * says "thank you"). Returns the seats that got a turn.
 */
function round(g: Driver, at: (speaker: Seat) => void = () => {}): Seat[] {
  const spoke: Seat[] = [];
  const day = g.s.clock.n;
  while (g.s.stage.kind === 'turns' && g.s.clock.n === day) {
    const seat = g.speaker()!;
    spoke.push(seat);
    at(seat);
    // The turn may have ended under us only if the speaker was removed; not in these tests.
    g.act({ kind: 'pass', seat });
  }
  return spoke;
}

const lostEvents = (g: Driver) => g.events.filter((e) => e.body.type === 'speech-lost').map((e) => e.body);

/**
 * Night 0, day 1 with no candidates, night 1 in which the blacks (3, 6, 8) kill seat 10: day 2 opens
 * with 10's last words in the morning (D-9, P-4).
 */
function toMorningOfDay2(
  ruleset: RulesetId,
  day1: (g: Driver, speaker: Seat) => void = () => {},
  night1: (g: Driver) => void = () => {},
): Driver {
  const g = new Driver(ruleset, TEN);
  g.timeout();
  round(g, (speaker) => day1(g, speaker));
  expect(g.s.stage.kind).toBe('night');
  night1(g);
  for (const seat of [3, 6, 8]) g.act({ kind: 'shoot', seat, target: 10 });
  g.timeout();
  expect(g.s.clock).toEqual({ phase: 'day', n: 2 });
  expect(g.s.stage).toMatchObject({ kind: 'lastWords', speaker: 10, next: 'talk' });
  return g;
}

/** Ends the morning last words, plays day 2's speeches (no candidates), night 2 and day 3's speeches. */
function days2and3(g: Driver, day2: (speaker: Seat) => void = () => {}): { day2: Seat[]; day3: Seat[] } {
  if (g.s.stage.kind === 'lastWords') g.act({ kind: 'pass', seat: 10 });
  const d2 = round(g, day2);
  expect(g.s.stage.kind).toBe('night');
  g.timeout();
  expect(g.s.clock).toEqual({ phase: 'day', n: 3 });
  const d3 = round(g);
  return { day2: d2, day3: d3 };
}

describe.each(['chnu-2016', 'classic-10'] as const)('F-2 %s: which speech the 3rd warning takes away', (ruleset) => {
  it("F-2, D-9, P-4: a 3rd warning during the morning last words takes away THIS day's speech; he speaks the next day", () => {
    const g = toMorningOfDay2(ruleset);
    g.foul(FOULED, 3);
    expect(lostEvents(g)).toEqual([{ type: 'speech-lost', seat: FOULED, day: 2 }]);
    // Still the last words of 10: the warning does not end them.
    expect(g.s.stage).toMatchObject({ kind: 'lastWords', speaker: 10 });
    g.act({ kind: 'pass', seat: 10 });
    const d2: Seat[] = [];
    const day2 = round(g, (speaker) => {
      d2.push(speaker);
      // While the seat before him speaks, he may not speak or nominate out of turn.
      if (speaker === FOULED - 1) expect(g.refused({ kind: 'pass', seat: FOULED })).toBe('pass/not-your-turn');
    });
    expect(day2).toEqual([2, 3, 4, 6, 7, 8, 9, 1]);
    g.timeout(); // night 2
    const day3 = round(g);
    expect(day3).toContain(FOULED);
    expect(day3).toEqual([3, 4, 5, 6, 7, 8, 9, 1, 2]);
  });

  it("F-2: a 3rd warning during his own speech takes away the next day's speech, not the one under way", () => {
    const g = toMorningOfDay2(ruleset);
    const { day2, day3 } = days2and3(g, (speaker) => {
      if (speaker === FOULED) g.foul(FOULED, 3);
    });
    expect(day2).toContain(FOULED);
    expect(day3).not.toContain(FOULED);
    expect(lostEvents(g)).toEqual([{ type: 'speech-lost', seat: FOULED, day: 3 }]);
  });

  it("F-2: a 3rd warning before his turn in the round takes away this day's speech", () => {
    const g = toMorningOfDay2(ruleset);
    const { day2, day3 } = days2and3(g, (speaker) => {
      if (speaker === 2) g.foul(FOULED, 3); // the day's first speaker
    });
    expect(day2).toEqual([2, 3, 4, 6, 7, 8, 9, 1]);
    expect(day3).toContain(FOULED);
  });

  it("F-2: a 3rd warning after his turn in the round takes away the next day's speech", () => {
    const g = toMorningOfDay2(ruleset);
    const { day2, day3 } = days2and3(g, (speaker) => {
      if (speaker === FOULED + 1) g.foul(FOULED, 3);
    });
    expect(day2).toContain(FOULED);
    expect(day3).not.toContain(FOULED);
  });

  it("F-2: a 3rd warning at night takes away the next day's speech (the day after that night)", () => {
    const g = toMorningOfDay2(ruleset, undefined, (d) => d.foul(FOULED, 3));
    expect(lostEvents(g)).toEqual([{ type: 'speech-lost', seat: FOULED, day: 2 }]);
    const { day2, day3 } = days2and3(g);
    expect(day2).not.toContain(FOULED);
    expect(day3).toContain(FOULED);
  });

  it("F-2: a 3rd warning on night 0 takes away day 1's speech", () => {
    const g = new Driver(ruleset, TEN);
    g.foul(FOULED, 3);
    g.timeout();
    expect(round(g)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
  });

  it("F-2: warnings given one at a time count the same: the 3rd (in the morning) takes this day's speech", () => {
    const g = toMorningOfDay2(ruleset, (d, speaker) => {
      if (speaker === 1) d.foul(FOULED, 1);
      if (speaker === 7) d.foul(FOULED, 1);
    });
    expect(g.s.players[FOULED - 1]!.fouls).toBe(2);
    g.foul(FOULED);
    const { day2, day3 } = days2and3(g);
    expect(day2).not.toContain(FOULED);
    expect(day3).toContain(FOULED);
  });

  it("F-2, D-9: a 3rd warning during the evening last words (after a day vote) takes away the next day's speech", () => {
    const g = new Driver(ruleset, TEN);
    g.timeout();
    round(g, (speaker) => {
      if (speaker === 1) g.act({ kind: 'nominate', seat: 1, target: 9 });
      if (speaker === 2) g.act({ kind: 'nominate', seat: 2, target: 10 });
    });
    g.voteFor(9);
    expect(g.s.stage).toMatchObject({ kind: 'lastWords', speaker: 9, next: 'night' });
    g.foul(FOULED, 3);
    expect(lostEvents(g)).toEqual([{ type: 'speech-lost', seat: FOULED, day: 2 }]);
    g.act({ kind: 'pass', seat: 9 });
    g.timeout(); // night 1: a miss
    expect(g.s.clock).toEqual({ phase: 'day', n: 2 });
    expect(round(g)).not.toContain(FOULED);
  });

  it('F-2: only one speech is lost; the 4th warning removes him with no last words', () => {
    const g = toMorningOfDay2(ruleset);
    g.foul(FOULED, 3);
    const { day2, day3 } = days2and3(g);
    expect(day2).not.toContain(FOULED);
    expect(day3).toContain(FOULED);
    g.foul(FOULED);
    expect(g.s.out.at(-1)).toMatchObject({ seat: FOULED, by: 'removed' });
    expect(g.s.stage.kind).not.toBe('lastWords');
  });
});

describe('F-2 async: the open window', () => {
  it("F-2, P-1: a 3rd warning during the morning last words takes away this day's window; the next day's he has", () => {
    const g = new Driver('chnu-2016', TEN, {}, 'async');
    g.timeout(); // night 0
    expect(g.s.stage.kind).toBe('window');
    g.act({ kind: 'host-skip' }); // day 1 window: no candidates
    for (const seat of [3, 6, 8]) g.act({ kind: 'shoot', seat, target: 10 });
    g.timeout();
    expect(g.s.stage).toMatchObject({ kind: 'lastWords', speaker: 10, next: 'talk' });
    g.foul(FOULED, 3);
    g.act({ kind: 'pass', seat: 10 });
    expect(g.s.stage.kind).toBe('window');
    expect(g.refused({ kind: 'pass', seat: FOULED })).toBe('pass/may-not-speak');
    expect(g.refused({ kind: 'nominate', seat: FOULED, target: 3 })).toBe('nominate/may-not-speak');
    g.act({ kind: 'host-skip' });
    g.timeout(); // night 2
    expect(g.s.stage.kind).toBe('window');
    g.act({ kind: 'pass', seat: FOULED });
  });
});

describe('F-1 the host gives fouls', () => {
  it('F-1: each foul is logged with its reason; a foul cannot be taken back (a count below 1 is refused)', () => {
    const g = new Driver('classic-10', TEN);
    g.timeout();
    g.act({ kind: 'host-foul', target: 2, reason: 'talked out of turn' });
    const fouls = g.events.filter((e) => e.body.type === 'foul');
    expect(fouls).toEqual([
      { to: { kind: 'public' }, body: { type: 'foul', seat: 2, total: 1, count: 1, reason: 'talked out of turn' } },
    ]);
    // G-7: the override itself is in the host's log.
    expect(
      g.events.some((e) => e.to.kind === 'host' && e.body.type === 'host' && e.body.action.kind === 'host-foul'),
    ).toBe(true);
    expect(g.refused({ kind: 'host-foul', target: 2, count: -1 })).toBe('foul/bad-count');
    expect(g.refused({ kind: 'host-foul', target: 2, count: 0 })).toBe('foul/bad-count');
    expect(g.s.players[1]!.fouls).toBe(1);
  });
});
