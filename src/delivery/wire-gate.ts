// The last guard of the request budget, at the wire (issue 22). The deliverer paces its calls by
// priority, but a call it lets through can still reach Discord later: the event loop was busy, a
// payload was read, discord.js queued it behind its route's bucket. Calls let through before such
// a delay then leave together with the ones let through after it, and with two processes on one
// budget their seconds add up past Discord's 50 (bench:load --processes 2 met global 429s after
// each stall). So every counted call of the process passes here, right before discord.js hands it
// to the network (its `makeRequest`): at most `limit` in any second, a sliding one, which keeps
// every one of Discord's fixed seconds within it too (a call counts from the moment it leaves to a
// second after its answer, see `pass`). Interaction callbacks and follow-ups
// (`/interactions/…`, `/webhooks/…`) are not counted by Discord and pass at once.
//
// Waiting here costs a call part of discord.js's 15 s timeout; at the deliverer's pace the gate
// almost never holds anything, and when it does, for less than a second.

export type MakeRequest<I, R> = (url: string, init: I) => Promise<R>;

/**
 * Routes Discord does not count against the global limit: interaction callbacks and webhooks
 * (follow-ups), for a full URL or a path (`/api[/vN]/interactions/…`, `/api[/vN]/webhooks/…`).
 * The REST proxy routes by it too.
 */
export function exemptFromGlobalLimit(url: string): boolean {
  return /\/api(?:\/v\d+)?\/(?:interactions|webhooks)\//.test(url);
}

export class WireGate {
  /** Calls on their way: sent, no answer yet. */
  private inFlight = 0;
  /** When each call answered in the last second did (oldest first). */
  private readonly answered: number[] = [];
  private readonly waiting: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Calls that had to wait (tests). */
  held = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`invalid wire limit ${limit}`);
  }

  /**
   * Resolves when the call may leave. A call holds its place from the moment it leaves until a
   * second after its answer: Discord counts it when it arrives, somewhere in between, so any of
   * Discord's seconds sees at most `limit` of this process's calls however long they were on the
   * way (counting from the moment they left was not enough: a batch slowed on the way arrived
   * together with the next second's). Call `done()` when the answer (or the failure) came.
   */
  pass(): Promise<void> {
    if (this.waiting.length === 0 && this.room()) {
      this.inFlight++;
      return Promise.resolve();
    }
    this.held++;
    return new Promise<void>((go) => {
      this.waiting.push(go);
      this.schedule();
    });
  }

  /** A call that passed got its answer (or failed): its place frees a second later. */
  done(): void {
    this.inFlight--;
    this.answered.push(this.now());
    this.schedule();
  }

  private room(): boolean {
    const now = this.now();
    while (this.answered.length > 0 && this.answered[0]! <= now - this.windowMs) this.answered.shift();
    return this.inFlight + this.answered.length < this.limit;
  }

  private release(): void {
    while (this.waiting.length > 0 && this.room()) {
      this.inFlight++;
      this.waiting.shift()!();
    }
  }

  private schedule(): void {
    if (this.timer || this.waiting.length === 0) return;
    this.release();
    if (this.waiting.length === 0) return;
    // Full: the next place frees when the oldest answer is a second old (or when a call in
    // flight answers, which schedules again from done()).
    const oldest = this.answered[0];
    if (oldest === undefined) return;
    const wait = Math.max(1, Math.ceil(oldest + this.windowMs - this.now()) + 1);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.schedule();
    }, wait);
    this.timer.unref?.();
  }

  /** discord.js's `makeRequest`, with every counted call passing the gate first. */
  wrap<I, R>(inner: MakeRequest<I, R>): MakeRequest<I, R> {
    return async (url, init) => {
      if (exemptFromGlobalLimit(url)) return inner(url, init);
      await this.pass();
      try {
        return await inner(url, init);
      } finally {
        this.done();
      }
    };
  }
}

/**
 * The limit at the wire for a process with `share` of the bot's shards: its part of Discord's
 * `limit` per second, less 4 % for the time a call spends on the way (a second at Discord may be
 * a little shorter than one here). One process: 48; two: 24 each; four: 12 each.
 */
export function wireLimit(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share * 0.96));
}
