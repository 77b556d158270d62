// The whole game is one JSON value (GameState). The engine never touches Discord, the clock,
// randomness or the database: time comes in through ApplyContext, the deal as data.
import type { EngineRefusalCode } from './refusal-codes';

export type { EngineRefusalCode, RefusalCode } from './refusal-codes';

export type RulesetId = 'chnu-2016' | 'classic-10' | 'kiev-12';
export type Pace = 'live' | 'async';
export type Role = 'civilian' | 'sheriff' | 'mafia' | 'don' | 'commissioner' | 'doctor' | 'maniac' | 'prostitute';
export type Team = 'red' | 'black';
export type Winner = Team | 'draw';
export type Seat = number;
/** How a player left the table (RULES G-5). */
export type LeaveBy = 'vote' | 'night' | 'take' | 'removed' | 'host';

/** A point of the game's own calendar (RULES G-3): "night 0", "day 1", "night 1", ... */
export interface Clock {
  readonly phase: 'night' | 'day';
  readonly n: number;
}

export interface ApplyContext {
  /** Milliseconds since the epoch; the only source of time the engine knows. */
  readonly now: number;
}

// ---------------------------------------------------------------------------------------------
// Options: every decision of docs/rules.md is an option with a documented name (see README).

export interface Timers {
  /** Night 0, the acquaintance night (G-4). */
  night0: number;
  /** Nights 1, 2, ... (N-2). */
  night: number;
  /** One speaker's speech (live, D-1). */
  speech: number;
  /** The open discussion window (async speeches, P-1) and kiev-12's discussion (D-1). */
  discussion: number;
  /** One accusation turn (live) or the whole accusation window (async) in kiev-12. */
  accusation: number;
  /** A vote, a revote and classic-10's "shall all leave?" vote. */
  vote: number;
  /** One shootout speech (D-7). */
  shootout: number;
  /** One player's last words (D-9). */
  lastWords: number;
  /** The post-game best-player vote (S-4). */
  postGame: number;
}
export type TimerKey = keyof Timers;

export interface GameOptions {
  /** G-4: the kiev-12 prostitute and the mafia know each other. */
  prostituteKnowsMafia: boolean;
  /** N-4: who decides the kiev-12 shot once the Don has left the table. */
  shotDeciderWithoutDon: 'lowest-seat' | 'highest-seat';
  /** N-6: chnu-2016 Sheriff may ask "is it the Don?" after a "black" answer. */
  askDon: boolean;
  /** N-7: the prostitute may pick the same seat at most this many nights in a row (0 = no limit). */
  freezeRepeatLimit: number;
  /** N-8: the doctor may pick the same seat at most this many nights in a row (0 = no limit). */
  healRepeatLimit: number;
  /** N-7: the frozen player is told so with the night's results. */
  tellFrozen: boolean;
  /** N-11: when the commissioner's answer is given. `at-once` ignores a freeze for the answer. */
  commissionerAnswer: 'at-resolution' | 'at-once';
  /** D-1: who opens day k: seat k (`day-number`) or the next living seat after the previous day's first speaker. */
  dayOpener: 'day-number' | 'after-previous-first';
  /** D-2: a player may nominate himself. */
  selfNomination: boolean;
  /** D-4: day 1 with a single candidate is voted on. */
  day1SingleCandidateVote: boolean;
  /** D-5: a candidate may vote for himself. */
  selfVote: boolean;
  /** D-5: what a living player who did not vote counts as. */
  nonVoter: 'last-candidate' | 'abstain';
  /** D-5: the fewest votes with which a candidate can leave. */
  minVotesToLeave: number;
  /** D-6: kiev-12 foul votes are added at the next voting in which the player is a candidate. */
  foulVotes: boolean;
  /** D-7: what a tie in the revote leads to. */
  tieAgain: 'nobody' | 'all-leave-vote';
  /** D-7: with this many players alive or fewer, a tie means nobody leaves (0 = off). */
  noTieBreakAtAlive: number;
  /** D-8: a Don voted out may take one other living player with him. */
  donTake: boolean;
  /** M-2: when the mafia may talk in private. */
  mafiaTalk: 'night-0' | 'every-night';
  /** E-3: draw after this many rounds in a row in which nobody left (0 = off). */
  emptyRoundsDraw: number;
  /** S-2: "right candidate" points in classic-10. */
  rightCandidate: boolean;
  /** S-4: kiev-12 tied places share the higher place's points and skip the next (`share-skip`) or not. */
  ratingTies: 'share-skip' | 'share-dense';
  /** P-1: stage timers in seconds; the pace gives the defaults. */
  timers: Timers;
}

export type OptionOverrides = Partial<Omit<GameOptions, 'timers'>> & { timers?: Partial<Timers> };

// ---------------------------------------------------------------------------------------------
// Actions: what players, the host and the clock can do. `seq`, when given, must match the
// stage sequence number (a button of a closed stage is stale).

export type PlayerAction =
  | { kind: 'pass'; seat: Seat; seq?: number }
  | { kind: 'nominate'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'vote'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'voteAll'; seat: Seat; choice: boolean; seq?: number }
  | { kind: 'shoot'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'check'; seat: Seat; target: Seat; note?: boolean; seq?: number }
  | { kind: 'askDon'; seat: Seat; seq?: number }
  | { kind: 'heal'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'freeze'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'kill'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'skip'; seat: Seat; seq?: number }
  | { kind: 'take'; seat: Seat; target: Seat; seq?: number }
  | { kind: 'guess'; seat: Seat; targets: Seat[]; seq?: number }
  | { kind: 'best'; seat: Seat; target: Seat; seq?: number };

export type HostAction =
  | { kind: 'host-foul'; target: Seat; count?: number; reason?: string; seq?: number }
  | { kind: 'host-remove'; target: Seat; reason?: string; seq?: number }
  | { kind: 'host-kill'; target: Seat; reason?: string; seq?: number }
  | { kind: 'host-skip'; seq?: number }
  | { kind: 'host-end'; winner: Winner; reason?: string; seq?: number }
  | { kind: 'host-best'; target: Seat; seq?: number }
  | { kind: 'host-bonus'; target: Seat; points: number; seq?: number }
  /** G-7: the host stops the clock; nobody but the host acts until he resumes. */
  | { kind: 'host-pause'; reason?: string; seq?: number }
  | { kind: 'host-resume'; reason?: string; seq?: number }
  /** G-7: the current stage or turn ends `seconds` later (earlier when negative). */
  | { kind: 'host-extend'; seconds: number; reason?: string; seq?: number }
  /** G-7: a seat that left by a host ruling (kill, removal) comes back to the table. */
  | { kind: 'host-revive'; target: Seat; reason?: string; seq?: number }
  /**
   * G-7: takes back the accepted action with log sequence number `undone` (see replay.ts: the log
   * is replayed without it). apply() alone refuses it: only the log knows what came before.
   */
  | { kind: 'host-undo'; undone: number; reason?: string; seq?: number };

export interface TimeoutAction {
  kind: 'timeout';
  /** The stage sequence number the timer was set for; a timeout for another one is stale. */
  seq: number;
}

export type Action = PlayerAction | HostAction | TimeoutAction;

/**
 * The action kinds as literal unions. They key every table and exhaustive switch that must handle
 * an action, so a new variant of PlayerAction or HostAction does not compile until each place does
 * (`npx tsc --noEmit` lists them):
 *  1. here: the variant itself;
 *  2. engine/action-shape.ts `SHAPES`: its fields, checked at the edge;
 *  3. engine/apply.ts `IN_POST_GAME` and `run()` (its rules; host ones also in `host()`);
 *  4. app/game-service.ts `IS_HOST_ACTION` and, for a host action, engine/replay.ts `CLOCK_CONTROL`;
 *  5. a player action's prompt: engine/view.ts `PromptFields`, and its use: discord/render/panel.ts
 *     `PROMPT_ORDER` and `panelPayload()`, sim/random-play.ts `fromPrompt()`;
 *  6. a player action's control: discord/custom-id.ts `VERB_TABLE` (ActVerb) and the action built
 *     from a click in discord/components/act.ts `actionFor()`; scenario steps (scenario/parse.ts
 *     `PLAYER_FIELDS`, scenario/run.ts `stepToAction()`);
 *  7. its texts: discord/render/panel.ts `OK_KEYS` and, in i18n/en.ts (then uk.ts and ru.ts),
 *     `ok.<kind>`, `action.<kind>`, `audit.<verb>` (KindKeys), and a `refusal.<code>` for each new
 *     refusal code (engine/refusal-codes.ts).
 * Not forced, by choice: a host action needs a way to be given (a /host subcommand in
 * discord/commands/host-subcommands.ts and commands/host.ts `HostCommand`, or host-tools.ts).
 */
export type ActionKind = Action['kind'];
export type PlayerActionKind = PlayerAction['kind'];
export type HostActionKind = HostAction['kind'];
type VerbOf<K> = K extends `host-${infer V}` ? V : never;
/** A host action's verb: its kind without `host-` (the audit log's `action`). */
export type HostVerb = VerbOf<HostActionKind>;
/** An action of one kind. */
export type ActionOf<K extends ActionKind> = Extract<Action, { kind: K }>;

// ---------------------------------------------------------------------------------------------
// State

export interface Player {
  readonly seat: Seat;
  readonly role: Role;
  readonly alive: boolean;
  /** Warnings (F-2) or fouls (F-3) received. */
  readonly fouls: number;
  /** D-6: foul votes waiting for the next voting in which this player is a candidate. */
  readonly foulVotes: number;
  /** F-2: the day whose speech this player has lost (null: none). */
  readonly speechLostDay: number | null;
}

export interface OutEntry {
  readonly seat: Seat;
  readonly by: LeaveBy;
  readonly at: Clock;
  /** S-2: who nominated a player who left by the day vote. */
  readonly nominatedBy?: Seat;
  /** S-2: the black players whose (unanimous) shot killed this player. */
  readonly shooters?: readonly Seat[];
}

export type CheckKind = 'don' | 'sheriff' | 'askDon' | 'commissioner';
export type CheckAnswer = 'sheriff' | 'not sheriff' | 'black' | 'red' | 'don' | 'not don' | 'frozen';

export interface CheckEntry {
  readonly seat: Seat;
  readonly target: Seat;
  readonly at: Clock;
  readonly kind: CheckKind;
  readonly answer: CheckAnswer;
}

export interface NoteEntry {
  readonly seat: Seat;
  readonly target: Seat;
  readonly answer: 'black' | 'red';
  readonly at: Clock;
}

export interface Nomination {
  readonly by: Seat;
  readonly target: Seat;
}

/** A pick of a night actor: a seat, or `skip` when he declined. Absent: not acted yet. */
export type Pick = Seat | 'skip';

export interface NightActs {
  /** Shots by seat (index seat-1): the target, or 0 when not shot. */
  readonly shots: readonly number[];
  readonly donCheck?: Pick;
  readonly sheriffCheck?: Pick;
  readonly askDon?: 'asked' | 'skip';
  readonly commissioner?: { readonly target: Seat; readonly note: boolean } | 'skip';
  readonly heal?: Pick;
  readonly freeze?: Pick;
  readonly maniac?: Pick;
}

export type Stage =
  | { readonly kind: 'night0' }
  | { readonly kind: 'night'; readonly acts: NightActs }
  | {
      readonly kind: 'lastWords';
      /** Speakers still to speak after the current one. */
      readonly queue: readonly Seat[];
      readonly speaker: Seat;
      /** What comes after: the day's talk (morning last words) or the night. */
      readonly next: 'talk' | 'night';
    }
  | {
      readonly kind: 'turns';
      readonly purpose: 'speech' | 'accusation';
      readonly order: readonly Seat[];
      readonly index: number;
    }
  | { readonly kind: 'window'; readonly purpose: 'speech' | 'accusation'; readonly passed: readonly Seat[] }
  | { readonly kind: 'discussion' }
  | {
      readonly kind: 'vote';
      readonly round: 1 | 2;
      readonly candidates: readonly Seat[];
      /** Ballots by voter seat (index seat-1): the candidate, or 0. */
      readonly ballots: readonly number[];
    }
  | { readonly kind: 'shootout'; readonly candidates: readonly Seat[]; readonly index: number }
  | {
      readonly kind: 'voteAll';
      readonly candidates: readonly Seat[];
      /** By voter seat (index seat-1): 1 yes, -1 no, 0 not voted. */
      readonly ballots: readonly number[];
    }
  | { readonly kind: 'postGame' }
  | { readonly kind: 'over' };

export type StageKind = Stage['kind'];

export interface DayState {
  readonly n: number;
  readonly nominations: readonly Nomination[];
  /** D-1 (classic-10): the first player who actually spoke this day. */
  readonly firstSpeaker: Seat | null;
}

export interface PostGame {
  /** Best-player votes by seat (index seat-1): the chosen seat or 0. */
  readonly votes: readonly number[];
  readonly hostBest: Seat | null;
  /** kiev-12 host bonus by seat (index seat-1). */
  readonly bonus: readonly number[];
}

export interface PointsBreakdown {
  readonly seat: Seat;
  readonly total: number;
  /** Items by name (win, loss, fullStrength, bestMove, bestPlayer, rightCandidate, sheriffShot, warnings, removal, rating, bonus). */
  readonly items: Readonly<Record<string, number>>;
}

/**
 * Why the rules ended a game: E-1/E-2 no black player left (`no-black`), E-2 no red player left
 * (`no-red`), E-1 black as many as red or more (`parity`), E-2 both teams gone at once (`both-gone`).
 */
export type EndCause = 'no-black' | 'no-red' | 'parity' | 'both-gone';

export interface GameResult {
  readonly winner: Winner;
  /** How the game ended. */
  readonly reason: 'rules' | 'host' | 'empty-rounds';
  readonly at: Clock;
  /** Set when the post-game vote has closed. */
  readonly points: readonly PointsBreakdown[] | null;
  readonly bestPlayer: Seat | null;
}

export interface History {
  /** N-8: the doctor's pick by night number (0 none). */
  readonly heals: readonly number[];
  /** N-7: the prostitute's pick by night number (0 none). */
  readonly freezes: readonly number[];
  /** N-11: the commissioner's note is used up. */
  readonly noteUsed: boolean;
  /** D-10: the best move, once per game. */
  readonly bestMove: { readonly seat: Seat; readonly targets: readonly Seat[] } | null;
  /** D-1: the first speaker of the previous day (classic-10 opener). */
  readonly previousFirstSpeaker: Seat | null;
  /** D-8: the Don's take was used. */
  readonly takeUsed: boolean;
}

export interface GameState {
  readonly v: 1;
  readonly ruleset: RulesetId;
  readonly pace: Pace;
  readonly options: GameOptions;
  readonly players: readonly Player[];
  /** The game's calendar position (G-3, P-4). */
  readonly clock: Clock;
  readonly stage: Stage;
  /** Increases whenever the stage or the speaker changes; timeouts and buttons name it. */
  readonly seq: number;
  /** When the current stage or turn ends by its timer (ms since epoch); null when over. */
  readonly deadline: number | null;
  readonly day: DayState | null;
  readonly out: readonly OutEntry[];
  readonly checks: readonly CheckEntry[];
  readonly notes: readonly NoteEntry[];
  readonly history: History;
  readonly result: GameResult | null;
  readonly postGame: PostGame | null;
  /** How many actions were accepted. */
  readonly moves: number;
  /** G-7: the host has stopped the clock: the time the stage or turn had left (ms; null: untimed). */
  readonly paused?: { readonly remaining: number | null };
}

// ---------------------------------------------------------------------------------------------
// Events: codes and parameters only (never text). Each is addressed to one audience.

export type Audience =
  | { readonly kind: 'public' }
  | { readonly kind: 'seat'; readonly seat: Seat }
  | { readonly kind: 'mafia' }
  | { readonly kind: 'host' };

export type EventBody =
  | {
      type: 'stage';
      stage: StageKind;
      clock: Clock;
      seq: number;
      deadline: number | null;
      purpose?: string;
      speaker?: Seat;
      candidates?: Seat[];
      round?: number;
    }
  | { type: 'mafia-met'; members: Seat[]; don: Seat | null; helpers: Seat[] }
  | { type: 'told-black'; seat: Seat }
  | {
      type: 'accepted';
      seat: Seat;
      action: ActionKind;
      target?: Seat;
      targets?: Seat[];
      choice?: boolean;
      note?: boolean;
    }
  | { type: 'shot-picked'; seat: Seat; target: Seat }
  | { type: 'check-result'; seat: Seat; target: Seat; kind: CheckKind; answer: CheckAnswer; at: Clock }
  | { type: 'frozen'; seat: Seat }
  | { type: 'morning'; night: number; out: { seat: Seat; role?: Role }[]; note: NoteEntry | null }
  | { type: 'left'; seat: Seat; by: LeaveBy; at: Clock; role?: Role }
  | { type: 'nominated'; by: Seat; target: Seat }
  | { type: 'passed'; seat: Seat }
  | { type: 'speech-lost'; seat: Seat; day: number }
  | {
      type: 'vote-result';
      round: 1 | 2;
      tally: { seat: Seat; votes: number; foulVotes: number }[];
      voters: { seat: Seat; target: Seat | null; counted: boolean }[];
      leaving: Seat[];
      outcome: 'leaves' | 'tie' | 'nobody';
    }
  | { type: 'vote-all-result'; yes: Seat[]; no: Seat[]; alive: number; passed: boolean; candidates: Seat[] }
  | { type: 'no-vote'; reason: 'no-candidates' | 'single-candidate-day-1' | 'candidates-left' }
  | { type: 'tie-no-break'; candidates: Seat[] }
  | { type: 'foul'; seat: Seat; total: number; count: number; reason?: string }
  | { type: 'best-move'; seat: Seat; targets: Seat[] }
  | { type: 'take'; seat: Seat; target: Seat }
  | { type: 'host'; action: HostAction }
  | { type: 'clock'; what: 'paused' | 'resumed' | 'extended'; seconds?: number; deadline: number | null }
  | { type: 'revived'; seat: Seat }
  | {
      type: 'game-over';
      winner: Winner;
      reason: 'rules' | 'host' | 'empty-rounds';
      /** E-1, E-2: which rule ended it (null unless `reason` is 'rules'). */
      why: EndCause | null;
      /** The players of each team still at the table when it ended. */
      left: { red: number; black: number };
      roles: Role[];
    }
  | { type: 'best-vote'; seat: Seat }
  | { type: 'points'; points: PointsBreakdown[]; bestPlayer: Seat | null };

/** An event and its audience. */
export interface GameEvent {
  readonly to: Audience;
  readonly body: EventBody;
}

// ---------------------------------------------------------------------------------------------

export interface Refusal {
  readonly ok: false;
  /** A stable code, `area/reason` (e.g. `vote/not-a-candidate`); the list is in refusal-codes.ts. */
  readonly code: EngineRefusalCode;
}

export interface Accepted {
  readonly ok: true;
  readonly state: GameState;
  readonly events: readonly GameEvent[];
}

export type ApplyResult = Accepted | Refusal;

export interface Deal {
  /** Roles by seat, seat 1 first. */
  readonly roles: readonly Role[];
}
