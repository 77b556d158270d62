// Ratings and standings kept up to date in the transaction that closes a game (and rebuilt when a
// game is annulled or the rating settings change). All SQL is on indexed tables; nothing loads a
// server's results into memory: a rebuild streams the rows in order, keeping only current ratings.
import type Database from 'better-sqlite3';
import { DEFAULT_ELO, eloChanges, voidReason, type EloSettings, type RatedSeat } from '../engine/rating';
import type { Team, Winner } from '../engine/types';

type Sqlite = Database.Database;

export interface RatingSettings {
  elo: EloSettings;
  /** Games with fewer accepted actions do not count (0 = every game counts). */
  minMoves: number;
}

const stmts = new WeakMap<Sqlite, Map<string, Database.Statement>>();

/** A statement prepared once per connection. */
export function prep(db: Sqlite, sql: string): Database.Statement {
  let m = stmts.get(db);
  if (!m) stmts.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

export function ratingSettings(db: Sqlite, guildId: string): RatingSettings {
  const r = prep(db, 'SELECT elo_win, elo_loss, elo_start, min_moves FROM rating_settings WHERE guild_id = ?').get(guildId) as
    | { elo_win: number; elo_loss: number; elo_start: number; min_moves: number }
    | undefined;
  if (!r) return { elo: { ...DEFAULT_ELO }, minMoves: 0 };
  return { elo: { win: r.elo_win, loss: r.elo_loss, start: r.elo_start }, minMoves: r.min_moves };
}

export function saveRatingSettings(db: Sqlite, guildId: string, s: RatingSettings, now: number): void {
  prep(
    db,
    `INSERT INTO rating_settings (guild_id, elo_win, elo_loss, elo_start, min_moves, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(guild_id) DO UPDATE SET elo_win = excluded.elo_win, elo_loss = excluded.elo_loss, elo_start = excluded.elo_start,
       min_moves = excluded.min_moves, updated_at = excluded.updated_at`,
  ).run(guildId, s.elo.win, s.elo.loss, s.elo.start, s.minMoves, now);
}

interface ResultRow {
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
}

const STANDING_UPSERT = `INSERT INTO standings (guild_id, ruleset, scope, user_id, half_points, games, wins, best_player, wins_don, wins_sheriff, wins_mafia, killed_night1)
  VALUES (@guild, @ruleset, @scope, @user, @half, 1, @win, @best, @don, @sheriff, @mafia, @n1)
  ON CONFLICT(guild_id, ruleset, scope, user_id) DO UPDATE SET half_points = half_points + excluded.half_points, games = games + 1,
    wins = wins + excluded.wins, best_player = best_player + excluded.best_player, wins_don = wins_don + excluded.wins_don,
    wins_sheriff = wins_sheriff + excluded.wins_sheriff, wins_mafia = wins_mafia + excluded.wins_mafia, killed_night1 = killed_night1 + excluded.killed_night1`;

function standingParams(r: ResultRow, scope: string) {
  const win = r.outcome === 'win' ? 1 : 0;
  return {
    guild: r.guild_id,
    ruleset: r.ruleset,
    scope,
    user: r.user_id,
    half: Math.round(r.points * 2),
    win,
    best: r.best_player ? 1 : 0,
    don: win && r.role === 'don' ? 1 : 0,
    sheriff: win && r.role === 'sheriff' ? 1 : 0,
    mafia: win && r.role === 'mafia' ? 1 : 0,
    n1: r.killed_night1 ? 1 : 0,
  };
}

/** The seasons of a server that a game finished at `at` belongs to. */
function seasonsAt(db: Sqlite, guildId: string, at: number): number[] {
  return (prep(db, 'SELECT id FROM seasons WHERE guild_id = ? AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?)').all(guildId, at, at) as { id: number }[]).map((r) => r.id);
}

export function holdersOf(r: ResultRow): { userId: string; share: number }[] {
  if (r.holders) {
    try {
      const h = JSON.parse(r.holders) as { userId: string; share: number }[];
      if (Array.isArray(h) && h.length > 0) return h;
    } catch {
      // an unreadable list: the seat's final user played it all
    }
  }
  return [{ userId: r.user_id, share: 1 }];
}

function winnerOf(rows: readonly ResultRow[]): Winner {
  const w = rows.find((r) => r.outcome === 'win');
  if (w) return w.team as Team;
  return rows.some((r) => r.outcome === 'loss') ? (rows.find((r) => r.outcome === 'loss')!.team === 'red' ? 'black' : 'red') : 'draw';
}

/** Elo of one counted game: reads the holders' ratings, writes the new ones and the history. */
function rateGame(rows: readonly ResultRow[], elo: EloSettings, current: (userId: string) => number, write: (userId: string, before: number, after: number, share: number, seat: number) => void): void {
  const seats: (RatedSeat & { seat: number })[] = rows.map((r) => ({ seat: r.seat, team: r.team as Team, removed: r.removed === 1, holders: holdersOf(r) }));
  const changes = eloChanges(seats, winnerOf(rows), current, elo);
  for (const s of seats) for (const h of s.holders) {
    const c = changes.get(h.userId);
    if (c) write(h.userId, c.before, c.after, c.share, s.seat);
  }
}

const HISTORY_INSERT = 'INSERT OR REPLACE INTO rating_history (game_id, user_id, guild_id, ruleset, seat, share, before, after, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
const RATING_UPSERT = `INSERT INTO ratings (guild_id, ruleset, user_id, elo, games, updated_at) VALUES (?, ?, ?, ?, 1, ?)
  ON CONFLICT(guild_id, ruleset, user_id) DO UPDATE SET elo = excluded.elo, games = games + 1, updated_at = excluded.updated_at`;

/**
 * Called in the transaction that writes a finished game's results: decides whether the game
 * counts, and if it does, updates the Elo of everyone who played in it and the standings of all
 * time and of each season it belongs to. A handful of indexed reads and writes per game.
 */
export function recordGame(db: Sqlite, gameId: number): void {
  const rows = prep(db, 'SELECT * FROM results WHERE game_id = ? ORDER BY seat').all(gameId) as (ResultRow & { no_day_vote: number; moves: number })[];
  if (rows.length === 0) return;
  const first = rows[0]!;
  const game = prep(db, 'SELECT annulled_at FROM games WHERE id = ?').get(gameId) as { annulled_at: number | null } | undefined;
  const settings = ratingSettings(db, first.guild_id);
  const why = voidReason({ annulled: game?.annulled_at != null, noDayVote: first.no_day_vote === 1, moves: first.moves }, settings.minMoves);
  prep(db, 'UPDATE results SET counts = ? WHERE game_id = ?').run(why === null ? 1 : 0, gameId);
  if (why !== null) return;
  const getRating = prep(db, 'SELECT elo FROM ratings WHERE guild_id = ? AND ruleset = ? AND user_id = ?');
  const current = (u: string) => (getRating.get(first.guild_id, first.ruleset, u) as { elo: number } | undefined)?.elo ?? settings.elo.start;
  const history = prep(db, HISTORY_INSERT);
  const upsert = prep(db, RATING_UPSERT);
  rateGame(rows, settings.elo, current, (u, before, after, share, seat) => {
    history.run(gameId, u, first.guild_id, first.ruleset, seat, share, before, after, first.finished_at);
    upsert.run(first.guild_id, first.ruleset, u, after, first.finished_at);
  });
  const standing = prep(db, STANDING_UPSERT);
  const scopes = ['all', ...seasonsAt(db, first.guild_id, first.finished_at).map((id) => `s${id}`)];
  for (const r of rows) for (const scope of scopes) standing.run(standingParams(r, scope));
}

/** Rebuilds one scope of the standings (all time, or a season's range) in one indexed SQL statement. */
function rebuildScope(db: Sqlite, guildId: string, ruleset: string | null, scope: string, from: number, to: number | null): void {
  const rs = ruleset === null ? '' : ' AND ruleset = @ruleset';
  db.prepare(`DELETE FROM standings WHERE guild_id = @guild AND scope = @scope${rs}`).run({ guild: guildId, scope, ...(ruleset ? { ruleset } : {}) });
  db.prepare(
    `INSERT INTO standings (guild_id, ruleset, scope, user_id, half_points, games, wins, best_player, wins_don, wins_sheriff, wins_mafia, killed_night1)
     SELECT guild_id, ruleset, @scope, user_id, sum(CAST(round(points * 2) AS INTEGER)), count(*), sum(outcome = 'win'), sum(best_player),
       sum(outcome = 'win' AND role = 'don'), sum(outcome = 'win' AND role = 'sheriff'), sum(outcome = 'win' AND role = 'mafia'), sum(killed_night1)
     FROM results WHERE guild_id = @guild${rs} AND counts = 1 AND finished_at >= @from AND finished_at < @to GROUP BY ruleset, user_id`,
  ).run({ guild: guildId, scope, from, to: to ?? Number.MAX_SAFE_INTEGER, ...(ruleset ? { ruleset } : {}) });
}

/** A season defined (or ended): its standings from the stored results. */
export function rebuildSeason(db: Sqlite, guildId: string, seasonId: number): void {
  const s = prep(db, 'SELECT starts_at, ends_at FROM seasons WHERE id = ? AND guild_id = ?').get(seasonId, guildId) as { starts_at: number; ends_at: number | null } | undefined;
  if (!s) return;
  rebuildScope(db, guildId, null, `s${seasonId}`, s.starts_at, s.ends_at);
}

/**
 * After a game is annulled or the rating settings change: which games count is decided again,
 * the standings are rebuilt in SQL, and the Elo of the server's rule set (or all of them) is
 * replayed game by game in the order the games finished. The replay streams the results and
 * keeps only the current ratings in memory. One transaction.
 */
export function recomputeRatings(db: Sqlite, guildId: string, ruleset: string | null = null): void {
  const settings = ratingSettings(db, guildId);
  const rs = ruleset === null ? '' : ' AND ruleset = @ruleset';
  const p = { guild: guildId, ...(ruleset ? { ruleset } : {}) };
  db.transaction(() => {
    db.prepare(
      `UPDATE results SET counts = CASE
         WHEN (SELECT annulled_at FROM games g WHERE g.id = results.game_id) IS NOT NULL THEN 0
         WHEN no_day_vote = 1 THEN 0 WHEN moves < @min THEN 0 ELSE 1 END
       WHERE guild_id = @guild${rs}`,
    ).run({ ...p, min: settings.minMoves });
    rebuildScope(db, guildId, ruleset, 'all', 0, null);
    for (const s of db.prepare('SELECT id, starts_at, ends_at FROM seasons WHERE guild_id = ?').all(guildId) as { id: number; starts_at: number; ends_at: number | null }[]) {
      rebuildScope(db, guildId, ruleset, `s${s.id}`, s.starts_at, s.ends_at);
    }
    db.prepare(`DELETE FROM ratings WHERE guild_id = @guild${rs}`).run(p);
    db.prepare(`DELETE FROM rating_history WHERE guild_id = @guild${rs}`).run(p);
    const elo = new Map<string, { elo: number; games: number; at: number }>();
    const key = (r: string, u: string) => `${r}\u0000${u}`;
    const history = prep(db, HISTORY_INSERT);
    let game: ResultRow[] = [];
    const flush = () => {
      if (game.length === 0) return;
      const g = game[0]!;
      rateGame(
        game,
        settings.elo,
        (u) => elo.get(key(g.ruleset, u))?.elo ?? settings.elo.start,
        (u, before, after, share, seat) => {
          history.run(g.game_id, u, g.guild_id, g.ruleset, seat, share, before, after, g.finished_at);
          const k = key(g.ruleset, u);
          elo.set(k, { elo: after, games: (elo.get(k)?.games ?? 0) + 1, at: g.finished_at });
        },
      );
      game = [];
    };
    // Streamed in chunks (a statement cannot write while another iterates on the connection),
    // keyed on (finished_at, game_id) and cut at game boundaries.
    const chunk = db.prepare(`SELECT game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, best_player, killed_night1, finished_at, removed, holders
        FROM results WHERE guild_id = @guild${rs} AND counts = 1 AND (finished_at > @at OR (finished_at = @at AND game_id > @game))
        ORDER BY finished_at, game_id, seat LIMIT 4000`);
    let cursor = { at: -1, game: 0 };
    for (;;) {
      const rows = chunk.all({ ...p, ...cursor }) as ResultRow[];
      if (rows.length === 0) break;
      // Keep the last (possibly partial) game for the next chunk unless this chunk is the end.
      const lastGame = rows[rows.length - 1]!.game_id;
      const complete = rows.length < 4000 ? rows : rows.filter((r) => r.game_id !== lastGame);
      const use = complete.length > 0 ? complete : rows;
      for (const r of use) {
        if (game.length > 0 && game[0]!.game_id !== r.game_id) flush();
        game.push(r);
      }
      flush();
      const end = use[use.length - 1]!;
      cursor = { at: end.finished_at, game: end.game_id };
      if (rows.length < 4000) break;
    }
    flush();
    const put = db.prepare('INSERT INTO ratings (guild_id, ruleset, user_id, elo, games, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [k, v] of elo) {
      const [r, u] = k.split('\u0000') as [string, string];
      put.run(guildId, r, u, v.elo, v.games, v.at);
    }
  })();
}

/** Rule sets (with results) of servers whose ratings were never built (results older than them). */
export function unbuilt(db: Sqlite): { guildId: string; ruleset: string }[] {
  return db
    .prepare(
      `SELECT DISTINCT guild_id AS guildId, ruleset FROM results r WHERE counts = 1
       AND NOT EXISTS (SELECT 1 FROM standings s WHERE s.guild_id = r.guild_id AND s.ruleset = r.ruleset AND s.scope = 'all')`,
    )
    .all() as { guildId: string; ruleset: string }[];
}

/** Issue 11's `onAnnulled(gameId)` hook: the annulled game's server and rule set are recomputed. */
export function onGameAnnulled(db: Sqlite, gameId: number): void {
  const g = db.prepare('SELECT guild_id, ruleset FROM games WHERE id = ?').get(gameId) as { guild_id: string; ruleset: string } | undefined;
  if (g) recomputeRatings(db, g.guild_id, g.ruleset);
}
