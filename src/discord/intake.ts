// The gateway's interactions, taken one per turn of the event loop.

export interface IntakeOptions<T> {
  /** An item that waited longer than this in the queue unacknowledged is let go (an interaction's 3 s are over). */
  maxWaitMs?: number;
  now?: () => number;
  /** When the item was made (an interaction's creation): its age counts towards its wait. */
  madeAt?: (item: T) => number | null;
  /**
   * Issue 22: acknowledges an item before its turn (true when it did). Called for an item still
   * waiting when it is `acknowledgeAfterMs` old (on arrival, or by a sweep of the queue every
   * `sweepMs` while it is busy): a burst larger than the process can work through inside
   * Discord's 3 s (after a restart) is answered first and worked through afterwards, instead of
   * failing.
   */
  acknowledge?: (item: T) => boolean;
  acknowledgeAfterMs?: number;
  /**
   * An item that arrives behind this many waiting ones is acknowledged on arrival: a burst is
   * answered as it comes in, spread over its arrival, rather than by sweeps of a thousand at once.
   */
  acknowledgeBehind?: number;
  sweepMs?: number;
  /** Timers for the sweep (tests move a clock of their own). */
  setTimer?: (fn: () => void, ms: number) => { unref?: () => void };
}

/**
 * Runs queued work one item per turn of the event loop (setImmediate), in arrival order. An
 * item's work does not end with its synchronous part: a click's commit runs in a microtask of its
 * game's queue, and microtasks run only once the current callback returns. Taking several items in
 * one callback (a time slice) therefore stacked their commits back to back after it: a burst of
 * 1,000 clicks after a restart stalled the loop for over 100 ms. One item per turn bounds every
 * stall by one click's work, and timers and network reads get their turn between clicks.
 *
 * An item still waiting when it is `acknowledgeAfterMs` old is acknowledged (`acknowledge`), and
 * then it is never let go: its work is done when its turn comes. Items are queued in arrival
 * order, so the sweep walks from the head and stops at the first young one.
 */
export class Intake<T> {
  private readonly queue: Entry<T>[] = [];
  private head = 0;
  private scheduled = false;
  /** The first item the sweep has not acknowledged (or found young). */
  private swept = 0;
  private sweeping = false;
  /** Items let go because they waited past `maxWaitMs` (Discord no longer takes their answer). */
  expired = 0;
  /** Items taken (run or let go). */
  taken = 0;
  /** Items acknowledged before their turn (on arrival or by the sweep). */
  acknowledged = 0;
  /** How long the items waited in the queue, and how old they were when they arrived (ms; the last 10,000). */
  readonly waits = new Samples();
  readonly ages = new Samples();
  private readonly now: () => number;

  constructor(
    private readonly run: (item: T) => void,
    private readonly o: IntakeOptions<T> = {},
  ) {
    this.now = o.now ?? Date.now;
  }

  /** Items waiting for their turn. */
  get length(): number {
    return this.queue.length - this.head;
  }

  push(item: T): void {
    const at = this.now();
    const made = this.o.madeAt?.(item) ?? null;
    const age = made === null ? 0 : Math.max(0, at - made);
    if (made !== null) this.ages.add(age);
    const entry = { item, at, made: made ?? at, acked: false };
    if (age >= this.ackAfter || this.length >= (this.o.acknowledgeBehind ?? Infinity)) this.acknowledge(entry);
    this.queue.push(entry);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.next());
    }
    this.armSweep();
  }

  private get ackAfter(): number {
    return this.o.acknowledgeAfterMs ?? Infinity;
  }

  private acknowledge(entry: Entry<T>): void {
    if (entry.acked || !this.o.acknowledge) return;
    try {
      entry.acked = this.o.acknowledge(entry.item);
    } catch {
      entry.acked = false;
    }
    if (entry.acked) this.acknowledged++;
  }

  /** While items wait, a sweep every `sweepMs` acknowledges those that grew old in the queue. */
  private armSweep(): void {
    if (this.sweeping || !this.o.acknowledge || this.ackAfter === Infinity) return;
    this.sweeping = true;
    const timer = (this.o.setTimer ?? setTimeout)(() => {
      this.sweeping = false;
      const now = this.now();
      let k = Math.max(this.swept, this.head);
      for (; k < this.queue.length; k++) {
        const e = this.queue[k]!;
        if (now - e.made < this.ackAfter) break;
        this.acknowledge(e);
      }
      this.swept = k;
      if (this.length > 0) this.armSweep();
    }, this.o.sweepMs ?? 100);
    timer.unref?.();
  }

  private next(): void {
    const at = this.now();
    const entry = this.queue[this.head]!;
    this.queue[this.head++] = undefined as unknown as Entry<T>;
    const waited = at - entry.at;
    this.taken++;
    this.waits.add(waited);
    if (!entry.acked && waited > (this.o.maxWaitMs ?? Infinity)) this.expired++;
    else
      try {
        this.run(entry.item);
      } catch {
        // a handler's own errors are its own; the queue goes on
      }
    // What the item started (set for the next turn) goes before the next item.
    if (this.head >= this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
      this.swept = 0;
      this.scheduled = false;
    } else setImmediate(() => this.next());
  }
}

interface Entry<T> {
  item: T;
  /** When it arrived, and when it was made (its arrival when not known). */
  at: number;
  made: number;
  acked: boolean;
}

/** The last `cap` numbers, and their percentiles. */
export class Samples {
  private readonly xs: number[] = [];
  private next = 0;
  constructor(private readonly cap = 10_000) {}
  add(x: number): void {
    if (this.xs.length < this.cap) this.xs.push(x);
    else this.xs[this.next++ % this.cap] = x;
  }
  summary(): { n: number; p50: number; p99: number; max: number } | null {
    if (this.xs.length === 0) return null;
    const s = [...this.xs].sort((a, b) => a - b);
    const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
    return { n: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1]! };
  }
}
