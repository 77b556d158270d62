// A PostgreSQL database named on a command line (issue 23: db:migrate-to-postgres, db:verify): the
// URL checked before anything connects, shown without its password, and one connection whose
// failure is one clear line (StartupError).
import { resolve } from 'node:path';
import pg from 'pg';
import { StartupError } from './client';
import { checkPostgresUrl, postgresUrlMessage, redactUrl } from './pg-url';

/** The PostgreSQL migrations (drizzle-kit, `npm run db:generate`). */
export const PG_MIGRATIONS = resolve(import.meta.dirname, '..', '..', 'migrations-pg');

export { looksLikePostgresUrl, redactUrl } from './pg-url';

/**
 * A `postgres://user[:password]@host[:port]/database[?…]` URL, checked (pg-url.ts): StartupError
 * otherwise (the text is not echoed back whole: it may hold a password).
 */
export function parsePostgresUrl(text: string): URL {
  const url = checkPostgresUrl(text);
  if (!(url instanceof URL)) throw new StartupError(postgresUrlMessage(url.problem));
  return url;
}

/**
 * One connection to the database, or StartupError with what went wrong (refused, unknown host,
 * wrong password, no such database, timed out after 10 s).
 */
export async function connectPostgres(url: URL): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
  // A connection lost while idle is reported by the next query; without a listener it would end the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    const err = e as { code?: string; message?: string };
    const msg = err.message || String(e);
    const why = err.code && !msg.includes(err.code) ? `${err.code}: ${msg}` : msg;
    throw new StartupError(`cannot connect to ${redactUrl(url)} (${why})`);
  }
  return client;
}

/**
 * A failure of the database while it is read or written (a query refused, the connection lost)
 * as one line; any other error (a bug) as it is.
 */
export function databaseFailure(url: URL, doing: string, e: unknown): unknown {
  if (e instanceof StartupError) return e;
  const err = e as { code?: unknown; message?: string };
  const fromDb = e instanceof pg.DatabaseError || /^(E[A-Z]+|Connection terminated)/.test(err.message ?? '');
  if (!fromDb) return e;
  const code = typeof err.code === 'string' ? ` [${err.code}]` : '';
  return new StartupError(`${doing} ${redactUrl(url)} failed: ${err.message}${code}`);
}
