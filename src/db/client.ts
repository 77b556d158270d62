// Opens the SQLite database: checks first (so a bad file is reported and left untouched), then
// WAL mode, foreign keys, and the migrations in migrations/.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as schema from './schema';
import { OwnershipRef } from './ownership';
import { closeSqlite, SqliteConnection } from './connection';
import { Checkpointer, type CheckpointerOptions } from './checkpointer';

export type { Db } from './connection';
import type { Db } from './connection';

export interface OpenDb {
  readonly db: Db;
  readonly sqlite: Database.Database;
  readonly path: string;
  /**
   * The guilds this process owns (issue 22): every query that picks work (due timers, reminders,
   * suspended games, outbox rows, slots to repair, lobbies to expire) filters by it through the SQL
   * function `owns_guild(guild_id)`. Everything by default.
   */
  readonly ownership: OwnershipRef;
  /** The storage seam over this file (src/db/connection.ts): what the stores run their queries through. */
  readonly connection: SqliteConnection;
  close(): void;
}

function opened(db: Db, sqlite: Database.Database, path: string, checkpointer: Checkpointer | null = null): OpenDb {
  const ownership = addOwnership(sqlite);
  const connection = new SqliteConnection(db, sqlite, ownership);
  connection.checkpointer = checkpointer;
  return {
    db,
    sqlite,
    path,
    ownership,
    connection,
    close: () => {
      // The worker closes its own connection after ours (it is then the last, and removes the WAL).
      void checkpointer?.stop();
      closeSqlite(sqlite);
    },
  };
}

/** `owns_guild(guild_id)`: 1 when this process owns the guild (src/db/ownership.ts). */
function addOwnership(sqlite: Database.Database): OwnershipRef {
  const ref = new OwnershipRef();
  sqlite.function('owns_guild', { deterministic: false }, (guildId: unknown) =>
    ref.owns(typeof guildId === 'string' ? guildId : null) ? 1 : 0,
  );
  return ref;
}

/** A start-up problem with a one-line explanation for the person running the bot. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export const DEFAULT_MIGRATIONS = resolve(import.meta.dirname, '..', '..', 'migrations');
const SQLITE_MAGIC = 'SQLite format 3\u0000';

function code(e: unknown): string {
  return (e as { code?: string }).code ?? '';
}

function why(e: unknown): string {
  const c = code(e);
  if (c === 'EACCES' || c === 'EPERM') return 'permission denied';
  if (c === 'EROFS') return 'read-only file system';
  return c || (e as Error).message;
}

function checkMigrations(folder: string): void {
  if (!existsSync(join(folder, 'meta', '_journal.json'))) {
    throw new StartupError(
      `migrations folder ${folder} is missing or incomplete (no meta/_journal.json); reinstall the bot or run "npm run db:generate"`,
    );
  }
}

/** Checks the file without writing to it. */
function checkFile(path: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new StartupError(
      `cannot create the database folder ${dir}: ${why(e)}; set DATABASE_PATH to a writable place`,
    );
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new StartupError(`the database folder ${dir} is not writable; set DATABASE_PATH to a writable place`);
  }
  if (!existsSync(path)) return;
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    throw new StartupError(`the database file ${path} is read-only; make it writable or set DATABASE_PATH`);
  }
  if (statSync(path).size === 0) return;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    readSync(fd, buf, 0, 16, 0);
    if (buf.toString('latin1') !== SQLITE_MAGIC) {
      throw new StartupError(
        `${path} is not a SQLite database (corrupted, or another kind of file); it was left untouched`,
      );
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens (creating if needed) the database at `path`, or `:memory:`. Throws StartupError with a
 * clear message for a corrupted or foreign file, a read-only path or missing migrations, without
 * changing the file.
 */
export function openDatabase(
  path: string,
  options: { migrationsFolder?: string; readonly?: boolean; checkpoints?: CheckpointerOptions } = {},
): OpenDb {
  const migrationsFolder = options.migrationsFolder ?? DEFAULT_MIGRATIONS;
  const memory = path === ':memory:';
  const full = memory ? path : resolve(path);
  if (options.readonly) {
    if (!existsSync(full)) throw new StartupError(`no database at ${full}`);
    let sqlite: Database.Database;
    try {
      sqlite = new Database(full, { readonly: true, fileMustExist: true });
      sqlite.prepare('select count(*) from sqlite_master').get();
    } catch (e) {
      throw new StartupError(`${full} cannot be read as a SQLite database (${(e as Error).message})`);
    }
    return opened(drizzle(sqlite, { schema }), sqlite, full);
  }
  checkMigrations(migrationsFolder);
  if (!memory) checkFile(full);
  let sqlite: Database.Database;
  try {
    sqlite = new Database(full);
  } catch (e) {
    throw new StartupError(`cannot open the database ${full}: ${(e as Error).message}`);
  }
  try {
    let tables: string[];
    try {
      tables = (sqlite.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      );
      const check = sqlite.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(String(check));
    } catch (e) {
      throw new StartupError(
        `${full} is damaged and cannot be read (${(e as Error).message}); restore it from a backup; it was left untouched`,
      );
    }
    const own = tables.filter((t) => !t.startsWith('sqlite_'));
    if (own.length > 0 && !own.includes('__drizzle_migrations')) {
      throw new StartupError(
        `${full} belongs to another application (tables: ${own.slice(0, 5).join(', ')}); it was left untouched; set DATABASE_PATH to this bot's own file`,
      );
    }
    // First, so that a second process opening the same new file waits for the first one's locks.
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    // NORMAL in WAL mode: a committed transaction survives a crash of the process (kill -9);
    // DATABASE_SYNC=full also survives a power cut, at the cost of an fsync per action.
    sqlite.pragma(`synchronous = ${process.env.DATABASE_SYNC === 'full' ? 'FULL' : 'NORMAL'}`);
    const db = drizzle(sqlite, { schema });
    try {
      migrateLocked(sqlite, migrationsFolder);
    } catch (e) {
      throw new StartupError(`applying the migrations in ${migrationsFolder} failed: ${(e as Error).message}`);
    }
    // Checkpoints off the event loop (checkpointer.ts); a file in memory has no WAL.
    return opened(db, sqlite, full, memory ? null : new Checkpointer(sqlite, full, options.checkpoints));
  } catch (e) {
    sqlite.close();
    if (e instanceof StartupError) throw e;
    if (code(e) === 'SQLITE_READONLY' || code(e) === 'SQLITE_CANTOPEN') {
      throw new StartupError(
        `the database ${full} cannot be written (${(e as Error).message}); set DATABASE_PATH to a writable place`,
      );
    }
    throw e;
  }
}

/**
 * drizzle's migrator for better-sqlite3, with the read of the last applied migration inside the
 * write lock. drizzle's own reads it before its BEGIN: two processes opening one new file at once
 * (the shards of one machine) both found nothing applied, and the second one's CREATE TABLE failed
 * once the first had committed. Here BEGIN IMMEDIATE takes the write lock first (waiting up to the
 * busy timeout for the other process), so the second sees everything the first applied. Same table
 * and rows as drizzle's (`__drizzle_migrations`: hash, created_at), so drizzle-kit reads them.
 */
function migrateLocked(sqlite: Database.Database, migrationsFolder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder });
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec(
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
    );
    const last = sqlite
      .prepare('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
      .get() as { created_at: number | string } | undefined;
    const insert = sqlite.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)');
    for (const migration of migrations) {
      if (last && Number(last.created_at) >= migration.folderMillis) continue;
      for (const statement of migration.sql) sqlite.prepare(statement).run();
      insert.run(migration.hash, migration.folderMillis);
    }
    sqlite.exec('COMMIT');
  } catch (e) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw e;
  }
}
