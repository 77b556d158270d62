// The one timer per game (src/app/scheduler.ts): idle() waits for the work of a timer that fired,
// which reads before it queues anything (issue 23: on PostgreSQL a read is a round trip).
import { describe, expect, it } from 'vitest';
import { Scheduler, TimerFaults, type TimerHost } from '../../src/app/scheduler';

class ManualTimers implements TimerHost {
  private next = 1;
  readonly pending = new Map<number, () => void>();
  setTimeout(fn: () => void): unknown {
    const h = this.next++;
    this.pending.set(h, fn);
    return h;
  }
  clearTimeout(h: unknown): void {
    this.pending.delete(h as number);
  }
  fireAll(): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const f of all) f();
  }
}

describe('Scheduler', () => {
  it("idle() waits for a fired timer's work, of that game or of all; another game's does not hold it", async () => {
    const timers = new ManualTimers();
    const release = new Map<number, () => void>();
    const done: number[] = [];
    const s = new Scheduler(
      (gameId) =>
        new Promise<void>((r) => release.set(gameId, r)).then(() => {
          done.push(gameId);
        }),
      () => 10,
      timers,
    );
    s.arm(1, 1, 5);
    s.arm(2, 1, 5);
    timers.fireAll();
    expect(s.pending(1)).toHaveLength(1);
    let idle1 = false;
    void s.idle(1).then(() => (idle1 = true));
    release.get(2)!();
    await new Promise((r) => setImmediate(r));
    expect(idle1).toBe(false); // game 2's work finished, game 1's has not
    release.get(1)!();
    await s.idle();
    expect(idle1).toBe(true);
    expect(done.sort()).toEqual([1, 2]);
    expect(s.pending()).toEqual([]);
  });

  it('a failed fire is not waited for twice and does not reject idle(); the guard logs it and arms a retry', async () => {
    const timers = new ManualTimers();
    const logged: string[] = [];
    const s = new Scheduler(
      () => Promise.reject(new Error('disk full')),
      () => 10,
      timers,
      {
        faults: new TimerFaults({ log: { error: (m) => void logged.push(m) } }),
        what: 'a test timer',
      },
    );
    s.arm(1, 1, 5);
    timers.fireAll();
    await expect(s.idle()).resolves.toBeUndefined();
    expect(s.pending()).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(logged).toEqual([expect.stringContaining('a test timer failed')]);
    expect(s.armed(1)).toEqual({ seq: 1, dueAt: 10 + 30_000 });
  });
});
