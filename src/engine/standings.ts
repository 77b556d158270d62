// S-5 standings and T-1..T-3 tournament helpers: pure functions over finished games' records.
import type { Role, Seat } from './types';

export type ScoringSystem = 'chnu' | 'classic' | 'kiev';

/** One player's line of one finished game. */
export interface GameRecord {
  player: string;
  points: number;
  won: boolean;
  role: Role;
  bestPlayer: boolean;
  /** Killed by the shot of night 1 (classic-10 tie-break). */
  killedNight1: boolean;
}

export interface StandingRow {
  player: string;
  points: number;
  games: number;
  wins: number;
  bestPlayer: number;
  winsAs: { don: number; sheriff: number; mafia: number };
  killedNight1: number;
  place: number;
}

function aggregate(records: readonly GameRecord[]): Omit<StandingRow, 'place'>[] {
  const rows = new Map<string, Omit<StandingRow, 'place'>>();
  for (const r of records) {
    let row = rows.get(r.player);
    if (!row) {
      row = { player: r.player, points: 0, games: 0, wins: 0, bestPlayer: 0, winsAs: { don: 0, sheriff: 0, mafia: 0 }, killedNight1: 0 };
      rows.set(r.player, row);
    }
    row.points = Math.round((row.points + r.points) * 100) / 100;
    row.games++;
    if (r.won) {
      row.wins++;
      if (r.role === 'don' || r.role === 'sheriff' || r.role === 'mafia') row.winsAs[r.role]++;
    }
    if (r.bestPlayer) row.bestPlayer++;
    if (r.killedNight1) row.killedNight1++;
  }
  return [...rows.values()];
}

type Row = Omit<StandingRow, 'place'>;

/** S-5: the tie-breaks of each scoring system, after points. Negative: a ranks first. */
const TIE_BREAKS: Record<ScoringSystem, (a: Row, b: Row) => number> = {
  chnu: (a, b) => b.bestPlayer - a.bestPlayer,
  classic: (a, b) =>
    b.wins - a.wins ||
    b.bestPlayer - a.bestPlayer ||
    b.winsAs.don - a.winsAs.don ||
    b.winsAs.sheriff - a.winsAs.sheriff ||
    b.winsAs.mafia - a.winsAs.mafia ||
    b.killedNight1 - a.killedNight1,
  // (decision) more games won, then fewer games.
  kiev: (a, b) => b.wins - a.wins || a.games - b.games,
};

/**
 * S-5: a player's points over games of one scoring system, ranked with that system's tie-breaks.
 * Players still level after every tie-break share the place.
 */
export function standings(system: ScoringSystem, records: readonly GameRecord[]): StandingRow[] {
  const cmp = (a: Row, b: Row) => b.points - a.points || TIE_BREAKS[system](a, b);
  const rows = aggregate(records).sort((a, b) => cmp(a, b) || a.player.localeCompare(b.player));
  let place = 0;
  return rows.map((r, i) => {
    if (i === 0 || cmp(rows[i - 1]!, r) !== 0) place = i + 1;
    return { ...r, place };
  });
}

// ---------------------------------------------------------------------------------------------
// T. Tournament (chnu-2016)

export const QUALIFIERS = 3;
export const TABLE = 10;

export type DrawResult =
  | { ok: true; rounds: string[][][] }
  | { ok: false; players: number; add: number; remove: number };

/**
 * T-1: tables of 10 for the 3 qualifying rounds. Every player plays once per round. The draw
 * spreads players so that no two meet more often than needed (decision): greedy seating that
 * minimises repeat meetings, randomised by the `random` function passed in (the head host's lot).
 * When players × 3 is not a multiple of 10, it says how many to add or remove instead.
 */
export function drawQualifiers(players: readonly string[], random: () => number, attempts = 200): DrawResult {
  const n = players.length;
  if (n === 0 || (n * QUALIFIERS) % TABLE !== 0 || n % TABLE !== 0) {
    const remove = n % TABLE;
    return { ok: false, players: n, add: remove === 0 ? TABLE : TABLE - remove, remove: n >= TABLE ? remove : n };
  }
  const tables = n / TABLE;
  let best: { rounds: string[][][]; score: number } | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const met = new Map<string, number>();
    const key = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
    const rounds: string[][][] = [];
    for (let r = 0; r < QUALIFIERS; r++) {
      const order = [...players];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const round: string[][] = Array.from({ length: tables }, () => []);
      for (const p of order) {
        let choice = -1;
        let cost = Infinity;
        round.forEach((t, i) => {
          if (t.length >= TABLE) return;
          // A second meeting costs far more than a first: spread repeats thin.
          const c = t.reduce((sum, q) => sum + 100 ** (met.get(key(p, q)) ?? 0) - 1, 0);
          if (c < cost) {
            cost = c;
            choice = i;
          }
        });
        round[choice]!.push(p);
      }
      for (const t of round) for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) met.set(key(t[i]!, t[j]!), (met.get(key(t[i]!, t[j]!)) ?? 0) + 1);
      rounds.push(round);
    }
    // Score: repeated meetings, a third meeting weighing far more than a second.
    let score = 0;
    for (const v of met.values()) if (v > 1) score += 100 ** (v - 2);
    if (!best || score < best.score) best = { rounds, score };
    if (best.score === 0) break;
  }
  return { ok: true, rounds: best!.rounds };
}

/** T-2: the 10 players with the most points after the qualifiers (ties by S-5, chnu-2016). */
export function finalists(records: readonly GameRecord[]): string[] {
  return standings('chnu', records)
    .slice(0, TABLE)
    .map((r) => r.player);
}

/** T-3: the tournament table over all 4 games (3 qualifiers + final), ties by S-5. */
export function tournamentTable(records: readonly GameRecord[]): StandingRow[] {
  return standings('chnu', records);
}

/** A helper for records: did this seat die by the shot of night 1? */
export function killedOnNight1(out: readonly { seat: Seat; by: string; at: { phase: string; n: number } }[], seat: Seat): boolean {
  return out.some((o) => o.seat === seat && o.by === 'night' && o.at.phase === 'night' && o.at.n === 1);
}
