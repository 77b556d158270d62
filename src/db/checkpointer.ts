// SQLite's WAL checkpoints on a thread of their own, off the event loop.
//
// In WAL mode a commit appends the pages it changed to the `-wal` file; a checkpoint copies them
// back into the database file and fsyncs both. SQLite runs one itself, inside the commit that
// takes the WAL past 1,000 pages (`wal_autocheckpoint`): with the bot's transactions (about thirteen
// pages each) that was about one commit in seventy-five, and it held the event loop for 5–20 ms of fsync,
// about a fifth of all the time a busy bot spends persisting actions (docs/benchmarks.md).
//
// Here the bot's connection does not checkpoint (`wal_autocheckpoint = 0`). A worker thread opens
// the same file and, every `intervalMs`, runs a PASSIVE checkpoint: it copies whatever is committed
// without waiting for anyone and without blocking the bot's writes. Nothing about durability
// changes: a commit is durable exactly as before (synchronous NORMAL: it survives a crash of the
// process; FULL: a power cut too), and the checkpoint syncs as SQLite's own does.
//
// The WAL starts over from its beginning only when a write begins while everything in it has been
// copied, which a bot writing without a pause never gives a passive checkpoint. So once the WAL
// holds `restartFrames` pages, the worker runs a RESTART checkpoint: it waits (in its own thread,
// up to 10 ms, else again at its next tick) for a moment between the bot's transactions and for
// readers of older pages, holds new writes back meanwhile and while it copies the few pages since
// its last checkpoint and syncs, and the next write starts the WAL over; `journal_size_limit` then
// cuts the file back. The bot waits for it in its busy handler that long at most. Should the WAL
// still grow past four times `restartFrames`, the bot's connection checkpoints by itself as well
// until it has started over (`bound`). (Run by the bot's own connection after its commits instead, a
// RESTART took the write lock just as its process let go of it, and a second process sharing the
// file waited 5 s for it and failed: docs/benchmarks.md.)
//
// If the worker cannot start or fails, the bot's connection checkpoints by itself again (the
// default 1,000 pages), for the rest of the process. Closing copies everything into the file on
// the bot's connection (a FULL checkpoint) before it closes, and stops the worker, whose connection,
// the file's last, removes the WAL.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** SQLite's own default: the bot's connection checkpoints again at this many pages when the worker is gone. */
const AUTOCHECKPOINT = 1000;
/** The WAL file is cut back to this size when it starts over (64 MiB). */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

export interface CheckpointerOptions {
  /** How often the worker checkpoints (ms). */
  intervalMs?: number;
  /** From how many pages in the WAL the worker makes it start over (RESTART). */
  restartFrames?: number;
}

export interface CheckpointerStats {
  /** Passive checkpoints of the worker that copied pages. */
  checkpoints: number;
  /** RESTART checkpoints of the worker that went through (the WAL made to start over). */
  restarts: number;
  /** Times the WAL grew past four times `restartFrames` and the bot's connection checkpointed too. */
  handedBack: number;
  /** Why the worker stopped on its own, if it did (the bot's connection then checkpoints itself). */
  failed: string | null;
}

/** The worker's code (plain JavaScript, run with `eval`, so it needs no TypeScript loader). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('busy_timeout = ' + workerData.busyMs);
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
let last = '';
// The WAL's length at the last RESTART that went through: the WAL starts over only at the next
// write, and until then another RESTART would change nothing.
let restartedAt = -1;
// After a RESTART that could not go through (a writer or a reader of older pages all along), the
// next is tried once the WAL has grown by a quarter of the limit: each try holds writes back.
let retryAt = 0;
const tick = () => {
  try {
    const r = passive.get();
    if (r.log < workerData.restartFrames) {
      restartedAt = -1;
      retryAt = 0;
    } else if (r.log !== restartedAt && r.log >= retryAt) {
      if (restart.get().busy === 0) {
        restartedAt = r.log;
        parentPort.postMessage({ restarted: true });
      } else retryAt = r.log + workerData.restartFrames / 4;
    }
    // Told only when something changed: an idle bot's WAL stays as it is until the next write.
    const now = r.log + ':' + r.checkpointed;
    if (now !== last) parentPort.postMessage({ log: r.log, copied: r.checkpointed > 0 });
    last = now;
  } catch (e) {
    clearInterval(timer);
    db.close();
    parentPort.postMessage({ failed: e && e.message ? e.message : String(e) });
    parentPort.close();
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.postMessage({ ready: true });
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  /** Settles once the worker has its connection open and checkpoints (never, if it fails first). */
  readonly ready: Promise<void>;
  private stopping = false;
  private handedBack = false;
  private onFailure: ((why: string) => void) | null = null;
  readonly stats: CheckpointerStats = { checkpoints: 0, restarts: 0, handedBack: 0, failed: null };

  /**
   * Starts the worker for the file `sqlite` has open at `path` (WAL mode, not in memory, not
   * read-only); the bot's connection stops checkpointing by itself.
   */
  constructor(
    private readonly sqlite: Database.Database,
    path: string,
    options: CheckpointerOptions = {},
  ) {
    const synchronous = sqlite.pragma('synchronous', { simple: true }) === 2 ? 'FULL' : 'NORMAL';
    sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    sqlite.pragma('wal_autocheckpoint = 0');
    const restartFrames = options.restartFrames ?? 16_000;
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        path,
        synchronous,
        intervalMs: options.intervalMs ?? 200,
        restartFrames,
        busyMs: 10,
      },
    });
    // The process does not stay alive for the worker's sake.
    this.worker.unref();
    let up!: () => void;
    this.ready = new Promise((resolve) => (up = resolve));
    this.worker.on(
      'message',
      (m: { ready?: boolean; log?: number; copied?: boolean; restarted?: boolean; failed?: string }) => {
        if (m.ready) up();
        if (m.log !== undefined) {
          if (m.copied) this.stats.checkpoints++;
          this.bound(m.log, restartFrames);
        }
        if (m.restarted) this.stats.restarts++;
        if (m.failed !== undefined) this.fail(m.failed);
      },
    );
    this.worker.on('error', (e) => this.fail(e.message));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        // Whatever its code: only stop() asks it to end.
        if (!this.stopping) this.fail(`the checkpoint worker exited (code ${code})`);
        resolve();
      }),
    );
  }

  /**
   * The WAL past four times `restartFrames` (the worker's RESTART never found a moment between
   * writes, or a reader kept it): the bot's connection checkpoints by itself too, as SQLite does by
   * default, until the WAL has started over. The WAL stays bounded whatever the worker manages.
   */
  private bound(log: number, restartFrames: number): void {
    if (this.stats.failed !== null || !this.sqlite.open) return;
    if (!this.handedBack && log >= 4 * restartFrames) {
      this.handedBack = true;
      this.stats.handedBack++;
      this.sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT}`);
    } else if (this.handedBack && log < restartFrames) {
      this.handedBack = false;
      this.sqlite.pragma('wal_autocheckpoint = 0');
    }
  }

  /** The worker is gone: the bot's connection checkpoints by itself again. */
  private fail(why: string): void {
    if (this.stopping) return;
    if (this.stats.failed !== null) return;
    this.stats.failed = why;
    if (this.sqlite.open) this.sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT}`);
    this.onFailure?.(why);
  }

  /** `cb` is told (once) why the worker stopped on its own: at once if it already has. */
  whenFailed(cb: (why: string) => void): void {
    this.onFailure = cb;
    if (this.stats.failed !== null) cb(this.stats.failed);
  }

  /**
   * Stops the worker: told at once (synchronously), its connection closed by the time the promise
   * settles. The bot's connection may close before that: the worker's is then the file's last, and
   * removes the WAL as it closes.
   */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      // Waited for now: the process stays alive until the worker has closed its connection.
      this.worker.ref();
      this.worker.postMessage('stop');
    }
    return this.exited;
  }
}
