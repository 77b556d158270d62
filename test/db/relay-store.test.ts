// DM clicks handed between processes through the database (src/db/relay-store.ts, issue 23), on
// both databases: written once, taken once and only by the guild's owner, let go after Discord's window.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/db/connection';
import { ShardOwnership } from '../../src/db/ownership';
import { RelayStore } from '../../src/db/relay-store';
import { connectionSubjects, type Opened } from '../../testkit/connections';
import { postgresAvailable, postgresOrSkip } from '../../testkit/postgres';

const SHARD0 = '1'; // (1 >> 22) % 2 = 0
const SHARD1 = String(1n << 22n); // % 2 = 1
const click = (id: string, guildId: string) => ({ interactionId: id, guildId, payload: JSON.stringify({ id }) });

beforeAll(async () => {
  await (await postgresOrSkip('test/db/relay-store.test.ts'))?.drop();
});

describe.each(connectionSubjects)('RelayStore on $name', ({ name, open }) => {
  const skip = name === 'postgres' && !postgresAvailable();
  let o: Opened;
  let c: Connection;
  let store: RelayStore;
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    o = await open();
    c = o.c;
    store = new RelayStore(c);
  });
  afterEach(async () => {
    if (!skip) await o.close();
  });

  it('writes a click once: the same interaction again is not written twice', async () => {
    expect(await store.put(click('i1', SHARD1), 1000)).toBe(true);
    expect(await store.put(click('i1', SHARD1), 1001)).toBe(false);
    expect(await store.take(0, 1002)).toEqual([click('i1', SHARD1)]);
  });

  it('gives a click only to the process owning its guild, and only once, oldest first', async () => {
    await store.put(click('b1', SHARD1), 1000);
    await store.put(click('a1', SHARD0), 1001);
    await store.put(click('b2', SHARD1), 1002);
    c.ownership.set(new ShardOwnership([0], 2));
    expect((await store.take(0, 1100)).map((x) => x.interactionId)).toEqual(['a1']);
    c.ownership.set(new ShardOwnership([1], 2));
    expect((await store.take(0, 1100)).map((x) => x.interactionId)).toEqual(['b1', 'b2']);
    expect(await store.take(0, 1200)).toEqual([]);
    expect(await store.taken('b2')).toBe(true);
  });

  it('gives a click to one of two processes taking at once, never both', async () => {
    for (let i = 0; i < 20; i++) await store.put(click(`c${i}`, SHARD0), 1000 + i);
    const [x, y] = await Promise.all([store.take(0, 2000), store.take(0, 2000)]);
    const all = [...x, ...y].map((r) => r.interactionId).sort();
    expect(all).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`).sort());
  });

  it('does not give a click older than the window it is asked for, and forgets old rows', async () => {
    await store.put(click('old', SHARD0), 1000);
    await store.put(click('new', SHARD0), 5000);
    expect((await store.take(2000, 5001)).map((x) => x.interactionId)).toEqual(['new']);
    expect(await store.taken('old')).toBe(false);
    expect(await store.prune(2000)).toBe(1);
    expect(await store.prune(2000)).toBe(0);
  });
});
