// One queue per key (a game, a tournament): tasks with the same key run one at a time, in the order
// they were queued, whatever became of the earlier ones; tasks with different keys do not wait for
// each other. A key's entry is dropped as soon as its last task has finished.

export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<void>>();

  /** Runs `task` after every earlier task of the same key (whether it succeeded or failed). */
  run<T>(key: K, task: () => T | Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const run = prev.then(task, task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }

  /** The tails still pending: of one key, or of all (never rejects). */
  pending(key?: K): Promise<void>[] {
    if (key === undefined) return [...this.tails.values()];
    const tail = this.tails.get(key);
    return tail ? [tail] : [];
  }

  /** Resolves when the key's queue (or every queue) is empty, tasks queued meanwhile included. */
  async idle(key?: K): Promise<void> {
    for (;;) {
      const pending = this.pending(key);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /** Whether a key has tasks queued or running. */
  has(key: K): boolean {
    return this.tails.has(key);
  }

  /** How many keys have tasks queued or running. */
  get size(): number {
    return this.tails.size;
  }
}

/** A place in a Turnstile's line: `ready` once every earlier one of its key has left. */
export interface Turn {
  readonly ready: Promise<void>;
  /** Leaves the line (at once, or whenever; a second call does nothing). */
  release(): void;
}

/**
 * Arrival order per key for work that reads before it queues: each entrant takes its place when
 * it arrives, does its reads meanwhile, and waits for `ready` only to queue its action; it
 * releases its place as soon as the action is queued (or it gives up). So two clicks of one game
 * reach the game's queue in the order they arrived, however long each one's reads took (on
 * PostgreSQL a read is a round trip, and round trips overtake each other).
 */
export class Turnstile<K> {
  private readonly tails = new Map<K, Promise<void>>();

  /** Takes a place now (call it when the work arrives, before any await). */
  enter(key: K): Turn {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const left = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => left);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return { ready: prev, release };
  }

  /** Whether a key has places taken (tests). */
  has(key: K): boolean {
    return this.tails.has(key);
  }
}

/** A turn that waits for nothing (work outside any line). */
export const NO_TURN: Turn = { ready: Promise.resolve(), release: () => {} };
