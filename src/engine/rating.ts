// Ratings (pure): the team-average Elo of sport-mafia rating sites, whether a game counts, and a
// substitute's share of a seat. No I/O: the stats layer feeds it stored results.
import type { Team, Winner } from './types';

export interface EloSettings {
  /** Winners gain `win ×` the losing side's chance. */
  win: number;
  /** Losers lose `loss ×` their own side's chance. */
  loss: number;
  /** Everyone starts here, and a rating never drops below it. */
  start: number;
}

export const DEFAULT_ELO: EloSettings = { win: 20, loss: 15, start: 1000 };

/** One seat of a finished game as the rating sees it. */
export interface RatedSeat {
  team: Team;
  /** Removed for fouls or disqualified: takes the loss whatever his team's result. */
  removed: boolean;
  /** Everyone who held the seat, with his part of the game (shares add up to 1). */
  holders: { userId: string; share: number }[];
}

/** Chance of a red win: 1 / (1 + 10^((avg black − avg red) / 400)). */
export function redChance(avgRed: number, avgBlack: number): number {
  return 1 / (1 + 10 ** ((avgBlack - avgRed) / 400));
}

/**
 * The Elo change of one game for every holder of every seat. A seat's rating before the game is
 * the share-weighted rating of its holders; its change is given to each holder times his share.
 * Draw: no change, except that a removed player takes the loss. Ratings never drop below the start.
 */
export function eloChanges(
  seats: readonly RatedSeat[],
  winner: Winner,
  current: (userId: string) => number,
  s: EloSettings = DEFAULT_ELO,
): Map<string, { before: number; after: number; share: number }> {
  const seatRating = (seat: RatedSeat) => seat.holders.reduce((sum, h) => sum + h.share * current(h.userId), 0);
  const avg = (team: Team) => {
    const xs = seats.filter((x) => x.team === team).map(seatRating);
    return xs.length === 0 ? s.start : xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const pRed = redChance(avg('red'), avg('black'));
  const chance = (team: Team) => (team === 'red' ? pRed : 1 - pRed);
  const out = new Map<string, { before: number; after: number; share: number }>();
  for (const seat of seats) {
    let delta = 0;
    const won = winner !== 'draw' && winner === seat.team && !seat.removed;
    const lost = (winner !== 'draw' && winner !== seat.team) || seat.removed;
    if (won) delta = s.win * (1 - chance(seat.team));
    else if (lost) delta = -s.loss * chance(seat.team);
    for (const h of seat.holders) {
      const before = current(h.userId);
      const after = Math.max(s.start, before + delta * h.share);
      const prev = out.get(h.userId);
      // The same user in two seats cannot happen in one game; keep the first if data says otherwise.
      if (!prev) out.set(h.userId, { before, after, share: h.share });
    }
  }
  return out;
}

/** Why a finished game does not count in standings and ratings, or null when it counts. */
export type VoidReason = 'annulled' | 'casual' | 'no-day-vote' | 'min-moves';

export function voidReason(
  g: { annulled: boolean; casual?: boolean; noDayVote: boolean; moves: number },
  minMoves: number,
): VoidReason | null {
  if (g.annulled) return 'annulled';
  // Issue 24: a game created casual never counts (it stays in the archive and the histories).
  if (g.casual) return 'casual';
  if (g.noDayVote) return 'no-day-vote';
  if (g.moves < minMoves) return 'min-moves';
  return null;
}

/**
 * Who held a seat and for what part of the game: the seat's first user until the move at which
 * he was replaced, each substitute from then on. `changes` are the substitutions of this seat in
 * order, each with the number of moves made before it. Shares are moves held / all moves (equal
 * parts when the game had no moves).
 */
export function seatShares(
  firstUser: string,
  changes: readonly { atMove: number; to: string }[],
  totalMoves: number,
): { userId: string; share: number }[] {
  const spans: { userId: string; from: number }[] = [{ userId: firstUser, from: 0 }];
  for (const c of changes) spans.push({ userId: c.to, from: Math.min(Math.max(c.atMove, 0), totalMoves) });
  const byUser = new Map<string, number>();
  spans.forEach((sp, i) => {
    const to = i + 1 < spans.length ? spans[i + 1]!.from : totalMoves;
    byUser.set(sp.userId, (byUser.get(sp.userId) ?? 0) + Math.max(0, to - sp.from));
  });
  const total = [...byUser.values()].reduce((a, b) => a + b, 0);
  const list = [...byUser.entries()].map(([userId, m]) => ({
    userId,
    share: total === 0 ? 1 / byUser.size : m / total,
  }));
  const kept = list.filter((h) => h.share > 0);
  return kept.length > 0 ? kept : [{ userId: spans[spans.length - 1]!.userId, share: 1 }];
}
