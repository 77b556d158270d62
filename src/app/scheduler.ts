// Timers for stage deadlines. A timer names the stage (seq) it was set for, so a late or
// duplicate one is refused by the engine (timeout/stale) and does nothing.
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

export class Scheduler {
  private readonly timers = new Map<number, { seq: number; dueAt: number; handle: unknown }>();
  private stopped = false;

  constructor(
    private readonly fire: (gameId: number, seq: number, dueAt: number) => void,
    private readonly now: () => number,
    private readonly host: TimerHost = realTimers,
  ) {}

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
      this.fire(gameId, seq, dueAt);
    }, delay);
    this.timers.set(gameId, { seq, dueAt, handle });
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
