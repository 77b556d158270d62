import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../src/app/keyed-queue';

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
