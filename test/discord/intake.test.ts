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
      { maxWaitMs: 3_000, now: () => now },
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

  it('issue 22: items that grow old in the queue are acknowledged by the sweep, then worked through, never let go', async () => {
    // A clock the test moves and a sweep the test fires: sixty clicks made at 0 arrive at once;
    // each takes 10 ms. When the twelfth is done (120 ms), the sweep finds every waiting one past
    // the 100 ms limit and acknowledges it; they then wait up to 600 ms, past the 150 ms after
    // which an unacknowledged one is let go, and all of them are still worked through.
    let now = 0;
    const seen: number[] = [];
    const acked: number[] = [];
    let sweep: (() => void) | null = null;
    const intake = new Intake<number>(
      (k) => {
        seen.push(k);
        now += 10;
        if (k === 12) sweep?.();
      },
      {
        maxWaitMs: 150,
        now: () => now,
        madeAt: () => 0,
        acknowledge: (k) => (acked.push(k), true),
        acknowledgeAfterMs: 100,
        sweepMs: 100,
        setTimer: (fn) => ((sweep = fn), {}),
      },
    );
    for (let k = 1; k <= 60; k++) intake.push(k);
    expect(acked).toEqual([]); // young on arrival
    await new Promise((r) => setTimeout(r, 50));
    expect(acked).toEqual([...Array(48).keys()].map((k) => k + 13));
    expect(intake.acknowledged).toBe(48);
    expect(seen).toEqual([...Array(60).keys()].map((k) => k + 1));
    expect(intake.expired).toBe(0);
    expect(intake.waits.summary()).toMatchObject({ n: 60, max: 590 });
  });

  it('issue 22: without the sweep the same burst loses the clicks that waited too long', async () => {
    let now = 0;
    const seen: number[] = [];
    const intake = new Intake<number>(
      (k) => {
        seen.push(k);
        now += 10;
      },
      { maxWaitMs: 150, now: () => now, madeAt: () => 0 },
    );
    for (let k = 1; k <= 60; k++) intake.push(k);
    await new Promise((r) => setTimeout(r, 50));
    // Waits 0, 10, … 150 ms are worked (16 items); the rest are let go.
    expect(seen).toEqual([...Array(16).keys()].map((k) => k + 1));
    expect(intake.expired).toBe(44);
  });

  it('issue 22: an item that is already old on arrival is acknowledged at once, and one refused is treated as usual', async () => {
    const acked: string[] = [];
    const seen: string[] = [];
    const intake = new Intake<{ id: string; made: number }>((x) => seen.push(x.id), {
      maxWaitMs: 3_000,
      now: () => 10_000,
      madeAt: (x) => x.made,
      acknowledge: (x) => {
        acked.push(x.id);
        return x.id !== 'command';
      },
      acknowledgeAfterMs: 1_000,
      setTimer: () => ({}),
    });
    intake.push({ id: 'fresh', made: 9_990 });
    intake.push({ id: 'old', made: 8_500 });
    intake.push({ id: 'command', made: 8_500 });
    await new Promise((r) => setTimeout(r, 20));
    expect(acked).toEqual(['old', 'command']);
    expect(intake.acknowledged).toBe(1);
    expect(seen).toEqual(['fresh', 'old', 'command']);
    expect(intake.ages.summary()).toMatchObject({ n: 3, max: 1_500 });
  });

  it('issue 22: an item that arrives behind a long queue is acknowledged on arrival', async () => {
    const acked: number[] = [];
    const seen: number[] = [];
    const intake = new Intake<number>((k) => seen.push(k), {
      now: () => 0,
      madeAt: () => 0,
      acknowledge: (k) => (acked.push(k), true),
      acknowledgeAfterMs: 1_000,
      acknowledgeBehind: 3,
      setTimer: () => ({}),
    });
    for (let k = 1; k <= 6; k++) intake.push(k);
    // 1, 2 and 3 find fewer than three waiting; 4, 5 and 6 arrive behind three or more.
    expect(acked).toEqual([4, 5, 6]);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    // The queue is empty again: the next arrival is not acknowledged first.
    intake.push(7);
    expect(acked).toEqual([4, 5, 6]);
  });
});
