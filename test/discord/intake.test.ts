// Issue 9, no synchronous step over 50 ms: a burst of clicks is taken one per turn of the event
// loop. A click's commit runs in a microtask (its game's queue), so the test checks the order of
// events, not times: an item's microtasks, and what it set for the next turn, come before the
// next item, and a network read or timer that is ready gets its turn inside a burst.
import { describe, expect, it } from 'vitest';
import { Intake } from '../../src/discord/intake';

describe('Intake', () => {
  it('finishes each item, microtasks included, before the next one starts', async () => {
    const log: string[] = [];
    const intake = new Intake<number>((k) => {
      log.push(`item ${k}`);
      // The commit: after the handler's synchronous part, in a microtask.
      void Promise.resolve().then(() => log.push(`commit ${k}`));
      setImmediate(() => log.push(`next turn ${k}`));
    });
    for (let k = 1; k <= 3; k++) intake.push(k);
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual([
      'item 1',
      'commit 1',
      'next turn 1',
      'item 2',
      'commit 2',
      'next turn 2',
      'item 3',
      'commit 3',
      'next turn 3',
    ]);
  });

  it('lets a timer that came due run in the middle of a burst of a thousand', async () => {
    const seen: number[] = [];
    let timerAt = -1;
    const intake = new Intake<number>((k) => {
      seen.push(k);
      // Each click's work is made long enough that the timer is due after the first ones.
      const until = Date.now() + 1;
      while (Date.now() < until) {
        // busy
      }
    });
    setTimeout(() => (timerAt = seen.length), 0);
    for (let k = 0; k < 1000; k++) intake.push(k);
    await new Promise<void>((r) => {
      const check = () => (seen.length === 1000 ? r() : setTimeout(check, 5));
      check();
    });
    expect(seen).toEqual([...Array(1000).keys()]);
    // Not after the whole burst (as when one callback took all of them).
    expect(timerAt).toBeGreaterThanOrEqual(0);
    expect(timerAt).toBeLessThan(1000);
  }, 20_000);

  it('an item that throws does not stop the queue', async () => {
    const seen: number[] = [];
    const intake = new Intake<number>((k) => {
      seen.push(k);
      if (k === 2) throw new Error('boom');
    });
    for (let k = 1; k <= 4; k++) intake.push(k);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('issue 22: an item that waited past its limit in the queue is let go, counted, and the queue goes on', async () => {
    // A clock the test moves: 1,000 clicks arrive at once, the first two are handled at once,
    // then the clock jumps past 3 s (a backlog); the rest could no longer be answered.
    let now = 0;
    const seen: number[] = [];
    const intake = new Intake<number>(
      (k) => {
        seen.push(k);
        if (k === 2) now = 3_001;
      },
      3_000,
      () => now,
    );
    for (let k = 1; k <= 5; k++) intake.push(k);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([1, 2]);
    expect(intake.expired).toBe(3);
    // What arrives after the backlog is handled again.
    intake.push(6);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([1, 2, 6]);
  });
});
