// The simulator (src/cli/sim.ts) as a child process, for the crash tests: its acknowledgements
// (`ack <game> <seq> <kind>`, printed after each action's commit) read as they come, and a SIGKILL
// after a given number of them; db:verify run on the database afterwards. The database is a SQLite
// file or a postgres:// URL (issue 23): both are opened as the bot opens them (openConnection).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openConnection, type OpenedDatabase } from '../src/db/open';
import { looksLikePostgresUrl } from '../src/db/pg-url';
import { ROOT } from './scenario-files';

export interface Ack {
  game: number;
  seq: number;
  kind: string;
}

/** The JSON line the simulator prints when it ends normally. */
export interface SimSummary {
  games: number;
  finished: number;
  actions: number;
}

export interface SimRun {
  /** The acknowledgements read before the kill (those printed after it are not counted as seen). */
  acks: Ack[];
  killed: boolean;
  summary: SimSummary | null;
}

export interface SimProcess {
  /** The acknowledgements read so far. */
  readonly acks: readonly Ack[];
  /** Whether the process has ended (normally or killed). */
  readonly exited: boolean;
  readonly done: Promise<SimRun>;
}

/** Starts the simulator with `args` (and --acks); kills it with SIGKILL after `killAfter` acknowledgements (if given). */
export function startSim(args: string[], killAfter: number | null = null): SimProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/sim.ts'), ...args, '--acks'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: Ack[] = [];
  let summary: SimSummary | null = null;
  let killed = false;
  let exited = false;
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('ack ')) {
      if (killed) return; // printed after the kill decision: not counted as seen
      const [, game, seq, kind] = line.split(' ');
      acks.push({ game: Number(game), seq: Number(seq), kind: kind! });
      if (killAfter !== null && acks.length >= killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
    } else if (line.startsWith('{')) summary = JSON.parse(line) as SimSummary;
  });
  const done = new Promise<SimRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      exited = true;
      if (!killed && code !== 0) reject(new Error(`sim exited ${code ?? signal}: ${stderr}`));
      else resolve({ acks, killed: killed && signal === 'SIGKILL', summary });
    });
  });
  return {
    acks,
    get exited() {
      return exited;
    },
    done,
  };
}

/** Runs the simulator to its end, or kills it with SIGKILL after `killAfter` acknowledgements. */
export function runSim(args: string[], killAfter: number | null): Promise<SimRun> {
  return startSim(args, killAfter).done;
}

/** `npm run db:verify -- <db>`: its exit status and report. */
export function dbVerify(db: string): { status: number | null; stderr: string; report: unknown } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/db-verify.ts'), db], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr, report: r.status === 2 ? null : JSON.parse(r.stdout) };
}

/** Opens the database the simulator played on (a file or a postgres:// URL) as the bot does. */
export function openSimDatabase(db: string): Promise<OpenedDatabase> {
  return openConnection(looksLikePostgresUrl(db) ? { DATABASE_URL: db } : { DATABASE_PATH: db });
}
