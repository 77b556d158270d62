// Achievements (issue 24): a few that reward good play, not grinding. Each is earned once per
// server, rule set and player, and only in counted games (not casual, not annulled, with a day
// vote and enough moves: src/engine/rating.ts `voidReason`). They are derived from the stored
// results like the standings (src/stats/record.ts): when a counted game closes, and again, the same
// way, when a rebuild replays the counted games. These functions are pure; the SQL is in the stats
// store.
import { teamOf } from '../engine/rulesets';
import type { GameState, Role, Seat } from '../engine/types';

/** Every achievement, in the order /stats player lists them. */
export const ACHIEVEMENTS = [
  'clear-sight',
  'sharp-nose',
  'three-of-three',
  'full-strength',
  'every-role',
  'best-player-3',
] as const;
export type AchievementCode = (typeof ACHIEVEMENTS)[number];

/** What a seat did in one game that an achievement rewards (stored in results.feats). */
export type GameFeat = 'clear-sight' | 'sharp-nose' | 'full-strength';

/** How many times a player must be the best player (S-4) for `best-player-3`. */
export const BEST_PLAYER_TIMES = 3;

/**
 * The feats of one seat in a finished game, from the engine's final state:
 * - `clear-sight`: the Sheriff (N-6) or the Commissioner (N-11) checked every black player of the
 *   game (G-2) and got "black" for each, and red won (E-1, E-2);
 * - `sharp-nose`: the Don found the Sheriff with his check on night 1 (N-5);
 * - `full-strength`: his team won with every one of its players still at the table (S-1's "in full
 *   strength"; G-5: nobody of the team left by any means).
 */
export function gameFeats(state: GameState, seat: Seat): GameFeat[] {
  const res = state.result;
  const player = state.players[seat - 1];
  if (!res || !player) return [];
  const team = teamOf(player.role);
  const won = res.winner === team;
  const feats: GameFeat[] = [];
  if (won && (player.role === 'sheriff' || player.role === 'commissioner')) {
    const found = new Set(
      state.checks
        .filter((c) => c.seat === seat && (c.kind === 'sheriff' || c.kind === 'commissioner') && c.answer === 'black')
        .map((c) => c.target),
    );
    const black = state.players.filter((p) => teamOf(p.role) === 'black').map((p) => p.seat);
    if (black.length > 0 && black.every((s) => found.has(s))) feats.push('clear-sight');
  }
  if (
    player.role === 'don' &&
    state.checks.some(
      (c) => c.seat === seat && c.kind === 'don' && c.at.phase === 'night' && c.at.n === 1 && c.answer === 'sheriff',
    )
  )
    feats.push('sharp-nose');
  if (won) {
    const mates = new Set(state.players.filter((p) => teamOf(p.role) === team).map((p) => p.seat));
    if (!state.out.some((o) => mates.has(o.seat))) feats.push('full-strength');
  }
  return feats;
}

/** One counted result as the achievements read it. */
export interface SeatFacts {
  ruleset: string;
  role: Role | string;
  outcome: string;
  /** `gameFeats`, comma-separated (null: a result stored before achievements). */
  feats: string | null;
  /** D-10: the black seats named in the seat's best move (null: it made none). */
  bestMoveBlack: number | null;
  /** The seat's holders (JSON) when a substitute played it (null: one player played it all). */
  holders: string | null;
}

/** The player's all-time standings row in the rule set, with this game in it (S-5). */
export interface Tally {
  wins: number;
  winsDon: number;
  winsSheriff: number;
  winsMafia: number;
  bestPlayer: number;
}

/**
 * The achievements a counted result earns, given the player's standings after the game. What one
 * game shows (a check, a best move, a team at full strength) counts only for a seat one player
 * played all through (a substitute's seat earns none of those); the totals are the standings'.
 */
export function earnedBy(r: SeatFacts, tally: Tally | null): AchievementCode[] {
  const out: AchievementCode[] = [];
  const whole = r.holders === null;
  const feats = whole && r.feats ? r.feats.split(',') : [];
  if (feats.includes('clear-sight')) out.push('clear-sight');
  if (feats.includes('sharp-nose')) out.push('sharp-nose');
  // D-10, S-1, S-2: three black players named in the best move.
  if (whole && r.bestMoveBlack === 3) out.push('three-of-three');
  if (feats.includes('full-strength')) out.push('full-strength');
  if (tally) {
    // G-2: in chnu-2016 and classic-10 red is civilians and the Sheriff, black the mafia and the Don,
    // so the civilians' wins are the wins less the others'. (kiev-12 has other roles: not there.)
    const civilian = tally.wins - tally.winsDon - tally.winsSheriff - tally.winsMafia;
    if (
      (r.ruleset === 'chnu-2016' || r.ruleset === 'classic-10') &&
      r.outcome === 'win' &&
      civilian > 0 &&
      tally.winsDon > 0 &&
      tally.winsSheriff > 0 &&
      tally.winsMafia > 0
    )
      out.push('every-role');
    if (tally.bestPlayer >= BEST_PLAYER_TIMES) out.push('best-player-3');
  }
  return out;
}
