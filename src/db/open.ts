// The one way the bot opens its database (issue 23): DATABASE_URL=postgres://… selects PostgreSQL
// (pg-open.ts), anything else the SQLite file at DATABASE_PATH, as before (client.ts). Both give
// the storage seam's Connection the stores run on, the ownership its `ownsGuild` reads, and close.
// DATABASE_URL wins over DATABASE_PATH (src/config.ts says why); when the file at DATABASE_PATH
// holds data while the PostgreSQL database has no game, a warning says so (`warnings`).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type OpenDb } from './client';
import type { Connection, Dialect } from './connection';
import type { OwnershipRef } from './ownership';
import type { Checkpointer } from './checkpointer';
import { openPostgres, type PgOpenOptions } from './pg-open';
import { parsePostgresUrl } from './pg-connect';
import { redactUrl } from './pg-url';

export const DEFAULT_DATABASE_PATH = './data/mafia.sqlite';

export interface OpenedDatabase {
  readonly dialect: Dialect;
  readonly connection: Connection;
  readonly ownership: OwnershipRef;
  /** For logs: `SQLite <path>` or `PostgreSQL <URL without its password>`. */
  readonly shown: string;
  /** SQLite: the file as openDatabase opened it (its raw handle); PostgreSQL: null. */
  readonly sqlite: OpenDb | null;
  /** SQLite: the worker that checkpoints the file's WAL (src/db/checkpointer.ts); else null. */
  readonly checkpointer: Checkpointer | null;
  /** Lines for the log at start-up (warn level): what the operator should know about the choice. */
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

/** How many games the SQLite file of this bot at `path` holds (read-only); 0 when it is not one. */
function gamesInFile(path: string): number {
  if (!existsSync(path) || !statSync(path).isFile() || statSync(path).size === 0) return 0;
  let o: OpenDb | null = null;
  try {
    o = openDatabase(path, { readonly: true });
    return (o.sqlite.prepare('select count(*) as n from games').get() as { n: number }).n;
  } catch {
    return 0; // not this bot's file, or unreadable: nothing to say about it
  } finally {
    o?.close();
  }
}

export interface DatabaseEnv {
  DATABASE_URL?: string | undefined;
  DATABASE_PATH?: string | undefined;
}

/**
 * Opens the database the environment names. StartupError (one line) when it cannot: a bad URL, a
 * connection refused, another application's database or file, a failed migration.
 */
export async function openConnection(
  env: DatabaseEnv,
  options: { postgres?: PgOpenOptions; migrationsFolder?: string } = {},
): Promise<OpenedDatabase> {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    const parsed = parsePostgresUrl(url);
    const o = await openPostgres(parsed, {
      ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
      ...options.postgres,
    });
    const shown = redactUrl(parsed);
    const warnings: string[] = [];
    const file = resolve(env.DATABASE_PATH?.trim() || DEFAULT_DATABASE_PATH);
    const inFile = gamesInFile(file);
    if (inFile > 0) {
      const [r] = await o.connection.rows<{ any: boolean }>(sql`select exists (select 1 from games) as any`);
      if (!r?.any)
        warnings.push(
          `DATABASE_URL is set, so the bot runs on PostgreSQL (${shown}), which has no game yet, and not on the SQLite file ${file} (DATABASE_PATH), which holds ${inFile} ${inFile === 1 ? 'game' : 'games'}. To bring them over, stop the bot and run: npm run db:migrate-to-postgres -- --from ${file} --to <DATABASE_URL> (into an empty database)`,
        );
    }
    return {
      dialect: 'postgres',
      connection: o.connection,
      ownership: o.ownership,
      shown: `PostgreSQL ${shown}`,
      sqlite: null,
      checkpointer: null,
      warnings,
      close: () => o.close(),
    };
  }
  const path = env.DATABASE_PATH?.trim() || DEFAULT_DATABASE_PATH;
  const o = openDatabase(path, options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {});
  return {
    dialect: 'sqlite',
    connection: o.connection,
    ownership: o.ownership,
    shown: `SQLite ${o.path}`,
    sqlite: o,
    checkpointer: o.connection.checkpointer,
    warnings: [],
    close: () => o.connection.close(),
  };
}
