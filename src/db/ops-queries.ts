// The database's part of the operators' endpoint (src/ops): the games by status and stage, and
// whether the database still takes a write.
import { eq, sql } from 'drizzle-orm';
import type { Connection, SqliteConnection } from './connection';

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
export async function gamesByStage(c: Connection): Promise<GamesCount[]> {
  const byStatus = await c.rows<{ status: string; n: number | string }>(
    sql`SELECT status, count(*) AS n FROM games WHERE status <> 'running' AND ${c.ownsGuild(sql`guild_id`)} GROUP BY status`,
  );
  // The stage's kind inside the state's JSON.
  const kind =
    c.dialect === 'sqlite' ? sql`json_extract(state, '$.stage.kind')` : sql`state::jsonb -> 'stage' ->> 'kind'`;
  const running = await c.rows<{ stage: string; n: number | string }>(
    sql`SELECT coalesce(${kind}, 'unknown') AS stage, count(*) AS n
         FROM games WHERE status = 'running' AND ${c.ownsGuild(sql`guild_id`)} GROUP BY stage`,
  );
  return [
    ...byStatus.map((r) => ({ status: r.status, stage: '', n: Number(r.n) })),
    ...running.map((r) => ({ status: 'running', stage: r.stage, n: Number(r.n) })),
  ];
}

/**
 * Whether the database takes a write now, waiting at most `waitMs` for another writer. Returns
 * null when it does, or why not. Nothing is written, so it costs nothing; it does not see a full
 * disk (a real commit would), which the operator's disk alerts cover.
 *
 * SQLite: the write lock is taken (`BEGIN IMMEDIATE`) and let go at once (SqliteConnection.probeWrite).
 * PostgreSQL: a transaction that is not read-only (a standby's are, and those of a database set
 * to default_transaction_read_only), on a client of the pool.
 */
export async function probeWritable(c: Connection, waitMs = 250): Promise<string | null> {
  if (c.dialect === 'sqlite') return (c as SqliteConnection).probeWrite(waitMs);
  try {
    await c.transaction(async () => {
      // A server too busy to answer within `waitMs` counts as not writable now.
      await c.exec(sql.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(waitMs))}`));
      // On in a standby (a server in recovery) and under default_transaction_read_only.
      const [r] = await c.rows<{ ro: string }>(sql`SELECT current_setting('transaction_read_only') AS ro`);
      if (r?.ro === 'on') throw new Error('the database is read-only');
    });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The operators' queries on one open database (the shell holds this, never the raw connection). */
export class OpsStore {
  private readonly guildQuery;
  constructor(private readonly c: Connection) {
    this.guildQuery = c.statement((db, t) =>
      db
        .select({ g: t.games.guildId })
        .from(t.games)
        .where(eq(t.games.id, sql.placeholder('id'))),
    );
  }
  /** The guild of a game (a log line's `guildId`); null once the database is closed. */
  async guildOf(gameId: number): Promise<string | null> {
    try {
      return (await this.c.get(this.guildQuery(), { id: gameId }))?.g ?? null;
    } catch {
      return null;
    }
  }
  gamesByStage(): Promise<GamesCount[]> {
    return gamesByStage(this.c);
  }
  probeWritable(waitMs?: number): Promise<string | null> {
    return probeWritable(this.c, waitMs);
  }
}
