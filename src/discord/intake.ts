// The gateway's interactions, taken one per turn of the event loop.
/**
 * Runs queued work one item per turn of the event loop (setImmediate), in arrival order. An
 * item's work does not end with its synchronous part: a click's commit runs in a microtask of its
 * game's queue, and microtasks run only once the current callback returns. Taking several items in
 * one callback (a time slice) therefore stacked their commits back to back after it: a burst of
 * 1,000 clicks after a restart stalled the loop for over 100 ms. One item per turn bounds every
 * stall by one click's work, and timers and network reads get their turn between clicks.
 */
export class Intake<T> {
  private readonly queue: T[] = [];
  private readonly arrived: number[] = [];
  private head = 0;
  private scheduled = false;
  /** Items let go because they waited past `maxWaitMs` (Discord no longer takes their answer). */
  expired = 0;
  constructor(
    private readonly run: (item: T) => void,
    /** An item that waited longer than this in the queue is let go (an interaction's 3 s are over). */
    private readonly maxWaitMs = Infinity,
    private readonly now: () => number = Date.now,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    this.arrived.push(this.now());
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.next());
    }
  }

  private next(): void {
    const item = this.queue[this.head]!;
    const waited = this.now() - this.arrived[this.head]!;
    this.queue[this.head++] = undefined as T;
    if (waited > this.maxWaitMs) this.expired++;
    else
      try {
        this.run(item);
      } catch {
        // a handler's own errors are its own; the queue goes on
      }
    // What the item started (set for the next turn) goes before the next item.
    if (this.head >= this.queue.length) {
      this.queue.length = 0;
      this.arrived.length = 0;
      this.head = 0;
      this.scheduled = false;
    } else setImmediate(() => this.next());
  }
}
