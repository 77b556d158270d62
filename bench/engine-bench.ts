// Pure engine benchmark. Random complete games are generated first (seeded, recorded as action
// lists), then replayed through apply() under the timer: the figures are the engine's own cost.
import { performance } from 'node:perf_hooks';
import { apply, createGame } from '../src/engine/apply';
import { RULESET_IDS } from '../src/engine/rulesets';
import type { Action, Role, RulesetId } from '../src/engine/types';
import { newRandomGame, randomAction, seededRng } from '../src/sim/random-play';

interface Recorded {
  roles: Role[];
  steps: { action: Action; now: number }[];
}

export function recordGames(ruleset: RulesetId, games: number, seed: number): { recorded: Recorded[]; ms: number } {
  const rng = seededRng(seed);
  const recorded: Recorded[] = [];
  const t0 = performance.now();
  for (let g = 0; g < games; g++) {
    const game = newRandomGame(rng, ruleset);
    let s = game.initial;
    let now = 0;
    const steps: Recorded['steps'] = [];
    for (;;) {
      const a = randomAction(s, rng);
      if (a === null) break;
      if (a.kind === 'timeout' && s.deadline !== null) now = Math.max(now, s.deadline);
      const r = apply(s, a, { now });
      if (r.ok) {
        s = r.state;
        steps.push({ action: a, now });
      }
    }
    recorded.push({ roles: game.roles, steps });
  }
  return { recorded, ms: performance.now() - t0 };
}

export interface EngineFigures {
  ruleset: RulesetId;
  /** Complete games per second through apply() (the engine alone). */
  gamesPerSecond: number;
  /** Microseconds per applied action. */
  microsPerAction: number;
  /** Complete games per second including the random player choosing the moves. */
  playedGamesPerSecond: number;
  actionsPerGame: number;
}

export function replayGames(ruleset: RulesetId, recorded: Recorded[]): { ms: number; actions: number } {
  let actions = 0;
  const t0 = performance.now();
  for (const g of recorded) {
    let s = createGame(ruleset, { roles: g.roles }, {}, 'live', { now: 0 });
    for (const { action, now } of g.steps) {
      const r = apply(s, action, { now });
      if (!r.ok) throw new Error(`replay refused ${r.code}`);
      s = r.state;
      actions++;
    }
    if (s.stage.kind !== 'over') throw new Error('replayed game did not finish');
  }
  return { ms: performance.now() - t0, actions };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function benchEngine(
  games: number,
  runs: number,
  rulesets: readonly RulesetId[] = RULESET_IDS,
): EngineFigures[] {
  return rulesets.map((ruleset) => {
    const { recorded, ms: playedMs } = recordGames(ruleset, games, 1000);
    replayGames(ruleset, recorded); // warm-up
    const runsOut = Array.from({ length: runs }, () => replayGames(ruleset, recorded));
    const ms = median(runsOut.map((r) => r.ms));
    const actions = runsOut[0]!.actions;
    return {
      ruleset,
      gamesPerSecond: Math.round((games / ms) * 1000),
      microsPerAction: Number(((ms * 1000) / actions).toFixed(2)),
      playedGamesPerSecond: Math.round((games / playedMs) * 1000),
      actionsPerGame: Number((actions / games).toFixed(1)),
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(benchEngine(Number(process.argv[2] ?? 3000), 5), null, 2));
}
