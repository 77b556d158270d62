// The /stats queries: one indexed SQL statement per question, ranks computed by SQLite (RANK() for
// the S-5 shared places), only the page asked for (and the caller's row) returned to JavaScript.
import type Database from 'better-sqlite3';
import { RULESETS } from '../engine/rulesets';
import type { RulesetId } from '../engine/types';
import { prep } from './record';

type Sqlite = Database.Database;

export type Period = { kind: 'all' } | { kind: 'days'; days: number } | { kind: 'season'; id: number; name: string; from: number; to: number | null };

export interface StatsFilter {
  guildId: string;
  ruleset: RulesetId;
  period: Period;
  /** Only games of this tournament (games.tournament_id). */
  tournament?: number | null;
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

/** S-5: each scoring system's order (after points), then the user id for a stable page order. */
const ORDER: Record<string, string> = {
  chnu: 'half_points DESC, best_player DESC',
  classic: 'half_points DESC, wins DESC, best_player DESC, wins_don DESC, wins_sheriff DESC, wins_mafia DESC, killed_night1 DESC',
  // (decision) more games won, then fewer games.
  kiev: 'half_points DESC, wins DESC, games ASC',
};

function range(f: StatsFilter): { from: number; to: number } {
  switch (f.period.kind) {
    case 'all':
      return { from: 0, to: Number.MAX_SAFE_INTEGER };
    case 'days':
      return { from: f.now - f.period.days * 86_400_000, to: Number.MAX_SAFE_INTEGER };
    case 'season':
      return { from: f.period.from, to: f.period.to ?? Number.MAX_SAFE_INTEGER };
  }
}

const TOURNAMENT = ' AND game_id IN (SELECT id FROM games WHERE tournament_id = @tournament)';

const TOTALS = ['half_points', 'games', 'wins', 'best_player', 'wins_don', 'wins_sheriff', 'wins_mafia', 'killed_night1'];

/**
 * The standings rows the ranking reads. All time and seasons: the maintained rows. The last N
 * days: each player's running totals now minus his totals before the period (two index seeks per
 * player, whatever the period's length). A tournament: its games' results (few).
 */
function source(f: StatsFilter): { sql: string; params: Record<string, unknown> } {
  const base = { guild: f.guildId, ruleset: f.ruleset };
  const tournament = f.tournament ?? null;
  if (tournament === null && f.period.kind !== 'days') {
    const scope = f.period.kind === 'all' ? 'all' : `s${f.period.id}`;
    return { sql: 'SELECT * FROM standings WHERE guild_id = @guild AND ruleset = @ruleset AND scope = @scope', params: { ...base, scope } };
  }
  const { from, to } = range(f);
  if (tournament === null) {
    const before = `SELECT l.rowid FROM standings_log l WHERE l.guild_id = @guild AND l.ruleset = @ruleset AND l.user_id = s.user_id AND l.finished_at < @from ORDER BY l.finished_at DESC, l.game_id DESC LIMIT 1`;
    return {
      sql: `SELECT s.user_id, ${TOTALS.map((c) => `s.${c} - coalesce(b.${c}, 0) AS ${c}`).join(', ')}
        FROM standings s LEFT JOIN standings_log b ON b.rowid = (${before})
        WHERE s.guild_id = @guild AND s.ruleset = @ruleset AND s.scope = 'all' AND s.games - coalesce(b.games, 0) > 0`,
      params: { ...base, from },
    };
  }
  // CROSS JOIN: SQLite walks the tournament's games first, then each game's results by its key.
  return {
    sql: `SELECT r.user_id, sum(CAST(round(r.points * 2) AS INTEGER)) AS half_points, count(*) AS games, sum(r.outcome = 'win') AS wins,
        sum(r.best_player) AS best_player, sum(r.outcome = 'win' AND r.role = 'don') AS wins_don, sum(r.outcome = 'win' AND r.role = 'sheriff') AS wins_sheriff,
        sum(r.outcome = 'win' AND r.role = 'mafia') AS wins_mafia, sum(r.killed_night1) AS killed_night1
      FROM games g CROSS JOIN results r ON r.game_id = g.id
      WHERE g.tournament_id = @tournament AND g.guild_id = @guild AND r.ruleset = @ruleset AND r.counts = 1 AND r.finished_at >= @from AND r.finished_at < @to
      GROUP BY r.user_id`,
    params: { ...base, from, to, tournament },
  };
}

/** Elo rows: the current ratings, or each player's rating after his last game in the period. */
function eloSource(f: StatsFilter): { sql: string; params: Record<string, unknown> } {
  const base = { guild: f.guildId, ruleset: f.ruleset };
  const tournament = f.tournament ?? null;
  if (tournament === null && f.period.kind === 'all') {
    return {
      sql: `SELECT r.user_id, r.elo, r.games, coalesce(s.wins, 0) AS wins, coalesce(s.best_player, 0) AS best_player, coalesce(s.half_points, 0) AS half_points
        FROM ratings r LEFT JOIN standings s ON s.guild_id = r.guild_id AND s.ruleset = r.ruleset AND s.scope = 'all' AND s.user_id = r.user_id
        WHERE r.guild_id = @guild AND r.ruleset = @ruleset`,
      params: base,
    };
  }
  const { from, to } = range(f);
  if (tournament === null) {
    // Per player: his last rated game before the period's end and his last before its start.
    const seek = (bound: string) =>
      `SELECT h.rowid FROM rating_history h WHERE h.guild_id = @guild AND h.ruleset = @ruleset AND h.user_id = r.user_id AND h.finished_at < ${bound} ORDER BY h.finished_at DESC LIMIT 1`;
    return {
      sql: `SELECT r.user_id, e.after AS elo, e.n - coalesce(b.n, 0) AS games, 0 AS wins, 0 AS best_player, 0 AS half_points
        FROM ratings r JOIN rating_history e ON e.rowid = (${seek('@to')}) LEFT JOIN rating_history b ON b.rowid = (${seek('@from')})
        WHERE r.guild_id = @guild AND r.ruleset = @ruleset AND e.n - coalesce(b.n, 0) > 0`,
      params: { ...base, from, to },
    };
  }
  // SQLite: with max(), the other bare columns come from the row holding the maximum.
  return {
    sql: `SELECT h.user_id, h.after AS elo, count(*) AS games, 0 AS wins, 0 AS best_player, 0 AS half_points, max(h.finished_at) AS last
      FROM games g CROSS JOIN rating_history h ON h.game_id = g.id
      WHERE g.tournament_id = @tournament AND g.guild_id = @guild AND h.ruleset = @ruleset AND h.finished_at >= @from AND h.finished_at < @to
      GROUP BY h.user_id`,
    params: { ...base, from, to, tournament },
  };
}

interface RankedRow {
  user_id: string;
  half_points: number;
  games: number;
  wins: number;
  best_player: number;
  elo?: number;
  place: number;
  rn: number;
  total: number;
}

/** `/stats top`: one page of the standings (S-5 tie-breaks; level players share the place) and the caller's row. */
export function top(db: Sqlite, f: StatsFilter, by: RankBy, page: number, caller: string | null): TopPage {
  const system = RULESETS[f.ruleset].scoring;
  const src = by === 'elo' ? eloSource(f) : source(f);
  const order = by === 'elo' ? 'elo DESC, games DESC' : ORDER[system]!;
  const sql = `WITH s AS (${src.sql}), r AS (
      SELECT *, RANK() OVER (ORDER BY ${order}) AS place, ROW_NUMBER() OVER (ORDER BY ${order}, user_id) AS rn, count(*) OVER () AS total FROM s)
    SELECT * FROM r WHERE (rn > @lo AND rn <= @hi) OR user_id = @caller ORDER BY rn`;
  const first = Math.max(0, page) * PAGE_SIZE;
  const rows = prep(db, sql).all({ ...src.params, lo: first, hi: first + PAGE_SIZE, caller: caller ?? '' }) as RankedRow[];
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
  return { rows: onPage, own: ownRow ? toRow(ownRow) : null, total, page: Math.min(Math.max(0, page), pages - 1), pages };
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
}

/** The rule set the player played last on this server (when `/stats player` names none). */
export function latestRuleset(db: Sqlite, guildId: string, userId: string): RulesetId | null {
  const r = prep(db, 'SELECT ruleset FROM results WHERE guild_id = ? AND user_id = ? ORDER BY finished_at DESC LIMIT 1').get(guildId, userId) as { ruleset: RulesetId } | undefined;
  return r?.ruleset ?? null;
}

/** `/stats player`: a player's record in one rule set and period; all reads on (guild, user, date) indexes. */
export function profile(db: Sqlite, f: StatsFilter, userId: string): PlayerProfile {
  const { from, to } = range(f);
  const tournament = f.tournament ?? null;
  const t = tournament === null ? '' : TOURNAMENT;
  const p = { guild: f.guildId, ruleset: f.ruleset, user: userId, from, to, ...(tournament === null ? {} : { tournament }) };
  const where = `guild_id = @guild AND user_id = @user AND ruleset = @ruleset AND finished_at >= @from AND finished_at < @to${t}`;
  const sum = prep(
    db,
    `SELECT count(*) AS games, coalesce(sum(outcome = 'win'), 0) AS wins, coalesce(sum(CAST(round(points * 2) AS INTEGER)), 0) AS half, coalesce(sum(best_player), 0) AS best,
      coalesce(sum(best_move_black IS NOT NULL), 0) AS moves, coalesce(sum(killed_night1), 0) AS n1, coalesce(sum(fouls), 0) AS fouls, coalesce(sum(removed), 0) AS removals
     FROM results WHERE ${where} AND counts = 1`,
  ).get(p) as { games: number; wins: number; half: number; best: number; moves: number; n1: number; fouls: number; removals: number };
  const byRole = prep(db, `SELECT role, count(*) AS games, sum(outcome = 'win') AS wins FROM results WHERE ${where} AND counts = 1 GROUP BY role ORDER BY games DESC, role`).all(p) as {
    role: string;
    games: number;
    wins: number;
  }[];
  const recent = prep(db, `SELECT outcome FROM results WHERE ${where} AND counts = 1 ORDER BY finished_at DESC LIMIT 500`).all(p) as { outcome: string }[];
  let streak: PlayerProfile['streak'] = null;
  if (recent.length > 0) {
    let n = 0;
    while (n < recent.length && recent[n]!.outcome === recent[0]!.outcome) n++;
    streak = { outcome: recent[0]!.outcome, length: n };
  }
  const last = (prep(db, `SELECT game_id, role, outcome, points, finished_at, counts FROM results WHERE ${where} ORDER BY finished_at DESC LIMIT 5`).all(p) as {
    game_id: number;
    role: string;
    outcome: string;
    points: number;
    finished_at: number;
    counts: number;
  }[]).map((r) => ({ gameId: r.game_id, role: r.role, outcome: r.outcome, points: r.points, finishedAt: r.finished_at, counts: r.counts === 1 }));
  const hist = (prep(
    db,
    `SELECT finished_at AS at, before, after FROM rating_history WHERE guild_id = @guild AND ruleset = @ruleset AND user_id = @user AND finished_at >= @from AND finished_at < @to${t}
     ORDER BY finished_at DESC LIMIT 200`,
  ).all(p) as { at: number; before: number; after: number }[]).reverse();
  const rating = prep(db, 'SELECT elo FROM ratings WHERE guild_id = ? AND ruleset = ? AND user_id = ?').get(f.guildId, f.ruleset, userId) as { elo: number } | undefined;
  let trend: number | null = null;
  if (hist.length > 0) {
    const window = f.period.kind === 'all' && tournament === null ? hist.slice(-10) : hist;
    trend = Math.round((window[window.length - 1]!.after - window[0]!.before) * 10) / 10;
  }
  const elo = f.period.kind === 'all' && tournament === null ? (rating?.elo ?? null) : (hist[hist.length - 1]?.after ?? null);
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
  };
}

export interface Season {
  id: number;
  name: string;
  startsAt: number;
  endsAt: number | null;
}

export function seasonsOf(db: Sqlite, guildId: string): Season[] {
  return (prep(db, 'SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ? ORDER BY starts_at, id').all(guildId) as { id: number; name: string; starts_at: number; ends_at: number | null }[]).map(
    (r) => ({ id: r.id, name: r.name, startsAt: r.starts_at, endsAt: r.ends_at }),
  );
}

export function seasonByName(db: Sqlite, guildId: string, name: string): Season | null {
  const r = prep(db, 'SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ? AND name = ? COLLATE NOCASE').get(guildId, name) as
    | { id: number; name: string; starts_at: number; ends_at: number | null }
    | undefined;
  return r ? { id: r.id, name: r.name, startsAt: r.starts_at, endsAt: r.ends_at } : null;
}

export function seasonById(db: Sqlite, guildId: string, id: number): Season | null {
  const r = prep(db, 'SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ? AND id = ?').get(guildId, id) as
    | { id: number; name: string; starts_at: number; ends_at: number | null }
    | undefined;
  return r ? { id: r.id, name: r.name, startsAt: r.starts_at, endsAt: r.ends_at } : null;
}
