// Opens the PostgreSQL database of DATABASE_URL (issue 23), as openDatabase (client.ts) opens the
// SQLite file: the URL checked, a refused connection or a foreign database one clear line
// (StartupError), the migrations of migrations-pg/ applied at start-up, then the pool the bot's
// queries run on (PgConnection).
//
// Several processes starting at once (several machines, or `npm run start:shards`) migrate one at
// a time: each takes a session-level advisory lock (pg_advisory_lock, MIGRATION_LOCK) on a
// connection of its own before it looks at the database; the others wait for it, then find the
// migrations applied and apply nothing. drizzle's migrator applies what is missing in one
// transaction.
//
// Session settings of every pooled connection (SESSION_DEFAULTS; sent when it connects, no round
// trip):
// - statement_timeout 30 s: the bot's queries take milliseconds (/stats over 100,000 games, under
//   50 ms); one running for 30 s is stuck, and failing it frees what it holds.
// - lock_timeout 10 s: a transaction waits at most 10 s for a row another holds (lockGame during a
//   handover, a due timer claimed by two processes). Transactions last milliseconds: a wait that
//   long means a stuck holder, and the action fails (is rolled back) rather than queueing behind it.
// - idle_in_transaction_session_timeout 60 s: a process that stops between two queries of a
//   transaction (a blocked event loop, a frozen machine) holds the game's row lock; PostgreSQL ends
//   its session after 60 s idle inside it, rolls it back and frees the row for the next owner.
// - application_name mafia-bot: the bot's connections in pg_stat_activity.
// The migration connection has no statement timeout (a migration may rewrite a large table) and
// waits for the advisory lock and table locks at most `migrationLockWaitMs` (10 min).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DrizzleQueryError } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { StartupError } from './client';
import { OwnershipRef } from './ownership';
import { PgConnection, numbersPool } from './pg-connection';
import { connectPostgres, parsePostgresUrl, PG_MIGRATIONS } from './pg-connect';
import { redactUrl } from './pg-url';

/** The advisory lock the start-up migration holds: "mafia" in ASCII (any fixed bigint would do). */
export const MIGRATION_LOCK = 0x6d61666961;

export interface SessionSettings {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export const SESSION_DEFAULTS: SessionSettings = {
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 60_000,
};

export interface PgOpenOptions {
  migrationsFolder?: string;
  /** Connections at most (each open transaction holds one). Default 10. */
  poolSize?: number;
  session?: Partial<SessionSettings>;
  /** How long start-up waits for another process's migration (and for table locks). Default 10 min. */
  migrationLockWaitMs?: number;
  /** The ownership `ownsGuild` reads (default: every guild). */
  ownership?: OwnershipRef;
  /**
   * A pooled connection failed (the server restarted, the network dropped, a session ended by
   * idle_in_transaction_session_timeout): the pool replaces it, a query on it fails. For the log.
   */
  onConnectionError?: (e: Error) => void;
}

export interface OpenPostgres {
  readonly connection: PgConnection;
  readonly ownership: OwnershipRef;
  /** The URL without its password, for logs. */
  readonly shown: string;
  close(): Promise<void>;
}

/** An error of the database (drizzle's query error unwrapped) as one line: its message and SQLSTATE code. */
export function pgErrorLine(e: unknown): string {
  const err = (e instanceof DrizzleQueryError && e.cause ? e.cause : e) as { code?: unknown; message?: string };
  const msg = (err.message ?? String(e)).replace(/\s*\n\s*/g, ' ');
  return typeof err.code === 'string' && !msg.includes(err.code) ? `${msg} [${err.code}]` : msg;
}

/**
 * Opens the database at `text` (a postgres:// URL): migrates it (waiting for another process that
 * is migrating it) and returns a pool. StartupError with one line for a bad URL, a connection
 * refused or timed out, a wrong password, a missing database, another application's tables, or a
 * migration that fails.
 */
export async function openPostgres(text: string | URL, options: PgOpenOptions = {}): Promise<OpenPostgres> {
  const url = typeof text === 'string' ? parsePostgresUrl(text) : text;
  const shown = redactUrl(url);
  const folder = options.migrationsFolder ?? PG_MIGRATIONS;
  if (!existsSync(join(folder, 'meta', '_journal.json')))
    throw new StartupError(
      `migrations folder ${folder} is missing or incomplete (no meta/_journal.json); reinstall the bot or run "npm run db:generate"`,
    );
  const client = await connectPostgres(url);
  try {
    await migrateLocked(client, shown, folder, options.migrationLockWaitMs ?? 600_000);
  } finally {
    await client.end().catch(() => {});
  }

  const s = { ...SESSION_DEFAULTS, ...options.session };
  const pool = numbersPool(
    {
      connectionString: url.toString(),
      statement_timeout: s.statementTimeoutMs,
      lock_timeout: s.lockTimeoutMs,
      idle_in_transaction_session_timeout: s.idleInTransactionTimeoutMs,
      application_name: 'mafia-bot',
    },
    {
      max: options.poolSize ?? 10,
      ...(options.onConnectionError ? { onConnectionError: options.onConnectionError } : {}),
    },
  );
  try {
    await pool.query('select 1');
  } catch (e) {
    await pool.end().catch(() => {});
    throw new StartupError(`cannot use ${shown} (${pgErrorLine(e)})`);
  }
  const ownership = options.ownership ?? new OwnershipRef();
  const connection = new PgConnection(pool, ownership);
  return { connection, ownership, shown, close: () => connection.close() };
}

/** Under the advisory lock: refuses another application's database, then applies migrations-pg/. */
async function migrateLocked(client: pg.Client, shown: string, folder: string, waitMs: number): Promise<void> {
  const step = async <T>(doing: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof StartupError) throw e;
      throw new StartupError(`${doing} ${shown} failed: ${pgErrorLine(e)}`);
    }
  };
  await step('setting up the migration of', async () => {
    await client.query('set statement_timeout = 0');
    await client.query(`set lock_timeout = ${Math.max(1, Math.floor(waitMs))}`);
  });
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
  } catch (e) {
    if ((e as { code?: string }).code === '55P03')
      throw new StartupError(
        `another process has been migrating ${shown} for over ${Math.round(waitMs / 1000)} s (it holds the advisory lock ${MIGRATION_LOCK}); see pg_stat_activity`,
      );
    throw new StartupError(`locking ${shown} for its migrations failed: ${pgErrorLine(e)}`);
  }
  try {
    await step('checking', () => refuseForeign(client, shown, folder));
    await step('applying the migrations in migrations-pg/ to', () =>
      migrate(drizzle(client), { migrationsFolder: folder }),
    );
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
  }
}

/**
 * A database that holds tables but not this bot's migrations belongs to another application: it is
 * left untouched (as client.ts does with a foreign SQLite file). Ours: drizzle's migrations table
 * holds our first migration.
 */
async function refuseForeign(client: pg.Client, shown: string, folder: string): Promise<void> {
  const tables = await client.query<{ s: string; t: string }>(
    `select n.nspname as s, c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
       and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'
       and not (n.nspname = 'drizzle' and c.relname = '__drizzle_migrations')
     order by 1, 2`,
  );
  if (tables.rows.length === 0) return;
  const first = readMigrationFiles({ migrationsFolder: folder })[0];
  const has = await client.query<{ t: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as t");
  let ours = false;
  if (has.rows[0]?.t && first) {
    const r = await client.query('select 1 from drizzle.__drizzle_migrations where created_at = $1 limit 1', [
      first.folderMillis,
    ]);
    ours = r.rows.length > 0;
  }
  if (!ours) {
    const names = tables.rows.slice(0, 5).map((r) => (r.s === 'public' ? r.t : `${r.s}.${r.t}`));
    throw new StartupError(
      `${shown} belongs to another application (tables: ${names.join(', ')}${tables.rows.length > 5 ? ', …' : ''}); it was left untouched; set DATABASE_URL to this bot's own database (a new empty one is fine)`,
    );
  }
}
