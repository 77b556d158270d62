// Small helpers over GameState shared by the engine's modules. A transaction (Tx) holds a draft of
// the state: top-level fields and the players array are copied when the draft is made; nested values
// are never mutated, only replaced, so the previous state stays intact (tests deep-freeze it).
import { RULESETS, teamOf, type RulesetDef } from './rulesets';
import type {
  Audience,
  Clock,
  EngineRefusalCode,
  EventBody,
  GameEvent,
  GameState,
  Player,
  Refusal,
  Role,
  Seat,
  Team,
} from './types';

export type Draft = { -readonly [K in keyof GameState]: GameState[K] };

export interface Tx {
  readonly s: Draft;
  readonly ev: GameEvent[];
  readonly now: number;
  readonly def: RulesetDef;
}

export const PUBLIC: Audience = { kind: 'public' };
export const MAFIA: Audience = { kind: 'mafia' };
export const HOST: Audience = { kind: 'host' };
export const toSeat = (seat: Seat): Audience => ({ kind: 'seat', seat });

export function refuse(code: EngineRefusalCode): Refusal {
  return { ok: false, code };
}

export function beginTx(state: GameState, now: number): Tx {
  // Fields listed one by one: much faster than an object spread on this hot path.
  const s: Draft = {
    v: state.v,
    ruleset: state.ruleset,
    pace: state.pace,
    options: state.options,
    players: state.players.slice(),
    clock: state.clock,
    stage: state.stage,
    seq: state.seq,
    deadline: state.deadline,
    day: state.day,
    out: state.out,
    checks: state.checks,
    notes: state.notes,
    history: state.history,
    result: state.result,
    postGame: state.postGame,
    moves: state.moves,
  };
  // G-7: only a paused game has the field (states of games never paused stay as they were).
  if (state.paused) s.paused = state.paused;
  return { s, ev: [], now, def: RULESETS[state.ruleset] };
}

export function emit(tx: Tx, to: Audience, body: EventBody): void {
  tx.ev.push({ to, body });
}

export function playerAt(s: GameState, seat: Seat): Player | undefined {
  return Number.isInteger(seat) && seat >= 1 ? s.players[seat - 1] : undefined;
}

export function isAlive(s: GameState, seat: Seat): boolean {
  return playerAt(s, seat)?.alive === true;
}

export function setPlayer(tx: Tx, seat: Seat, patch: Partial<Player>): void {
  const players = tx.s.players as Player[];
  const p = players[seat - 1];
  if (p) players[seat - 1] = { ...p, ...patch };
}

export function aliveSeats(s: GameState): Seat[] {
  const out: Seat[] = [];
  for (const p of s.players) if (p.alive) out.push(p.seat);
  return out;
}

export function aliveCount(s: GameState): number {
  let n = 0;
  for (const p of s.players) if (p.alive) n++;
  return n;
}

export function teamCount(s: GameState, team: Team): number {
  let n = 0;
  for (const p of s.players) if (p.alive && teamOf(p.role) === team) n++;
  return n;
}

/** The living player holding a unique role, if any. */
export function livingWithRole(s: GameState, role: Role): Seat | null {
  for (const p of s.players) if (p.alive && p.role === role) return p.seat;
  return null;
}

export function seatOfRole(s: GameState, role: Role): Seat | null {
  for (const p of s.players) if (p.role === role) return p.seat;
  return null;
}

export function roleOf(s: GameState, seat: Seat): Role {
  const p = playerAt(s, seat);
  if (!p) throw new Error(`no seat ${seat}`);
  return p.role;
}

/** "night 1", "day 2" (RULES G-3). */
export function clockLabel(c: Clock): string {
  return `${c.phase} ${c.n}`;
}

/** Where the game stands, as the scenario format names it. */
export function positionLabel(s: GameState): string {
  if (s.stage.kind === 'postGame') return 'post-game';
  if (s.stage.kind === 'over') return 'over';
  return clockLabel(s.clock);
}

/** The next living seat strictly after `seat`, round the table. */
export function nextLivingAfter(s: GameState, seat: Seat): Seat | null {
  const n = s.players.length;
  for (let i = 1; i <= n; i++) {
    const cand = ((seat - 1 + i) % n) + 1;
    if (isAlive(s, cand)) return cand;
  }
  return null;
}

/** The living seats in table order starting at `first` (or the next living after it). */
export function tableOrderFrom(s: GameState, first: Seat): Seat[] {
  const n = s.players.length;
  const out: Seat[] = [];
  for (let i = 0; i < n; i++) {
    const seat = ((first - 1 + i) % n) + 1;
    if (isAlive(s, seat)) out.push(seat);
  }
  return out;
}

export function isBlack(s: GameState, seat: Seat): boolean {
  return teamOf(roleOf(s, seat)) === 'black';
}

/** Replace one element of a per-seat array (index seat-1), returning a new array. */
export function withSeat<T>(arr: readonly T[], seat: Seat, value: T): T[] {
  const copy = arr.slice();
  copy[seat - 1] = value;
  return copy;
}
