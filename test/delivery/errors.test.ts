// Discord errors are classified by what discord.js actually throws (its CommonJS classes), read by
// shape: `instanceof` against @discordjs/rest's ESM build would always be false.
import { DiscordAPIError, HTTPError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { classify, isTransient, retryAfterMs } from '../../src/delivery/errors';
import { nonceOf, shiftTimestamps } from '../../src/delivery/deliverer';
import { chunkLines } from '../../src/discord/render/common';

const api = (code: number, status: number, raw: Record<string, unknown> = {}) =>
  new DiscordAPIError({ code, message: 'x', ...raw } as never, code, status, 'POST', 'https://discord.test/api/v10/x', {
    body: {},
  } as never);

describe('delivery errors', () => {
  it('reads the errors discord.js throws', () => {
    expect(classify(api(50007, 403))).toBe('dm-closed');
    expect(classify(api(50013, 403))).toBe('forbidden');
    expect(classify(api(50001, 403))).toBe('forbidden');
    expect(classify(api(10008, 404))).toBe('not-found');
    expect(classify(api(10003, 404))).toBe('not-found');
    expect(classify(api(50035, 400))).toBe('bad-request');
    expect(classify(api(0, 429, { retry_after: 1.5 }))).toBe('rate-limited');
    expect(retryAfterMs(api(0, 429, { retry_after: 1.5 }))).toBe(1500);
    expect(classify(new HTTPError(502, 'Bad Gateway', 'POST', 'https://discord.test/x', { body: {} } as never))).toBe(
      'server',
    );
    expect(classify(Object.assign(new Error('fetch failed'), { code: 'ECONNREFUSED' }))).toBe('network');
    expect(classify(new DOMException('aborted', 'AbortError'))).toBe('network');
  });

  it('retries only what may work later', () => {
    expect(['rate-limited', 'server', 'network'].every((f) => isTransient(f as never))).toBe(true);
    expect(['dm-closed', 'forbidden', 'not-found', 'bad-request'].some((f) => isTransient(f as never))).toBe(false);
  });

  it('a nonce is at most 25 characters and differs per row', () => {
    const a = nonceOf({ id: 1, createdAt: Date.UTC(2026, 11, 1) });
    const b = nonceOf({ id: 2, createdAt: Date.UTC(2026, 11, 1) });
    const big = nonceOf({ id: Number.MAX_SAFE_INTEGER, createdAt: Number.MAX_SAFE_INTEGER });
    expect(a).not.toBe(b);
    expect(big.length).toBeLessThanOrEqual(25);
  });

  it('moves the shown deadline by the delivery delay, both formats', () => {
    const json = JSON.stringify({ content: 'ends <t:1000:R> (<t:1000:f>), not <t:999:R>' });
    expect(JSON.parse(shiftTimestamps(json, 1_000_000, 4_000)).content).toBe(
      'ends <t:1004:R> (<t:1004:f>), not <t:999:R>',
    );
  });
});

describe('long answers', () => {
  it('are split at line boundaries, never in the middle of a mention', () => {
    const lines = Array.from(
      { length: 80 },
      (_, i) => `${i + 1}. <@${100000000000000000n + BigInt(i)}> — 12 pts · games: 3 · wins: 2`,
    );
    const pages = chunkLines(lines, 1990);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) {
      expect(p.length).toBeLessThanOrEqual(1990);
      for (const line of p.split('\n')) expect(lines).toContain(line);
    }
    expect(pages.join('\n').split('\n')).toEqual(lines);
  });
});
