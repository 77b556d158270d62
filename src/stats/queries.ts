// The /stats questions: one indexed SQL statement per question in the stats store
// (src/db/stats-store.ts), ranks computed by the database (RANK() for the S-5 shared places), only
// the page asked for (and the caller's row) returned to JavaScript. This file shapes the answers.
import type { RankedRow, StatsStore } from '../db/stats-store';
import { RULESETS } from '../engine/rulesets';
import type { RulesetId } from '../engine/types';

export type { Season } from '../db/stats-store';

export type Period =
  | { kind: 'all' }
  | { kind: 'days'; days: number }
  | { kind: 'season'; id: number; name: string; from: number; to: number | null };

export interface StatsFilter {
  guildId: string;
  ruleset: RulesetId;
  period: Period;
  /** Only games of this tournament (games.tournament_id). */
  tournament?: number | null;
  /** Issue 24: only games of this preset (by points only: Elo is one per rule set). */
  preset?: string | null;
  now: number;
}

export type RankBy = 'points' | 'elo';

export interface TopRow {
  place: number;
  userId: string;
  /** Points (by points) or Elo (by elo). */
  points: number;
  elo: number | null;
  games: number;
  wins: number;
  bestPlayer: number;
}

export interface TopPage {
  rows: TopRow[];
  /** The caller's own row when it is not on this page (null when he has no games). */
  own: TopRow | null;
  total: number;
  page: number;
  pages: number;
}

export const PAGE_SIZE = 10;

/** The period's range of finishing times: [from, to). */
export function range(f: StatsFilter): { from: number; to: number } {
  switch (f.period.kind) {
    case 'all':
      return { from: 0, to: Number.MAX_SAFE_INTEGER };
    case 'days':
      return { from: f.now - f.period.days * 86_400_000, to: Number.MAX_SAFE_INTEGER };
    case 'season':
      return { from: f.period.from, to: f.period.to ?? Number.MAX_SAFE_INTEGER };
  }
}

/** `/stats top`: one page of the standings (S-5 tie-breaks; level players share the place) and the caller's row. */
export async function top(
  db: StatsStore,
  f: StatsFilter,
  by: RankBy,
  page: number,
  caller: string | null,
): Promise<TopPage> {
  const system = RULESETS[f.ruleset].scoring;
  const { from, to } = range(f);
  const q = {
    guildId: f.guildId,
    ruleset: f.ruleset,
    period: f.period,
    from,
    to,
    tournament: f.tournament ?? null,
    preset: f.preset ?? null,
  };
  const first = Math.max(0, page) * PAGE_SIZE;
  const rows = await db.rankedPage(q, by, system, first, first + PAGE_SIZE, caller ?? '');
  const total = rows[0]?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const toRow = (r: RankedRow): TopRow => ({
    place: r.place,
    userId: r.user_id,
    points: r.half_points / 2,
    elo: r.elo ?? null,
    games: r.games,
    wins: r.wins,
    bestPlayer: r.best_player,
  });
  const onPage = rows.filter((r) => r.rn > first && r.rn <= first + PAGE_SIZE).map(toRow);
  const ownRow = rows.find((r) => r.user_id === caller && !(r.rn > first && r.rn <= first + PAGE_SIZE));
  return {
    rows: onPage,
    own: ownRow ? toRow(ownRow) : null,
    total,
    page: Math.min(Math.max(0, page), pages - 1),
    pages,
  };
}

export interface PlayerProfile {
  ruleset: RulesetId;
  games: number;
  wins: number;
  points: number;
  bestPlayer: number;
  bestMoves: number;
  killedNight1: number;
  fouls: number;
  removals: number;
  byRole: { role: string; games: number; wins: number }[];
  /** The current streak: `win`, `loss` or `draw`, and its length (within the period). */
  streak: { outcome: string; length: number } | null;
  elo: number | null;
  /** Elo change over the period (all time: over the last 10 rated games). */
  trend: number | null;
  last: { gameId: number; role: string; outcome: string; points: number; finishedAt: number; counts: boolean }[];
  /** The Elo after each rated game, oldest first (the chart; the last 200). */
  history: { at: number; elo: number }[];
  /** Issue 24: the player's achievements in the rule set (all time, whatever the period), oldest first. */
  achievements: { code: string; gameId: number; earnedAt: number }[];
}

/** The rule set the player played last on this server (when `/stats player` names none). */
export async function latestRuleset(db: StatsStore, guildId: string, userId: string): Promise<RulesetId | null> {
  return (await db.latestRuleset(guildId, userId)) as RulesetId | null;
}

/** `/stats player`: a player's record in one rule set and period; all reads on (guild, user, date) indexes. */
export async function profile(db: StatsStore, f: StatsFilter, userId: string): Promise<PlayerProfile> {
  const { from, to } = range(f);
  const tournament = f.tournament ?? null;
  const q = { guildId: f.guildId, ruleset: f.ruleset, userId, from, to, tournament };
  const sum = await db.profileTotals(q);
  const byRole = await db.profileByRole(q);
  const recent = await db.recentOutcomes(q, 500);
  let streak: PlayerProfile['streak'] = null;
  if (recent.length > 0) {
    let n = 0;
    while (n < recent.length && recent[n] === recent[0]) n++;
    streak = { outcome: recent[0]!, length: n };
  }
  const last = await db.lastGames(q, 5);
  const hist = (await db.ratingChanges(q, 200)).reverse();
  const rating = await db.rating(f.guildId, f.ruleset, userId);
  let trend: number | null = null;
  if (hist.length > 0) {
    const window = f.period.kind === 'all' && tournament === null ? hist.slice(-10) : hist;
    trend = Math.round((window[window.length - 1]!.after - window[0]!.before) * 10) / 10;
  }
  const elo =
    f.period.kind === 'all' && tournament === null ? (rating?.elo ?? null) : (hist[hist.length - 1]?.after ?? null);
  return {
    ruleset: f.ruleset,
    games: sum.games,
    wins: sum.wins,
    points: sum.half / 2,
    bestPlayer: sum.best,
    bestMoves: sum.moves,
    killedNight1: sum.n1,
    fouls: sum.fouls,
    removals: sum.removals,
    byRole,
    streak,
    elo,
    trend,
    last,
    history: hist.map((h) => ({ at: h.at, elo: h.after })),
    achievements: await db.playerAchievements(f.guildId, f.ruleset, userId),
  };
}

export function seasonsOf(db: StatsStore, guildId: string) {
  return db.seasons(guildId);
}

export function seasonByName(db: StatsStore, guildId: string, name: string) {
  return db.seasonByName(guildId, name);
}

export function seasonById(db: StatsStore, guildId: string, id: number) {
  return db.seasonById(guildId, id);
}
