// The database's part of the operators' endpoint (src/ops): the games by status and stage, and
// whether the database still takes a write.
import type Database from 'better-sqlite3';
import type { OpenDb } from './client';

export interface GamesCount {
  status: string;
  /** The running game's stage (`night`, `turns`, `vote`...); empty for a game not running. */
  stage: string;
  n: number;
}

/**
 * Games by status, and the running ones by stage, of the guilds this process owns (issue 22: with
 * several processes each reports its own, so the sums add up). Two queries: the first reads only
 * the status index (a server with years of finished games pays nothing), the second only running
 * games' state.
 */
export function gamesByStage(sqlite: Database.Database): GamesCount[] {
  const byStatus = sqlite
    .prepare(
      `SELECT status, count(*) AS n FROM games WHERE status <> 'running' AND owns_guild(guild_id) GROUP BY status`,
    )
    .all() as { status: string; n: number }[];
  const running = sqlite
    .prepare(
      `SELECT coalesce(json_extract(state, '$.stage.kind'), 'unknown') AS stage, count(*) AS n
         FROM games WHERE status = 'running' AND owns_guild(guild_id) GROUP BY stage`,
    )
    .all() as { stage: string; n: number }[];
  return [...byStatus.map((r) => ({ ...r, stage: '' })), ...running.map((r) => ({ status: 'running', ...r }))];
}

/**
 * Whether the database takes a write now: the write lock is taken (`BEGIN IMMEDIATE`) and let go
 * at once, waiting at most `waitMs` for another writer (the bot's own busy timeout is put back).
 * Returns null when it does, or why not. Nothing is written, so it costs nothing; it does not see
 * a full disk (a real commit would), which the operator's disk alerts cover.
 */
export function probeWritable(sqlite: Database.Database, waitMs = 250): string | null {
  if (!sqlite.open) return 'the database is closed';
  if (sqlite.readonly) return 'the database is open read-only';
  // The bot is inside its own transaction (this runs between two of its steps, so it never is):
  // the lock is its own.
  if (sqlite.inTransaction) return null;
  const before = sqlite.pragma('busy_timeout', { simple: true }) as number;
  try {
    sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
    sqlite.exec('BEGIN IMMEDIATE');
    sqlite.exec('ROLLBACK');
    return null;
  } catch (e) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    return (e as Error).message;
  } finally {
    sqlite.pragma(`busy_timeout = ${before}`);
  }
}

/** The operators' queries on one open database (the shell holds this, never the raw connection). */
export class OpsStore {
  private readonly guildQuery;
  constructor(private readonly db: OpenDb) {
    this.guildQuery = db.sqlite.prepare('SELECT guild_id AS g FROM games WHERE id = ?').pluck();
  }
  /** The guild of a game (a log line's `guildId`); null once the database is closed. */
  guildOf(gameId: number): string | null {
    return this.db.sqlite.open ? ((this.guildQuery.get(gameId) as string | undefined) ?? null) : null;
  }
  gamesByStage(): GamesCount[] {
    return gamesByStage(this.db.sqlite);
  }
  probeWritable(waitMs?: number): string | null {
    return probeWritable(this.db.sqlite, waitMs);
  }
}
