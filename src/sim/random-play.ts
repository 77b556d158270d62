// Random legal play, for the property test, the benchmark and the simulator. Seeded and
// reproducible: the same seed gives the same game.
import { createGame } from '../engine/apply';
import { rolePool } from '../engine/rulesets';
import { actorsNow, hostPrompts, prompts, type Prompt } from '../engine/view';
import type { Action, GameState, Pace, Role, RulesetId, Seat } from '../engine/types';

export type Rng = () => number;

/** mulberry32: a small, fast, seedable PRNG (not for dealing real games: that uses crypto). */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

export function shuffle<T>(rng: Rng, xs: readonly T[]): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

export function randomDeal(rng: Rng, ruleset: RulesetId): Role[] {
  return shuffle(rng, rolePool(ruleset));
}

function fromPrompt(rng: Rng, seat: Seat, p: Prompt, seq: number | undefined): Action {
  const base = seq === undefined ? {} : { seq };
  switch (p.kind) {
    case 'pass':
    case 'skip':
      return { kind: p.kind, seat, ...base };
    case 'askDon':
      return { kind: 'askDon', seat, ...base };
    case 'voteAll':
      return { kind: 'voteAll', seat, choice: rng() < 0.5, ...base };
    case 'check':
      return {
        kind: 'check',
        seat,
        target: pick(rng, p.targets),
        ...(p.note && rng() < 0.3 ? { note: true } : {}),
        ...base,
      };
    case 'guess': {
      const n = p.targets.length >= 3 && rng() < 0.5 ? 3 : 2;
      return { kind: 'guess', seat, targets: shuffle(rng, p.targets).slice(0, n), ...base };
    }
    default:
      return { kind: p.kind, seat, target: pick(rng, p.targets), ...base };
  }
}

export interface RandomPolicy {
  /** Chance that the current timer runs out instead of a player acting. */
  timeout: number;
  /** Chance of a host override (mostly fouls; rarely removals, kills, skips and ends). */
  host: number;
  /** Chance that a speaker passes at once rather than doing something else first. */
  passEarly: number;
}

export const DEFAULT_POLICY: RandomPolicy = { timeout: 0.04, host: 0.01, passEarly: 0.5 };

/** One random legal action for the current state (never null before the game is over). */
export function randomAction(s: GameState, rng: Rng, policy: RandomPolicy = DEFAULT_POLICY): Action | null {
  if (s.stage.kind === 'over') return null;
  const timeout: Action = { kind: 'timeout', seq: s.seq };
  if (rng() < policy.host) {
    const hp = pick(rng, hostPrompts(s));
    const r = rng();
    switch (hp.kind) {
      case 'host-skip':
        return { kind: 'host-skip' };
      case 'host-end':
        return r < 0.2 ? { kind: 'host-end', winner: pick(rng, ['red', 'black', 'draw'] as const) } : timeout;
      case 'host-foul':
        return { kind: 'host-foul', target: pick(rng, hp.targets), count: r < 0.8 ? 1 : 2 };
      case 'host-remove':
      case 'host-kill':
        return r < 0.2 ? { kind: hp.kind, target: pick(rng, hp.targets) } : timeout;
      case 'host-best':
        return { kind: 'host-best', target: pick(rng, hp.targets) };
      case 'host-bonus':
        return { kind: 'host-bonus', target: pick(rng, hp.targets), points: rng() < 0.5 ? 1 : 2 };
    }
  }
  if (rng() < policy.timeout) return timeout;
  const actors = actorsNow(s);
  const start = Math.floor(rng() * (actors.length || 1));
  for (let i = 0; i < actors.length; i++) {
    const seat = actors[(start + i) % actors.length]!;
    const ps = prompts(s, seat);
    if (ps.length === 0) continue;
    const passes = ps.length > 1 && ps[0]!.kind === 'pass' && rng() >= policy.passEarly;
    const p = passes ? pick(rng, ps.slice(1)) : pick(rng, ps);
    return fromPrompt(rng, seat, p, rng() < 0.5 ? s.seq : undefined);
  }
  return timeout;
}

export interface RandomGame {
  ruleset: RulesetId;
  pace: Pace;
  roles: Role[];
  initial: GameState;
}

export function newRandomGame(rng: Rng, ruleset: RulesetId, pace: Pace = 'live', now = 0): RandomGame {
  const roles = randomDeal(rng, ruleset);
  return { ruleset, pace, roles, initial: createGame(ruleset, { roles }, {}, pace, { now }) };
}
