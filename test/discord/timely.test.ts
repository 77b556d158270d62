// Issue 22, no cliff at restart: a click is acknowledged within Discord's 3 s whatever the
// backlog. One that has already waited when its work starts is acknowledged first; one that has
// not gets its deferral no later than 2 s after Discord created it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timely, type Replyable } from '../../src/discord/reply';

afterEach(() => {
  vi.useRealTimers();
});

function click(createdTimestamp: number) {
  const log: string[] = [];
  const i = {
    createdTimestamp,
    isChatInputCommand: () => false,
    deferUpdate: vi.fn(async () => void log.push('deferred')),
    deferReply: vi.fn(async () => void log.push('deferred (reply)')),
  };
  return { i: i as unknown as Replyable, log, spy: i };
}

describe('timely: a click acknowledged within Discord’s window (issue 22)', () => {
  it('a click that waited 1 s or more before its work starts is acknowledged before the work', async () => {
    const { i, log } = click(10_000);
    await timely(
      i,
      true,
      async () => {
        log.push('work');
        return 1;
      },
      () => 11_200,
    );
    expect(log).toEqual(['deferred', 'work']);
  });

  it('a fresh click whose work is quick is not deferred (its answer is the update itself)', async () => {
    const { i, spy } = click(10_000);
    expect(
      await timely(
        i,
        true,
        async () => 'ok',
        () => 10_050,
      ),
    ).toBe('ok');
    expect(spy.deferUpdate).not.toHaveBeenCalled();
  });

  it('a click that waited 0.8 s is deferred 2 s after its creation at the latest, not 1.5 s after its work began', async () => {
    vi.useFakeTimers();
    const { i, spy } = click(10_000);
    let finish!: () => void;
    const done = timely(
      i,
      true,
      () => new Promise<void>((r) => (finish = r)),
      () => 10_800,
    );
    await vi.advanceTimersByTimeAsync(1_199);
    expect(spy.deferUpdate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(spy.deferUpdate).toHaveBeenCalledTimes(1);
    finish();
    await done;
  });

  it('a slash command is deferred as a private reply', async () => {
    const { i, log } = click(0);
    (i as unknown as { isChatInputCommand: () => boolean }).isChatInputCommand = () => true;
    await timely(
      i,
      false,
      async () => void log.push('work'),
      () => 5_000,
    );
    expect(log).toEqual(['deferred (reply)', 'work']);
  });
});
