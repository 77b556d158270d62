// The reducer: apply(state, action, ctx) -> the new state and events, or a refusal with a stable
// code. A refused action changes nothing. No I/O, no clock, no randomness.
import { askDonOpen, declinable, donChecks, freezeTargets, healTargets, shooters } from './night';
import { checkWin, endStage, finishGame, leaveTable, mayTalk, mayVote, setStage, settle } from './flow';
import { actionShapeProblem } from './action-shape';
import { resolveOptions } from './options';
import { dealProblem, teamOf } from './rulesets';
import {
  beginTx,
  emit,
  HOST,
  isAlive,
  MAFIA,
  playerAt,
  PUBLIC,
  refuse,
  setPlayer,
  toSeat,
  withSeat,
  type Tx,
} from './state';
import type {
  Action,
  ActionKind,
  ApplyContext,
  ApplyResult,
  Deal,
  GameState,
  HostAction,
  NightActs,
  OptionOverrides,
  Pace,
  PlayerAction,
  Refusal,
  RulesetId,
  Seat,
} from './types';

/**
 * A new game at night 0 (G-4) with the given deal. The deal must have the rule set's composition
 * and the options must already be validated (see optionOverridesSchema).
 */
export function createGame(
  ruleset: RulesetId,
  deal: Deal,
  options: OptionOverrides = {},
  pace: Pace = 'live',
  ctx: ApplyContext = { now: 0 },
): GameState {
  const problem = dealProblem(ruleset, deal.roles);
  if (problem) throw new Error(`invalid deal for ${ruleset}: ${problem}`);
  const base: GameState = {
    v: 1,
    ruleset,
    pace,
    options: resolveOptions(ruleset, pace, options),
    players: deal.roles.map((role, i) => ({
      seat: i + 1,
      role,
      alive: true,
      fouls: 0,
      foulVotes: 0,
      speechLostDay: null,
    })),
    clock: { phase: 'night', n: 0 },
    stage: { kind: 'night0' },
    seq: 0,
    deadline: null,
    day: null,
    out: [],
    checks: [],
    notes: [],
    history: { heals: [0], freezes: [0], noteUsed: false, bestMove: null, previousFirstSpeaker: null, takeUsed: false },
    result: null,
    postGame: null,
    moves: 0,
  };
  const tx = beginTx(base, ctx.now);
  setStage(tx, { kind: 'night0' });
  return tx.s;
}

/**
 * G-4: what night 0 tells each black player. Returned separately from createGame so the shell can
 * send it with the role cards.
 */
export function acquaintance(state: GameState) {
  const don = state.players.find((p) => p.role === 'don')?.seat ?? null;
  const members = state.players.filter((p) => p.role === 'mafia' || p.role === 'don').map((p) => p.seat);
  const helpers = state.players.filter((p) => p.role === 'prostitute').map((p) => p.seat);
  return { members, don, helpers, helpersKnown: state.options.prostituteKnowsMafia };
}

export function apply(state: GameState, action: Action, ctx: ApplyContext): ApplyResult {
  // Outside input reaches the engine here: a malformed action is a refusal, never an exception.
  const shape = actionShapeProblem(action);
  if (shape) return refuse(shape);
  const refusal = precheck(state, action, ctx);
  if (refusal) return refusal;
  const tx = beginTx(state, ctx.now);
  const r = run(tx, action);
  if (r) return r;
  settle(tx);
  freezeClock(tx);
  tx.s.moves = state.moves + 1;
  return { ok: true, state: tx.s, events: tx.ev };
}

/** S-4: what may be done once the game is over, while the best-player vote is open. */
const IN_POST_GAME: { readonly [K in ActionKind]: boolean } = {
  pass: false,
  nominate: false,
  vote: false,
  voteAll: false,
  shoot: false,
  check: false,
  askDon: false,
  heal: false,
  freeze: false,
  kill: false,
  skip: false,
  take: false,
  guess: false,
  best: true,
  'host-foul': false,
  'host-remove': false,
  'host-kill': false,
  'host-skip': true,
  'host-end': false,
  'host-best': true,
  'host-bonus': true,
  'host-pause': true,
  'host-resume': true,
  'host-extend': true,
  'host-revive': false,
  'host-undo': false,
  timeout: true,
};

function precheck(s: GameState, action: Action, ctx: ApplyContext): Refusal | null {
  if (s.stage.kind === 'over') return refuse('game/over');
  if (action.kind === 'timeout') {
    if (action.seq !== s.seq) return refuse('timeout/stale');
    if (s.paused) return refuse('game/paused'); // G-7: the clock is stopped
    if (s.deadline !== null && ctx.now < s.deadline) return refuse('timeout/early');
    return null;
  }
  if (action.seq !== undefined && action.seq !== s.seq) return refuse('stage/stale');
  // G-7: while the host has stopped the clock only the host acts (a timer cannot fire: no deadline).
  if (s.paused && !action.kind.startsWith('host-')) return refuse('game/paused');
  if (s.stage.kind === 'postGame' && !IN_POST_GAME[action.kind]) return refuse('game/post-game');
  if ('seat' in action && !playerAt(s, action.seat)) return refuse('seat/unknown');
  return null;
}

/**
 * Runs an action on the draft. Every refusal is returned before the first change to the draft,
 * so a refused action leaves the state as it was.
 */
function run(tx: Tx, action: Action): Refusal | null {
  switch (action.kind) {
    case 'timeout':
    case 'host-skip':
      if (action.kind === 'host-skip') emit(tx, HOST, { type: 'host', action });
      endStage(tx);
      return null;
    case 'host-foul':
    case 'host-remove':
    case 'host-kill':
    case 'host-end':
    case 'host-best':
    case 'host-bonus':
      return host(tx, action);
    case 'host-pause':
    case 'host-resume':
    case 'host-extend':
      return clockControl(tx, action);
    case 'host-revive':
      return revive(tx, action);
    case 'host-undo':
      // Taking an action back needs the log (replay.ts), not just the current state.
      return refuse('undo/needs-log');
    case 'pass':
      return pass(tx, action);
    case 'nominate':
      return nominate(tx, action);
    case 'vote':
      return vote(tx, action);
    case 'voteAll':
      return voteAll(tx, action);
    case 'take':
      return take(tx, action);
    case 'guess':
      return guess(tx, action);
    case 'best':
      return best(tx, action);
    case 'shoot':
    case 'check':
    case 'askDon':
    case 'heal':
    case 'freeze':
    case 'kill':
    case 'skip':
      return night(tx, action);
    default: {
      const never: never = action;
      void never; // not reached: actionShapeProblem() refused an unknown kind
      return refuse('action/unknown-kind');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Day

/** The seat whose turn it is (speech, accusation, shootout speech, last words), if any. */
export function currentSpeaker(s: GameState): Seat | null {
  const st = s.stage;
  if (st.kind === 'turns') return st.order[st.index] ?? null;
  if (st.kind === 'shootout') return st.candidates[st.index] ?? null;
  if (st.kind === 'lastWords') return st.speaker;
  return null;
}

function pass(tx: Tx, a: Extract<PlayerAction, { kind: 'pass' }>): Refusal | null {
  const s = tx.s;
  const st = s.stage;
  if (st.kind === 'window') {
    if (!mayTalk(s, a.seat, st.purpose)) return refuse('pass/may-not-speak');
    if (st.passed.includes(a.seat)) return refuse('pass/already');
    s.stage = { ...st, passed: [...st.passed, a.seat] };
    emit(tx, PUBLIC, { type: 'passed', seat: a.seat });
    return null;
  }
  if (currentSpeaker(s) !== a.seat) return refuse('pass/not-your-turn');
  emit(tx, PUBLIC, { type: 'passed', seat: a.seat });
  endStage(tx);
  return null;
}

/** D-2: the nominations a seat may make right now (empty when none). */
export function nominationTargets(s: GameState, seat: Seat): Seat[] {
  const st = s.stage;
  const day = s.day;
  if (!day) return [];
  if (st.kind === 'turns') {
    if (st.order[st.index] !== seat) return [];
  } else if (st.kind === 'window') {
    if (!mayTalk(s, seat, st.purpose) || st.passed.includes(seat)) return [];
  } else return [];
  if (day.nominations.some((nm) => nm.by === seat)) return [];
  return s.players
    .filter((p) => p.alive && (p.seat !== seat || s.options.selfNomination))
    .filter((p) => !day.nominations.some((nm) => nm.target === p.seat))
    .map((p) => p.seat);
}

function nominate(tx: Tx, a: Extract<PlayerAction, { kind: 'nominate' }>): Refusal | null {
  const s = tx.s;
  const st = s.stage;
  const day = s.day;
  if (!day || (st.kind !== 'turns' && st.kind !== 'window')) return refuse('nominate/not-now');
  if (st.kind === 'turns' && st.order[st.index] !== a.seat) return refuse('nominate/not-your-turn');
  if (st.kind === 'window' && (!mayTalk(s, a.seat, st.purpose) || st.passed.includes(a.seat))) {
    return refuse('nominate/may-not-speak');
  }
  if (day.nominations.some((nm) => nm.by === a.seat)) return refuse('nominate/already-nominated');
  if (!isAlive(s, a.target)) return refuse('target/not-at-table');
  if (a.target === a.seat && !s.options.selfNomination) return refuse('nominate/self');
  if (day.nominations.some((nm) => nm.target === a.target)) return refuse('nominate/already-candidate');
  s.day = { ...day, nominations: [...day.nominations, { by: a.seat, target: a.target }] };
  emit(tx, PUBLIC, { type: 'nominated', by: a.seat, target: a.target });
  return null;
}

function vote(tx: Tx, a: Extract<PlayerAction, { kind: 'vote' }>): Refusal | null {
  const s = tx.s;
  const st = s.stage;
  if (st.kind !== 'vote') return refuse('vote/not-now');
  if (!isAlive(s, a.seat)) return refuse('vote/not-at-table');
  if (!mayVote(tx, s, a.seat)) return refuse('vote/no-vote-right');
  if (st.ballots[a.seat - 1] !== 0) return refuse('vote/already-voted');
  if (!st.candidates.includes(a.target)) return refuse('vote/not-a-candidate');
  if (a.target === a.seat && !s.options.selfVote) return refuse('vote/self');
  s.stage = { ...st, ballots: withSeat(st.ballots, a.seat, a.target) };
  emit(tx, toSeat(a.seat), { type: 'accepted', seat: a.seat, action: 'vote', target: a.target });
  return null;
}

function voteAll(tx: Tx, a: Extract<PlayerAction, { kind: 'voteAll' }>): Refusal | null {
  const s = tx.s;
  const st = s.stage;
  if (st.kind !== 'voteAll') return refuse('voteAll/not-now');
  if (!isAlive(s, a.seat)) return refuse('vote/not-at-table');
  if (!mayVote(tx, s, a.seat)) return refuse('vote/no-vote-right');
  if (st.ballots[a.seat - 1] !== 0) return refuse('vote/already-voted');
  s.stage = { ...st, ballots: withSeat(st.ballots, a.seat, a.choice ? 1 : -1) };
  emit(tx, toSeat(a.seat), { type: 'accepted', seat: a.seat, action: 'voteAll', choice: a.choice });
  return null;
}

/** D-8: may this seat take someone with him right now? */
export function mayTake(s: GameState, seat: Seat): boolean {
  const st = s.stage;
  if (!s.options.donTake || st.kind !== 'lastWords' || st.speaker !== seat || s.history.takeUsed) return false;
  const p = playerAt(s, seat);
  if (!p || p.role !== 'don' || p.fouls >= 2) return false;
  const left = s.out.find((o) => o.seat === seat);
  return left?.by === 'vote';
}

function take(tx: Tx, a: Extract<PlayerAction, { kind: 'take' }>): Refusal | null {
  const s = tx.s;
  if (!mayTake(s, a.seat)) return refuse('take/not-allowed');
  if (!isAlive(s, a.target) || a.target === a.seat) return refuse('target/not-at-table');
  s.history = { ...s.history, takeUsed: true };
  emit(tx, PUBLIC, { type: 'take', seat: a.seat, target: a.target });
  leaveTable(tx, [{ seat: a.target }], 'take');
  checkWin(tx);
  return null;
}

/** D-10: may this seat name his best move right now? */
export function mayGuess(tx: Pick<Tx, 'def'>, s: GameState, seat: Seat): boolean {
  const st = s.stage;
  if (!tx.def.bestMove || st.kind !== 'lastWords' || st.speaker !== seat || s.history.bestMove) return false;
  const left = s.out.find((o) => o.seat === seat);
  return left?.by === 'night' && left.at.phase === 'night' && left.at.n === 1;
}

function guess(tx: Tx, a: Extract<PlayerAction, { kind: 'guess' }>): Refusal | null {
  const s = tx.s;
  if (!mayGuess(tx, s, a.seat)) return refuse('guess/not-allowed');
  const t = a.targets;
  if (!Array.isArray(t) || t.length < 2 || t.length > 3) return refuse('guess/count');
  if (new Set(t).size !== t.length) return refuse('guess/duplicate');
  if (t.some((x) => x === a.seat || !isAlive(s, x))) return refuse('target/not-at-table');
  s.history = { ...s.history, bestMove: { seat: a.seat, targets: [...t] } };
  emit(tx, PUBLIC, { type: 'best-move', seat: a.seat, targets: [...t] });
  return null;
}

// ---------------------------------------------------------------------------------------------
// Post-game (S-4)

function best(tx: Tx, a: Extract<PlayerAction, { kind: 'best' }>): Refusal | null {
  const s = tx.s;
  const pg = s.postGame;
  if (s.stage.kind !== 'postGame' || !pg) return refuse('best/not-now');
  if (tx.def.scoring === 'classic') return refuse('best/host-decides');
  if (pg.votes[a.seat - 1] !== 0) return refuse('best/already-voted');
  if (!playerAt(s, a.target)) return refuse('target/not-at-table');
  if (tx.def.scoring === 'kiev' && a.target === a.seat) return refuse('best/self');
  s.postGame = { ...pg, votes: withSeat(pg.votes, a.seat, a.target) };
  emit(tx, toSeat(a.seat), { type: 'accepted', seat: a.seat, action: 'best', target: a.target });
  emit(tx, PUBLIC, { type: 'best-vote', seat: a.seat });
  return null;
}

// ---------------------------------------------------------------------------------------------
// Night (N-1..N-11)

function night(
  tx: Tx,
  a: Extract<PlayerAction, { kind: 'shoot' | 'check' | 'askDon' | 'heal' | 'freeze' | 'kill' | 'skip' }>,
): Refusal | null {
  const s = tx.s;
  const st = s.stage;
  if (st.kind === 'night0') return refuse('night/acquaintance'); // N-1
  if (st.kind !== 'night') return refuse('night/not-now');
  const me = playerAt(s, a.seat)!;
  if (!me.alive) return refuse('night/not-at-table');
  const acts = st.acts;
  let patch: Partial<NightActs>;
  const target = 'target' in a ? a.target : 0;
  if ('target' in a && !isAlive(s, a.target)) {
    // Checked after the actor's right below when the actor has no such action at all.
    if (!hasNightRole(tx, s, a)) return refuse(`${a.kind}/not-your-role`);
    return refuse('target/not-at-table');
  }
  if (a.kind !== 'check' && 'note' in a && (a as { note?: unknown }).note !== undefined) return refuse('check/no-note');
  switch (a.kind) {
    case 'shoot': {
      if (!shooters(s, tx.def.shotRule).includes(a.seat)) return refuse('shoot/not-your-role');
      if (acts.shots[a.seat - 1] !== 0) return refuse('shoot/already');
      patch = { shots: withSeat(acts.shots, a.seat, target) };
      break;
    }
    case 'check': {
      if (a.note === true && me.role !== 'commissioner') return refuse('check/no-note');
      if (me.role === 'don' && donChecks(s)) {
        if (acts.donCheck !== undefined) return refuse('check/already');
        if (target === a.seat) return refuse('check/self');
        patch = { donCheck: target };
        const answer = s.players[target - 1]!.role === 'sheriff' ? 'sheriff' : 'not sheriff';
        recordCheck(tx, a.seat, target, 'don', answer);
      } else if (me.role === 'sheriff') {
        if (acts.sheriffCheck !== undefined) return refuse('check/already');
        if (target === a.seat) return refuse('check/self');
        patch = { sheriffCheck: target };
        recordCheck(tx, a.seat, target, 'sheriff', teamOf(s.players[target - 1]!.role));
      } else if (me.role === 'commissioner') {
        if (acts.commissioner !== undefined) return refuse('check/already');
        if (target === a.seat) return refuse('check/self');
        if (a.note === true && s.history.noteUsed) return refuse('check/note-used');
        patch = { commissioner: { target, note: a.note === true } };
        if (s.options.commissionerAnswer === 'at-once') {
          recordCheck(tx, a.seat, target, 'commissioner', teamOf(s.players[target - 1]!.role));
        }
      } else return refuse('check/not-your-role');
      break;
    }
    case 'askDon': {
      if (me.role !== 'sheriff' || !s.options.askDon) return refuse('askDon/not-your-role');
      if (!askDonOpen(s, acts)) return refuse('askDon/not-now');
      const checked = acts.sheriffCheck as Seat;
      patch = { askDon: 'asked' };
      recordCheck(tx, a.seat, checked, 'askDon', s.players[checked - 1]!.role === 'don' ? 'don' : 'not don');
      break;
    }
    case 'heal': {
      if (me.role !== 'doctor') return refuse('heal/not-your-role');
      if (acts.heal !== undefined) return refuse('heal/already');
      if (!healTargets(s).includes(target)) return refuse('heal/three-in-a-row');
      patch = { heal: target };
      break;
    }
    case 'freeze': {
      if (me.role !== 'prostitute') return refuse('freeze/not-your-role');
      if (acts.freeze !== undefined) return refuse('freeze/already');
      if (!freezeTargets(s).includes(target)) return refuse('freeze/three-in-a-row');
      patch = { freeze: target };
      break;
    }
    case 'kill': {
      if (me.role !== 'maniac') return refuse('kill/not-your-role');
      if (acts.maniac !== undefined) return refuse('kill/already');
      if (target === a.seat) return refuse('kill/self');
      patch = { maniac: target };
      break;
    }
    case 'skip': {
      const d = declinable(s, acts, a.seat);
      if (!d) return refuse('skip/nothing-to-skip');
      patch = d;
      break;
    }
  }
  s.stage = { ...st, acts: { ...acts, ...patch } };
  const accepted = {
    type: 'accepted' as const,
    seat: a.seat,
    action: a.kind,
    ...('target' in a ? { target: a.target } : {}),
  };
  emit(tx, toSeat(a.seat), a.kind === 'check' && a.note ? { ...accepted, note: true } : accepted);
  if (a.kind === 'shoot' && me.role !== 'prostitute') {
    emit(tx, MAFIA, { type: 'shot-picked', seat: a.seat, target: a.target });
  }
  return null;
}

/** Whether the actor has the action at all tonight (to refuse with the more useful code). */
function hasNightRole(tx: Tx, s: GameState, a: { kind: string; seat: Seat }): boolean {
  const role = playerAt(s, a.seat)!.role;
  switch (a.kind) {
    case 'shoot':
      return shooters(s, tx.def.shotRule).includes(a.seat);
    case 'check':
      return (role === 'don' && donChecks(s)) || role === 'sheriff' || role === 'commissioner';
    case 'heal':
      return role === 'doctor';
    case 'freeze':
      return role === 'prostitute';
    case 'kill':
      return role === 'maniac';
    default:
      return false;
  }
}

function recordCheck(
  tx: Tx,
  seat: Seat,
  target: Seat,
  kind: 'don' | 'sheriff' | 'askDon' | 'commissioner',
  answer: GameState['checks'][number]['answer'],
): void {
  const s = tx.s;
  s.checks = [...s.checks, { seat, target, at: s.clock, kind, answer }];
  emit(tx, toSeat(seat), { type: 'check-result', seat, target, kind, answer, at: s.clock });
}

// ---------------------------------------------------------------------------------------------
// Host overrides (G-7, F-1..F-4, E-4, S-4)

/** The longest a host may move a stage's end in one go (a week). */
export const MAX_EXTEND_SECONDS = 7 * 86_400;

/**
 * G-7, P-1: the host's control of the clock. Paused, the state keeps the time that was left
 * instead of a deadline, so no timer fires (also across a restart: there is no deadline to
 * re-arm); resumed, the stage ends that much later than the moment of resuming.
 */
function clockControl(
  tx: Tx,
  a: Extract<HostAction, { kind: 'host-pause' | 'host-resume' | 'host-extend' }>,
): Refusal | null {
  const s = tx.s;
  switch (a.kind) {
    case 'host-pause': {
      if (s.paused) return refuse('pause/already');
      s.paused = { remaining: s.deadline === null ? null : Math.max(0, s.deadline - tx.now) };
      s.deadline = null;
      emit(tx, HOST, { type: 'host', action: a });
      emit(tx, PUBLIC, { type: 'clock', what: 'paused', deadline: null });
      return null;
    }
    case 'host-resume': {
      if (!s.paused) return refuse('resume/not-paused');
      const left = s.paused.remaining;
      delete (s as { paused?: unknown }).paused;
      s.deadline = left === null ? null : tx.now + left;
      emit(tx, HOST, { type: 'host', action: a });
      emit(tx, PUBLIC, { type: 'clock', what: 'resumed', deadline: s.deadline });
      return null;
    }
    case 'host-extend': {
      if (!Number.isSafeInteger(a.seconds) || a.seconds === 0 || Math.abs(a.seconds) > MAX_EXTEND_SECONDS)
        return refuse('extend/bad-duration');
      const ms = a.seconds * 1000;
      if (s.paused) {
        if (s.paused.remaining === null) return refuse('extend/no-timer');
        s.paused = { remaining: Math.max(0, s.paused.remaining + ms) };
      } else {
        if (s.deadline === null) return refuse('extend/no-timer');
        // Shortened past now, the stage ends at once (its timer fires now).
        s.deadline = Math.max(tx.now, s.deadline + ms);
      }
      emit(tx, HOST, { type: 'host', action: a });
      emit(tx, PUBLIC, { type: 'clock', what: 'extended', seconds: a.seconds, deadline: s.deadline });
      return null;
    }
  }
}

/** G-7: a host's ruling taken back: the seat comes back to the table (fouls stay, F-1). */
function revive(tx: Tx, a: Extract<HostAction, { kind: 'host-revive' }>): Refusal | null {
  const s = tx.s;
  const p = playerAt(s, a.target);
  if (!p) return refuse('seat/unknown');
  if (p.alive) return refuse('revive/at-table');
  const left = s.out.find((o) => o.seat === a.target);
  // Only a host's ruling (G-5: removal, host override) is a mistake the host may take back.
  if (!left || (left.by !== 'host' && left.by !== 'removed')) return refuse('revive/not-by-host');
  emit(tx, HOST, { type: 'host', action: a });
  setPlayer(tx, a.target, { alive: true });
  s.out = s.out.filter((o) => o.seat !== a.target);
  emit(tx, PUBLIC, { type: 'revived', seat: a.target });
  // E-1/E-2 are checked after every change of who is at the table.
  checkWin(tx);
  return null;
}

/** G-7: a stage that begins while the clock is stopped keeps its whole time for the resume. */
function freezeClock(tx: Tx): void {
  const s = tx.s;
  if (!s.paused) return;
  if (s.stage.kind === 'over') {
    delete (s as { paused?: unknown }).paused;
    return;
  }
  if (s.deadline !== null) {
    s.paused = { remaining: Math.max(0, s.deadline - tx.now) };
    s.deadline = null;
  }
}

function host(
  tx: Tx,
  a: Exclude<
    HostAction,
    { kind: 'host-skip' | 'host-pause' | 'host-resume' | 'host-extend' | 'host-revive' | 'host-undo' }
  >,
): Refusal | null {
  const s = tx.s;
  switch (a.kind) {
    case 'host-foul': {
      const count = a.count ?? 1;
      if (!Number.isInteger(count) || count < 1) return refuse('foul/bad-count');
      if (!isAlive(s, a.target)) return refuse('target/not-at-table');
      emit(tx, HOST, { type: 'host', action: a });
      giveFouls(tx, a.target, count, a.reason);
      return null;
    }
    case 'host-remove':
    case 'host-kill': {
      if (!isAlive(s, a.target)) return refuse('target/not-at-table');
      emit(tx, HOST, { type: 'host', action: a });
      leaveTable(tx, [{ seat: a.target }], a.kind === 'host-remove' ? 'removed' : 'host');
      checkWin(tx);
      return null;
    }
    case 'host-end': {
      if (s.stage.kind === 'postGame') return refuse('game/post-game');
      if (a.winner !== 'red' && a.winner !== 'black' && a.winner !== 'draw') return refuse('end/bad-winner');
      emit(tx, HOST, { type: 'host', action: a });
      finishGame(tx, a.winner, 'host');
      return null;
    }
    case 'host-best': {
      const pg = s.postGame;
      if (s.stage.kind !== 'postGame' || !pg) return refuse('best/not-now');
      if (tx.def.scoring === 'kiev') return refuse('best/players-decide');
      if (pg.hostBest !== null) return refuse('best/already-voted');
      if (!playerAt(s, a.target)) return refuse('target/not-at-table');
      emit(tx, HOST, { type: 'host', action: a });
      s.postGame = { ...pg, hostBest: a.target };
      return null;
    }
    case 'host-bonus': {
      const pg = s.postGame;
      if (s.stage.kind !== 'postGame' || !pg) return refuse('bonus/not-now');
      if (tx.def.scoring !== 'kiev') return refuse('bonus/not-in-ruleset');
      if (a.points !== 1 && a.points !== 2) return refuse('bonus/bad-points');
      if (!playerAt(s, a.target)) return refuse('target/not-at-table');
      if (pg.bonus[a.target - 1] !== 0) return refuse('bonus/already-given');
      emit(tx, HOST, { type: 'host', action: a });
      s.postGame = { ...pg, bonus: withSeat(pg.bonus, a.target, a.points) };
      return null;
    }
    default: {
      const never: never = a;
      return never;
    }
  }
}

/** F-2 (warnings) and F-3 (five fouls), one foul at a time. */
function giveFouls(tx: Tx, seat: Seat, count: number, reason: string | undefined): void {
  const s = tx.s;
  const system = tx.def.fouls;
  let given = 0;
  for (let i = 0; i < count && isAlive(s, seat); i++) {
    const p = playerAt(s, seat)!;
    const fouls = p.fouls + 1;
    given++;
    if (system === 'warnings') {
      setPlayer(tx, seat, { fouls });
      if (fouls === 3) {
        const day = lostSpeechDay(s, seat);
        setPlayer(tx, seat, { speechLostDay: day });
        emit(tx, PUBLIC, { type: 'speech-lost', seat, day });
      }
      if (fouls >= 4) {
        emit(tx, PUBLIC, { type: 'foul', seat, total: fouls, count: given, ...(reason ? { reason } : {}) });
        given = 0;
        leaveTable(tx, [{ seat }], 'removed');
        checkWin(tx);
      }
    } else {
      // F-3: from the 2nd foul on, each adds a vote against him at the next vote (D-6).
      const extra = fouls >= 2 && fouls < 5 && s.options.foulVotes ? 1 : 0;
      setPlayer(tx, seat, { fouls, foulVotes: p.foulVotes + extra });
      if (fouls >= 5) {
        emit(tx, PUBLIC, { type: 'foul', seat, total: fouls, count: given, ...(reason ? { reason } : {}) });
        given = 0;
        leaveTable(tx, [{ seat }], 'removed');
        checkWin(tx);
      }
    }
  }
  if (given > 0) {
    emit(tx, PUBLIC, {
      type: 'foul',
      seat,
      total: playerAt(s, seat)!.fouls,
      count: given,
      ...(reason ? { reason } : {}),
    });
  }
}

/** F-2: which day's speech the 3rd warning takes away. */
function lostSpeechDay(s: GameState, seat: Seat): number {
  const st = s.stage;
  if (s.clock.phase === 'night') return s.clock.n + 1;
  const today = s.clock.n;
  if (st.kind === 'lastWords' && st.next === 'talk') return today; // the morning, before the round
  if (st.kind === 'turns' && st.purpose === 'speech') {
    const pos = st.order.indexOf(seat);
    return pos > st.index ? today : today + 1;
  }
  return today + 1;
}
