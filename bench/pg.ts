// The PostgreSQL a benchmark runs on (issue 23), and what it should say about its settings.
// With a URL (--url, else TEST_DATABASE_URL): that server; each run gets a fresh database on it
// (CREATE DATABASE, so the URL's user must be allowed to create one), dropped afterwards. Without:
// a throwaway server of the bench's own from the machine's PostgreSQL binaries (testkit's
// startTestServer, on a Unix socket, its data in the temporary directory, on the same disk as the
// SQLite files the benches write), started with a production's durability: fsync,
// synchronous_commit and full_page_writes on (PostgreSQL's defaults; the tests' server turns fsync
// off), nothing else tuned (shared_buffers and the rest as initdb leaves them).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { redactUrl } from '../src/db/pg-url';
import { postgresBinaries, startTestServer } from '../testkit/postgres';

export interface BenchDatabase {
  /** A connection URL to a fresh, empty database. */
  url: string;
  drop(): Promise<void>;
}

export interface BenchPostgres {
  /** Which server: `own server (<binaries>)` or the URL without its password. */
  server: string;
  /** The settings that decide what a commit costs, as the server reports them (SHOW). */
  settings: Record<string, string>;
  /** A fresh database on the server. */
  database(): Promise<BenchDatabase>;
  /**
   * The CPU time the server's processes have used so far, in ms (the postmaster, its live
   * processes, and those that have ended): only for the bench's own server (null otherwise). On a
   * shared machine a run's CPU time per action moves less than its wall time.
   */
  cpuMs(): number | null;
  stop(): void;
}

/** Settings printed with every PostgreSQL figure. */
const SHOWN = [
  'server_version',
  'fsync',
  'synchronous_commit',
  'full_page_writes',
  'wal_sync_method',
  'shared_buffers',
  'max_connections',
  'data_directory',
] as const;

let made = 0;

/** The server at `url` (else TEST_DATABASE_URL), or one of the bench's own; null when there is neither. */
export async function benchPostgres(url?: string): Promise<BenchPostgres | null> {
  let base = url ?? process.env.TEST_DATABASE_URL;
  let server: string;
  let stop = () => {};
  if (base) {
    server = redactUrl(new URL(base));
  } else {
    const bin = postgresBinaries();
    if (!bin) return null;
    const own = startTestServer(bin, { durable: true });
    base = own.url;
    stop = own.stop;
    server = `own server (${bin}, Unix socket)`;
  }
  const admin = base;
  const settings: Record<string, string> = {};
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    for (const name of SHOWN) {
      const r = await c.query<Record<string, string>>(`show ${name}`);
      settings[name] = Object.values(r.rows[0] ?? {})[0] ?? '?';
    }
  } finally {
    await c.end();
  }
  const postmaster = server.startsWith('own server')
    ? Number(readFileSync(join(settings.data_directory!, 'postmaster.pid'), 'utf8').split('\n')[0])
    : null;
  return {
    server,
    settings,
    cpuMs: () => (postmaster === null ? null : treeCpuMs(postmaster)),
    async database() {
      const name = `mafia_bench_${process.pid}_${++made}`;
      const a = new pg.Client({ connectionString: admin });
      await a.connect();
      await a.query(`CREATE DATABASE ${name}`);
      await a.end();
      const u = new URL(admin);
      u.pathname = `/${name}`;
      return {
        url: u.toString(),
        async drop() {
          const d = new pg.Client({ connectionString: admin });
          await d.connect();
          await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await d.end();
        },
      };
    },
    stop,
  };
}

/** SQLite's settings as the bot opens its file (src/db/client.ts), for the same line of output. */
export function sqliteSettings(): Record<string, string> {
  return {
    journal_mode: 'wal',
    synchronous:
      process.env.DATABASE_SYNC === 'full'
        ? 'full (DATABASE_SYNC=full: an fsync per commit)'
        : 'normal (the default: no fsync at commit, at checkpoints; a commit survives a crash of the process, not a power cut)',
  };
}

/** Linux's clock ticks per second (`getconf CLK_TCK`), in which /proc gives CPU times. */
const TICKS = 100;

/** /proc/<pid>/stat's fields after the command name: [state, ppid, …]. */
function statFields(pid: string): string[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone meanwhile
  }
}

/** CPU ms of a process, its children that ended (cutime, cstime) and its live children. */
function treeCpuMs(root: number): number {
  // utime, stime, cutime, cstime: stat's fields 14-17, here 11-14 (counted from the state, field 3).
  const cpu = (f: string[], children: boolean) =>
    Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
  const own = statFields(String(root));
  if (!own) return 0;
  let ticks = cpu(own, true);
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const f = statFields(pid);
    if (f && Number(f[1]) === root) ticks += cpu(f, false);
  }
  return (ticks * 1000) / TICKS;
}
