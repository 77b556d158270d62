// The request budget's last guard, at the wire (src/delivery/wire-gate.ts, issue 22): whatever the
// deliverer let through and however late it leaves, a process never sends more than its share in
// any second, so two processes together stay within Discord's 50.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DefaultRestOptions, REST } from 'discord.js';
import { exemptFromGlobalLimit, WireGate, wireLimit } from '../../src/delivery/wire-gate';
import { FakeDiscord } from '../../testkit/fake-discord';

afterEach(() => {
  vi.useRealTimers();
});

describe('WireGate', () => {
  it('lets `limit` calls through in any second and holds the rest, in order', async () => {
    vi.useFakeTimers();
    const gate = new WireGate(5, 1000, () => Date.now());
    const start = Date.now();
    const left: { n: number; at: number }[] = [];
    const calls = Array.from({ length: 12 }, (_, n) =>
      gate.pass().then(() => {
        left.push({ n, at: Date.now() - start });
        gate.done();
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(left.map((l) => l.n)).toEqual([0, 1, 2, 3, 4]);
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(calls);
    expect(left.map((l) => l.n)).toEqual([...Array(12).keys()]);
    for (const l of left) expect(left.filter((x) => x.at >= l.at && x.at < l.at + 1000).length).toBeLessThanOrEqual(5);
    expect(left[5]!.at).toBeGreaterThanOrEqual(1000);
    expect(left[11]!.at).toBeLessThan(2100);
    expect(gate.held).toBe(7);
  });

  it('counts a call from the moment it leaves until a second after its answer', async () => {
    vi.useFakeTimers();
    const gate = new WireGate(2, 1000, () => Date.now());
    const start = Date.now();
    await gate.pass();
    await gate.pass();
    let third = -1;
    const waiting = gate.pass().then(() => (third = Date.now() - start));
    // Both on their way for 3 s (a slow answer): the third waits for them and a second more.
    await vi.advanceTimersByTimeAsync(3000);
    expect(third).toBe(-1);
    gate.done();
    await vi.advanceTimersByTimeAsync(999);
    expect(third).toBe(-1);
    await vi.advanceTimersByTimeAsync(10);
    await waiting;
    expect(third).toBeGreaterThanOrEqual(4000);
    expect(third).toBeLessThan(4020);
  });

  it('does not hold interaction callbacks and follow-ups, which Discord does not count', async () => {
    const inner = vi.fn(async (url: string) => url);
    const gate = new WireGate(1);
    const send = gate.wrap(inner);
    await send('https://discord.com/api/v10/channels/1/messages', {});
    // The second counted call would wait a second; these go at once.
    await send('https://discord.com/api/v10/interactions/123/tok_en/callback', {});
    await send('https://discord.com/api/v10/webhooks/456/tok_en', {});
    await send('https://discord.com/api/v10/webhooks/456/tok_en/messages/@original', {});
    expect(inner).toHaveBeenCalledTimes(4);
    expect(exemptFromGlobalLimit('https://x/api/v10/channels/1/messages')).toBe(false);
    expect(exemptFromGlobalLimit('https://x/api/v10/channels/1/webhooks')).toBe(false);
  });

  it('gives each process its share of 50 less a margin', () => {
    expect(wireLimit(50, 1)).toBe(48);
    expect(wireLimit(50, 1 / 2)).toBe(24);
    expect(wireLimit(50, 1 / 4)).toBe(12);
    for (let n = 1; n <= 16; n++) expect(wireLimit(50, 1 / n) * n).toBeLessThanOrEqual(50);
  });

  it('keeps two processes sending flat out within Discord’s global limit (without it: global 429s)', async () => {
    // Two processes on one bot token, each sending 120 posts as fast as discord.js lets it (its
    // own global limiter set high, as the bot has it): the worst a late, bunched output could do.
    const run = async (gated: boolean) => {
      const fake = await FakeDiscord.start({ rateLimits: true });
      try {
        const guild = fake.addGuild({ name: 'Wire' });
        const channels = Array.from({ length: 240 }, (_, i) => fake.addChannel(guild.id, { name: `w${i}` }).id);
        const rests = [0, 1].map(() => {
          const gate = new WireGate(wireLimit(50, 1 / 2));
          return new REST({
            api: fake.apiBase,
            globalRequestsPerSecond: 10_000,
            ...(gated ? { makeRequest: gate.wrap(DefaultRestOptions.makeRequest) } : {}),
          }).setToken('wire-token');
        });
        await Promise.all(
          channels.map((ch, i) => rests[i % 2]!.post(`/channels/${ch}/messages`, { body: { content: 'x' } })),
        );
        return fake.stats.rateLimitedByScope.global;
      } finally {
        await fake.stop();
      }
    };
    expect(await run(false)).toBeGreaterThan(0);
    expect(await run(true)).toBe(0);
  });
});
