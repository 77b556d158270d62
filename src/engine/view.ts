// What each audience may know is a function of the state (N-13): the public view, one seat's view
// and the mafia's view. The Discord layer renders only these, so it cannot leak a role by accident.
import { currentSpeaker, mayGuess, mayTake, nominationTargets } from './apply';
import { hasBallot, mayTalk, mayVote } from './flow';
import { askDonOpen, declinable, donChecks, freezeTargets, healTargets, livingTargets, shooters } from './night';
import { RULESETS, teamOf } from './rulesets';
import { computeResult } from './scoring';
import { playerAt, positionLabel } from './state';
import type {
  CheckEntry,
  Clock,
  GameState,
  LeaveBy,
  NoteEntry,
  PlayerActionKind,
  PointsBreakdown,
  Role,
  Seat,
  StageKind,
  Team,
  Winner,
} from './types';

/** What each prompt carries besides its kind; every player action has one (see ActionKind). */
interface PromptFields {
  pass: object;
  nominate: { targets: Seat[] };
  vote: { targets: Seat[] };
  voteAll: object;
  shoot: { targets: Seat[] };
  check: { as: 'don' | 'sheriff' | 'commissioner'; targets: Seat[]; note: boolean };
  askDon: { target: Seat };
  heal: { targets: Seat[] };
  freeze: { targets: Seat[] };
  kill: { targets: Seat[] };
  skip: object;
  take: { targets: Seat[] };
  guess: { targets: Seat[]; min: 2; max: 3 };
  best: { targets: Seat[] };
}

/** A thing a seat can do right now, with its legal targets (for menus, buttons and random play). */
export type Prompt = { [K in PlayerActionKind]: { kind: K } & PromptFields[K] }[PlayerActionKind];

export type PromptKind = Prompt['kind'];

const def = (s: GameState) => ({ def: RULESETS[s.ruleset] });

/** Everything `seat` may do now; an action built from these is always accepted. */
export function prompts(s: GameState, seat: Seat): Prompt[] {
  const me = playerAt(s, seat);
  if (!me) return [];
  const st = s.stage;
  const out: Prompt[] = [];
  switch (st.kind) {
    case 'night': {
      if (!me.alive) return out;
      const acts = st.acts;
      const d = RULESETS[s.ruleset];
      if (shooters(s, d.shotRule).includes(seat) && acts.shots[seat - 1] === 0) {
        out.push({ kind: 'shoot', targets: livingTargets(s, null) });
      }
      const others = livingTargets(s, seat);
      if (me.role === 'don' && donChecks(s) && acts.donCheck === undefined) {
        out.push({ kind: 'check', as: 'don', targets: others, note: false });
      }
      if (me.role === 'sheriff') {
        if (acts.sheriffCheck === undefined) out.push({ kind: 'check', as: 'sheriff', targets: others, note: false });
        else if (askDonOpen(s, acts)) out.push({ kind: 'askDon', target: acts.sheriffCheck as Seat });
      }
      if (me.role === 'commissioner' && acts.commissioner === undefined) {
        out.push({ kind: 'check', as: 'commissioner', targets: others, note: !s.history.noteUsed });
      }
      if (me.role === 'doctor' && acts.heal === undefined) out.push({ kind: 'heal', targets: healTargets(s) });
      if (me.role === 'prostitute' && acts.freeze === undefined)
        out.push({ kind: 'freeze', targets: freezeTargets(s) });
      if (me.role === 'maniac' && acts.maniac === undefined) out.push({ kind: 'kill', targets: others });
      if (declinable(s, acts, seat)) out.push({ kind: 'skip' });
      return out;
    }
    case 'turns':
    case 'shootout':
    case 'lastWords':
    case 'window': {
      const speaking =
        st.kind === 'window' ? mayTalk(s, seat, st.purpose) && !st.passed.includes(seat) : currentSpeaker(s) === seat;
      if (!speaking) return out;
      out.push({ kind: 'pass' });
      const noms = nominationTargets(s, seat);
      if (noms.length > 0) out.push({ kind: 'nominate', targets: noms });
      if (mayTake(s, seat)) out.push({ kind: 'take', targets: livingTargets(s, seat) });
      if (mayGuess(def(s), s, seat)) {
        const targets = livingTargets(s, seat);
        if (targets.length >= 2) out.push({ kind: 'guess', targets, min: 2, max: 3 });
      }
      return out;
    }
    case 'vote': {
      if (!me.alive || st.ballots[seat - 1] !== 0 || !hasBallot(def(s), s, seat, st.candidates)) return out;
      const targets = st.candidates.filter((c) => c !== seat || s.options.selfVote);
      out.push({ kind: 'vote', targets });
      return out;
    }
    case 'voteAll':
      if (me.alive && mayVote(def(s), s, seat) && st.ballots[seat - 1] === 0) out.push({ kind: 'voteAll' });
      return out;
    case 'postGame': {
      const scoring = RULESETS[s.ruleset].scoring;
      if (scoring === 'classic' || s.postGame!.votes[seat - 1] !== 0) return out;
      const targets = s.players.map((p) => p.seat).filter((t) => scoring !== 'kiev' || t !== seat);
      out.push({ kind: 'best', targets });
      return out;
    }
    default:
      return out;
  }
}

export type HostPrompt =
  | { kind: 'host-skip' }
  | { kind: 'host-end' }
  | { kind: 'host-foul'; targets: Seat[] }
  | { kind: 'host-remove'; targets: Seat[] }
  | { kind: 'host-kill'; targets: Seat[] }
  | { kind: 'host-best'; targets: Seat[] }
  | { kind: 'host-bonus'; targets: Seat[] };

/** What the host may do now (G-7). */
export function hostPrompts(s: GameState): HostPrompt[] {
  const st = s.stage.kind;
  if (st === 'over') return [];
  const all = s.players.map((p) => p.seat);
  if (st === 'postGame') {
    const out: HostPrompt[] = [{ kind: 'host-skip' }];
    const scoring = RULESETS[s.ruleset].scoring;
    if (scoring !== 'kiev' && s.postGame!.hostBest === null) out.push({ kind: 'host-best', targets: all });
    if (scoring === 'kiev') {
      const targets = all.filter((t) => s.postGame!.bonus[t - 1] === 0);
      if (targets.length > 0) out.push({ kind: 'host-bonus', targets });
    }
    return out;
  }
  const alive = livingTargets(s, null);
  return [
    { kind: 'host-skip' },
    { kind: 'host-end' },
    { kind: 'host-foul', targets: alive },
    { kind: 'host-remove', targets: alive },
    { kind: 'host-kill', targets: alive },
  ];
}

// ---------------------------------------------------------------------------------------------

export interface PublicSeat {
  seat: Seat;
  alive: boolean;
  fouls: number;
  left: { by: LeaveBy; at: Clock } | null;
  /** Only when the rules have revealed it (G-6, E-5). */
  role: Role | null;
}

export interface PublicView {
  ruleset: GameState['ruleset'];
  pace: GameState['pace'];
  position: string;
  clock: Clock;
  stage: {
    kind: StageKind;
    seq: number;
    deadline: number | null;
    purpose?: 'speech' | 'accusation';
    speaker?: Seat;
    candidates?: Seat[];
    round?: 1 | 2;
    /** How many have voted (not for whom) during a vote. */
    voted?: number;
    passed?: Seat[];
  };
  seats: PublicSeat[];
  nominations: { by: Seat; target: Seat }[];
  notes: NoteEntry[];
  bestMove: { seat: Seat; targets: Seat[] } | null;
  winner: Winner | null;
  points: PointsBreakdown[] | null;
  bestPlayer: Seat | null;
}

/** G-6, E-5: is this seat's card shown to everybody? */
export function roleRevealed(s: GameState, seat: Seat): boolean {
  if (s.result !== null) return true;
  const p = playerAt(s, seat);
  return p !== undefined && !p.alive && RULESETS[s.ruleset].revealOnLeave;
}

export function publicView(s: GameState): PublicView {
  const st = s.stage;
  const stage: PublicView['stage'] = { kind: st.kind, seq: s.seq, deadline: s.deadline };
  switch (st.kind) {
    case 'turns':
      Object.assign(stage, { purpose: st.purpose, speaker: st.order[st.index] });
      break;
    case 'window':
      Object.assign(stage, { purpose: st.purpose, passed: [...st.passed] });
      break;
    case 'lastWords':
      stage.speaker = st.speaker;
      break;
    case 'shootout':
      Object.assign(stage, { speaker: st.candidates[st.index], candidates: [...st.candidates] });
      break;
    case 'vote':
      Object.assign(stage, {
        candidates: [...st.candidates],
        round: st.round,
        voted: st.ballots.filter((b) => b !== 0).length,
      });
      break;
    case 'voteAll':
      Object.assign(stage, { candidates: [...st.candidates], voted: st.ballots.filter((b) => b !== 0).length });
      break;
    default:
      break;
  }
  return {
    ruleset: s.ruleset,
    pace: s.pace,
    position: positionLabel(s),
    clock: s.clock,
    stage,
    seats: s.players.map((p) => {
      const left = s.out.find((o) => o.seat === p.seat);
      return {
        seat: p.seat,
        alive: p.alive,
        fouls: p.fouls,
        left: left ? { by: left.by, at: left.at } : null,
        role: roleRevealed(s, p.seat) ? p.role : null,
      };
    }),
    nominations: s.day && s.clock.phase === 'day' ? s.day.nominations.map((n) => ({ ...n })) : [],
    notes: [...s.notes],
    bestMove: s.history.bestMove ? { seat: s.history.bestMove.seat, targets: [...s.history.bestMove.targets] } : null,
    winner: s.result?.winner ?? null,
    points: s.result?.points ? [...s.result.points] : null,
    bestPlayer: s.result?.points ? s.result.bestPlayer : null,
  };
}

export interface SeatView {
  seat: Seat;
  role: Role;
  team: Team;
  alive: boolean;
  fouls: number;
  /** G-4: the black players this seat knows (empty for red and for an uninformed prostitute). */
  knownBlack: { seat: Seat; role: Role }[];
  /** This seat's own check answers (N-5, N-6, N-11). */
  checks: CheckEntry[];
  prompts: Prompt[];
  /** Does anything wait for this seat in the current stage? */
  awaited: boolean;
}

/** G-4: the black players who know each other: mafia and Don, and the prostitute by option. */
export function inMafiaCircle(s: GameState, role: Role): boolean {
  return role === 'mafia' || role === 'don' || (role === 'prostitute' && s.options.prostituteKnowsMafia);
}

/** G-4: who the mafia (and, by option, the prostitute) know. */
function knownBlack(s: GameState, seat: Seat): { seat: Seat; role: Role }[] {
  const me = playerAt(s, seat)!;
  if (teamOf(me.role) !== 'black') return [];
  const knowsMafia = me.role !== 'prostitute' || s.options.prostituteKnowsMafia;
  if (!knowsMafia) return [];
  return s.players
    .filter((p) => p.seat !== seat && inMafiaCircle(s, p.role))
    .map((p) => ({ seat: p.seat, role: p.role }));
}

export function seatView(s: GameState, seat: Seat): SeatView {
  const me = playerAt(s, seat);
  if (!me) throw new Error(`no seat ${seat}`);
  const ps = prompts(s, seat);
  return {
    seat,
    role: me.role,
    team: teamOf(me.role),
    alive: me.alive,
    fouls: me.fouls,
    knownBlack: knownBlack(s, seat),
    checks: s.checks.filter((c) => c.seat === seat),
    prompts: ps,
    awaited: ps.length > 0,
  };
}

export interface MafiaView {
  members: { seat: Seat; role: Role; alive: boolean }[];
  /** Tonight's shots of the living shooters (they agree on a target by "gestures"). */
  shots: { seat: Seat; target: Seat }[];
}

/** What the mafia's private channel may show (G-4, M-2). */
export function mafiaView(s: GameState): MafiaView {
  const members = s.players
    .filter((p) => inMafiaCircle(s, p.role))
    .map((p) => ({ seat: p.seat, role: p.role, alive: p.alive }));
  const shots: MafiaView['shots'] = [];
  if (s.stage.kind === 'night') {
    s.stage.acts.shots.forEach((t, i) => {
      if (t !== 0 && playerAt(s, i + 1)!.role !== 'prostitute') shots.push({ seat: i + 1, target: t });
    });
  }
  return { members, shots };
}

/** The seats that may act right now (a superset is fine): cheaper than asking every seat. */
export function actorsNow(s: GameState): Seat[] {
  const st = s.stage;
  switch (st.kind) {
    case 'turns':
    case 'shootout':
    case 'lastWords': {
      const sp = currentSpeaker(s);
      return sp === null ? [] : [sp];
    }
    case 'night0':
    case 'discussion':
    case 'over':
      return [];
    case 'postGame':
      return RULESETS[s.ruleset].scoring === 'classic'
        ? []
        : s.players.filter((p) => s.postGame!.votes[p.seat - 1] === 0).map((p) => p.seat);
    case 'vote':
    case 'voteAll':
      return s.players.filter((p) => p.alive && st.ballots[p.seat - 1] === 0).map((p) => p.seat);
    default:
      return s.players.filter((p) => p.alive).map((p) => p.seat);
  }
}

export type ChannelWriters =
  | { mode: 'nobody' }
  /** Only these seats may write (a speaker, the open window's players, the discussion). */
  | { mode: 'seats'; seats: Seat[] }
  /** The game is over: the table talks freely. */
  | { mode: 'everyone' };

/**
 * M-1, M-3: who may write in the game channel right now. Nobody at night or during a vote; the
 * speaker during his speech, accusation, shootout speech or last words; the living who may speak
 * during an open window or kiev-12's discussion (F-2, F-3). Players who left never, except for
 * their own last words.
 */
export function channelWriters(s: GameState): ChannelWriters {
  const st = s.stage;
  switch (st.kind) {
    case 'turns':
    case 'shootout':
    case 'lastWords': {
      const sp = currentSpeaker(s);
      return sp === null ? { mode: 'nobody' } : { mode: 'seats', seats: [sp] };
    }
    case 'window':
      return {
        mode: 'seats',
        seats: s.players
          .filter((p) => mayTalk(s, p.seat, st.purpose) && !st.passed.includes(p.seat))
          .map((p) => p.seat),
      };
    case 'discussion':
      return { mode: 'seats', seats: s.players.filter((p) => mayTalk(s, p.seat, 'accusation')).map((p) => p.seat) };
    case 'postGame':
    case 'over':
      return { mode: 'everyone' };
    default:
      return { mode: 'nobody' };
  }
}

/** M-2: may the mafia talk in their private thread now? Night 0 always; other nights by option. */
export function mafiaTalkOpen(s: GameState): boolean {
  if (s.stage.kind === 'night0') return true;
  return s.stage.kind === 'night' && s.options.mafiaTalk === 'every-night';
}

/**
 * E-5, S-1..S-4: the points of a finished game as they stand (final once the post-game vote has
 * closed; before that, without the best-player items still to come).
 */
export function pointsNow(s: GameState): readonly PointsBreakdown[] | null {
  if (!s.result) return null;
  return s.result.points ?? computeResult(s).points;
}
