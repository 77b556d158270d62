import { describe, expect, it } from 'vitest';
import { KeyedQueue, Turnstile } from '../../src/app/keyed-queue';

/** A promise resolved from outside. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in order', async () => {
    const q = new KeyedQueue<number>();
    const log: string[] = [];
    const g = gate();
    const a = q.run(1, async () => {
      log.push('a start');
      await g.promise;
      log.push('a end');
      return 'a';
    });
    const b = q.run(1, () => {
      log.push('b');
      return 'b';
    });
    await tick();
    expect(log).toEqual(['a start']);
    g.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b']);
  });

  it('does not make one key wait for another', async () => {
    const q = new KeyedQueue<number>();
    const g = gate();
    const slow = q.run(1, () => g.promise.then(() => 'slow'));
    const fast = await q.run(2, () => 'fast');
    expect(fast).toBe('fast');
    expect(q.has(1)).toBe(true);
    g.open();
    expect(await slow).toBe('slow');
  });

  it('drops a key once its last task has finished', async () => {
    const q = new KeyedQueue<string>();
    const g = gate();
    void q.run('x', () => g.promise);
    void q.run('y', () => 1);
    expect(q.size).toBe(2);
    await q.idle('y');
    expect(q.has('y')).toBe(false);
    expect(q.has('x')).toBe(true);
    g.open();
    await q.idle();
    expect(q.size).toBe(0);
    expect(q.pending()).toEqual([]);
  });

  it('runs the next task after one that failed (and passes the failure to its caller)', async () => {
    const q = new KeyedQueue<number>();
    const failed = q.run(1, () => Promise.reject(new Error('boom')));
    const thrown = q.run(1, () => {
      throw new Error('sync');
    });
    const next = q.run(1, () => 'after');
    await expect(failed).rejects.toThrow('boom');
    await expect(thrown).rejects.toThrow('sync');
    expect(await next).toBe('after');
    await q.idle();
    expect(q.size).toBe(0);
  });

  it('idle waits for tasks queued while it waits', async () => {
    const q = new KeyedQueue<number>();
    const log: number[] = [];
    void q.run(1, async () => {
      await tick();
      log.push(1);
      void q.run(1, async () => {
        await tick();
        log.push(2);
      });
    });
    await q.idle(1);
    expect(log).toEqual([1, 2]);
  });
});

describe('Turnstile', () => {
  it("queues each key's work in the order it arrived, whichever read finished first; other keys do not wait", async () => {
    const line = new Turnstile<number>();
    const queue = new KeyedQueue<number>();
    const order: string[] = [];
    let finishSlowRead!: () => void;
    const slowRead = new Promise<void>((r) => (finishSlowRead = r));
    // Click a arrives first but its read is slow; b arrives second with a quick read; c is another game's.
    const click = async (name: string, game: number, read: Promise<void>) => {
      const turn = line.enter(game);
      await read;
      await turn.ready;
      const queued = queue.run(game, () => void order.push(name));
      turn.release();
      await queued;
    };
    const a = click('a', 1, slowRead);
    const b = click('b', 1, Promise.resolve());
    const c = click('c', 2, Promise.resolve());
    await c;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['c']); // b waits for a, c (another game) does not
    finishSlowRead();
    await Promise.all([a, b]);
    expect(order).toEqual(['c', 'a', 'b']);
    expect(line.has(1)).toBe(false);
  });

  it('a place given up before its action (a refusal) lets the next one go; releasing twice does nothing', async () => {
    const line = new Turnstile<string>();
    const first = line.enter('g');
    const second = line.enter('g');
    const third = line.enter('g');
    let secondReady = false;
    void second.ready.then(() => (secondReady = true));
    await new Promise((r) => setImmediate(r));
    expect(secondReady).toBe(false);
    first.release();
    first.release();
    await second.ready;
    second.release();
    await third.ready;
    third.release();
    await new Promise((r) => setImmediate(r));
    expect(line.has('g')).toBe(false);
  });
});
