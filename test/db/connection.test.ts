// The asynchronous storage seam (src/db/connection.ts, issue 23), on both connections: a transaction
// is all or nothing even though other flows run while it waits between its queries, and another
// flow's query never lands inside it. SQLite keeps another flow out by making it wait; PostgreSQL
// runs it on another client, which does not see the transaction's rows (test/db/pg-connection.test.ts
// has PostgreSQL's own cases: isolation, row locks, savepoints, opening and migrating).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SqliteConnection, type Connection } from '../../src/db/connection';
import { ShardOwnership } from '../../src/db/ownership';
import { postgresAvailable, postgresOrSkip } from '../../testkit/postgres';
import { connectionSubjects as subjects, type Opened } from '../../testkit/connections';

beforeAll(async () => {
  // The loud line when PostgreSQL is missing (and a failure under CI_REQUIRE_POSTGRES=1).
  await (await postgresOrSkip('test/db/connection.test.ts'))?.drop();
});

/** Lets every other flow that is ready run (a few turns of the microtask queue and one macrotask). */
const others = () => new Promise<void>((r) => setImmediate(r));

describe.each(subjects)('$name connection', ({ name, open }) => {
  const skip = name === 'postgres' && !postgresAvailable();
  let o: Opened;
  let c: Connection;
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    o = await open();
    c = o.c;
  });
  afterEach(async () => {
    if (!skip) await o.close();
  });

  const add = (id: string) => c.run(c.db.insert(c.t.servers).values({ guildId: id, createdAt: 1, updatedAt: 1 }));
  const ids = async () =>
    (await c.all(c.db.select({ id: c.t.servers.guildId }).from(c.t.servers))).map((r) => r.id).sort();

  it.runIf(name === 'sqlite')('runs a query on an idle connection at once, without waiting a turn', () => {
    void add('1');
    expect(o.sqlite!.prepare('select count(*) n from servers').get()).toEqual({ n: 1 });
  });

  it('reads and counts: all, get, run, rows, exec', async () => {
    const { servers } = c.t;
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

  it('runs a statement written in SQL, prepared once, and queues one inside a transaction', async () => {
    const p = sql.placeholder;
    const addTwo = c.sqlStatement(
      () => sql`insert into servers (guild_id, created_at, updated_at) values (${p('a')}, 1, 1), (${p('b')}, 1, 1)`,
    );
    expect(addTwo()).toBe(addTwo()); // built once
    expect(await c.run(addTwo(), { a: '1', b: '2' })).toBe(2);
    await c.transaction(async () => {
      await c.queue(addTwo(), { a: '3', b: '4' });
      expect(await ids()).toEqual(['1', '2', '3', '4']); // the read after it sees it
    });
    const err = await c.transaction(() => c.queue(addTwo(), { a: '5', b: '1' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error); // a duplicate: the transaction fails, nothing of it is kept
    expect(await ids()).toEqual(['1', '2', '3', '4']);
  });

  it('queues a write built when it runs (queueBuilt): in order with the reads after it, failing the transaction', async () => {
    const { servers } = c.t;
    const row = (guildId: string) => ({ guildId, createdAt: 1, updatedAt: 1 });
    await c.queueBuilt(c.db.insert(servers).values(row('1'))); // outside a transaction: run at once
    expect(await ids()).toEqual(['1']);
    await c.transaction(async () => {
      await c.queueBuilt(c.db.insert(servers).values([row('2'), row('3')]));
      await c.queueBuilt(c.db.update(servers).set({ locale: 'uk' }).where(eq(servers.guildId, '2')));
      await c.queueBuilt(c.db.delete(servers).where(eq(servers.guildId, '1')));
      expect(await c.rows(sql`select guild_id as id, locale from servers order by guild_id`)).toEqual([
        { id: '2', locale: 'uk' },
        { id: '3', locale: null },
      ]);
    });
    const err = await c
      .transaction(async () => {
        await c.queueBuilt(c.db.insert(servers).values(row('4')));
        await c.queueBuilt(c.db.insert(servers).values(row('2'))); // a duplicate, not waited for
        return 'done';
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error); // the commit fails with it: nothing of the transaction is kept
    expect(await ids()).toEqual(['2', '3']);
  });

  it.runIf(name === 'sqlite')(
    'keeps another flow out of an open transaction: its read waits for the commit',
    async () => {
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
    },
  );

  it('never shows another flow a transaction’s uncommitted rows', async () => {
    let inside!: () => void;
    const holding = new Promise<void>((r) => (inside = r));
    let go!: () => void;
    const released = new Promise<void>((r) => (go = r));
    const tx = c.transaction(async () => {
      await add('1');
      inside();
      await released;
      await add('2');
    });
    await holding;
    // SQLite: the read waits for the commit; PostgreSQL: it reads at once what is committed.
    const read = ids();
    if (name === 'postgres') expect(await read).toEqual([]);
    go();
    await tx;
    expect(await read).not.toEqual(['1']);
    expect(await ids()).toEqual(['1', '2']);
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
    const outside = add('9'); // SQLite: waits, inside the transaction it would be rolled back with it
    await expect(tx).rejects.toThrow('refused');
    await outside;
    expect(await ids()).toEqual(['9']);
  });

  it('runs transactions started together each all or nothing (one at a time on SQLite)', async () => {
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
    if (name === 'sqlite') expect(order).toEqual(['begin a', 'end a', 'begin b', 'end b', 'begin c', 'end c']);
    expect(await ids()).toEqual(['a', 'ab', 'c', 'cb']);
  });

  it('makes a transaction inside a transaction a savepoint: its failure undoes only its own part', async () => {
    await c.transaction(async () => {
      await add('1');
      await expect(
        c.transaction(async () => {
          await add('2');
          expect(c.inTransaction).toBe(true);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      expect(c.inTransaction).toBe(true);
      await c.transaction(async () => add('3'));
    });
    expect(c.inTransaction).toBe(false);
    expect(await ids()).toEqual(['1', '3']);
  });

  it('keeps a savepoint inside its transaction: it sees the transaction’s rows, and the transaction’s failure undoes it', async () => {
    const err = await c
      .transaction(async () => {
        await add('1');
        await c.transaction(async () => {
          await add('2');
          expect(await ids()).toEqual(['1', '2']);
        });
        throw new Error('outer');
      })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('outer');
    expect(await ids()).toEqual([]);
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

  it.runIf(name === 'sqlite')('keeps the longest a transaction stayed open (its own clock: no wall time)', async () => {
    let now = 0;
    const timed = new SqliteConnection(c.db as SqliteConnection['db'], o.sqlite!, c.ownership, () => now);
    await timed.transaction(async () => {
      now += 40;
      await timed.run(timed.db.insert(timed.t.servers).values({ guildId: 'a', createdAt: 1, updatedAt: 1 }));
    });
    await timed.transaction(async () => {
      now += 15;
    });
    expect(timed.longestTransactionMs).toBe(40);
  });

  it('runs a statement with placeholders, and says in SQL which guilds are owned and the larger of two numbers', async () => {
    const { servers } = c.t;
    await add('1'); // shard 0 of 2 ((1 >> 22) % 2)
    await add(String(1n << 22n)); // shard 1 of 2
    const byId = c.statement((db, t) =>
      db
        .select({ id: t.servers.guildId })
        .from(t.servers)
        .where(eq(t.servers.guildId, sql.placeholder('id'))),
    );
    if (name === 'sqlite') expect(byId()).toBe(byId()); // prepared once
    expect(await c.get(byId(), { id: '1' })).toEqual({ id: '1' });
    expect(await c.get(byId(), { id: '2' })).toBeUndefined();
    const owned = () => c.all(c.db.select({ id: servers.guildId }).from(servers).where(c.ownsGuild(servers.guildId)));
    expect((await owned()).length).toBe(2);
    c.ownership.set(new ShardOwnership([1], 2));
    expect(await owned()).toEqual([{ id: String(1n << 22n) }]);
    expect(await c.rows(sql`select ${c.greatest(sql`3`, sql`7`)} as m`)).toEqual([{ m: 7 }]);
  });

  it('holds a game with lockGame inside a transaction, and refuses it outside one', async () => {
    const { games } = c.t;
    await add('1');
    const [g] = await c.all(
      c.db
        .insert(games)
        .values({
          guildId: '1',
          channelId: 'c',
          hostId: 'h',
          ruleset: 'classic-10',
          pace: 'live',
          status: 'lobby',
          createdAt: 1,
          updatedAt: 1,
        })
        .returning({ id: games.id }),
    );
    expect(typeof g!.id).toBe('number');
    await expect(c.lockGame(g!.id)).rejects.toThrow('lockGame outside a transaction');
    await c.transaction(async () => {
      await c.lockGame(g!.id);
      await c.run(c.db.update(games).set({ moves: 1 }).where(eq(games.id, g!.id)));
    });
    expect(await c.get(c.db.select({ moves: games.moves }).from(games).where(eq(games.id, g!.id)))).toEqual({
      moves: 1,
    });
  });
});
