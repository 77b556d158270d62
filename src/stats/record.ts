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

const HISTORY_INSERT = 'INSERT OR REPLACE INTO rating_history (game_id, user_id, guild_id, ruleset, seat, share, before, after, n, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
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
  // A rebuild of this rule set is under way: its replay reaches this game (the newest) by itself.
  if (isRebuilding(db, first.guild_id, first.ruleset)) return;
  rateAndTally(db, gameId, rows);
}

/** Elo, standings and running totals of one counted game (closing, or replayed in a rebuild). */
function rateAndTally(db: Sqlite, gameId: number, given?: ResultRow[]): void {
  const rows = given ?? (prep(db, 'SELECT * FROM results WHERE game_id = ? ORDER BY seat').all(gameId) as ResultRow[]);
  if (rows.length === 0) return;
  const first = rows[0]!;
  const settings = ratingSettings(db, first.guild_id);
  const getRating = prep(db, 'SELECT elo, games FROM ratings WHERE guild_id = ? AND ruleset = ? AND user_id = ?');
  const rated = (u: string) => getRating.get(first.guild_id, first.ruleset, u) as { elo: number; games: number } | undefined;
  const history = prep(db, HISTORY_INSERT);
  const upsert = prep(db, RATING_UPSERT);
  rateGame(rows, settings.elo, (u) => rated(u)?.elo ?? settings.elo.start, (u, before, after, share, seat) => {
    history.run(gameId, u, first.guild_id, first.ruleset, seat, share, before, after, (rated(u)?.games ?? 0) + 1, first.finished_at);
    upsert.run(first.guild_id, first.ruleset, u, after, first.finished_at);
  });
  const standing = prep(db, STANDING_UPSERT);
  const log = prep(db, LOG_INSERT);
  const scopes = ['all', ...seasonsAt(db, first.guild_id, first.finished_at).map((id) => `s${id}`)];
  for (const r of rows) {
    for (const scope of scopes) standing.run(standingParams(r, scope));
    log.run({ guild: r.guild_id, ruleset: r.ruleset, user: r.user_id, at: r.finished_at, game: r.game_id });
  }
}

/** The player's running totals after a counted result: his all-time standings row at that moment. */
const LOG_INSERT = `INSERT OR REPLACE INTO standings_log (guild_id, ruleset, user_id, finished_at, game_id, half_points, games, wins, best_player, wins_don, wins_sheriff, wins_mafia, killed_night1)
  SELECT guild_id, ruleset, user_id, @at, @game, half_points, games, wins, best_player, wins_don, wins_sheriff, wins_mafia, killed_night1
  FROM standings WHERE guild_id = @guild AND ruleset = @ruleset AND scope = 'all' AND user_id = @user`;

const TOTALS = ['half_points', 'games', 'wins', 'best_player', 'wins_don', 'wins_sheriff', 'wins_mafia', 'killed_night1'];

/**
 * Rebuilds one scope of the standings for a range of time from the running totals: each player's
 * totals at the range's end minus those at its start (two index seeks per player, whatever the
 * range holds).
 */
function rebuildScope(db: Sqlite, guildId: string, scope: string, from: number, to: number | null): void {
  db.prepare('DELETE FROM standings WHERE guild_id = @guild AND scope = @scope').run({ guild: guildId, scope });
  const seek = (bound: string) =>
    `SELECT l.rowid FROM standings_log l WHERE l.guild_id = s.guild_id AND l.ruleset = s.ruleset AND l.user_id = s.user_id AND l.finished_at < ${bound} ORDER BY l.finished_at DESC, l.game_id DESC LIMIT 1`;
  db.prepare(
    `INSERT INTO standings (guild_id, ruleset, scope, user_id, ${TOTALS.join(', ')})
     SELECT s.guild_id, s.ruleset, @scope, s.user_id, ${TOTALS.map((c) => `e.${c} - coalesce(b.${c}, 0)`).join(', ')}
     FROM standings s JOIN standings_log e ON e.rowid = (${seek('@to')}) LEFT JOIN standings_log b ON b.rowid = (${seek('@from')})
     WHERE s.guild_id = @guild AND s.scope = 'all' AND e.games - coalesce(b.games, 0) > 0`,
  ).run({ guild: guildId, scope, from, to: to ?? Number.MAX_SAFE_INTEGER });
}

/** A season defined (or ended): its standings from the stored results. */
export function rebuildSeason(db: Sqlite, guildId: string, seasonId: number): void {
  const s = prep(db, 'SELECT starts_at, ends_at FROM seasons WHERE id = ? AND guild_id = ?').get(seasonId, guildId) as { starts_at: number; ends_at: number | null } | undefined;
  if (!s) return;
  rebuildScope(db, guildId, `s${seasonId}`, s.starts_at, s.ends_at);
}

/** Rebuilds in progress, by connection: `<guild>\u0000<ruleset>`. */
const rebuilding = new WeakMap<Sqlite, Set<string>>();

export function isRebuilding(db: Sqlite, guildId: string, ruleset: string): boolean {
  return rebuilding.get(db)?.has(`${guildId}\u0000${ruleset}`) ?? false;
}

/** Games per step of the replay, game ids per step of the counts update, rows per delete. */
const STEP_GAMES = 6;
const STEP_IDS = 200;
const STEP_DELETE = 400;

/**
 * The rebuild of one server's rule set, as small steps (each a few milliseconds on any size of
 * server): which games count is decided again, everything derived is deleted, and the counted
 * games are replayed in the order they finished through the same per-game code as a closing game.
 */
function* rebuildSteps(db: Sqlite, guildId: string, ruleset: string): Generator<'counts' | 'delete' | 'replay'> {
  const p = { guild: guildId, ruleset };
  const settings = ratingSettings(db, guildId);
  // Game ids up to the newest (a rowid: no scan); ranges without this server's games cost nothing.
  const maxId = (db.prepare('SELECT max(id) AS m FROM games').get() as { m: number | null }).m ?? 0;
  const counts = db.prepare(
    `UPDATE results SET counts = CASE
       WHEN (SELECT annulled_at FROM games g WHERE g.id = results.game_id) IS NOT NULL THEN 0
       WHEN no_day_vote = 1 THEN 0 WHEN moves < @min THEN 0 ELSE 1 END
     WHERE game_id > @lo AND game_id <= @hi AND +guild_id = @guild AND +ruleset = @ruleset`, // '+': walk the key's range, not the server's index
  );
  for (let lo = 0; lo < maxId; lo += STEP_IDS) {
    counts.run({ ...p, min: settings.minMoves, lo, hi: lo + STEP_IDS });
    yield 'counts';
  }
  db.prepare('DELETE FROM standings WHERE guild_id = @guild AND ruleset = @ruleset').run(p);
  db.prepare('DELETE FROM ratings WHERE guild_id = @guild AND ruleset = @ruleset').run(p);
  for (const table of ['rating_history', 'standings_log']) {
    const del = db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE guild_id = @guild AND ruleset = @ruleset LIMIT ${STEP_DELETE})`);
    while (del.run(p).changes > 0) yield 'delete';
  }
  const next = db.prepare(
    `SELECT DISTINCT game_id, finished_at FROM results WHERE guild_id = @guild AND ruleset = @ruleset AND counts = 1
       AND finished_at >= @at AND NOT (finished_at = @at AND game_id <= @game) ORDER BY finished_at, game_id LIMIT ${STEP_GAMES}`,
  );
  let cursor = { at: -1, game: 0 };
  for (;;) {
    const games = next.all({ ...p, ...cursor }) as { game_id: number; finished_at: number }[];
    if (games.length === 0) return;
    for (const g of games) rateAndTally(db, g.game_id);
    const end = games[games.length - 1]!;
    cursor = { at: end.finished_at, game: end.game_id };
    yield 'replay';
  }
}

function rulesetsOf(db: Sqlite, guildId: string, ruleset: string | null): string[] {
  if (ruleset !== null) return [ruleset];
  return (db.prepare('SELECT DISTINCT ruleset FROM standings WHERE guild_id = ? UNION SELECT DISTINCT ruleset FROM ratings WHERE guild_id = ?').all(guildId, guildId) as { ruleset: string }[])
    .map((r) => r.ruleset)
    .concat(['chnu-2016', 'classic-10', 'kiev-12'])
    .filter((r, i, xs) => xs.indexOf(r) === i);
}

function setFlag(db: Sqlite, guildId: string, ruleset: string, on: boolean): void {
  let set = rebuilding.get(db);
  if (!set) rebuilding.set(db, (set = new Set()));
  const key = `${guildId}\u0000${ruleset}`;
  if (on) set.add(key);
  else set.delete(key);
  // Kept in the database too: a rebuild cut short by a crash is finished at the next start.
  const flags = new Set((((db.prepare('SELECT rebuilding FROM rating_settings WHERE guild_id = ?').get(guildId) as { rebuilding: string | null } | undefined)?.rebuilding ?? '').split(',')).filter(Boolean));
  if (on) flags.add(ruleset);
  else flags.delete(ruleset);
  db.prepare(
    `INSERT INTO rating_settings (guild_id, rebuilding, updated_at) VALUES (?, ?, 0) ON CONFLICT(guild_id) DO UPDATE SET rebuilding = excluded.rebuilding`,
  ).run(guildId, flags.size ? [...flags].join(',') : null);
}

/**
 * After a game is annulled or the rating settings change, at once (one transaction): which games
 * count is decided again, and standings and Elo are rebuilt by replaying the counted games in the
 * order they finished. Used at start-up (before any game runs) and by tests; a running bot uses
 * recomputeInBackground, which does the same in small steps.
 */
export function recomputeRatings(db: Sqlite, guildId: string, ruleset: string | null = null): void {
  db.transaction(() => {
    for (const rs of rulesetsOf(db, guildId, ruleset)) {
      for (const _ of rebuildSteps(db, guildId, rs)) {
        // all steps in this one transaction
      }
      setFlag(db, guildId, rs, false);
    }
  })();
}

const running = new WeakMap<Sqlite, Map<string, Promise<void>>>();

/**
 * The same rebuild while the bot runs: one small step per turn of the event loop (each its own
 * transaction, a few milliseconds), so no game waits behind it. Meanwhile a closing game of that
 * rule set only records whether it counts (the replay reaches it), and /stats says the ratings are
 * being recomputed. Rebuilds of the same server and rule set run one after another.
 */
export function recomputeInBackground(db: Sqlite, guildId: string, ruleset: string | null = null, observe?: (stepMs: number, kind: string) => void): Promise<void> {
  let byKey = running.get(db);
  if (!byKey) running.set(db, (byKey = new Map()));
  const jobs = rulesetsOf(db, guildId, ruleset).map((rs) => {
    const key = `${guildId}\u0000${rs}`;
    const prev = byKey.get(key) ?? Promise.resolve();
    const job = prev.then(async () => {
      db.transaction(() => setFlag(db, guildId, rs, true))();
      const steps = rebuildSteps(db, guildId, rs);
      for (;;) {
        const t0 = performance.now();
        const step = db.transaction(() => steps.next())();
        if (step.done) break;
        observe?.(performance.now() - t0, step.value);
        await new Promise((r) => setImmediate(r));
      }
      db.transaction(() => setFlag(db, guildId, rs, false))();
    });
    const tail = job.catch(() => undefined);
    byKey.set(key, tail);
    void tail.then(() => {
      if (byKey.get(key) === tail) byKey.delete(key);
    });
    return job;
  });
  return Promise.all(jobs).then(() => undefined);
}

/** Rebuilds a crash interrupted (flags left in the database): finished at start-up. */
export function interruptedRebuilds(db: Sqlite): { guildId: string; ruleset: string }[] {
  const rows = db.prepare('SELECT guild_id, rebuilding FROM rating_settings WHERE rebuilding IS NOT NULL').all() as { guild_id: string; rebuilding: string }[];
  return rows.flatMap((r) => r.rebuilding.split(',').filter(Boolean).map((ruleset) => ({ guildId: r.guild_id, ruleset })));
}

/** Rule sets (with results) of servers whose ratings were never built (results older than them). */
export function unbuilt(db: Sqlite): { guildId: string; ruleset: string }[] {
  // Index seeks per server and rule set, not a scan of the results.
  const out: { guildId: string; ruleset: string }[] = [];
  const has = db.prepare('SELECT 1 FROM results WHERE guild_id = ? AND ruleset = ? LIMIT 1');
  const built = db.prepare("SELECT 1 FROM standings WHERE guild_id = ? AND ruleset = ? AND scope = 'all' LIMIT 1");
  const rated = db.prepare('SELECT 1 FROM rating_history WHERE guild_id = ? AND ruleset = ? LIMIT 1');
  for (const { guild_id } of db.prepare('SELECT guild_id FROM servers').all() as { guild_id: string }[]) {
    for (const ruleset of ['chnu-2016', 'classic-10', 'kiev-12']) {
      if (has.get(guild_id, ruleset) && !built.get(guild_id, ruleset) && !rated.get(guild_id, ruleset)) out.push({ guildId: guild_id, ruleset });
    }
  }
  return out;
}

/** Issue 11's `onAnnulled(gameId)` hook: the annulled game's server and rule set are recomputed. */
export function onGameAnnulled(db: Sqlite, gameId: number): void {
  const g = db.prepare('SELECT guild_id, ruleset FROM games WHERE id = ?').get(gameId) as { guild_id: string; ruleset: string } | undefined;
  if (g) void recomputeInBackground(db, g.guild_id, g.ruleset);
}
