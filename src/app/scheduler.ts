// Timers for stage deadlines and reminders. A timer names the stage (seq) it was set for, so a late
// or duplicate one is refused by the engine (timeout/stale) and does nothing.
//
// Issue 20: every timer's work is guarded (TimerFaults). A failure of the database under it
// (SQLITE_BUSY, SQLITE_IOERR, a full disk, a read-only file), thrown or rejected, never escapes to
// end the process: it is logged, the work is tried again later with a growing delay, and the
// game's host is told once per failure episode.
const MAX_DELAY = 2 ** 31 - 1; // setTimeout's limit (about 24.8 days)

export interface TimerHost {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: TimerHost = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface FaultOptions {
  log: { error(msg: string, e?: unknown): void };
  /** The delay before the first try again; it doubles with each failure in a row. */
  retryMs?: number;
  /** The longest delay between two tries. */
  maxRetryMs?: number;
  /** Tells a game's host that its timed work cannot be saved (once per failure episode). */
  tell?: (gameId: number, e: unknown) => void;
}

/** The database's error code (better-sqlite3's `SQLITE_…`), else the message, for a log line. */
function codeOf(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (typeof err?.code === 'string') return err.code;
  return typeof err?.message === 'string' ? err.message.slice(0, 120) : String(e);
}

/**
 * The one guard of timed work (stage timers, reminders, the sweep). Each piece of work has a key
 * (`stage timer:12`, `sweep`); a failure is logged and returns the delay before the next try
 * (`retryMs`, doubled with each failure of that key in a row, at most `maxRetryMs`). A game's host
 * is told at the first failure of an episode: the episode lasts until every failed work of that
 * game has succeeded again, so retries are not told again but a later failure is.
 */
export class TimerFaults {
  private readonly failing = new Map<string, { n: number; gameId: number | null }>();
  private readonly told = new Set<number>();
  private readonly retryMs: number;
  private readonly maxRetryMs: number;

  constructor(private readonly o: FaultOptions) {
    this.retryMs = o.retryMs ?? 30_000;
    this.maxRetryMs = Math.max(this.retryMs, o.maxRetryMs ?? 5 * 60_000);
  }

  /** Timed work failed: logged, the host told (first failure of the episode); the delay before the next try. */
  failed(what: string, key: string, gameId: number | null, e: unknown): number {
    const n = (this.failing.get(key)?.n ?? 0) + 1;
    this.failing.set(key, { n, gameId });
    const delay = Math.min(this.maxRetryMs, this.retryMs * 2 ** Math.min(n - 1, 20));
    const game = gameId === null ? '' : `game ${gameId}: `;
    this.o.log.error(
      `${game}${what} failed (${codeOf(e)}, ${n} in a row); trying again in ${Math.round(delay / 1000)} s`,
      e,
    );
    if (gameId !== null && !this.told.has(gameId)) {
      this.told.add(gameId);
      try {
        this.o.tell?.(gameId, e);
      } catch (err) {
        this.o.log.error(`game ${gameId}: could not report the storage error`, err);
      }
    }
    return delay;
  }

  /** The work succeeded: its delay starts over; once none of its game's work is failing, the episode is over. */
  ok(key: string): void {
    const f = this.failing.get(key);
    if (!f) return;
    this.failing.delete(key);
    if (f.gameId === null) return;
    for (const other of this.failing.values()) if (other.gameId === f.gameId) return;
    this.told.delete(f.gameId);
  }

  /** Whether some work is failing now (tests and the health of the bot). */
  get failures(): number {
    return this.failing.size;
  }

  /**
   * Runs timed work, synchronous or not: neither its throw nor its rejection escapes. `after` gets
   * null when it succeeded, else the delay before it should be tried again.
   */
  run(
    what: string,
    key: string,
    gameId: number | null,
    work: () => unknown,
    after: (retryIn: number | null) => void = () => {},
  ): void {
    const settle = (retryIn: number | null): void => {
      try {
        after(retryIn);
      } catch (e) {
        this.o.log.error(`${what}: could not arm the next try`, e);
      }
    };
    const fail = (e: unknown): void => settle(this.failed(what, key, gameId, e));
    const succeed = (): void => {
      this.ok(key);
      settle(null);
    };
    let r: unknown;
    try {
      r = work();
    } catch (e) {
      fail(e);
      return;
    }
    if (r instanceof Promise) void r.then(succeed, fail);
    else succeed();
  }
}

/** What a scheduler's timed work is called in log lines, and the guard it reports to. */
export interface SchedulerGuard {
  faults: TimerFaults;
  what: string;
}

export class Scheduler {
  private readonly timers = new Map<number, { seq: number; dueAt: number; handle: unknown }>();
  private stopped = false;
  private readonly guard: SchedulerGuard;
  /** Fired timers whose work is still running, by game (idle() waits for them). */
  private readonly running = new Map<number, Set<Promise<unknown>>>();

  /**
   * `fire` may throw or return a promise that rejects: the failure is the guard's (logged, the
   * host told once), and the timer is armed again after its delay unless something armed the
   * game's timer meanwhile (a later stage, the next reminder).
   */
  constructor(
    private readonly fire: (gameId: number, seq: number, dueAt: number) => unknown,
    private readonly now: () => number,
    private readonly host: TimerHost = realTimers,
    guard?: SchedulerGuard,
  ) {
    this.guard = guard ?? {
      faults: new TimerFaults({ log: { error: (m, e) => console.error(m, e) } }),
      what: 'a timer',
    };
  }

  /** Arms (or re-arms) the one timer of a game; null disarms it. */
  arm(gameId: number, seq: number, dueAt: number | null): void {
    const old = this.timers.get(gameId);
    if (old) {
      if (old.seq === seq && old.dueAt === dueAt) return;
      this.host.clearTimeout(old.handle);
      this.timers.delete(gameId);
    }
    if (dueAt === null || this.stopped) return;
    const delay = Math.min(MAX_DELAY, Math.max(0, dueAt - this.now()));
    const handle = this.host.setTimeout(() => {
      const cur = this.timers.get(gameId);
      if (!cur || cur.handle !== handle) return;
      this.timers.delete(gameId);
      if (this.now() < dueAt) {
        this.arm(gameId, seq, dueAt); // a long delay was clamped, or the clock is behind
        return;
      }
      this.run(gameId, seq, dueAt);
    }, delay);
    this.timers.set(gameId, { seq, dueAt, handle });
  }

  private key(gameId: number): string {
    return `${this.guard.what}:${gameId}`;
  }

  private run(gameId: number, seq: number, dueAt: number): void {
    this.guard.faults.run(
      this.guard.what,
      this.key(gameId),
      gameId,
      () => this.track(gameId, this.fire(gameId, seq, dueAt)),
      (retryIn) => {
        if (retryIn !== null) this.retry(gameId, seq, retryIn);
      },
    );
  }

  private track(gameId: number, out: unknown): unknown {
    if (!(out instanceof Promise)) return out;
    let set = this.running.get(gameId);
    if (!set) this.running.set(gameId, (set = new Set()));
    set.add(out);
    const done = () => {
      set.delete(out);
      if (set.size === 0 && this.running.get(gameId) === set) this.running.delete(gameId);
    };
    out.then(done, done);
    return out;
  }

  /**
   * The work of fired timers still running (of one game, or all; never rejects). Their first step
   * is often a read, before anything is queued: with asynchronous storage a caller that waits
   * for a game's queue alone could look too early.
   */
  pending(gameId?: number): Promise<void>[] {
    const sets = gameId === undefined ? [...this.running.values()] : [this.running.get(gameId) ?? new Set()];
    return sets.flatMap((set) =>
      [...set].map((p) =>
        p.then(
          () => undefined,
          () => undefined,
        ),
      ),
    );
  }

  /** Resolves when no fired timer's work is running (work started meanwhile included). */
  async idle(gameId?: number): Promise<void> {
    for (let p = this.pending(gameId); p.length > 0; p = this.pending(gameId)) await Promise.all(p);
  }

  private retry(gameId: number, seq: number, retryIn: number): void {
    if (!this.timers.has(gameId)) this.arm(gameId, seq, this.now() + retryIn);
  }

  /**
   * The game's timed work failed outside its timer (the sweep, start-up's recovery, the lookup of
   * the next reminder): the same as a failure of the timer itself. The timer is armed to try again
   * after the guard's delay, unless it is armed for a later stage (that one stands). `seq` null:
   * work of no stage in particular (whatever is armed may be stale): it is always armed again.
   */
  failed(gameId: number, seq: number | null, e: unknown): void {
    const retryIn = this.guard.faults.failed(this.guard.what, this.key(gameId), gameId, e);
    const cur = this.timers.get(gameId);
    if (seq !== null && cur && cur.seq > seq) return;
    this.arm(gameId, seq ?? cur?.seq ?? 0, this.now() + retryIn);
  }

  /** The game's timed work succeeded outside its timer (the sweep, recovery). */
  succeeded(gameId: number): void {
    this.guard.faults.ok(this.key(gameId));
  }

  disarm(gameId: number): void {
    this.arm(gameId, 0, null);
  }

  armed(gameId: number): { seq: number; dueAt: number } | null {
    const t = this.timers.get(gameId);
    return t ? { seq: t.seq, dueAt: t.dueAt } : null;
  }

  get size(): number {
    return this.timers.size;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) this.host.clearTimeout(t.handle);
    this.timers.clear();
  }
}
