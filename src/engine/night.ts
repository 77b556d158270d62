// Nights 1, 2, ...: who acts, what each owes, which targets are legal, and the resolution (N-2..N-11).
import { teamOf } from './rulesets';
import { aliveSeats, emit, isAlive, livingWithRole, playerAt, toSeat, type Tx } from './state';
import type { CheckEntry, GameState, NightActs, NoteEntry, Pick, Role, Seat } from './types';

/** Roles whose night action a freeze can cancel; only they are told they were frozen (N-7). */
const FREEZABLE: ReadonlySet<Role> = new Set<Role>(['doctor', 'maniac', 'commissioner', 'mafia', 'don']);

export function emptyActs(players: number): NightActs {
  return { shots: new Array<number>(players).fill(0) };
}

function livingShooterMafia(s: GameState): Seat[] {
  const out: Seat[] = [];
  for (const p of s.players) if (p.alive && (p.role === 'mafia' || p.role === 'don')) out.push(p.seat);
  return out;
}

/** N-3, N-4: the seats that shoot tonight. In kiev-12 the prostitute shoots once no mafia is left. */
export function shooters(s: GameState, shotRule: 'unanimous' | 'don-decides'): Seat[] {
  const mafia = livingShooterMafia(s);
  if (mafia.length > 0 || shotRule === 'unanimous') return mafia;
  const p = livingWithRole(s, 'prostitute');
  return p === null ? [] : [p];
}

/** N-5: the Don checks for the Sheriff only where there is a Sheriff to find. */
export function donChecks(s: GameState): boolean {
  return s.players.some((p) => p.role === 'sheriff');
}

/** N-6: the Sheriff's first answer was "black" and he may still ask "is it the Don?". */
export function askDonOpen(s: GameState, acts: NightActs): boolean {
  if (!s.options.askDon || typeof acts.sheriffCheck !== 'number' || acts.askDon !== undefined) return false;
  const target = playerAt(s, acts.sheriffCheck);
  return target !== undefined && teamOf(target.role) === 'black';
}

/** N-2: has every living actor done what he owes tonight? */
export function nightDone(s: GameState, acts: NightActs, shotRule: 'unanimous' | 'don-decides'): boolean {
  for (const seat of shooters(s, shotRule)) if (acts.shots[seat - 1] === 0) return false;
  for (const p of s.players) {
    if (!p.alive) continue;
    switch (p.role) {
      case 'don':
        if (donChecks(s) && acts.donCheck === undefined) return false;
        break;
      case 'sheriff':
        if (acts.sheriffCheck === undefined || askDonOpen(s, acts)) return false;
        break;
      case 'commissioner':
        if (acts.commissioner === undefined) return false;
        break;
      case 'doctor':
        if (acts.heal === undefined) return false;
        break;
      case 'prostitute':
        if (acts.freeze === undefined) return false;
        break;
      case 'maniac':
        if (acts.maniac === undefined) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

/** N-7, N-8: a seat picked on each of the last `limit` nights may not be picked again tonight. */
export function streakBlocks(history: readonly number[], night: number, target: Seat, limit: number): boolean {
  if (limit <= 0) return false;
  for (let k = night - 1; k >= night - limit; k--) {
    if (k < 1 || history[k] !== target) return false;
  }
  return true;
}

/** G-9: living seats, optionally excluding the actor. */
export function livingTargets(s: GameState, exclude: Seat | null): Seat[] {
  const all = aliveSeats(s);
  return exclude === null ? all : all.filter((t) => t !== exclude);
}

export function healTargets(s: GameState): Seat[] {
  const night = s.clock.n;
  return livingTargets(s, null).filter((t) => !streakBlocks(s.history.heals, night, t, s.options.healRepeatLimit));
}

export function freezeTargets(s: GameState): Seat[] {
  const night = s.clock.n;
  return livingTargets(s, null).filter((t) => !streakBlocks(s.history.freezes, night, t, s.options.freezeRepeatLimit));
}

/** Everything a seat could still decline tonight (RULES N-2: all but the shot). */
export function declinable(s: GameState, acts: NightActs, seat: Seat): Partial<NightActs> | null {
  const p = playerAt(s, seat);
  if (!p || !p.alive) return null;
  const patch: { -readonly [K in keyof NightActs]?: NightActs[K] } = {};
  switch (p.role) {
    case 'don':
      if (donChecks(s) && acts.donCheck === undefined) patch.donCheck = 'skip';
      break;
    case 'sheriff':
      if (acts.sheriffCheck === undefined) patch.sheriffCheck = 'skip';
      else if (askDonOpen(s, acts)) patch.askDon = 'skip';
      break;
    case 'commissioner':
      if (acts.commissioner === undefined) patch.commissioner = 'skip';
      break;
    case 'doctor':
      if (acts.heal === undefined) patch.heal = 'skip';
      break;
    case 'prostitute':
      if (acts.freeze === undefined) patch.freeze = 'skip';
      break;
    case 'maniac':
      if (acts.maniac === undefined) patch.maniac = 'skip';
      break;
    default:
      break;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}

const picked = (p: Pick | undefined): Seat => (typeof p === 'number' ? p : 0);

export interface NightOutcome {
  /** Seats that leave at dawn, in seat order (N-12). */
  readonly deaths: Seat[];
  /** The black players whose shot killed (S-2 "Sheriff shot"). */
  readonly shotBy: Seat[];
  readonly shotTarget: Seat;
}

/**
 * Resolves the night in the fixed order of N-10 and records checks, notes and streaks on the draft.
 * Only actions of players still at the table count (G-8).
 */
export function resolveNight(tx: Tx, acts: NightActs): NightOutcome {
  const s = tx.s;
  const k = s.clock.n;
  const shotRule = tx.def.shotRule;
  const kills = new Set<Seat>();
  let shotBy: Seat[] = [];
  let shotTarget = 0;

  const doctor = livingWithRole(s, 'doctor');
  const prostitute = livingWithRole(s, 'prostitute');
  const maniac = livingWithRole(s, 'maniac');
  const commissioner = livingWithRole(s, 'commissioner');
  const freezePick = prostitute === null ? 0 : picked(acts.freeze);
  const healPick = doctor === null ? 0 : picked(acts.heal);

  // N-10.1/2 and N-8: a freeze on the doctor always stands; a freeze on a seat an unfrozen doctor
  // heals is cancelled.
  const doctorFrozen = freezePick !== 0 && freezePick === doctor;
  const healed = healPick !== 0 && !doctorFrozen ? healPick : 0;
  const frozen = freezePick !== 0 && freezePick !== healed ? freezePick : 0;

  // N-10.3: kills.
  const mafia = livingShooterMafia(s);
  if (shotRule === 'unanimous') {
    // N-3: all living black players must pick the same seat.
    const first = mafia.length > 0 ? acts.shots[mafia[0]! - 1]! : 0;
    if (first !== 0 && mafia.every((m) => acts.shots[m - 1] === first)) {
      kills.add(first);
      shotBy = mafia;
      shotTarget = first;
    }
  } else if (mafia.length > 0) {
    // N-4: the Don decides; without him the living mafia by seat (option); a frozen decider passes
    // the decision to the lowest unfrozen living mafia.
    const don = livingWithRole(s, 'don');
    let decider: Seat | null =
      don ?? (s.options.shotDeciderWithoutDon === 'highest-seat' ? mafia[mafia.length - 1]! : mafia[0]!);
    if (decider === frozen) decider = mafia.find((m) => m !== frozen) ?? null;
    const target = decider === null ? 0 : acts.shots[decider - 1]!;
    if (target !== 0) {
      kills.add(target);
      shotBy = [decider!];
      shotTarget = target;
    }
  } else if (prostitute !== null) {
    const target = acts.shots[prostitute - 1]!;
    if (target !== 0) {
      kills.add(target);
      shotBy = [prostitute];
      shotTarget = target;
    }
  }
  const maniacPick = maniac === null ? 0 : picked(acts.maniac);
  if (maniacPick !== 0 && maniac !== frozen) kills.add(maniacPick);
  if (healed !== 0) kills.delete(healed);
  for (const seat of kills) if (!isAlive(s, seat)) kills.delete(seat);
  const deaths = [...kills].sort((a, b) => a - b);

  // N-7: the frozen actor learns it with the night's results.
  if (frozen !== 0 && s.options.tellFrozen) {
    const p = playerAt(s, frozen);
    if (p && FREEZABLE.has(p.role)) emit(tx, toSeat(frozen), { type: 'frozen', seat: frozen });
  }

  // N-10.4, N-11: the commissioner's check and note.
  const c = acts.commissioner;
  if (commissioner !== null && c !== undefined && c !== 'skip') {
    const isFrozen = frozen === commissioner;
    const colour = teamOf(playerAt(s, c.target)!.role);
    if (s.options.commissionerAnswer === 'at-resolution') {
      const entry: CheckEntry = {
        seat: commissioner,
        target: c.target,
        at: s.clock,
        kind: 'commissioner',
        answer: isFrozen ? 'frozen' : colour,
      };
      s.checks = [...s.checks, entry];
      emit(tx, toSeat(commissioner), {
        type: 'check-result',
        seat: commissioner,
        target: c.target,
        kind: 'commissioner',
        answer: entry.answer,
        at: entry.at,
      });
    }
    if (c.note) {
      s.history = { ...s.history, noteUsed: true };
      if (!isFrozen && kills.has(commissioner)) {
        const note: NoteEntry = { seat: commissioner, target: c.target, answer: colour, at: s.clock };
        s.notes = [...s.notes, note];
      }
    }
  }

  // N-7, N-8 streaks: the pick counts whatever became of it; a night without a pick breaks it.
  if (s.players.some((p) => p.role === 'doctor')) {
    s.history = { ...s.history, heals: recordPick(s.history.heals, k, healPick) };
  }
  if (s.players.some((p) => p.role === 'prostitute')) {
    s.history = { ...s.history, freezes: recordPick(s.history.freezes, k, freezePick) };
  }
  return { deaths, shotBy, shotTarget };
}

/** Picks by night number, index 0 unused; gaps are filled with 0 so the value stays plain JSON. */
function recordPick(history: readonly number[], night: number, pick: Seat): number[] {
  const out = history.slice();
  while (out.length < night) out.push(0);
  out[night] = pick;
  return out;
}
