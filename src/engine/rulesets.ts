// Rule sets are data (ARCHITECTURE.md): composition, day shape, fouls, reveal, win rule, scoring,
// and the default of every option. One engine plays all three.
import type { GameOptions, Pace, Role, RulesetId, Team, Timers } from './types';

export interface RulesetDef {
  readonly id: RulesetId;
  readonly players: number;
  /** G-2 */
  readonly composition: Readonly<Partial<Record<Role, number>>>;
  /** N-3 (unanimous) or N-4 (the Don decides). */
  readonly shotRule: 'unanimous' | 'don-decides';
  /** D-1: speeches in turn, or discussion then accusations. */
  readonly dayShape: 'speeches' | 'discussion-accusations';
  /** F-2 (warnings) or F-3 (five fouls). */
  readonly fouls: 'warnings' | 'five-fouls';
  /** G-6 */
  readonly revealOnLeave: boolean;
  /** D-9: a player killed at night gets last words in the morning. */
  readonly nightKilledLastWords: boolean;
  /** D-10 */
  readonly bestMove: boolean;
  /** E-1 (parity) or E-2 (elimination). */
  readonly win: 'parity' | 'elimination';
  /** S-1, S-2, S-3 and the matching S-4 post-game vote. */
  readonly scoring: 'chnu' | 'classic' | 'kiev';
  readonly defaults: Omit<GameOptions, 'timers'>;
  readonly timers: Readonly<Record<Pace, Timers>>;
}

const H = 3600;

/** P-1: async timers (hours), shared by all rule sets; last words and shootouts get 2 h. */
const asyncTimers: Timers = {
  night0: 12 * H,
  night: 12 * H,
  speech: 2 * H,
  discussion: 24 * H,
  accusation: 6 * H,
  vote: 6 * H,
  shootout: 2 * H,
  lastWords: 2 * H,
  postGame: 24 * H,
};

const commonDefaults: Omit<GameOptions, 'timers'> = {
  prostituteKnowsMafia: false,
  shotDeciderWithoutDon: 'lowest-seat',
  askDon: false,
  freezeRepeatLimit: 2,
  healRepeatLimit: 2,
  tellFrozen: true,
  commissionerAnswer: 'at-resolution',
  dayOpener: 'day-number',
  selfNomination: false,
  day1SingleCandidateVote: false,
  selfVote: true,
  nonVoter: 'last-candidate',
  minVotesToLeave: 0,
  foulVotes: false,
  tieAgain: 'nobody',
  noTieBreakAtAlive: 0,
  donTake: false,
  mafiaTalk: 'night-0',
  emptyRoundsDraw: 3,
  rightCandidate: false,
  ratingTies: 'share-skip',
};

/** P-1 live timers: speech 60, shootout 30, last words 60 (30 in kiev-12), discussion 150,
 * accusation 30; night and voting 60 (decision); the post-game vote 5 minutes (decision). */
const liveTimers = (lastWords: number): Timers => ({
  night0: 60,
  night: 60,
  speech: 60,
  discussion: 150,
  accusation: 30,
  vote: 60,
  shootout: 30,
  lastWords,
  postGame: 300,
});

const tenSeats = { civilian: 6, sheriff: 1, mafia: 2, don: 1 } as const;

export const RULESETS: Readonly<Record<RulesetId, RulesetDef>> = {
  'chnu-2016': {
    id: 'chnu-2016',
    players: 10,
    composition: tenSeats,
    shotRule: 'unanimous',
    dayShape: 'speeches',
    fouls: 'warnings',
    revealOnLeave: false,
    nightKilledLastWords: true,
    bestMove: true,
    win: 'parity',
    scoring: 'chnu',
    defaults: { ...commonDefaults, askDon: true },
    timers: { live: liveTimers(60), async: asyncTimers },
  },
  'classic-10': {
    id: 'classic-10',
    players: 10,
    composition: tenSeats,
    shotRule: 'unanimous',
    dayShape: 'speeches',
    fouls: 'warnings',
    revealOnLeave: false,
    nightKilledLastWords: true,
    bestMove: true,
    win: 'parity',
    scoring: 'classic',
    defaults: {
      ...commonDefaults,
      dayOpener: 'after-previous-first',
      tieAgain: 'all-leave-vote',
      noTieBreakAtAlive: 4,
      rightCandidate: true,
    },
    timers: { live: liveTimers(60), async: asyncTimers },
  },
  'kiev-12': {
    id: 'kiev-12',
    players: 12,
    composition: { civilian: 5, commissioner: 1, doctor: 1, maniac: 1, mafia: 2, don: 1, prostitute: 1 },
    shotRule: 'don-decides',
    dayShape: 'discussion-accusations',
    fouls: 'five-fouls',
    revealOnLeave: true,
    nightKilledLastWords: false,
    bestMove: false,
    win: 'elimination',
    scoring: 'kiev',
    defaults: {
      ...commonDefaults,
      day1SingleCandidateVote: true,
      selfVote: false,
      nonVoter: 'abstain',
      minVotesToLeave: 1,
      foulVotes: true,
      donTake: true,
    },
    timers: { live: liveTimers(30), async: asyncTimers },
  },
};

export const RULESET_IDS = Object.keys(RULESETS) as RulesetId[];

const BLACK: ReadonlySet<Role> = new Set<Role>(['mafia', 'don', 'prostitute']);

/** G-2: the team of a role (the kiev-12 maniac is red, the prostitute black). */
export function teamOf(role: Role): Team {
  return BLACK.has(role) ? 'black' : 'red';
}

/** The deal as a flat list of roles for a rule set, in a fixed order (for tests and tools). */
export function rolePool(ruleset: RulesetId): Role[] {
  const pool: Role[] = [];
  for (const [role, count] of Object.entries(RULESETS[ruleset].composition) as [Role, number][]) {
    for (let i = 0; i < count; i++) pool.push(role);
  }
  return pool;
}

/** Checks that a deal has the rule set's size and composition (G-2); returns a problem or null. */
export function dealProblem(ruleset: RulesetId, roles: readonly Role[]): string | null {
  const def = RULESETS[ruleset];
  if (roles.length !== def.players) return `expected ${def.players} roles, got ${roles.length}`;
  const counts = new Map<Role, number>();
  for (const r of roles) counts.set(r, (counts.get(r) ?? 0) + 1);
  const foreign = [...counts.keys()].find((r) => !(r in def.composition));
  if (foreign) return `role "${foreign}" is not in ${ruleset}`;
  const wrong = (Object.entries(def.composition) as [Role, number][]).filter(([r, n]) => (counts.get(r) ?? 0) !== n);
  if (wrong.length === 0) return null;
  return wrong.map(([r, n]) => `expected ${n} × ${r}, got ${counts.get(r) ?? 0}`).join('; ');
}
