// DM clicks handed between processes through the database (src/db/relay-store.ts, issue 23):
// written once, taken once and only by the guild's owner, let go after Discord's window.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { ShardOwnership } from '../../src/db/ownership';
import { RelayStore } from '../../src/db/relay-store';

let open: OpenDb;
let store: RelayStore;
beforeEach(() => {
  open = openDatabase(':memory:');
  store = new RelayStore(open.connection);
});
afterEach(() => open.close());

const SHARD0 = '1'; // (1 >> 22) % 2 = 0
const SHARD1 = String(1n << 22n); // % 2 = 1
const click = (id: string, guildId: string) => ({ interactionId: id, guildId, payload: JSON.stringify({ id }) });

describe('RelayStore', () => {
  it('writes a click once: the same interaction again is not written twice', async () => {
    expect(await store.put(click('i1', SHARD1), 1000)).toBe(true);
    expect(await store.put(click('i1', SHARD1), 1001)).toBe(false);
    expect(await store.take(0, 1002)).toEqual([click('i1', SHARD1)]);
  });

  it('gives a click only to the process owning its guild, and only once, oldest first', async () => {
    await store.put(click('b1', SHARD1), 1000);
    await store.put(click('a1', SHARD0), 1001);
    await store.put(click('b2', SHARD1), 1002);
    open.ownership.set(new ShardOwnership([0], 2));
    expect((await store.take(0, 1100)).map((c) => c.interactionId)).toEqual(['a1']);
    open.ownership.set(new ShardOwnership([1], 2));
    expect((await store.take(0, 1100)).map((c) => c.interactionId)).toEqual(['b1', 'b2']);
    expect(await store.take(0, 1200)).toEqual([]);
    expect(await store.taken('b2')).toBe(true);
  });

  it('does not give a click older than the window it is asked for, and forgets old rows', async () => {
    await store.put(click('old', SHARD0), 1000);
    await store.put(click('new', SHARD0), 5000);
    expect((await store.take(2000, 5001)).map((c) => c.interactionId)).toEqual(['new']);
    expect(await store.taken('old')).toBe(false);
    expect(await store.prune(2000)).toBe(1);
    expect(await store.prune(2000)).toBe(0);
  });
});
