// G-7: the host's toolkit in the engine: pause/resume (the clock frozen), extend/shorten, revive,
// and undo through the log (replay.ts). Every change is an action of the log, so a replay of the
// log gives the same state; undo gives back exactly the state before the action it takes back.
import { describe, expect, it } from 'vitest';
import { apply, createGame } from '../../src/engine/apply';
import { planUndo, replay, type ReplayEntry } from '../../src/engine/replay';
import type { Action, GameState } from '../../src/engine/types';
import { TEN } from './drive';

/** A game whose every accepted action is logged as the service logs it. */
class Logged {
  s: GameState;
  readonly initial: GameState;
  now = 1_000;
  readonly log: ReplayEntry[] = [];
  /** The state after each log entry, by its sequence number. */
  readonly states = new Map<number, GameState>();
  constructor(ruleset: 'chnu-2016' | 'classic-10' = 'chnu-2016') {
    this.initial = createGame(ruleset, { roles: TEN }, {}, 'live', { now: this.now });
    this.s = this.initial;
    this.states.set(0, this.s);
  }
  act(a: Action): this {
    if (a.kind === 'timeout' && this.s.deadline !== null) this.now = Math.max(this.now, this.s.deadline);
    const r = apply(this.s, a, { now: this.now });
    if (!r.ok) throw new Error(`refused ${r.code}: ${JSON.stringify(a)}`);
    this.s = r.state;
    this.log.push({ seq: this.s.moves, action: a, at: this.now });
    this.states.set(this.s.moves, this.s);
    return this;
  }
  refused(a: Action): string {
    const before = JSON.stringify(this.s);
    const r = apply(this.s, a, { now: this.now });
    if (r.ok) throw new Error(`accepted: ${JSON.stringify(a)}`);
    expect(JSON.stringify(this.s)).toBe(before);
    return r.code;
  }
  timeout(): this {
    return this.act({ kind: 'timeout', seq: this.s.seq });
  }
  /** Undo as the service does it: plan, then log the undo entry. */
  undo(): ReturnType<typeof planUndo> {
    const plan = planUndo(this.initial, this.log, this.s.moves + 1);
    if (plan.ok) {
      this.s = plan.state;
      this.log.push({ seq: plan.state.moves, action: { kind: 'host-undo', undone: plan.undone.seq }, at: this.now });
      this.states.set(this.s.moves, this.s);
    }
    return plan;
  }
  replayed(): GameState {
    const r = replay(this.initial, this.log);
    if (!r.ok) throw new Error(`replay refused at ${r.seq}: ${r.code}`);
    return r.state;
  }
}

/** Night 0 over; day 1 opens with seat 1's speech. */
function day1(): Logged {
  return new Logged().timeout();
}

/** Day 1 to its vote: 1 nominates 3, 2 nominates 8, everybody passes. */
function toVote(): Logged {
  const g = day1();
  for (let seat = 1; seat <= 10; seat++) {
    if (seat === 1) g.act({ kind: 'nominate', seat, target: 3 });
    if (seat === 2) g.act({ kind: 'nominate', seat, target: 8 });
    g.act({ kind: 'pass', seat });
  }
  expect(g.s.stage.kind).toBe('vote');
  return g;
}

const withoutMoves = (s: GameState) => ({ ...s, moves: 0 });

describe('pause and resume (G-7)', () => {
  it('freezes the clock: no deadline, no timeout, no player action; resume gives back the time left', () => {
    const g = day1();
    const deadline = g.s.deadline!;
    g.now += 20_000;
    g.act({ kind: 'host-pause', reason: 'phone call' });
    expect(g.s.deadline).toBeNull();
    expect(g.s.paused).toEqual({ remaining: deadline - g.now });
    expect(g.refused({ kind: 'timeout', seq: g.s.seq })).toBe('game/paused');
    expect(g.refused({ kind: 'pass', seat: 1 })).toBe('game/paused');
    expect(g.refused({ kind: 'host-pause' })).toBe('pause/already');
    g.now += 3_600_000; // an hour later (or a restart): the time left is kept
    const left = g.s.paused!.remaining!;
    g.act({ kind: 'host-resume' });
    expect(g.s.paused).toBeUndefined();
    expect(g.s.deadline).toBe(g.now + left);
    expect(g.refused({ kind: 'host-resume' })).toBe('resume/not-paused');
    expect(g.replayed()).toEqual(g.s);
  });

  it('a stage that begins while paused keeps its whole time for the resume', () => {
    const g = day1();
    g.act({ kind: 'host-pause' });
    g.act({ kind: 'host-skip' }); // seat 1's turn ends; seat 2's begins, frozen
    expect(g.s.deadline).toBeNull();
    expect(g.s.paused!.remaining).toBe(g.s.options.timers.speech * 1000);
    g.act({ kind: 'host-resume' });
    expect(g.s.deadline).toBe(g.now + g.s.options.timers.speech * 1000);
  });

  it('a game ended by the host while paused is not paused any more', () => {
    const g = day1();
    g.act({ kind: 'host-pause' });
    g.act({ kind: 'host-end', winner: 'draw' });
    g.act({ kind: 'host-skip' });
    expect(g.s.stage.kind).toBe('over');
    expect(g.s.paused).toBeUndefined();
  });
});

describe('extend and shorten (G-7, P-1)', () => {
  it('moves the end of the turn, never before now; refuses untimed stages and bad durations', () => {
    const g = day1();
    const d = g.s.deadline!;
    g.act({ kind: 'host-extend', seconds: 30 });
    expect(g.s.deadline).toBe(d + 30_000);
    g.act({ kind: 'host-extend', seconds: -10 });
    expect(g.s.deadline).toBe(d + 20_000);
    g.act({ kind: 'host-extend', seconds: -3600 });
    expect(g.s.deadline).toBe(g.now);
    expect(g.refused({ kind: 'host-extend', seconds: 0 })).toBe('extend/bad-duration');
    expect(g.refused({ kind: 'host-extend', seconds: 8 * 86_400 })).toBe('extend/bad-duration');
    g.timeout(); // the shortened turn ends at once
    expect(g.s.stage.kind === 'turns' && g.s.stage.index).toBe(1);
  });

  it('while paused it changes the time left', () => {
    const g = day1();
    g.act({ kind: 'host-pause' });
    const left = g.s.paused!.remaining!;
    g.act({ kind: 'host-extend', seconds: 60 });
    expect(g.s.paused!.remaining).toBe(left + 60_000);
    expect(g.s.deadline).toBeNull();
  });
});

describe('revive (G-5, G-7)', () => {
  it('brings back a seat that left by a host ruling, fouls kept (F-1); refuses other leaves', () => {
    const g = day1();
    g.act({ kind: 'host-foul', target: 5 });
    g.act({ kind: 'host-kill', target: 5, reason: 'wrong seat' });
    expect(g.s.players[4]!.alive).toBe(false);
    g.act({ kind: 'host-revive', target: 5 });
    expect(g.s.players[4]!.alive).toBe(true);
    expect(g.s.players[4]!.fouls).toBe(1);
    expect(g.s.out.some((o) => o.seat === 5)).toBe(false);
    expect(g.refused({ kind: 'host-revive', target: 5 })).toBe('revive/at-table');
    expect(g.refused({ kind: 'host-revive', target: 13 })).toBe('seat/unknown');
    g.act({ kind: 'host-remove', target: 7 });
    g.act({ kind: 'host-revive', target: 7 });
    expect(g.replayed()).toEqual(g.s);
  });

  it('refuses a player who left by the night', () => {
    const g = toVote();
    for (let seat = 1; seat <= 10; seat++)
      if (g.s.stage.kind === 'vote' && seat !== 3) g.act({ kind: 'vote', seat, target: 3 });
    while (g.s.clock.phase !== 'night') g.timeout();
    for (const seat of [6, 8]) g.act({ kind: 'shoot', seat, target: 10 });
    g.timeout();
    expect(g.s.players[9]!.alive).toBe(false);
    expect(g.refused({ kind: 'host-revive', target: 10 })).toBe('revive/not-by-host');
    expect(g.refused({ kind: 'host-revive', target: 3 })).toBe('revive/not-by-host'); // left by the vote
  });
});

describe('undo (G-7): the log replayed without the actions taken back', () => {
  it('a vote taken back: exactly the state before it; the log replays to the same state', () => {
    const g = toVote();
    g.act({ kind: 'vote', seat: 4, target: 3 });
    const before = g.s;
    g.act({ kind: 'vote', seat: 5, target: 8 });
    const plan = g.undo();
    expect(plan.ok).toBe(true);
    expect(withoutMoves(g.s)).toEqual(withoutMoves(before));
    expect(g.s.moves).toBe(g.log.length);
    expect(g.replayed()).toEqual(g.s);
    // Seat 5 may vote again, for someone else.
    g.act({ kind: 'vote', seat: 5, target: 3 });
    expect(g.replayed()).toEqual(g.s);
  });

  it('repeated undo walks back within the stage, then stops at its start', () => {
    const g = toVote();
    const start = g.s;
    g.act({ kind: 'vote', seat: 4, target: 3 });
    g.act({ kind: 'vote', seat: 5, target: 8 });
    g.act({ kind: 'vote', seat: 6, target: 8 });
    for (let k = 0; k < 3; k++) expect(g.undo().ok).toBe(true);
    expect(withoutMoves(g.s)).toEqual(withoutMoves(start));
    const last = g.undo();
    expect(last.ok ? 'ok' : last.code).toBe('undo/stage-closed'); // the pass that opened the vote
    expect(g.replayed()).toEqual(g.s);
  });

  it('a nomination taken back leaves the ballot; the turn goes on', () => {
    const g = day1();
    const before = g.s;
    g.act({ kind: 'nominate', seat: 1, target: 3 });
    expect(g.undo().ok).toBe(true);
    expect(withoutMoves(g.s)).toEqual(withoutMoves(before));
    g.act({ kind: 'nominate', seat: 1, target: 8 });
    expect(g.s.day!.nominations).toEqual([{ by: 1, target: 8 }]);
  });

  it('passes over clock controls, which stay in force', () => {
    const g = toVote();
    g.act({ kind: 'vote', seat: 4, target: 3 });
    g.now += 5_000;
    g.act({ kind: 'host-pause' });
    const plan = g.undo();
    expect(plan.ok && plan.undone.action.kind).toBe('vote');
    expect(g.s.paused).toBeDefined();
    expect(g.s.stage.kind === 'vote' && g.s.stage.ballots[3]).toBe(0);
    expect(g.replayed()).toEqual(g.s);
  });

  it('refuses: a closed stage, a timer, a foul (F-1), a leave, a check already answered', () => {
    const g = day1();
    expect((g.undo() as { code: string }).code).toBe('undo/stage-closed'); // the timer ended night 0
    g.act({ kind: 'host-foul', target: 2 });
    expect((g.undo() as { code: string }).code).toBe('undo/foul');
    g.act({ kind: 'host-kill', target: 9 });
    expect((g.undo() as { code: string }).code).toBe('undo/left-table');
    g.act({ kind: 'pass', seat: 1 });
    expect((g.undo() as { code: string }).code).toBe('undo/stage-closed');
    while (g.s.clock.phase !== 'night') g.timeout();
    g.act({ kind: 'check', seat: 4, target: 6 });
    expect((g.undo() as { code: string }).code).toBe('undo/answer-given');
    // A shot tells nobody anything: it may be taken back at night.
    g.act({ kind: 'shoot', seat: 3, target: 1 });
    const before = g.states.get(g.s.moves - 1)!;
    expect(g.undo().ok).toBe(true);
    expect(withoutMoves(g.s)).toEqual(withoutMoves(before));
    expect(g.replayed()).toEqual(g.s);
  });

  it('apply() alone refuses an undo, and a replay refuses an undo of an unknown entry', () => {
    const g = day1();
    expect(g.refused({ kind: 'host-undo', undone: 1 })).toBe('undo/needs-log');
    const r = replay(g.initial, [...g.log, { seq: 2, action: { kind: 'host-undo', undone: 7 }, at: g.now }]);
    expect(r.ok ? 'ok' : r.code).toBe('undo/unknown-entry');
  });
});
