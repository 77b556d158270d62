// Issue 20: the deliverer's own timer survives storage failures. A pass that cannot read the outbox,
// and a task that cannot record what Discord took (nor reschedule it), are logged and tried again
// later, each time a little later: never the end of the process (no unhandled rejection), never a
// tight loop against the database or Discord. The deliverer knows no game: its failures are not
// told to a host (the game's own timers tell him, test/app/timer-faults.test.ts). Fake timers: no
// test here waits for the wall clock.
import Database from 'better-sqlite3';
import type { REST } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { OutboxStore } from '../../src/db/outbox-store';
import { Store } from '../../src/db/store';
import { Deliverer } from '../../src/delivery/deliverer';

const CHANNEL = '300000000000000001';
const ioError = (code = 'SQLITE_IOERR') => new Database.SqliteError('disk I/O error', code);

const opened: OpenDb[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => void unhandled.push(e);
const stop: (() => void)[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  for (const s of stop.splice(0)) s();
  process.off('unhandledRejection', onUnhandled);
  vi.restoreAllMocks();
  vi.useRealTimers();
  for (const db of opened.splice(0)) db.close();
});

async function setUp() {
  const db = openDatabase(':memory:');
  opened.push(db);
  const store = new Store(db.connection);
  const outbox = new OutboxStore(db.connection);
  const game = await store.createLobby({
    guildId: '100000000000000001',
    channelId: CHANNEL,
    hostId: '100000000000000003',
    ruleset: 'chnu-2016',
    pace: 'live',
    options: {},
    now: Date.now(),
  });
  const posts: { content?: string; nonce?: string }[] = [];
  let n = 0;
  const rest = {
    post: async (_route: string, opts?: { body?: { content?: string; nonce?: string } }) => {
      posts.push(opts?.body ?? {});
      return { id: `${500000000000000000n + BigInt(++n)}`, channel_id: CHANNEL };
    },
  } as unknown as REST;
  const errors: string[] = [];
  const deliverer = new Deliverer(outbox, rest, {
    log: { warn: () => {}, error: (m) => void errors.push(m) },
    requestsPerSecond: 50,
    debounceMs: 0,
    postWindowMs: 1,
    maxBackoffMs: 8000,
  });
  stop.push(() => deliverer.stop());
  await outbox.add(game.id, `ch:${CHANNEL}`, 'post', { content: 'hello' }, Date.now());
  return { outbox, deliverer, posts, errors, gameId: game.id };
}

const pendingOf = async (outbox: OutboxStore, gameId: number) =>
  (await outbox.rows(gameId)).filter((r) => r.status === 'pending').length;

describe("the deliverer's timer survives storage failures (issue 20)", () => {
  it('a pass that cannot read the outbox is logged and tried again after 1, 2, 4 s; the post goes out once the database is back', async () => {
    const t = await setUp();
    const heads = vi.spyOn(t.outbox, 'heads');
    for (let i = 0; i < 3; i++)
      heads.mockImplementationOnce(() => {
        throw ioError();
      });
    t.deliverer.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.errors).toEqual([expect.stringMatching(/^delivery: a pass failed \(1 in a row\); trying again in 1 s/)]);
    // Not a tight loop: nothing more until the delay is over.
    await vi.advanceTimersByTimeAsync(999);
    expect(heads).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.errors[1]).toMatch(/a pass failed \(2 in a row\); trying again in 2 s/);
    await vi.advanceTimersByTimeAsync(1999);
    expect(heads).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.errors[2]).toMatch(/a pass failed \(3 in a row\); trying again in 4 s/);
    expect(t.posts).toEqual([]);
    // The database is back: the post goes out, once.
    await vi.advanceTimersByTimeAsync(4000);
    await vi.advanceTimersByTimeAsync(100);
    expect(t.posts.map((p) => p.content)).toEqual(['hello']);
    expect(await pendingOf(t.outbox, t.gameId)).toBe(0);
    expect(t.errors).toHaveLength(3);
    expect(unhandled).toEqual([]);
  });

  it('a post Discord took but the database cannot record: its channel rests 1, then 2 s; recorded once the database is back (same nonce)', async () => {
    const t = await setUp();
    // A full disk: neither the post's record nor its rescheduling can be written.
    const done = vi.spyOn(t.outbox, 'done').mockImplementation(() => {
      throw ioError('SQLITE_FULL');
    });
    const retry = vi.spyOn(t.outbox, 'retry').mockImplementation(() => {
      throw ioError('SQLITE_FULL');
    });
    t.deliverer.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.posts).toHaveLength(1);
    expect(t.errors).toEqual([
      expect.stringMatching(
        new RegExp(`^delivery: a task for ch:${CHANNEL} failed \\(1 in a row\\); trying again in 1 s`),
      ),
    ]);
    // Not a tight loop: Discord is not asked again before the rest is over.
    await vi.advanceTimersByTimeAsync(999);
    expect(t.posts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.posts).toHaveLength(2);
    expect(t.errors[1]).toMatch(/failed \(2 in a row\); trying again in 2 s/);
    done.mockRestore();
    retry.mockRestore();
    await vi.advanceTimersByTimeAsync(1999);
    expect(t.posts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(t.posts).toHaveLength(3);
    // Each try carried the row's nonce: Discord returns the message it already has.
    expect(new Set(t.posts.map((p) => p.nonce)).size).toBe(1);
    expect(await pendingOf(t.outbox, t.gameId)).toBe(0);
    expect(t.errors).toHaveLength(2);
    expect(unhandled).toEqual([]);
  });
});
