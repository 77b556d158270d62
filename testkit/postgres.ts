// A real PostgreSQL for the tests (issue 23): `TEST_DATABASE_URL` when it is set, else a
// throwaway server started from the machine's own PostgreSQL binaries (Debian's `postgresql`
// package: `.ci/run` installs it), in a temporary directory, listening on a Unix socket only.
// Each caller gets a fresh database of its own on that server. When neither is there, `null`,
// and the suites that need it say so loudly (see `postgresOrSkip`).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** A connection URL to a database nobody else uses. */
  url: string;
  /** Drops the database (and stops the server when this was the last one using it). */
  drop(): Promise<void>;
}

/** Where the server binaries are: on PATH (pg_ctl), or Debian's versioned directories. */
export function postgresBinaries(): string | null {
  const dirs = (process.env.PATH ?? '').split(':');
  for (const d of dirs) if (d && existsSync(join(d, 'initdb')) && existsSync(join(d, 'postgres'))) return d;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(debian, v, 'bin', 'initdb'))) return join(debian, v, 'bin');
  }
  return null;
}

/** initdb, pg_ctl and postgres refuse to run as root: as root they run as the `postgres` user. */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [cmd, args];
  return ['runuser', ['-u', 'postgres', '--', cmd, ...args]];
}

export interface TestServer {
  /** postgres://… to the server's `postgres` database (Unix socket in a temporary directory). */
  url: string;
  stop(): void;
}

export interface TestServerOptions {
  /** Connections must give this password (scram-sha-256). */
  password?: string;
  /**
   * A production's durability (for the benchmarks): fsync, synchronous_commit and full_page_writes
   * on, PostgreSQL's defaults, where a test server turns fsync off (test data only).
   */
  durable?: boolean;
}

/**
 * Starts a throwaway PostgreSQL server (initdb in a temporary directory, pg_ctl start; no TCP,
 * fsync off unless `durable`: test data only); with `password`, connections must give it. `stop()`
 * stops it at once and removes the directory.
 */
export function startTestServer(bin: string, options: TestServerOptions = {}): TestServer {
  const dir = mkdtempSync(join(tmpdir(), 'mafia-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const data = join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const [c, a] = asPostgres(join(bin, cmd), args);
    execFileSync(c, a, { stdio: 'ignore' });
  };
  // With a password: the `postgres` user must give it (scram-sha-256), to test a wrong one.
  let auth = ['--auth=trust'];
  if (options.password !== undefined) {
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${options.password}\n`, { mode: 0o644 });
    auth = ['--auth=scram-sha-256', `--pwfile=${pwfile}`];
  }
  run('initdb', ['-D', data, '-U', 'postgres', ...auth, '-E', 'UTF8', '--no-sync']);
  const durability = options.durable ? '-c fsync=on -c synchronous_commit=on -c full_page_writes=on' : '-c fsync=off';
  const opts = `-k ${dir} -p 5432 -c listen_addresses= ${durability} -c max_connections=300`;
  run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  const user = options.password !== undefined ? `postgres:${encodeURIComponent(options.password)}` : 'postgres';
  return { url: `postgres://${user}@localhost:5432/postgres?host=${encodeURIComponent(dir)}`, stop };
}

/** Whether the tests have a PostgreSQL: TEST_DATABASE_URL, or binaries to start one. */
export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL) || postgresBinaries() !== null;
}

let own: TestServer | null = null;
let created = 0;

/**
 * A fresh database on the test server: TEST_DATABASE_URL's (vitest's global set-up starts one and
 * sets it, test/postgres-setup.ts), else a server of this process's own; null when there is none.
 */
export async function testPostgres(): Promise<TestPostgres | null> {
  let base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const bin = postgresBinaries();
    if (!bin) return null;
    own ??= startTestServer(bin);
    base = own.url;
  }
  const name = `mafia_test_${process.pid}_${++created}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * For a suite that runs on PostgreSQL too: the database, or null with a loud line on stderr
 * (CI always has one: a skipped PostgreSQL run must never pass unnoticed).
 */
export async function postgresOrSkip(suite: string): Promise<TestPostgres | null> {
  const db = await testPostgres();
  if (!db) {
    process.stderr.write(
      `\n!!! ${suite}: NO POSTGRESQL HERE — the PostgreSQL half of this suite was SKIPPED. Install Debian's postgresql package or set TEST_DATABASE_URL (docs/testing.md).\n\n`,
    );
    if (process.env.CI_REQUIRE_POSTGRES === '1')
      throw new Error(`${suite}: PostgreSQL required (CI_REQUIRE_POSTGRES=1)`);
  }
  return db;
}
