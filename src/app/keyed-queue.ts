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
