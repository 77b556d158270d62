// T-1..T-4 on top of the S-5 standings: what a tournament's games add up to. Pure functions over
// stored results (no I/O, no clock; randomness comes in as a function).
import { QUALIFIERS, TABLE, standings, type GameRecord, type ScoringSystem, type StandingRow } from './standings';
import type { Role } from './types';
import { csvTable, type CsvCell } from './csv';

/** The final is played as round 4 (T-2): 3 qualifying rounds, then one table of the 10 best. */
export const FINAL_ROUND = QUALIFIERS + 1;

/** One player's line of a finished tournament game, as stored. */
export interface TournamentResult {
  userId: string;
  seat: number;
  points: number;
  won: boolean;
  role: Role;
  bestPlayer: boolean;
  killedNight1: boolean;
}

/** A table of the draw (or the final) and, once played, its game's results. */
export interface TournamentTable {
  round: number;
  table: number;
  /** The players the draw seated at this table. */
  seats: readonly string[];
  gameId: number | null;
  /** Results of its finished game (null while it is not finished, or when it was annulled). */
  results: readonly TournamentResult[] | null;
}

/**
 * The records that count for a tournament (decision, see README "Running a tournament"): a
 * finished game's points count for the players the draw seated at that table. A substitute's
 * points are his own (they count in /stats) but not in the tournament's table; the player he
 * replaced scores nothing for that game.
 */
export function tournamentRecords(tables: readonly TournamentTable[], rounds?: readonly number[]): GameRecord[] {
  const out: GameRecord[] = [];
  for (const t of tables) {
    if (!t.results || (rounds && !rounds.includes(t.round))) continue;
    const drawn = new Set(t.seats);
    for (const r of t.results) {
      if (!drawn.has(r.userId)) continue;
      out.push({
        player: r.userId,
        points: r.points,
        won: r.won,
        role: r.role,
        bestPlayer: r.bestPlayer,
        killedNight1: r.killedNight1,
      });
    }
  }
  return out;
}

/** T-3: the tournament table over every counted game so far (live), every registered player in it. */
export function tournamentStandings(
  system: ScoringSystem,
  registered: readonly string[],
  tables: readonly TournamentTable[],
): StandingRow[] {
  return standings(system, tournamentRecords(tables), registered);
}

export interface FinalSelection {
  /** The 10 finalists, best first. */
  finalists: string[];
  /** Players level after every S-5 tie-break across the cut: `among` shared the place, `chosen` went through by lot. */
  lot: { among: string[]; chosen: string[] } | null;
  /** The qualifying table the selection was made from. */
  table: StandingRow[];
}

/**
 * T-2: the 10 players with the most points after the 3 qualifiers, ties by S-5. Players still
 * level after every tie-break across the cut are drawn by lot (decision): `random` is the lot.
 */
export function selectFinalists(
  system: ScoringSystem,
  registered: readonly string[],
  tables: readonly TournamentTable[],
  random: () => number,
): FinalSelection {
  const qualifiers = Array.from({ length: QUALIFIERS }, (_, i) => i + 1);
  const table = standings(system, tournamentRecords(tables, qualifiers), registered);
  if (table.length <= TABLE) return { finalists: table.map((r) => r.player), lot: null, table };
  const cutPlace = table[TABLE - 1]!.place;
  if (table[TABLE]!.place !== cutPlace)
    return { finalists: table.slice(0, TABLE).map((r) => r.player), lot: null, table };
  const sure = table.filter((r) => r.place < cutPlace).map((r) => r.player);
  const among = table.filter((r) => r.place === cutPlace).map((r) => r.player);
  const pool = [...among];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const chosen = pool.slice(0, TABLE - sure.length);
  // Finalists in table order (those chosen by lot in the order they stand).
  const finalists = [...sure, ...among.filter((p) => chosen.includes(p))];
  return { finalists, lot: { among, chosen }, table };
}

/** T-1: can the registered players be drawn, and if not, how many to add or remove. */
export function drawFit(players: number): { ok: true; tables: number } | { ok: false; add: number; remove: number } {
  if (players >= TABLE && players % TABLE === 0) return { ok: true, tables: players / TABLE };
  const over = players % TABLE;
  return { ok: false, add: TABLE - over, remove: players >= TABLE ? over : 0 };
}

/** Where the tournament stands: what the head host can do next. */
export type Phase =
  | { kind: 'registration' }
  | { kind: 'qualifying'; round: number }
  | { kind: 'qualified' }
  | { kind: 'final' }
  | { kind: 'finished' };

/** The round whose tables may be started now: the lowest round with a table not yet finished. */
export function phaseOf(
  status: 'registration' | 'running' | 'finished' | 'cancelled',
  tables: readonly TournamentTable[],
): Phase {
  if (status === 'registration') return { kind: 'registration' };
  if (status === 'finished') return { kind: 'finished' };
  for (let round = 1; round <= QUALIFIERS; round++) {
    if (tables.some((t) => t.round === round && !t.results)) return { kind: 'qualifying', round };
  }
  if (!tables.some((t) => t.round === FINAL_ROUND)) return { kind: 'qualified' };
  return tables.some((t) => t.round === FINAL_ROUND && !t.results) ? { kind: 'final' } : { kind: 'finished' };
}

/** A page of standings rows (1-based page, clamped). */
export function pageOf<T>(rows: readonly T[], page: number, size: number): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { rows: rows.slice((p - 1) * size, p * size), page: p, pages };
}

/** One CSV line per player of every finished game: the export of every game's points. */
export function tournamentCsv(tables: readonly TournamentTable[], names: (userId: string) => string): string {
  const header = [
    'round',
    'table',
    'game',
    'seat',
    'user_id',
    'name',
    'role',
    'won',
    'points',
    'best_player',
    'counted',
  ];
  const rows: CsvCell[][] = [];
  const sorted = [...tables].sort((a, b) => a.round - b.round || a.table - b.table);
  for (const t of sorted) {
    if (!t.results || t.gameId === null) continue;
    const drawn = new Set(t.seats);
    for (const r of [...t.results].sort((a, b) => a.seat - b.seat)) {
      // A display name is text: one that starts like a formula is not run by a spreadsheet (csvCell).
      rows.push([
        t.round === FINAL_ROUND ? 'final' : t.round,
        t.table,
        t.gameId,
        r.seat,
        r.userId,
        names(r.userId),
        r.role,
        r.won,
        r.points,
        r.bestPlayer,
        drawn.has(r.userId),
      ]);
    }
  }
  return csvTable(header, rows);
}
