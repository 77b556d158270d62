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
      row = {
        player: r.player,
        points: 0,
        games: 0,
        wins: 0,
        bestPlayer: 0,
        winsAs: { don: 0, sheriff: 0, mafia: 0 },
        killedNight1: 0,
      };
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
export function standings(
  system: ScoringSystem,
  records: readonly GameRecord[],
  everyone: readonly string[] = [],
): StandingRow[] {
  const cmp = (a: Row, b: Row) => b.points - a.points || TIE_BREAKS[system](a, b);
  const rows = aggregate(records);
  // Players who have no game yet (a tournament's registered players) stand with nothing.
  const seen = new Set(rows.map((r) => r.player));
  for (const p of everyone) {
    if (seen.has(p)) continue;
    seen.add(p);
    rows.push({
      player: p,
      points: 0,
      games: 0,
      wins: 0,
      bestPlayer: 0,
      winsAs: { don: 0, sheriff: 0, mafia: 0 },
      killedNight1: 0,
    });
  }
  rows.sort((a, b) => cmp(a, b) || a.player.localeCompare(b.player));
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
  { ok: true; rounds: string[][][] } | { ok: false; players: number; add: number; remove: number };

/**
 * T-1: tables of 10 for the 3 qualifying rounds. Every player plays once per round. The draw
 * spreads players so that no two meet more often than needed (decision): each round is seated
 * greedily (a player goes to the table where he has met the fewest), then improved by swapping
 * two players of different tables of a round while that lowers the cost of repeated meetings
 * (a second meeting of a pair costs 1, a third 100, a fourth 10 000: fewer triples first, then
 * fewer repeats). Randomised by the `random` function passed in (the head host's lot).
 * When players × 3 is not a multiple of 10, it says how many to add or remove instead.
 */
export function drawQualifiers(players: readonly string[], random: () => number, attempts = 8): DrawResult {
  const n = players.length;
  if (n === 0 || (n * QUALIFIERS) % TABLE !== 0 || n % TABLE !== 0) {
    const remove = n % TABLE;
    return { ok: false, players: n, add: remove === 0 ? TABLE : TABLE - remove, remove: n >= TABLE ? remove : n };
  }
  const tables = n / TABLE;
  // Players as indices; meetings in a flat n×n matrix.
  let best: { rounds: number[][][]; score: number } | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const met = new Int32Array(n * n);
    const meet = (a: number, b: number, d: number) => {
      met[a * n + b]! += d;
      met[b * n + a]! += d;
    };
    const rounds: number[][][] = [];
    for (let r = 0; r < QUALIFIERS; r++) {
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const round: number[][] = Array.from({ length: tables }, () => []);
      for (const p of order) {
        let choice = -1;
        let cost = Infinity;
        round.forEach((t, i) => {
          if (t.length >= TABLE) return;
          const c = t.reduce((sum, q) => sum + PAIR_COST[Math.min(met[p * n + q]! + 1, PAIR_COST.length - 1)]!, 0);
          if (c < cost) {
            cost = c;
            choice = i;
          }
        });
        round[choice]!.push(p);
      }
      for (const t of round)
        for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) meet(t[i]!, t[j]!, 1);
      rounds.push(round);
    }
    improve(rounds, met, n, random);
    let score = 0;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++) score += PAIR_COST[Math.min(met[a * n + b]!, PAIR_COST.length - 1)]!;
    if (!best || score < best.score) best = { rounds: rounds.map((r) => r.map((t) => [...t])), score };
    if (best.score === 0) break;
  }
  return { ok: true, rounds: best!.rounds.map((r) => r.map((t) => t.map((i) => players[i]!))) };
}

/** The cost of a pair that has met k times (k = 0, 1, 2, 3, 4+). */
const PAIR_COST = [0, 0, 1, 100, 10_000, 1_000_000];

/** Local search: swaps of two players between tables of one round that lower the cost. */
function improve(rounds: number[][][], met: Int32Array, n: number, random: () => number): void {
  const cost = (k: number) => PAIR_COST[Math.min(k, PAIR_COST.length - 1)]!;
  // The change in cost when x leaves table `from` (without `skip`) and joins `to` (without `skip2`).
  const moveDelta = (x: number, from: number[], to: number[], skip: number) => {
    let d = 0;
    for (const q of from) if (q !== x) d += cost(met[x * n + q]! - 1) - cost(met[x * n + q]!);
    for (const q of to) if (q !== skip) d += cost(met[x * n + q]! + 1) - cost(met[x * n + q]!);
    return d;
  };
  const tables = rounds[0]!.length;
  if (tables < 2) return;
  const steps = 4000 * tables * rounds.length;
  let calm = 0;
  for (let s = 0; s < steps && calm < 1500 * tables; s++) {
    const round = rounds[Math.floor(random() * rounds.length)]!;
    const ai = Math.floor(random() * tables);
    let bi = Math.floor(random() * (tables - 1));
    if (bi >= ai) bi++;
    const a = round[ai]!;
    const b = round[bi]!;
    const xi = Math.floor(random() * a.length);
    const yi = Math.floor(random() * b.length);
    const x = a[xi]!;
    const y = b[yi]!;
    const delta = moveDelta(x, a, b, y) + moveDelta(y, b, a, x);
    // Sideways moves (delta 0) are taken now and then, to walk across plateaus.
    if (delta < 0 || (delta === 0 && random() < 0.3)) {
      for (const q of a)
        if (q !== x) {
          met[x * n + q]!--;
          met[q * n + x]!--;
        }
      for (const q of b)
        if (q !== y) {
          met[y * n + q]!--;
          met[q * n + y]!--;
        }
      a[xi] = y;
      b[yi] = x;
      for (const q of a)
        if (q !== y) {
          met[y * n + q]!++;
          met[q * n + y]!++;
        }
      for (const q of b)
        if (q !== x) {
          met[x * n + q]!++;
          met[q * n + x]!++;
        }
      calm = delta < 0 ? 0 : calm + 1;
    } else calm++;
  }
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
export function killedOnNight1(
  out: readonly { seat: Seat; by: string; at: { phase: string; n: number } }[],
  seat: Seat,
): boolean {
  return out.some((o) => o.seat === seat && o.by === 'night' && o.at.phase === 'night' && o.at.n === 1);
}
