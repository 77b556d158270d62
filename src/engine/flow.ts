// Stage transitions: entering stages, ending them (by timer, by the host, or because everything
// they wait for is in: P-2), players leaving the table, the win check, and the end of the game.
import { emptyActs, nightDone, resolveNight } from './night';
import { computeResult } from './scoring';
import {
  aliveCount,
  emit,
  isAlive,
  nextLivingAfter,
  playerAt,
  PUBLIC,
  setPlayer,
  tableOrderFrom,
  teamCount,
  type Tx,
} from './state';
import type { Clock, EndCause, EventBody, GameState, LeaveBy, OutEntry, Seat, Stage, TimerKey, Winner } from './types';

// ---------------------------------------------------------------------------------------------
// Entering stages

function timerOf(stage: Stage): TimerKey | null {
  switch (stage.kind) {
    case 'night0':
      return 'night0';
    case 'night':
      return 'night';
    case 'lastWords':
      return 'lastWords';
    case 'turns':
      return stage.purpose === 'speech' ? 'speech' : 'accusation';
    case 'window':
      // P-1: async speeches become one discussion window; kiev-12 accusations one accusation window.
      return stage.purpose === 'speech' ? 'discussion' : 'accusation';
    case 'discussion':
      return 'discussion';
    case 'vote':
    case 'voteAll':
      return 'vote';
    case 'shootout':
      return 'shootout';
    case 'postGame':
      return 'postGame';
    case 'over':
      return null;
    default: {
      const never: never = stage;
      return never;
    }
  }
}

/** Sets the stage (or a new turn in it), bumps the sequence number and arms its timer (P-3). */
export function setStage(tx: Tx, stage: Stage): void {
  const s = tx.s;
  const timer = timerOf(stage);
  s.stage = stage;
  s.seq = s.seq + 1;
  s.deadline = timer === null ? null : tx.now + s.options.timers[timer] * 1000;
  emit(tx, PUBLIC, stageEvent(s, stage));
}

function stageEvent(s: GameState, stage: Stage): Extract<EventBody, { type: 'stage' }> {
  const ev: { -readonly [K in keyof Extract<EventBody, { type: 'stage' }>]: Extract<EventBody, { type: 'stage' }>[K] } =
    {
      type: 'stage',
      stage: stage.kind,
      clock: s.clock,
      seq: s.seq,
      deadline: s.deadline,
    };
  switch (stage.kind) {
    case 'turns':
      ev.purpose = stage.purpose;
      ev.speaker = stage.order[stage.index]!;
      break;
    case 'window':
      ev.purpose = stage.purpose;
      break;
    case 'lastWords':
      ev.speaker = stage.speaker;
      break;
    case 'shootout':
      ev.speaker = stage.candidates[stage.index]!;
      ev.candidates = stage.candidates.slice();
      break;
    case 'vote':
      ev.candidates = stage.candidates.slice();
      ev.round = stage.round;
      break;
    case 'voteAll':
      ev.candidates = stage.candidates.slice();
      break;
    default:
      break;
  }
  return ev;
}

function startNight(tx: Tx): void {
  const s = tx.s;
  s.clock = { phase: 'night', n: s.clock.phase === 'day' ? s.clock.n : s.clock.n + 1 };
  setStage(tx, { kind: 'night', acts: emptyActs(s.players.length) });
}

/** D-1: who opens day k. */
function opener(s: GameState, k: number): Seat | null {
  const n = s.players.length;
  const prev = s.history.previousFirstSpeaker;
  if (s.options.dayOpener === 'after-previous-first' && k > 1 && prev !== null) {
    return nextLivingAfter(s, prev);
  }
  const start = ((k - 1) % n) + 1;
  return isAlive(s, start) ? start : nextLivingAfter(s, start);
}

/** F-2, F-3: may this player speak (or accuse) in the day's round? */
export function mayTalk(s: GameState, seat: Seat, purpose: 'speech' | 'accusation'): boolean {
  const p = playerAt(s, seat);
  if (!p || !p.alive) return false;
  if (purpose === 'accusation') return p.fouls < 3; // F-3
  return p.speechLostDay !== s.day?.n; // F-2
}

/** F-3: with 4 fouls a kiev-12 player loses his vote. */
export function mayVote(tx: Pick<Tx, 'def'>, s: GameState, seat: Seat): boolean {
  const p = playerAt(s, seat);
  if (!p || !p.alive) return false;
  return tx.def.fouls !== 'five-fouls' || p.fouls < 4;
}

function startDay(tx: Tx, k: number, nightDeaths: readonly Seat[]): void {
  const s = tx.s;
  if (s.day?.firstSpeaker != null) s.history = { ...s.history, previousFirstSpeaker: s.day.firstSpeaker };
  s.clock = { phase: 'day', n: k };
  s.day = { n: k, nominations: [], firstSpeaker: null };
  // D-9, P-4: last words of the night's dead belong to the morning of the next day.
  if (tx.def.nightKilledLastWords && nightDeaths.length > 0) {
    setStage(tx, { kind: 'lastWords', speaker: nightDeaths[0]!, queue: nightDeaths.slice(1), next: 'talk' });
  } else {
    startTalk(tx);
  }
}

function startTalk(tx: Tx): void {
  if (tx.def.dayShape === 'discussion-accusations') {
    setStage(tx, { kind: 'discussion' });
  } else {
    startRound(tx, 'speech');
  }
}

/** D-1, P-1: the round of speeches or accusations: in turn (live) or one open window (async). */
function startRound(tx: Tx, purpose: 'speech' | 'accusation'): void {
  const s = tx.s;
  const first = opener(s, s.day!.n);
  const order = first === null ? [] : tableOrderFrom(s, first);
  if (s.pace === 'async') {
    const firstEligible = order.find((seat) => mayTalk(s, seat, purpose));
    if (firstEligible !== undefined && s.day!.firstSpeaker === null) {
      s.day = { ...s.day!, firstSpeaker: firstEligible };
    }
    setStage(tx, { kind: 'window', purpose, passed: [] });
    return;
  }
  startTurn(tx, purpose, order, 0);
}

function startTurn(tx: Tx, purpose: 'speech' | 'accusation', order: readonly Seat[], from: number): void {
  const s = tx.s;
  let i = from;
  while (i < order.length && !mayTalk(s, order[i]!, purpose)) i++;
  if (i >= order.length) {
    endTalk(tx);
    return;
  }
  // D-1: the day's first speaker (or first accuser), for the after-previous-first opener.
  if (s.day!.firstSpeaker === null) s.day = { ...s.day!, firstSpeaker: order[i]! };
  setStage(tx, { kind: 'turns', purpose, order, index: i });
}

/** D-4: after the round of speeches (or accusations), vote on the candidates, if there is a vote. */
function endTalk(tx: Tx): void {
  const s = tx.s;
  const day = s.day!;
  const candidates = day.nominations.map((nm) => nm.target).filter((seat) => isAlive(s, seat));
  if (candidates.length === 0) {
    emit(tx, PUBLIC, { type: 'no-vote', reason: day.nominations.length === 0 ? 'no-candidates' : 'candidates-left' });
    startNight(tx);
  } else if (day.n === 1 && candidates.length === 1 && !s.options.day1SingleCandidateVote) {
    emit(tx, PUBLIC, { type: 'no-vote', reason: 'single-candidate-day-1' });
    startNight(tx);
  } else {
    startVote(tx, 1, candidates);
  }
}

function startVote(tx: Tx, round: 1 | 2, candidates: readonly Seat[]): void {
  setStage(tx, { kind: 'vote', round, candidates, ballots: new Array<number>(tx.s.players.length).fill(0) });
}

function startLastWords(tx: Tx, speakers: readonly Seat[], next: 'talk' | 'night'): void {
  if (speakers.length === 0) {
    if (next === 'talk') startTalk(tx);
    else startNight(tx);
    return;
  }
  setStage(tx, { kind: 'lastWords', speaker: speakers[0]!, queue: speakers.slice(1), next });
}

// ---------------------------------------------------------------------------------------------
// Voting (D-3..D-7)

/** D-5: may this voter vote for some candidate of the current vote? */
export function hasBallot(tx: Pick<Tx, 'def'>, s: GameState, seat: Seat, candidates: readonly Seat[]): boolean {
  if (!mayVote(tx, s, seat)) return false;
  return candidates.some((c) => isAlive(s, c) && (c !== seat || s.options.selfVote));
}

function voteComplete(tx: Tx, stage: Extract<Stage, { kind: 'vote' }>): boolean {
  const s = tx.s;
  if (!stage.candidates.some((c) => isAlive(s, c))) return true;
  for (const p of s.players) {
    if (p.alive && stage.ballots[p.seat - 1] === 0 && hasBallot(tx, s, p.seat, stage.candidates)) return false;
  }
  return true;
}

function closeVote(tx: Tx, stage: Extract<Stage, { kind: 'vote' }>): void {
  const s = tx.s;
  const cands = stage.candidates.filter((c) => isAlive(s, c));
  if (cands.length === 0) {
    emit(tx, PUBLIC, { type: 'no-vote', reason: 'candidates-left' });
    startNight(tx);
    return;
  }
  const votes = new Map<Seat, number>(cands.map((c) => [c, 0]));
  const voters: { seat: Seat; target: Seat | null; counted: boolean }[] = [];
  for (const p of s.players) {
    if (!p.alive) continue;
    const ballot = stage.ballots[p.seat - 1]!;
    // F-3, D-5: a vote already cast stands even if its voter has lost the right to vote since.
    if (ballot === 0 && !hasBallot(tx, s, p.seat, cands)) continue;
    if (ballot !== 0 && votes.has(ballot)) {
      votes.set(ballot, votes.get(ballot)! + 1);
      voters.push({ seat: p.seat, target: ballot, counted: false });
    } else if (s.options.nonVoter === 'last-candidate') {
      // D-5: a player who did not vote counts for the last nominated candidate (of this vote).
      const last = cands[cands.length - 1]!;
      if (last !== p.seat || s.options.selfVote) {
        votes.set(last, votes.get(last)! + 1);
        voters.push({ seat: p.seat, target: last, counted: true });
      } else voters.push({ seat: p.seat, target: null, counted: false });
    } else {
      voters.push({ seat: p.seat, target: null, counted: false });
    }
  }
  // D-6: pending foul votes are added at the next voting in which the player is a candidate.
  const foulVotes = new Map<Seat, number>();
  if (s.options.foulVotes) {
    for (const c of cands) {
      const fv = playerAt(s, c)!.foulVotes;
      if (fv > 0) {
        foulVotes.set(c, fv);
        votes.set(c, votes.get(c)! + fv);
        setPlayer(tx, c, { foulVotes: 0 });
      }
    }
  }
  let max = 0;
  for (const v of votes.values()) max = Math.max(max, v);
  const leaders = max >= Math.max(1, s.options.minVotesToLeave) ? cands.filter((c) => votes.get(c) === max) : [];
  const tally = cands.map((c) => ({ seat: c, votes: votes.get(c)!, foulVotes: foulVotes.get(c) ?? 0 }));
  const outcome = leaders.length === 1 ? 'leaves' : leaders.length > 1 ? 'tie' : 'nobody';
  emit(tx, PUBLIC, {
    type: 'vote-result',
    round: stage.round,
    tally,
    voters,
    leaving: outcome === 'leaves' ? leaders : [],
    outcome,
  });
  if (outcome === 'nobody') {
    startNight(tx);
  } else if (outcome === 'leaves') {
    leaveByVote(tx, leaders);
  } else if (s.options.noTieBreakAtAlive > 0 && aliveCount(s) <= s.options.noTieBreakAtAlive) {
    // D-7 (classic-10): with 4 or fewer alive, a tie (first vote or revote) gets no speeches and
    // no revote: nobody leaves and night falls.
    emit(tx, PUBLIC, { type: 'tie-no-break', candidates: leaders });
    startNight(tx);
  } else if (stage.round === 1) {
    startShootout(tx, leaders, 0);
  } else if (s.options.tieAgain === 'all-leave-vote') {
    setStage(tx, { kind: 'voteAll', candidates: leaders, ballots: new Array<number>(s.players.length).fill(0) });
  } else {
    emit(tx, PUBLIC, { type: 'tie-no-break', candidates: leaders });
    startNight(tx);
  }
}

/** D-7: the tied candidates speak in nomination order, then a revote among them. */
function startShootout(tx: Tx, candidates: readonly Seat[], from: number): void {
  const s = tx.s;
  let i = from;
  while (i < candidates.length && !isAlive(s, candidates[i]!)) i++;
  if (i >= candidates.length) {
    const still = candidates.filter((c) => isAlive(s, c));
    if (still.length === 0) {
      emit(tx, PUBLIC, { type: 'no-vote', reason: 'candidates-left' });
      startNight(tx);
    } else startVote(tx, 2, still);
    return;
  }
  setStage(tx, { kind: 'shootout', candidates, index: i });
}

function voteAllComplete(tx: Tx, stage: Extract<Stage, { kind: 'voteAll' }>): boolean {
  const s = tx.s;
  if (!stage.candidates.some((c) => isAlive(s, c))) return true;
  return s.players.every((p) => !p.alive || !mayVote(tx, s, p.seat) || stage.ballots[p.seat - 1] !== 0);
}

/** D-7 (classic-10): "shall all of them leave?" passes with more than half of the living. */
function closeVoteAll(tx: Tx, stage: Extract<Stage, { kind: 'voteAll' }>): void {
  const s = tx.s;
  const cands = stage.candidates.filter((c) => isAlive(s, c));
  const yes: Seat[] = [];
  const no: Seat[] = [];
  for (const p of s.players) {
    const ballot = stage.ballots[p.seat - 1]!;
    // F-3: a cast vote stands after its voter loses the right to vote.
    if (!p.alive || (ballot === 0 && !mayVote(tx, s, p.seat))) continue;
    if (ballot === 1) yes.push(p.seat);
    else no.push(p.seat);
  }
  const alive = aliveCount(s);
  const passed = cands.length > 0 && yes.length * 2 > alive;
  emit(tx, PUBLIC, { type: 'vote-all-result', yes, no, alive, passed, candidates: cands });
  if (passed) leaveByVote(tx, cands);
  else startNight(tx);
}

function leaveByVote(tx: Tx, seats: readonly Seat[]): void {
  const s = tx.s;
  const nominations = s.day?.nominations ?? [];
  const entries = seats.map((seat) => {
    const nominatedBy = nominations.find((nm) => nm.target === seat)?.by;
    return nominatedBy === undefined ? { seat } : { seat, nominatedBy };
  });
  leaveTable(tx, entries, 'vote');
  if (checkWin(tx)) return;
  startLastWords(tx, seats, 'night');
}

// ---------------------------------------------------------------------------------------------
// Leaving the table (G-5, G-8) and the end of the game (E-1..E-4)

/** Marks players as gone, in the given order, and voids what they had pending (G-8). */
export function leaveTable(
  tx: Tx,
  entries: readonly { seat: Seat; nominatedBy?: Seat; shooters?: readonly Seat[] }[],
  by: LeaveBy,
): void {
  const s = tx.s;
  const at: Clock = s.clock;
  const gone = new Set<Seat>();
  const added: OutEntry[] = [];
  for (const e of entries) {
    if (!isAlive(s, e.seat)) continue;
    setPlayer(tx, e.seat, { alive: false, foulVotes: 0 });
    gone.add(e.seat);
    added.push({ ...e, by, at });
    const role = tx.def.revealOnLeave ? { role: playerAt(s, e.seat)!.role } : {};
    emit(tx, PUBLIC, { type: 'left', seat: e.seat, by, at, ...role });
  }
  if (added.length === 0) return;
  s.out = [...s.out, ...added];
  const st = s.stage;
  if (st.kind === 'vote') {
    // G-8: a candidate who leaves is struck off; votes for him are void and may be cast again.
    const ballots = st.ballots.map((b, i) => (gone.has(b) || gone.has(i + 1) ? 0 : b));
    s.stage = { ...st, candidates: st.candidates.filter((c) => !gone.has(c)), ballots };
  } else if (st.kind === 'voteAll') {
    const ballots = st.ballots.map((b, i) => (gone.has(i + 1) ? 0 : b));
    s.stage = { ...st, candidates: st.candidates.filter((c) => !gone.has(c)), ballots };
  } else if (st.kind === 'night') {
    const shots = st.acts.shots.map((t, i) => (gone.has(i + 1) ? 0 : t));
    s.stage = { ...st, acts: { ...st.acts, shots } };
  }
}

/** E-1, E-2: ends the game if a team has won; returns whether it is over. */
export function checkWin(tx: Tx): boolean {
  const s = tx.s;
  if (s.result !== null) return true;
  const black = teamCount(s, 'black');
  const red = teamCount(s, 'red');
  let winner: Winner | null = null;
  let why: EndCause | null = null;
  if (tx.def.win === 'parity') {
    if (black === 0) [winner, why] = ['red', 'no-black'];
    else if (black >= red) [winner, why] = ['black', 'parity'];
  } else if (black === 0 && red === 0) [winner, why] = ['draw', 'both-gone'];
  else if (black === 0) [winner, why] = ['red', 'no-black'];
  else if (red === 0) [winner, why] = ['black', 'no-red'];
  if (winner === null) return false;
  finishGame(tx, winner, 'rules', why);
  return true;
}

/** E-5: reveal every role, announce the result, open the post-game vote (S-4). */
export function finishGame(
  tx: Tx,
  winner: Winner,
  reason: 'rules' | 'host' | 'empty-rounds',
  why: EndCause | null = null,
): void {
  const s = tx.s;
  const n = s.players.length;
  s.result = { winner, reason, at: s.clock, points: null, bestPlayer: null };
  s.postGame = { votes: new Array<number>(n).fill(0), hostBest: null, bonus: new Array<number>(n).fill(0) };
  const left = { red: teamCount(s, 'red'), black: teamCount(s, 'black') };
  emit(tx, PUBLIC, { type: 'game-over', winner, reason, why, left, roles: s.players.map((p) => p.role) });
  setStage(tx, { kind: 'postGame' });
}

/** E-3: nobody left in rounds k-R+1..k (a round is day k plus night k). */
function emptyRounds(s: GameState, k: number, rounds: number): boolean {
  if (rounds <= 0 || k < rounds) return false;
  const from = k - rounds + 1;
  return !s.out.some((o) => o.at.n >= from && o.at.n <= k && !(o.at.phase === 'night' && o.at.n === 0));
}

function endNight(tx: Tx, stage: Extract<Stage, { kind: 'night' }>): void {
  const s = tx.s;
  const k = s.clock.n;
  const outcome = resolveNight(tx, stage.acts);
  const entries = outcome.deaths.map((seat) =>
    seat === outcome.shotTarget && outcome.shotBy.length > 0 ? { seat, shooters: outcome.shotBy } : { seat },
  );
  leaveTable(tx, entries, 'night');
  // N-12: who left (in seat order), never who shot; kiev-12 shows the cards; N-11 the note.
  const note = s.notes.find((nt) => nt.at.phase === 'night' && nt.at.n === k) ?? null;
  emit(tx, PUBLIC, {
    type: 'morning',
    night: k,
    out: outcome.deaths.map((seat) => (tx.def.revealOnLeave ? { seat, role: playerAt(s, seat)!.role } : { seat })),
    note,
  });
  if (checkWin(tx)) return;
  if (emptyRounds(s, k, s.options.emptyRoundsDraw)) {
    finishGame(tx, 'draw', 'empty-rounds');
    return;
  }
  startDay(tx, k + 1, outcome.deaths);
}

function endPostGame(tx: Tx): void {
  const s = tx.s;
  const { points, bestPlayer } = computeResult(s);
  s.result = { ...s.result!, points, bestPlayer };
  emit(tx, PUBLIC, { type: 'points', points, bestPlayer });
  s.stage = { kind: 'over' };
  s.seq = s.seq + 1;
  s.deadline = null;
  emit(tx, PUBLIC, { type: 'stage', stage: 'over', clock: s.clock, seq: s.seq, deadline: null });
}

// ---------------------------------------------------------------------------------------------
// Ending the current stage or turn (its timer ran out, the host skipped it, or P-2)

/** Ends the current turn or stage as if its timer ran out (P-3). */
export function endStage(tx: Tx): void {
  const s = tx.s;
  const st = s.stage;
  switch (st.kind) {
    case 'night0':
      startDay(tx, 1, []);
      return;
    case 'night':
      endNight(tx, st);
      return;
    case 'lastWords':
      if (st.queue.length > 0) setStage(tx, { ...st, speaker: st.queue[0]!, queue: st.queue.slice(1) });
      else startLastWords(tx, [], st.next);
      return;
    case 'turns':
      startTurn(tx, st.purpose, st.order, st.index + 1);
      return;
    case 'window':
      endTalk(tx);
      return;
    case 'discussion':
      startRound(tx, 'accusation');
      return;
    case 'vote':
      closeVote(tx, st);
      return;
    case 'shootout':
      startShootout(tx, st.candidates, st.index + 1);
      return;
    case 'voteAll':
      closeVoteAll(tx, st);
      return;
    case 'postGame':
      endPostGame(tx);
      return;
    case 'over':
      return;
    default: {
      const never: never = st;
      return never;
    }
  }
}

/** P-2: is the current stage (or turn) waiting for nothing more? */
function complete(tx: Tx): boolean {
  const s = tx.s;
  const st = s.stage;
  switch (st.kind) {
    case 'night':
      return nightDone(s, st.acts, tx.def.shotRule);
    case 'turns':
      return !mayTalk(s, st.order[st.index]!, st.purpose);
    case 'shootout':
      return !isAlive(s, st.candidates[st.index]!);
    case 'window':
      return s.players.every((p) => !mayTalk(s, p.seat, st.purpose) || st.passed.includes(p.seat));
    case 'vote':
      return voteComplete(tx, st);
    case 'voteAll':
      return voteAllComplete(tx, st);
    default:
      // night 0, discussion, last words and the post-game vote end only by timer, host or action.
      return false;
  }
}

/** Moves on for as long as the current stage waits for nothing (P-2). */
export function settle(tx: Tx): void {
  for (let guard = 0; guard < 1000 && complete(tx); guard++) endStage(tx);
}
