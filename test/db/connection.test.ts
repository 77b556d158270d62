// The asynchronous storage seam's SQLite connection (src/db/connection.ts, issue 23): a transaction
// is all or nothing even though other flows run while it waits between its queries, and another
// flow's query never lands inside it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { SqliteConnection } from '../../src/db/connection';
import { servers } from '../../src/db/schema';
import { ShardOwnership } from '../../src/db/ownership';

let open: OpenDb;
let c: OpenDb['connection'];

beforeEach(() => {
  open = openDatabase(':memory:');
  c = open.connection;
});
afterEach(() => open.close());

const add = (id: string) => c.run(c.db.insert(servers).values({ guildId: id, createdAt: 1, updatedAt: 1 }));
const ids = async () => (await c.all(c.db.select({ id: servers.guildId }).from(servers))).map((r) => r.id).sort();
/** Lets every other flow that is ready run (a few turns of the microtask queue and one macrotask). */
const others = () => new Promise<void>((r) => setImmediate(r));

describe('SqliteConnection', () => {
  it('runs a query on an idle connection at once, without waiting a turn', () => {
    void add('1');
    expect(open.sqlite.prepare('select count(*) n from servers').get()).toEqual({ n: 1 });
  });

  it('reads and counts: all, get, run, rows, exec', async () => {
    await add('1');
    await add('2');
    expect(await ids()).toEqual(['1', '2']);
    expect(await c.get(c.db.select().from(servers).where(eq(servers.guildId, '2')))).toMatchObject({ guildId: '2' });
    expect(await c.get(c.db.select().from(servers).where(eq(servers.guildId, '3')))).toBeUndefined();
    expect(await c.run(c.db.update(servers).set({ locale: 'uk' }))).toBe(2);
    expect(await c.rows<{ n: number }>(sql`select count(*) as n from servers where locale = 'uk'`)).toEqual([{ n: 2 }]);
    expect(await c.exec(sql`delete from servers where guild_id = '1'`)).toBe(1);
    expect(await ids()).toEqual(['2']);
  });

  it('keeps another flow out of an open transaction: its read waits for the commit', async () => {
    const seen: string[][] = [];
    let inside!: () => void;
    const holding = new Promise<void>((r) => (inside = r));
    let go!: () => void;
    const released = new Promise<void>((r) => (go = r));
    const tx = c.transaction(async () => {
      await add('1');
      inside();
      await released; // the transaction waits here; other flows run meanwhile
      await add('2');
      expect(c.inTransaction).toBe(true);
    });
    await holding;
    const read = ids().then((r) => seen.push(r));
    await others();
    await others();
    expect(seen).toEqual([]); // still waiting: it would have seen the uncommitted '1'
    expect(c.inTransaction).toBe(false);
    go();
    await tx;
    await read;
    expect(seen).toEqual([['1', '2']]);
  });

  it('rolls back everything of a failed transaction, and not another flow’s write made meanwhile', async () => {
    let inside!: () => void;
    const holding = new Promise<void>((r) => (inside = r));
    const tx = c.transaction(async () => {
      await add('1');
      inside();
      await others();
      throw new Error('refused');
    });
    await holding;
    const outside = add('9'); // waits: inside the transaction it would be rolled back with it
    await expect(tx).rejects.toThrow('refused');
    await outside;
    expect(await ids()).toEqual(['9']);
  });

  it('serialises transactions started together, each all or nothing', async () => {
    const order: string[] = [];
    const one = (id: string, fail: boolean) =>
      c.transaction(async () => {
        order.push(`begin ${id}`);
        await add(id);
        await others();
        await add(`${id}b`);
        order.push(`end ${id}`);
        if (fail) throw new Error(id);
      });
    const results = await Promise.allSettled([one('a', false), one('b', true), one('c', false)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['begin a', 'end a', 'begin b', 'end b', 'begin c', 'end c']);
    expect(await ids()).toEqual(['a', 'ab', 'c', 'cb']);
  });

  it('makes a transaction inside a transaction a savepoint: its failure undoes only its own part', async () => {
    await c.transaction(async () => {
      await add('1');
      await expect(
        c.transaction(async () => {
          await add('2');
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await c.transaction(async () => add('3'));
    });
    expect(await ids()).toEqual(['1', '3']);
  });

  it('treats a flow started inside a transaction that outlives it as another flow', async () => {
    let later!: Promise<string[]>;
    let hold!: () => void;
    const held = new Promise<void>((r) => (hold = r));
    await c.transaction(async () => {
      await add('1');
      later = held.then(() => ids()); // runs after the commit, inside the next transaction's window
    });
    let inside!: () => void;
    const holding = new Promise<void>((r) => (inside = r));
    const second = c.transaction(async () => {
      await add('2');
      inside();
      await others();
      throw new Error('undone');
    });
    await holding;
    hold();
    await expect(second).rejects.toThrow('undone');
    expect(await later).toEqual(['1']);
  });

  it('keeps the longest a transaction stayed open (its own clock: no wall time)', async () => {
    let now = 0;
    const timed = new SqliteConnection(open.db, open.sqlite, c.ownership, () => now);
    await timed.transaction(async () => {
      now += 40;
      await timed.run(timed.db.insert(servers).values({ guildId: 'a', createdAt: 1, updatedAt: 1 }));
    });
    await timed.transaction(async () => {
      now += 15;
    });
    expect(timed.longestTransactionMs).toBe(40);
  });

  it('prepares a statement once, and says in SQL which guilds are owned and the larger of two numbers', async () => {
    await add('1'); // shard 0 of 2 ((1 >> 22) % 2)
    await add(String(1n << 22n)); // shard 1 of 2
    const byId = c.statement((db, t) =>
      db
        .select({ id: t.servers.guildId })
        .from(t.servers)
        .where(eq(t.servers.guildId, sql.placeholder('id'))),
    );
    expect(byId()).toBe(byId());
    expect(await c.get(byId(), { id: '1' })).toEqual({ id: '1' });
    const owned = () => c.all(c.db.select({ id: servers.guildId }).from(servers).where(c.ownsGuild(servers.guildId)));
    expect((await owned()).length).toBe(2);
    c.ownership.set(new ShardOwnership([1], 2));
    expect(await owned()).toEqual([{ id: String(1n << 22n) }]);
    expect(await c.rows(sql`select ${c.greatest(sql`3`, sql`7`)} as m`)).toEqual([{ m: 7 }]);
  });
});
