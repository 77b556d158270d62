// Plays a scenario through the engine and reports the result in the shape of FORMAT.md.
import { apply, createGame } from '../engine/apply';
import { clockLabel, positionLabel } from '../engine/state';
import type { Action, GameState } from '../engine/types';
import type { Scenario, ScenarioStep } from './parse';

export interface ScenarioResult {
  winner: 'red' | 'black' | 'draw' | null;
  out: { seat: number; by: string; at: string }[];
  at: string;
  refused: number[];
  points?: Record<string, number>;
  checks: { seat: number; target: number; at: string; answer: string }[];
  notes: { seat: number; target: number; answer: string; at: string }[];
}

/** The engine action for a step, or null when the step can never be taken (refused as it is). */
export function stepToAction(step: ScenarioStep, state: GameState): Action | null {
  switch (step.type) {
    case 'timeout':
      return { kind: 'timeout', seq: state.seq };
    case 'host':
      switch (step.verb) {
        case 'foul':
          return { kind: 'host-foul', target: step.target!, count: step.count ?? 1 };
        case 'remove':
          return { kind: 'host-remove', target: step.target! };
        case 'kill':
          return { kind: 'host-kill', target: step.target! };
        case 'skip':
          return { kind: 'host-skip' };
        case 'end':
          return { kind: 'host-end', winner: step.winner! };
        case 'best':
          return { kind: 'host-best', target: step.target! };
        case 'bonus':
          return { kind: 'host-bonus', target: step.target!, points: step.points! };
      }
      break;
    case 'player': {
      const seat = step.seat;
      // FORMAT.md: only `note: true` outside a check is refused; `note: false` says nothing.
      if (step.note === true && step.verb !== 'check') return null;
      switch (step.verb) {
        case 'pass':
        case 'askDon':
        case 'skip':
          return { kind: step.verb, seat };
        case 'nominate':
        case 'vote':
        case 'shoot':
        case 'heal':
        case 'freeze':
        case 'kill':
        case 'take':
        case 'best':
          return { kind: step.verb, seat, target: step.target! };
        case 'check':
          return step.note === undefined
            ? { kind: 'check', seat, target: step.target! }
            : { kind: 'check', seat, target: step.target!, note: step.note };
        case 'voteAll':
          return { kind: 'voteAll', seat, choice: step.choice! };
        case 'guess':
          return { kind: 'guess', seat, targets: step.targets! };
        default: {
          const unhandled: never = step; // a new player action needs its step here
          return unhandled;
        }
      }
    }
  }
  return null;
}

export interface Played {
  state: GameState;
  refused: number[];
  /** Accepted actions with their time, in order (for replay checks). */
  log: { action: Action; now: number }[];
}

export function playScenario(sc: Scenario): Played {
  let now = 0;
  let state = createGame(sc.ruleset, { roles: sc.roles }, sc.options, sc.pace, { now });
  const refused: number[] = [];
  const log: Played['log'] = [];
  sc.steps.forEach((step, i) => {
    const action = stepToAction(step, state);
    if (action === null) {
      refused.push(i);
      return;
    }
    // The clock step: the current timer runs out, so time moves to its deadline.
    if (action.kind === 'timeout' && state.deadline !== null) now = Math.max(now, state.deadline);
    const r = apply(state, action, { now });
    if (!r.ok) {
      refused.push(i);
      return;
    }
    state = r.state;
    log.push({ action, now });
  });
  return { state, refused, log };
}

export function resultOf(state: GameState, refused: number[]): ScenarioResult {
  const result: ScenarioResult = {
    winner: state.result?.winner ?? null,
    out: state.out.map((o) => ({ seat: o.seat, by: o.by, at: clockLabel(o.at) })),
    at: positionLabel(state),
    refused: [...refused].sort((a, b) => a - b),
    checks: state.checks.map((c) => ({ seat: c.seat, target: c.target, at: clockLabel(c.at), answer: c.answer })),
    notes: state.notes.map((n) => ({ seat: n.seat, target: n.target, answer: n.answer, at: clockLabel(n.at) })),
  };
  if (state.stage.kind === 'over' && state.result?.points) {
    result.points = Object.fromEntries(state.result.points.map((p) => [String(p.seat), p.total]));
  }
  return result;
}

export function runScenario(sc: Scenario): ScenarioResult {
  const { state, refused } = playScenario(sc);
  return resultOf(state, refused);
}
