// The SQL of ratings, standings, seasons and /stats (issue 12): every statement on rating_settings,
// ratings, rating_history, standings, standings_log and seasons, and the stats' reads of results,
// games and actions. The rating logic (src/stats/record.ts), the /stats views (src/stats/queries.ts,
// src/stats/game-record.ts) and the /stats shell call these methods and hold no SQL. Statements are
// prepared once per connection. SQLite-specific forms are listed in docs/storage.md.
import type Database from 'better-sqlite3';
import type { Db } from './client';

type Sqlite = Database.Database;

export interface RatingSettingsRow {
  win: number;
  loss: number;
  start: number;
  /** Games with fewer accepted actions do not count. */
  minMoves: number;
}

/** A stored result (one seat of a finished game) as the ratings read it. */
export interface StoredResult {
  gameId: number;
  seat: number;
  guildId: string;
  userId: string;
  ruleset: string;
  role: string;
  team: string;
  outcome: string;
  points: number;
  bestPlayer: boolean;
  killedNight1: boolean;
  finishedAt: number;
  removed: boolean;
  /** The seat's holders and their shares (JSON), or null (one holder). */
  holders: string | null;
  noDayVote: boolean;
  moves: number;
}

/** What one counted result adds to a standings row (0/1 flags, points doubled to stay whole). */
export interface StandingDelta {
  guildId: string;
  ruleset: string;
  scope: string;
  userId: string;
  halfPoints: number;
  win: number;
  best: number;
  don: number;
  sheriff: number;
  mafia: number;
  killedNight1: number;
}

export interface RatingChange {
  gameId: number;
  userId: string;
  guildId: string;
  ruleset: string;
  seat: number;
  share: number;
  before: number;
  after: number;
  /** The player's rated games in this rule set with this one. */
  n: number;
  finishedAt: number;
}

export interface Season {
  id: number;
  name: string;
  startsAt: number;
  endsAt: number | null;
}

/** Which standings /stats top ranks. */
export interface StandingsQuery {
  guildId: string;
  ruleset: string;
  /** All time and seasons have maintained rows; a range of days is computed from the running totals. */
  period: { kind: 'all' } | { kind: 'season'; id: number } | { kind: 'days' };
  from: number;
  to: number;
  /** Only games of this tournament (games.tournament_id). */
  tournament: number | null;
}

/** One ranked row: S-5 places (RANK(): level players share one), the row number and the count. */
export interface RankedRow {
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

/** A player's results in one rule set and range, for /stats player. */
export interface ProfileQuery {
  guildId: string;
  ruleset: string;
  userId: string;
  from: number;
  to: number;
  tournament: number | null;
}

export interface ProfileTotals {
  games: number;
  wins: number;
  half: number;
  best: number;
  moves: number;
  n1: number;
  fouls: number;
  removals: number;
}

/** A finished game as /stats game replays it (JSON columns as stored). */
export interface RecordGameRow {
  id: number;
  ruleset: string;
  pace: string;
  options: string;
  deal: string | null;
  started_at: number | null;
  finished_at: number | null;
  annulled_at: number | null;
  status: string;
}

export interface RecordResultRow {
  seat: number;
  user_id: string;
  role: string;
  points: number;
  breakdown: string;
  holders: string | null;
  no_day_vote: number;
  moves: number;
}

/** S-5: each scoring system's order (after points), then the user id for a stable page order. */
const ORDER: Record<string, string> = {
  chnu: 'half_points DESC, best_player DESC',
  classic:
    'half_points DESC, wins DESC, best_player DESC, wins_don DESC, wins_sheriff DESC, wins_mafia DESC, ' +
    'killed_night1 DESC',
  // (decision) more games won, then fewer games.
  kiev: 'half_points DESC, wins DESC, games ASC',
};

const TOTALS = [
  'half_points',
  'games',
  'wins',
  'best_player',
  'wins_don',
  'wins_sheriff',
  'wins_mafia',
  'killed_night1',
];

const STANDING_UPSERT = `INSERT INTO standings (guild_id, ruleset, scope, user_id, half_points, games, wins,
    best_player, wins_don, wins_sheriff, wins_mafia, killed_night1)
  VALUES (@guild, @ruleset, @scope, @user, @half, 1, @win, @best, @don, @sheriff, @mafia, @n1)
  ON CONFLICT(guild_id, ruleset, scope, user_id) DO UPDATE SET half_points = half_points + excluded.half_points,
    games = games + 1, wins = wins + excluded.wins, best_player = best_player + excluded.best_player,
    wins_don = wins_don + excluded.wins_don, wins_sheriff = wins_sheriff + excluded.wins_sheriff,
    wins_mafia = wins_mafia + excluded.wins_mafia, killed_night1 = killed_night1 + excluded.killed_night1`;

const HISTORY_INSERT = `INSERT OR REPLACE INTO rating_history
  (game_id, user_id, guild_id, ruleset, seat, share, before, after, n, finished_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const RATING_UPSERT = `INSERT INTO ratings (guild_id, ruleset, user_id, elo, games, updated_at)
  VALUES (?, ?, ?, ?, 1, ?)
  ON CONFLICT(guild_id, ruleset, user_id) DO UPDATE SET elo = excluded.elo, games = games + 1,
    updated_at = excluded.updated_at`;

/** The player's running totals after a counted result: his all-time standings row at that moment. */
const LOG_INSERT = `INSERT OR REPLACE INTO standings_log (guild_id, ruleset, user_id, finished_at, game_id, half_points,
    games, wins, best_player, wins_don, wins_sheriff, wins_mafia, killed_night1)
  SELECT guild_id, ruleset, user_id, @at, @game, half_points, games, wins, best_player, wins_don, wins_sheriff,
    wins_mafia, killed_night1
  FROM standings WHERE guild_id = @guild AND ruleset = @ruleset AND scope = 'all' AND user_id = @user`;

const TOURNAMENT = ' AND game_id IN (SELECT id FROM games WHERE tournament_id = @tournament)';

interface RawResult {
  game_id: number;
  seat: number;
  guild_id: string;
  user_id: string;
  ruleset: string;
  role: string;
  team: string;
  outcome: string;
  points: number;
  best_player: number;
  killed_night1: number;
  finished_at: number;
  removed: number;
  holders: string | null;
  no_day_vote: number;
  moves: number;
}

function toResult(r: RawResult): StoredResult {
  return {
    gameId: r.game_id,
    seat: r.seat,
    guildId: r.guild_id,
    userId: r.user_id,
    ruleset: r.ruleset,
    role: r.role,
    team: r.team,
    outcome: r.outcome,
    points: r.points,
    bestPlayer: r.best_player === 1,
    killedNight1: r.killed_night1 === 1,
    finishedAt: r.finished_at,
    removed: r.removed === 1,
    holders: r.holders,
    noDayVote: r.no_day_vote === 1,
    moves: r.moves,
  };
}

type SeasonRaw = { id: number; name: string; starts_at: number; ends_at: number | null };
const toSeason = (r: SeasonRaw): Season => ({ id: r.id, name: r.name, startsAt: r.starts_at, endsAt: r.ends_at });

const byConnection = new WeakMap<Sqlite, SqliteStatsStore>();

export class SqliteStatsStore {
  private readonly stmts = new Map<string, Database.Statement>();

  private constructor(private readonly sqlite: Sqlite) {}

  /** The stats store of a connection: one per connection (its statements and rebuild state are shared). */
  static of(db: Db): SqliteStatsStore {
    const sqlite = (db as unknown as { $client: Sqlite }).$client;
    let s = byConnection.get(sqlite);
    if (!s) byConnection.set(sqlite, (s = new SqliteStatsStore(sqlite)));
    return s;
  }

  /** A statement prepared once per connection. */
  private prep(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.sqlite.prepare(sql)));
    return s;
  }

  /** Runs `fn` in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    // IMMEDIATE: see Store.transaction (several processes on one file).
    return this.sqlite.transaction(fn).immediate();
  }

  // -------------------------------------------------------------------------------------------
  // Rating settings and rebuild flags (rating_settings)

  ratingSettings(guildId: string): RatingSettingsRow | null {
    const sql = 'SELECT elo_win, elo_loss, elo_start, min_moves FROM rating_settings WHERE guild_id = ?';
    const r = this.prep(sql).get(guildId) as
      { elo_win: number; elo_loss: number; elo_start: number; min_moves: number } | undefined;
    return r ? { win: r.elo_win, loss: r.elo_loss, start: r.elo_start, minMoves: r.min_moves } : null;
  }

  saveRatingSettings(guildId: string, s: RatingSettingsRow, now: number): void {
    this.prep(
      `INSERT INTO rating_settings (guild_id, elo_win, elo_loss, elo_start, min_moves, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(guild_id) DO UPDATE SET elo_win = excluded.elo_win, elo_loss = excluded.elo_loss,
         elo_start = excluded.elo_start, min_moves = excluded.min_moves, updated_at = excluded.updated_at`,
    ).run(guildId, s.win, s.loss, s.start, s.minMoves, now);
  }

  /** The rule sets of a server whose rebuild is under way (kept so a crash's is finished at start-up). */
  rebuildingRulesets(guildId: string): string[] {
    const r = this.prep('SELECT rebuilding FROM rating_settings WHERE guild_id = ?').get(guildId) as
      { rebuilding: string | null } | undefined;
    return (r?.rebuilding ?? '').split(',').filter(Boolean);
  }

  setRebuildingRulesets(guildId: string, rulesets: string[]): void {
    this.prep(
      `INSERT INTO rating_settings (guild_id, rebuilding, updated_at) VALUES (?, ?, 0)
       ON CONFLICT(guild_id) DO UPDATE SET rebuilding = excluded.rebuilding`,
    ).run(guildId, rulesets.length ? rulesets.join(',') : null);
  }

  /** Every server's rebuilds left under way (by a crash). */
  interruptedRebuilds(): { guildId: string; ruleset: string }[] {
    const sql = 'SELECT guild_id, rebuilding FROM rating_settings WHERE rebuilding IS NOT NULL';
    const rows = this.prep(sql).all() as { guild_id: string; rebuilding: string }[];
    return rows.flatMap((r) =>
      r.rebuilding
        .split(',')
        .filter(Boolean)
        .map((ruleset) => ({ guildId: r.guild_id, ruleset })),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Results of one game (written by the game store's writeResults)

  gameResults(gameId: number): StoredResult[] {
    const rows = this.prep('SELECT * FROM results WHERE game_id = ? ORDER BY seat').all(gameId) as RawResult[];
    return rows.map(toResult);
  }

  isAnnulled(gameId: number): boolean {
    const g = this.prep('SELECT annulled_at FROM games WHERE id = ?').get(gameId) as
      { annulled_at: number | null } | undefined;
    return g?.annulled_at != null;
  }

  /** Whether the game's results count for standings and ratings. */
  setCounts(gameId: number, counts: boolean): void {
    this.prep('UPDATE results SET counts = ? WHERE game_id = ?').run(counts ? 1 : 0, gameId);
  }

  /** The server and rule set of a game. */
  gameServerAndRuleset(gameId: number): { guildId: string; ruleset: string } | null {
    const g = this.prep('SELECT guild_id, ruleset FROM games WHERE id = ?').get(gameId) as
      { guild_id: string; ruleset: string } | undefined;
    return g ? { guildId: g.guild_id, ruleset: g.ruleset } : null;
  }

  // -------------------------------------------------------------------------------------------
  // Ratings, rating history, standings, running totals

  rating(guildId: string, ruleset: string, userId: string): { elo: number; games: number } | null {
    const sql = 'SELECT elo, games FROM ratings WHERE guild_id = ? AND ruleset = ? AND user_id = ?';
    return (this.prep(sql).get(guildId, ruleset, userId) as { elo: number; games: number } | undefined) ?? null;
  }

  /** A rated game's change for one player (replacing one the game had). */
  addRatingChange(c: RatingChange): void {
    this.prep(HISTORY_INSERT).run(
      c.gameId,
      c.userId,
      c.guildId,
      c.ruleset,
      c.seat,
      c.share,
      c.before,
      c.after,
      c.n,
      c.finishedAt,
    );
  }

  /** The player's rating after one more rated game. */
  addRatedGame(guildId: string, ruleset: string, userId: string, elo: number, at: number): void {
    this.prep(RATING_UPSERT).run(guildId, ruleset, userId, elo, at);
  }

  addToStanding(d: StandingDelta): void {
    this.prep(STANDING_UPSERT).run({
      guild: d.guildId,
      ruleset: d.ruleset,
      scope: d.scope,
      user: d.userId,
      half: d.halfPoints,
      win: d.win,
      best: d.best,
      don: d.don,
      sheriff: d.sheriff,
      mafia: d.mafia,
      n1: d.killedNight1,
    });
  }

  /** Keeps the player's all-time totals as they are after this game (for ranges of time). */
  logRunningTotals(guildId: string, ruleset: string, userId: string, finishedAt: number, gameId: number): void {
    this.prep(LOG_INSERT).run({ guild: guildId, ruleset, user: userId, at: finishedAt, game: gameId });
  }

  /**
   * Rebuilds one scope of the standings for a range of time from the running totals: each player's
   * totals at the range's end minus those at its start (two index seeks per player, whatever the
   * range holds).
   */
  rebuildStandingsScope(guildId: string, scope: string, from: number, to: number | null): void {
    this.sqlite
      .prepare('DELETE FROM standings WHERE guild_id = @guild AND scope = @scope')
      .run({ guild: guildId, scope });
    const seek = (bound: string) =>
      `SELECT l.rowid FROM standings_log l WHERE l.guild_id = s.guild_id AND l.ruleset = s.ruleset
         AND l.user_id = s.user_id AND l.finished_at < ${bound} ORDER BY l.finished_at DESC, l.game_id DESC LIMIT 1`;
    this.sqlite
      .prepare(
        `INSERT INTO standings (guild_id, ruleset, scope, user_id, ${TOTALS.join(', ')})
         SELECT s.guild_id, s.ruleset, @scope, s.user_id,
           ${TOTALS.map((c) => `e.${c} - coalesce(b.${c}, 0)`).join(', ')}
         FROM standings s JOIN standings_log e ON e.rowid = (${seek('@to')})
           LEFT JOIN standings_log b ON b.rowid = (${seek('@from')})
         WHERE s.guild_id = @guild AND s.scope = 'all' AND e.games - coalesce(b.games, 0) > 0`,
      )
      .run({ guild: guildId, scope, from, to: to ?? Number.MAX_SAFE_INTEGER });
  }

  // -------------------------------------------------------------------------------------------
  // Rebuilds (in small steps)

  /** The newest game id (0 when none). */
  maxGameId(): number {
    return (this.sqlite.prepare('SELECT max(id) AS m FROM games').get() as { m: number | null }).m ?? 0;
  }

  /** Decides again which results count, for the server's games with ids in (lo, hi]. */
  recountResults(guildId: string, ruleset: string, minMoves: number, lo: number, hi: number): void {
    // '+': walk the key's range, not the server's index.
    this.prep(
      `UPDATE results SET counts = CASE
         WHEN (SELECT annulled_at FROM games g WHERE g.id = results.game_id) IS NOT NULL THEN 0
         WHEN no_day_vote = 1 THEN 0 WHEN moves < @min THEN 0 ELSE 1 END
       WHERE game_id > @lo AND game_id <= @hi AND +guild_id = @guild AND +ruleset = @ruleset`,
    ).run({ guild: guildId, ruleset, min: minMoves, lo, hi });
  }

  /** Deletes the standings (every scope) and the ratings of a server's rule set. */
  clearStandingsAndRatings(guildId: string, ruleset: string): void {
    const p = { guild: guildId, ruleset };
    this.sqlite.prepare('DELETE FROM standings WHERE guild_id = @guild AND ruleset = @ruleset').run(p);
    this.sqlite.prepare('DELETE FROM ratings WHERE guild_id = @guild AND ruleset = @ruleset').run(p);
  }

  /** Deletes up to `limit` rows of a rule set's rating history or running totals; returns how many. */
  deleteDerivedRows(
    table: 'rating_history' | 'standings_log',
    guildId: string,
    ruleset: string,
    limit: number,
  ): number {
    const sql = `DELETE FROM ${table} WHERE rowid IN
      (SELECT rowid FROM ${table} WHERE guild_id = @guild AND ruleset = @ruleset LIMIT ${Math.floor(limit)})`;
    return this.prep(sql).run({ guild: guildId, ruleset }).changes;
  }

  /** The next counted games of a rule set after (at, game), in the order they finished. */
  countedGamesAfter(
    guildId: string,
    ruleset: string,
    at: number,
    game: number,
    limit: number,
  ): { gameId: number; finishedAt: number }[] {
    const sql = `SELECT DISTINCT game_id, finished_at FROM results WHERE guild_id = @guild AND ruleset = @ruleset
        AND counts = 1 AND finished_at >= @at AND NOT (finished_at = @at AND game_id <= @game)
      ORDER BY finished_at, game_id LIMIT ${Math.floor(limit)}`;
    const rows = this.prep(sql).all({ guild: guildId, ruleset, at, game }) as {
      game_id: number;
      finished_at: number;
    }[];
    return rows.map((r) => ({ gameId: r.game_id, finishedAt: r.finished_at }));
  }

  /** Rule sets the server has standings or ratings in. */
  rulesetsWithStandings(guildId: string): string[] {
    const sql = `SELECT DISTINCT ruleset FROM standings WHERE guild_id = ?
      UNION SELECT DISTINCT ruleset FROM ratings WHERE guild_id = ?`;
    return (this.sqlite.prepare(sql).all(guildId, guildId) as { ruleset: string }[]).map((r) => r.ruleset);
  }

  serverIds(): string[] {
    return (this.sqlite.prepare('SELECT guild_id FROM servers').all() as { guild_id: string }[]).map((r) => r.guild_id);
  }

  hasResults(guildId: string, ruleset: string): boolean {
    const sql = 'SELECT 1 FROM results WHERE guild_id = ? AND ruleset = ? LIMIT 1';
    return this.prep(sql).get(guildId, ruleset) !== undefined;
  }

  hasStandings(guildId: string, ruleset: string): boolean {
    const sql = "SELECT 1 FROM standings WHERE guild_id = ? AND ruleset = ? AND scope = 'all' LIMIT 1";
    return this.prep(sql).get(guildId, ruleset) !== undefined;
  }

  hasRatingHistory(guildId: string, ruleset: string): boolean {
    const sql = 'SELECT 1 FROM rating_history WHERE guild_id = ? AND ruleset = ? LIMIT 1';
    return this.prep(sql).get(guildId, ruleset) !== undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Seasons

  seasons(guildId: string): Season[] {
    const sql = 'SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ? ORDER BY starts_at, id';
    return (this.prep(sql).all(guildId) as SeasonRaw[]).map(toSeason);
  }

  /** A season by its name (case-insensitive). */
  seasonByName(guildId: string, name: string): Season | null {
    const sql = 'SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ? AND name = ? COLLATE NOCASE';
    const r = this.prep(sql).get(guildId, name) as SeasonRaw | undefined;
    return r ? toSeason(r) : null;
  }

  seasonById(guildId: string, id: number): Season | null {
    const sql = 'SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ? AND id = ?';
    const r = this.prep(sql).get(guildId, id) as SeasonRaw | undefined;
    return r ? toSeason(r) : null;
  }

  /** The seasons of a server that a game finished at `at` belongs to. */
  seasonIdsAt(guildId: string, at: number): number[] {
    const sql = 'SELECT id FROM seasons WHERE guild_id = ? AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?)';
    return (this.prep(sql).all(guildId, at, at) as { id: number }[]).map((r) => r.id);
  }

  /** Defines a season; returns its id. */
  addSeason(guildId: string, name: string, startsAt: number, endsAt: number | null, now: number): number {
    const sql = 'INSERT INTO seasons (guild_id, name, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?, ?)';
    return Number(this.sqlite.prepare(sql).run(guildId, name, startsAt, endsAt, now).lastInsertRowid);
  }

  endSeason(seasonId: number, endsAt: number): void {
    this.sqlite.prepare('UPDATE seasons SET ends_at = ? WHERE id = ?').run(endsAt, seasonId);
  }

  // -------------------------------------------------------------------------------------------
  // /stats top: one indexed statement per question, ranks computed by the database

  /**
   * One page of the standings (rows `lo` < rn <= `hi`) and the caller's row, ranked by points in
   * the scoring system's S-5 order or by Elo.
   */
  rankedPage(
    q: StandingsQuery,
    by: 'points' | 'elo',
    scoring: string,
    lo: number,
    hi: number,
    caller: string,
  ): RankedRow[] {
    const src = by === 'elo' ? eloSource(q) : pointsSource(q);
    const order = by === 'elo' ? 'elo DESC, games DESC' : ORDER[scoring]!;
    const sql = `WITH s AS (${src.sql}), r AS (
        SELECT *, RANK() OVER (ORDER BY ${order}) AS place, ROW_NUMBER() OVER (ORDER BY ${order}, user_id) AS rn,
          count(*) OVER () AS total FROM s)
      SELECT * FROM r WHERE (rn > @lo AND rn <= @hi) OR user_id = @caller ORDER BY rn`;
    return this.prep(sql).all({ ...src.params, lo, hi, caller }) as RankedRow[];
  }

  /** `/stats main rule set`: the rule set most players of this server have standings in. */
  mainRuleset(guildId: string): string | null {
    const sql = `SELECT ruleset FROM standings WHERE guild_id = ? AND scope = 'all'
      GROUP BY ruleset ORDER BY count(*) DESC, ruleset LIMIT 1`;
    return (this.sqlite.prepare(sql).get(guildId) as { ruleset: string } | undefined)?.ruleset ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // /stats player: all reads on (guild, user, date) indexes

  /** The rule set the player played last on this server. */
  latestRuleset(guildId: string, userId: string): string | null {
    const sql = 'SELECT ruleset FROM results WHERE guild_id = ? AND user_id = ? ORDER BY finished_at DESC LIMIT 1';
    return (this.prep(sql).get(guildId, userId) as { ruleset: string } | undefined)?.ruleset ?? null;
  }

  profileTotals(q: ProfileQuery): ProfileTotals {
    const { where, params } = profileWhere(q);
    return this.prep(
      `SELECT count(*) AS games, coalesce(sum(outcome = 'win'), 0) AS wins,
        coalesce(sum(CAST(round(points * 2) AS INTEGER)), 0) AS half, coalesce(sum(best_player), 0) AS best,
        coalesce(sum(best_move_black IS NOT NULL), 0) AS moves, coalesce(sum(killed_night1), 0) AS n1,
        coalesce(sum(fouls), 0) AS fouls, coalesce(sum(removed), 0) AS removals
       FROM results WHERE ${where} AND counts = 1`,
    ).get(params) as ProfileTotals;
  }

  profileByRole(q: ProfileQuery): { role: string; games: number; wins: number }[] {
    const { where, params } = profileWhere(q);
    const sql = `SELECT role, count(*) AS games, sum(outcome = 'win') AS wins FROM results WHERE ${where} AND counts = 1
      GROUP BY role ORDER BY games DESC, role`;
    return this.prep(sql).all(params) as { role: string; games: number; wins: number }[];
  }

  /** Outcomes of the player's latest counted games, newest first. */
  recentOutcomes(q: ProfileQuery, limit: number): string[] {
    const { where, params } = profileWhere(q);
    const sql = `SELECT outcome FROM results WHERE ${where} AND counts = 1
      ORDER BY finished_at DESC LIMIT ${Math.floor(limit)}`;
    return (this.prep(sql).all(params) as { outcome: string }[]).map((r) => r.outcome);
  }

  /** The player's latest games (counted or not), newest first. */
  lastGames(q: ProfileQuery, limit: number) {
    const { where, params } = profileWhere(q);
    const sql = `SELECT game_id, role, outcome, points, finished_at, counts FROM results WHERE ${where}
      ORDER BY finished_at DESC LIMIT ${Math.floor(limit)}`;
    return (
      this.prep(sql).all(params) as {
        game_id: number;
        role: string;
        outcome: string;
        points: number;
        finished_at: number;
        counts: number;
      }[]
    ).map((r) => ({
      gameId: r.game_id,
      role: r.role,
      outcome: r.outcome,
      points: r.points,
      finishedAt: r.finished_at,
      counts: r.counts === 1,
    }));
  }

  /** The player's latest rating changes in the range, newest first. */
  ratingChanges(q: ProfileQuery, limit: number): { at: number; before: number; after: number }[] {
    const { params } = profileWhere(q);
    const t = q.tournament === null ? '' : TOURNAMENT;
    return this.prep(
      `SELECT finished_at AS at, before, after FROM rating_history WHERE guild_id = @guild AND ruleset = @ruleset
         AND user_id = @user AND finished_at >= @from AND finished_at < @to${t}
       ORDER BY finished_at DESC LIMIT ${Math.floor(limit)}`,
    ).all(params) as { at: number; before: number; after: number }[];
  }

  // -------------------------------------------------------------------------------------------
  // /stats game

  /** A game of this server for its record (null when there is none with this id). */
  recordGame(guildId: string, gameId: number): RecordGameRow | null {
    const sql = `SELECT id, guild_id, ruleset, pace, options, deal, started_at, finished_at, annulled_at, status
      FROM games WHERE id = ? AND guild_id = ?`;
    return (this.prep(sql).get(gameId, guildId) as RecordGameRow | undefined) ?? null;
  }

  recordResults(gameId: number): RecordResultRow[] {
    const sql = `SELECT seat, user_id, role, points, breakdown, holders, no_day_vote, moves FROM results
      WHERE game_id = ? ORDER BY seat`;
    return this.prep(sql).all(gameId) as RecordResultRow[];
  }

  /** The game's log (actions as stored JSON), in order. */
  loggedActions(gameId: number): { action: string; at: number }[] {
    const sql = 'SELECT action, at FROM actions WHERE game_id = ? ORDER BY seq';
    return this.prep(sql).all(gameId) as { action: string; at: number }[];
  }
}

/** The stats store as its callers see it: a second SQL dialect provides the same methods. */
export type StatsStore = { [K in keyof SqliteStatsStore]: SqliteStatsStore[K] };

function profileWhere(q: ProfileQuery): { where: string; params: Record<string, unknown> } {
  const t = q.tournament === null ? '' : TOURNAMENT;
  const params = {
    guild: q.guildId,
    ruleset: q.ruleset,
    user: q.userId,
    from: q.from,
    to: q.to,
    ...(q.tournament === null ? {} : { tournament: q.tournament }),
  };
  const where = `guild_id = @guild AND user_id = @user AND ruleset = @ruleset AND finished_at >= @from AND finished_at < @to${t}`;
  return { where, params };
}

/**
 * The standings rows the ranking reads. All time and seasons: the maintained rows. The last N
 * days: each player's running totals now minus his totals before the period (two index seeks per
 * player, whatever the period's length). A tournament: its games' results (few).
 */
function pointsSource(q: StandingsQuery): { sql: string; params: Record<string, unknown> } {
  const base = { guild: q.guildId, ruleset: q.ruleset };
  const { from, to, tournament, period } = q;
  if (tournament === null && period.kind !== 'days') {
    const scope = period.kind === 'all' ? 'all' : `s${period.id}`;
    return {
      sql: 'SELECT * FROM standings WHERE guild_id = @guild AND ruleset = @ruleset AND scope = @scope',
      params: { ...base, scope },
    };
  }
  if (tournament === null) {
    const before = `SELECT l.rowid FROM standings_log l WHERE l.guild_id = @guild AND l.ruleset = @ruleset
      AND l.user_id = s.user_id AND l.finished_at < @from ORDER BY l.finished_at DESC, l.game_id DESC LIMIT 1`;
    return {
      sql: `SELECT s.user_id, ${TOTALS.map((c) => `s.${c} - coalesce(b.${c}, 0) AS ${c}`).join(', ')}
        FROM standings s LEFT JOIN standings_log b ON b.rowid = (${before})
        WHERE s.guild_id = @guild AND s.ruleset = @ruleset AND s.scope = 'all' AND s.games - coalesce(b.games, 0) > 0`,
      params: { ...base, from },
    };
  }
  // CROSS JOIN: SQLite walks the tournament's games first, then each game's results by its key.
  return {
    sql: `SELECT r.user_id, sum(CAST(round(r.points * 2) AS INTEGER)) AS half_points, count(*) AS games,
        sum(r.outcome = 'win') AS wins, sum(r.best_player) AS best_player,
        sum(r.outcome = 'win' AND r.role = 'don') AS wins_don,
        sum(r.outcome = 'win' AND r.role = 'sheriff') AS wins_sheriff,
        sum(r.outcome = 'win' AND r.role = 'mafia') AS wins_mafia, sum(r.killed_night1) AS killed_night1
      FROM games g CROSS JOIN results r ON r.game_id = g.id
      WHERE g.tournament_id = @tournament AND g.guild_id = @guild AND r.ruleset = @ruleset AND r.counts = 1
        AND r.finished_at >= @from AND r.finished_at < @to
      GROUP BY r.user_id`,
    params: { ...base, from, to, tournament },
  };
}

/** Elo rows: the current ratings, or each player's rating after his last game in the period. */
function eloSource(q: StandingsQuery): { sql: string; params: Record<string, unknown> } {
  const base = { guild: q.guildId, ruleset: q.ruleset };
  const { from, to, tournament, period } = q;
  if (tournament === null && period.kind === 'all') {
    return {
      sql: `SELECT r.user_id, r.elo, r.games, coalesce(s.wins, 0) AS wins, coalesce(s.best_player, 0) AS best_player,
          coalesce(s.half_points, 0) AS half_points
        FROM ratings r LEFT JOIN standings s ON s.guild_id = r.guild_id AND s.ruleset = r.ruleset AND s.scope = 'all'
          AND s.user_id = r.user_id
        WHERE r.guild_id = @guild AND r.ruleset = @ruleset`,
      params: base,
    };
  }
  if (tournament === null) {
    // Per player: his last rated game before the period's end and his last before its start.
    const seek = (bound: string) =>
      `SELECT h.rowid FROM rating_history h WHERE h.guild_id = @guild AND h.ruleset = @ruleset AND h.user_id = r.user_id
         AND h.finished_at < ${bound} ORDER BY h.finished_at DESC LIMIT 1`;
    return {
      sql: `SELECT r.user_id, e.after AS elo, e.n - coalesce(b.n, 0) AS games, 0 AS wins, 0 AS best_player,
          0 AS half_points
        FROM ratings r JOIN rating_history e ON e.rowid = (${seek('@to')})
          LEFT JOIN rating_history b ON b.rowid = (${seek('@from')})
        WHERE r.guild_id = @guild AND r.ruleset = @ruleset AND e.n - coalesce(b.n, 0) > 0`,
      params: { ...base, from, to },
    };
  }
  // SQLite: with max(), the other bare columns come from the row holding the maximum.
  return {
    sql: `SELECT h.user_id, h.after AS elo, count(*) AS games, 0 AS wins, 0 AS best_player, 0 AS half_points,
        max(h.finished_at) AS last
      FROM games g CROSS JOIN rating_history h ON h.game_id = g.id
      WHERE g.tournament_id = @tournament AND g.guild_id = @guild AND h.ruleset = @ruleset AND h.finished_at >= @from
        AND h.finished_at < @to
      GROUP BY h.user_id`,
    params: { ...base, from, to, tournament },
  };
}
