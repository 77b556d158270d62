// npm run bench:shared-file [-- --games N --ruleset R]
// Issue 22: processes of one machine share one SQLite file (WAL). Each process writes each action
// in its own transaction; a writer that finds the file locked by another process waits inside
// better-sqlite3 (busy_timeout), which blocks its event loop. This plays N random games per
// process through the real game service (src/cli/sim.ts), first in one process, then in two and
// four processes on one fresh file at once, and prints each process's actions per second and how
// long its transactions stayed open, waits for the lock included (since issue 23 a transaction is
// asynchronous: only the wait for the lock at BEGIN holds the event loop, the rest holds the
// process's connection; the longest must stay under 50 ms), side by side.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '40' },
    ruleset: { type: 'string', default: 'kiev-12' },
    rate: { type: 'string', default: '300' },
  },
});
const games = Number(values.games);
const ruleset = String(values.ruleset);
/** The paced runs' actions per second per process: far above a real bot's (a few per second). */
const rate = Number(values.rate);

interface SimResult {
  actions: number;
  seconds: number;
  actionsPerSecond: number;
  /** how long each action's transaction stayed open, from BEGIN to COMMIT: the wait for the write lock (which holds the event loop) included */
  transactionMs: { p99: number; max: number };
}

function sim(db: string, seed: number, n = games, perSecond = 0): Promise<SimResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        join(import.meta.dirname, '..', 'src', 'cli', 'sim.ts'),
        '--db',
        db,
        '--games',
        String(n),
        '--ruleset',
        ruleset,
        '--seed',
        String(seed),
        '--rate',
        String(perSecond),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as SimResult)
        : reject(new Error(`sim exited ${code}`)),
    );
  });
}

const rows: string[] = [];
for (const perSecond of [0, rate]) {
  for (const processes of [1, 2, 4]) {
    const db = join(mkdtempSync(join(tmpdir(), 'mafia-shared-')), 'mafia.sqlite');
    // The file and its migrations first, so the processes start together on a ready file.
    await sim(db, 0, 0);
    const results = await Promise.all(Array.from({ length: processes }, (_, i) => sim(db, i + 1, games, perSecond)));
    const total = results.reduce((a, r) => a + r.actions, 0);
    const seconds = Math.max(...results.map((r) => r.seconds));
    rows.push(
      `| ${perSecond === 0 ? 'flat out' : `${perSecond}/s each`} | ${processes} | ${results.map((r) => r.actionsPerSecond).join(' / ')} | ${Math.round(total / seconds)} | ${results.map((r) => r.transactionMs.p99).join(' / ')} | ${results.map((r) => r.transactionMs.max).join(' / ')} |`,
    );
  }
}
process.stdout.write(
  [
    `shared SQLite file: ${games} random ${ruleset} games per process`,
    '| pace | processes | actions/s per process | actions/s in all | transaction p99 ms per process | longest transaction (event-loop stall) ms per process |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
