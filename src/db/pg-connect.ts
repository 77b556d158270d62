// A PostgreSQL database named on a command line (issue 23: db:migrate-to-postgres, db:verify): the
// URL checked before anything connects, shown without its password, and one connection whose
// failure is one clear line (StartupError).
import { resolve } from 'node:path';
import pg from 'pg';
import { StartupError } from './client';

/** The PostgreSQL migrations (drizzle-kit, `npm run db:generate`). */
export const PG_MIGRATIONS = resolve(import.meta.dirname, '..', '..', 'migrations-pg');

/** Whether a command-line argument names a PostgreSQL database rather than a file. */
export function looksLikePostgresUrl(text: string): boolean {
  return /^postgres(ql)?:/i.test(text);
}

/**
 * A `postgres://user[:password]@host[:port]/database[?…]` URL, checked: the scheme, a host, a
 * database name, no spaces or control characters. StartupError otherwise (the text is not echoed
 * back whole: it may hold a password).
 */
export function parsePostgresUrl(text: string): URL {
  const bad = (why: string) =>
    new StartupError(`not a PostgreSQL URL (${why}); expected postgres://user:password@host:5432/database`);
  if (text.length > 2000) throw bad('longer than 2,000 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(text)) throw bad('it holds spaces or control characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad('it cannot be parsed');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw bad(`the scheme is ${url.protocol}`);
  if (!url.hostname && !url.searchParams.get('host')) throw bad('no host');
  const db = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!db) throw bad('no database name after the host');
  if (db.includes('/')) throw bad('the database name holds a "/"');
  if (url.port && !(Number(url.port) >= 1 && Number(url.port) <= 65535)) throw bad('the port is not 1-65535');
  return url;
}

/** The URL as it may be printed: the password replaced by `***`. */
export function redactUrl(url: URL): string {
  if (!url.password) return url.toString();
  const u = new URL(url.toString());
  u.password = '***';
  return u.toString();
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
