// PostgreSQL's own cases of the storage seam (src/db/pg-connection.ts, src/db/pg-open.ts, issue 23),
// on a real server (testkit/postgres.ts): isolation between flows, row locks on games, rollbacks
// and savepoints after a database error, numbers and booleans, the ownership filter against
// ShardOwnership.owns, session settings, and opening: migrations once under a lock, several
// processes at once, another application's database, bad URLs and failed connections as one line.
// Nothing here measures time: a wait is observed in pg_stat_activity, never by a timer.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { StartupError } from '../../src/db/client';
import { Store } from '../../src/db/store';
import type { Action, GameState } from '../../src/engine/types';
import * as sqliteSchema from '../../src/db/schema';
import { ShardOwnership, type Ownership } from '../../src/db/ownership';
import { PgConnection, ownsGuildSql } from '../../src/db/pg-connection';
import { MIGRATION_LOCK, openPostgres, type OpenPostgres } from '../../src/db/pg-open';
import { PG_MIGRATIONS } from '../../src/db/pg-connect';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import {
  postgresBinaries,
  postgresOrSkip,
  startTestServer,
  testPostgres,
  type TestPostgres,
} from '../../testkit/postgres';

let available = false;
beforeAll(async () => {
  const probe = await postgresOrSkip('test/db/pg-connection.test.ts');
  available = probe !== null;
  await probe?.drop();
});

const dbs: TestPostgres[] = [];
const opened: OpenPostgres[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  for (const d of dbs.splice(0)) await d.drop();
});

async function fresh(): Promise<TestPostgres> {
  const d = (await testPostgres())!;
  dbs.push(d);
  return d;
}

async function openFresh(options: Parameters<typeof openPostgres>[1] = {}): Promise<{ c: PgConnection; url: string }> {
  const d = await fresh();
  const o = await openPostgres(d.url, { poolSize: 4, ...options });
  opened.push(o);
  return { c: o.connection, url: d.url };
}

/** A plain client on the database, outside the bot's pool (to watch it). */
async function watcher(url: string): Promise<pg.Client> {
  const w = new pg.Client({ connectionString: url });
  await w.connect();
  return w;
}

/** Waits until `n` of the bot's connections wait for a lock (polls pg_stat_activity; no timer). */
async function untilWaiting(w: pg.Client, n = 1): Promise<void> {
  for (;;) {
    const r = await w.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where datname = current_database() and application_name = 'mafia-bot' and wait_event_type = 'Lock'`,
    );
    if (Number(r.rows[0]!.n) >= n) return;
    await new Promise<void>((r) => setImmediate(r));
  }
}

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

async function addServer(c: PgConnection, id: string): Promise<void> {
  await c.run(c.db.insert(c.t.servers).values({ guildId: id, createdAt: 1, updatedAt: 1 }));
}

async function addGame(c: PgConnection, guildId = '1'): Promise<number> {
  const { games } = c.t;
  const [g] = await c.all(
    c.db
      .insert(games)
      .values({
        guildId,
        channelId: 'c',
        hostId: 'h',
        ruleset: 'classic-10',
        pace: 'live',
        status: 'running',
        createdAt: 1,
        updatedAt: 1,
      })
      .returning({ id: games.id }),
  );
  return g!.id;
}

/**
 * A connection whose clients count round trips: statements sent while nothing else was in flight
 * on their client (behind an unanswered one, a statement travels with it). `trips()` gives the
 * count since the last call.
 */
async function countingConnection(): Promise<{ c: PgConnection; trips: () => number }> {
  type Inflight = { _activeQuery?: unknown; _sentQueryQueue?: unknown[]; _queryQueue?: unknown[] };
  const query = pg.Client.prototype.query;
  let n = 0;
  // The pool's clients take the prototype's query when they are made: patched only meanwhile.
  pg.Client.prototype.query = function (this: pg.Client & Inflight, ...args: unknown[]) {
    if (!this._activeQuery && !this._sentQueryQueue?.length && !this._queryQueue?.length) n++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    const { c } = await openFresh({ poolSize: 1 });
    await c.transaction(async () => {}); // the pool's one client, made now
    return {
      c,
      trips: () => {
        const r = n;
        n = 0;
        return r;
      },
    };
  } finally {
    pg.Client.prototype.query = query;
  }
}

const movesOf = async (c: PgConnection, id: number) =>
  (await c.get(c.db.select({ moves: c.t.games.moves }).from(c.t.games).where(eq(c.t.games.id, id))))!.moves;

describe('PgConnection: flows and transactions', () => {
  let c: PgConnection;
  let url: string;
  beforeEach(async (ctx) => {
    if (!available) return ctx.skip();
    ({ c, url } = await openFresh());
  });

  const ids = async () =>
    (await c.all(c.db.select({ id: c.t.servers.guildId }).from(c.t.servers).orderBy(asc(c.t.servers.guildId)))).map(
      (r) => r.id,
    );

  it('keeps two open transactions apart: each sees its own rows, neither the other’s, until they commit', async () => {
    type Gates = { wrote: ReturnType<typeof gate>; read: ReturnType<typeof gate> };
    const a: Gates = { wrote: gate(), read: gate() };
    const b: Gates = { wrote: gate(), read: gate() };
    const seen: Record<string, string[]> = {};
    const one = (id: string, mine: Gates, other: Gates) =>
      c.transaction(async () => {
        await addServer(c, id);
        mine.wrote.open();
        await other.wrote.wait; // the other's row is written too, uncommitted in its transaction
        seen[id] = await ids();
        mine.read.open();
        await other.read.wait; // neither commits before both have read
        expect(c.inTransaction).toBe(true);
      });
    const [ra, rb] = await Promise.allSettled([one('a', a, b), one('b', b, a)]);
    expect([ra.status, rb.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(seen).toEqual({ a: ['a'], b: ['b'] });
    expect(c.inTransaction).toBe(false);
    expect(await ids()).toEqual(['a', 'b']);
  });

  it('commits two transactions on different games while both hold their game', async () => {
    await addServer(c, '1');
    const g1 = await addGame(c);
    const g2 = await addGame(c);
    const locked1 = gate();
    const release1 = gate();
    const first = c.transaction(async () => {
      await c.lockGame(g1);
      locked1.open();
      await release1.wait;
      await c.run(c.db.update(c.t.games).set({ moves: 1 }).where(eq(c.t.games.id, g1)));
    });
    await locked1.wait;
    // The second commits while the first still holds game 1: different rows, no waiting.
    await c.transaction(async () => {
      await c.lockGame(g2);
      await c.run(c.db.update(c.t.games).set({ moves: 2 }).where(eq(c.t.games.id, g2)));
    });
    expect(await movesOf(c, g2)).toBe(2);
    expect(await movesOf(c, g1)).toBe(0);
    release1.open();
    await first;
    expect(await movesOf(c, g1)).toBe(1);
  });

  it('makes a second transaction on the same game wait at lockGame (its next statement) until the first ends, then see its write', async () => {
    await addServer(c, '1');
    const g = await addGame(c);
    const w = await watcher(url);
    try {
      const events: string[] = [];
      const locked = gate();
      const release = gate();
      const first = c.transaction(async () => {
        await c.lockGame(g);
        locked.open();
        await release.wait;
        await c.run(c.db.update(c.t.games).set({ moves: 1 }).where(eq(c.t.games.id, g)));
        events.push('first commits');
      });
      await locked.wait;
      const second = c.transaction(async () => {
        await c.lockGame(g); // sent without waiting: the read after it waits for the row
        const moves = await movesOf(c, g);
        events.push('second holds the game');
        await c.run(
          c.db
            .update(c.t.games)
            .set({ moves: moves + 1 })
            .where(eq(c.t.games.id, g)),
        );
      });
      await untilWaiting(w); // the second is blocked on the row
      events.push('second waits');
      release.open();
      await Promise.all([first, second]);
      expect(events).toEqual(['second waits', 'first commits', 'second holds the game']);
      expect(await movesOf(c, g)).toBe(2); // the second read the first's committed 1
    } finally {
      await w.end();
    }
  });

  it('makes commitAction wait while another transaction holds the game (its first statement holds the row), then refuses a seq already logged', async () => {
    await addServer(c, '1');
    const g = await addGame(c);
    const store = new Store(c);
    const state = (moves: number) =>
      ({ moves, seq: moves, deadline: null, stage: { kind: 'day' } }) as unknown as GameState;
    const entry = { action: { kind: 'timeout', seq: 1 } as Action, actor: 'system', at: 1 };
    const w = await watcher(url);
    try {
      const events: string[] = [];
      const locked = gate();
      const release = gate();
      // A second owner during a handover: it holds the game and logs move 1 first.
      const other = c.transaction(async () => {
        await c.lockGame(g);
        locked.open();
        await release.wait;
        await c.exec(
          sql`insert into actions (game_id, seq, kind, action, actor, at) values (${g}, 1, 'timeout', '{}', 'system', 1)`,
        );
        events.push('the other commits move 1');
      });
      await locked.wait;
      const mine = store.commitAction(g, entry, state(1)).then(
        () => events.push('mine committed'),
        (e: unknown) => events.push(`mine refused: ${(e as { code?: string }).code ?? (e as Error).message}`),
      );
      await untilWaiting(w);
      events.push('mine waits');
      release.open();
      await Promise.all([other, mine]);
      expect(events).toEqual(['mine waits', 'the other commits move 1', 'mine refused: 23505']);
      expect(await movesOf(c, g)).toBe(0); // nothing of the refused commit stays
    } finally {
      await w.end();
    }
  });

  it('rolls back a transaction a database error ends, and the pool goes on', async () => {
    await addServer(c, 'x');
    const err = await c
      .transaction(async () => {
        await addServer(c, 'y');
        await addServer(c, 'x'); // duplicate key
      })
      .catch((e: unknown) => e);
    expect((err as { cause?: { code?: string } }).cause?.code).toBe('23505');
    expect(await ids()).toEqual(['x']);
    // Every client of the pool is usable again: more transactions than clients, one after another.
    for (let i = 0; i < 6; i++) await c.transaction(() => addServer(c, `z${i}`));
    expect((await ids()).length).toBe(7);
  });

  it('rolls back to a savepoint after a database error inside it; the outer transaction commits the rest', async () => {
    await c.transaction(async () => {
      await addServer(c, '1');
      await c.transaction(async () => {
        await addServer(c, '2');
        const inner = await c
          .transaction(async () => {
            await addServer(c, '3');
            await addServer(c, '1'); // duplicate: the transaction is aborted until the rollback
          })
          .catch((e: unknown) => e);
        expect(inner).toBeInstanceOf(Error);
        await addServer(c, '4'); // works again: rolled back to the savepoint
      });
      await c.transaction(async () => addServer(c, '5'));
    });
    expect(await ids()).toEqual(['1', '2', '4', '5']);
  });

  describe('pipelined: BEGIN, lockGame and queued writes go out with the next statement waited for', () => {
    const insert = () =>
      c.statement((db, t) =>
        db.insert(t.servers).values({ guildId: sql.placeholder('id'), createdAt: 1, updatedAt: 1 }),
      );
    const codeOf = (e: unknown) => (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;

    it('fails the transaction with a queued write’s own error at the next read, and keeps nothing of it', async () => {
      await addServer(c, 'x');
      const add = insert();
      let read: unknown;
      const err = await c
        .transaction(async () => {
          await c.queue(add(), { id: 'a' });
          await c.queue(add(), { id: 'x' }); // duplicate key: not waited for
          await c.queue(add(), { id: 'b' });
          read = await ids().catch((e: unknown) => e);
          throw read;
        })
        .catch((e: unknown) => e);
      expect(codeOf(read)).toBe('23505'); // its own, not "the transaction is aborted" (25P02)
      expect(err).toBe(read);
      expect(await ids()).toEqual(['x']);
    });

    it('fails the commit when the last queued write fails, though nothing waited for it', async () => {
      await addServer(c, 'x');
      const add = insert();
      const err = await c
        .transaction(async () => {
          await c.queue(add(), { id: 'a' });
          await c.queue(add(), { id: 'x' });
          return 'done';
        })
        .catch((e: unknown) => e);
      expect(codeOf(err)).toBe('23505');
      expect(await ids()).toEqual(['x']);
      await c.transaction(async () => c.queue(add(), { id: 'y' })); // the client is usable again
      expect(await ids()).toEqual(['x', 'y']);
    });

    it('forgets a queued write’s failure inside a savepoint rolled back; the outer transaction commits the rest', async () => {
      await addServer(c, 'x');
      const add = insert();
      await c.transaction(async () => {
        await c.queue(add(), { id: '1' });
        const inner = await c
          .transaction(async () => {
            await c.queue(add(), { id: '2' });
            await c.queue(add(), { id: 'x' });
            await ids();
          })
          .catch((e: unknown) => e);
        expect(codeOf(inner)).toBe('23505');
        await c.queue(add(), { id: '3' });
      });
      expect(await ids()).toEqual(['1', '3', 'x']);
    });

    it('takes one round trip for BEGIN, queued writes and COMMIT, and one more per read waited for', async () => {
      const { c: counted, trips } = await countingConnection();
      const add = counted.statement((db, t) =>
        db.insert(t.servers).values({ guildId: sql.placeholder('id'), createdAt: 1, updatedAt: 1 }),
      );
      await addServer(counted, 'g');
      const g = await addGame(counted, 'g');
      trips();
      await counted.transaction(async () => {
        await counted.lockGame(g);
        for (const id of ['a', 'b', 'c']) await counted.queue(add(), { id });
      });
      expect(trips()).toBe(1);
      await counted.transaction(async () => {
        await counted.lockGame(g);
        await counted.queue(add(), { id: 'd' });
        expect(await movesOf(counted, g)).toBe(0); // BEGIN, the lock, the write and this read: one
        await counted.queue(add(), { id: 'e' });
      });
      expect(trips()).toBe(2); // and the commit with the last write
      await counted.transaction(async () => {
        await counted.lockGame(g);
        const { servers } = counted.t;
        await counted.queueBuilt(counted.db.insert(servers).values({ guildId: 'f', createdAt: 1, updatedAt: 1 }));
        await counted.queueBuilt(counted.db.update(servers).set({ locale: 'ru' }).where(eq(servers.guildId, 'f')));
      });
      expect(trips()).toBe(1); // built writes (queueBuilt) travel the same way
      expect((await counted.all(counted.db.select().from(counted.t.servers))).length).toBe(7);
    });
  });

  it('runs a statement and raw SQL inside a transaction on the transaction’s client', async () => {
    const byId = c.statement((db, t) =>
      db
        .select({ id: t.servers.guildId })
        .from(t.servers)
        .where(eq(t.servers.guildId, sql.placeholder('id'))),
    );
    await c
      .transaction(async () => {
        await addServer(c, 'n');
        expect(await c.get(byId(), { id: 'n' })).toEqual({ id: 'n' });
        expect(await c.rows(sql`select guild_id as id from servers`)).toEqual([{ id: 'n' }]);
        expect(await c.exec(sql`update servers set locale = 'ru'`)).toBe(1);
        throw new Error('undo');
      })
      .catch(() => {});
    expect(await c.get(byId(), { id: 'n' })).toBeUndefined();
  });

  it('runs a statement as one named statement per connection, with the same rows as drizzle’s own run', async () => {
    await addServer(c, 'a');
    await addServer(c, 'b');
    const built = (db: typeof c.db, t: typeof c.t) =>
      db
        .select({ id: t.servers.guildId, talk: t.servers.mafiaTalkEveryNight, at: t.servers.createdAt })
        .from(t.servers)
        .where(eq(t.servers.guildId, sql.placeholder('id')));
    const byId = c.statement(built);
    const names = await c.transaction(async () => {
      // Twice on the transaction's client: parsed once there.
      expect(await c.get(byId(), { id: 'a' })).toEqual(await c.get(built(c.db, c.t), { id: 'a' }));
      expect(await c.all(byId(), { id: 'b' })).toEqual([{ id: 'b', talk: false, at: 1 }]);
      return (await c.rows<{ name: string }>(sql`select name from pg_prepared_statements`)).map((r) => r.name);
    });
    expect(names.filter((n) => n.startsWith('mafia_'))).toHaveLength(1);
    // Outside a transaction, on the pool; a write statement gives how many rows it changed.
    expect(await c.get(byId(), { id: 'b' })).toEqual({ id: 'b', talk: false, at: 1 });
    const rename = c.statement((db, t) =>
      db
        .update(t.servers)
        .set({ locale: sql`${sql.placeholder('locale')}` })
        .where(eq(t.servers.guildId, sql.placeholder('id'))),
    );
    expect(await c.run(rename(), { id: 'a', locale: 'uk' })).toBe(1);
    expect(await c.run(rename(), { id: 'zz', locale: 'uk' })).toBe(0);
  });

  it('builds a statement that reads the ownership at each run: the shards held then', async () => {
    await addServer(c, '1'); // shard 0 of 2
    await addServer(c, String(1n << 22n)); // shard 1 of 2
    const owned = c.statement((db, t) =>
      db.select({ id: t.servers.guildId }).from(t.servers).where(c.ownsGuild(t.servers.guildId)),
    );
    expect((await c.all(owned())).length).toBe(2);
    c.ownership.set(new ShardOwnership([1], 2));
    expect(await c.all(owned())).toEqual([{ id: String(1n << 22n) }]);
    c.ownership.set(new ShardOwnership([0], 2));
    expect(await c.all(owned())).toEqual([{ id: '1' }]);
  });

  it('fails a transaction that waits for a row longer than lock_timeout, and rolls it back', async () => {
    const short = (await openFresh({ session: { lockTimeoutMs: 50 } })).c;
    await addServer(short, '1');
    const g = await addGame(short);
    const locked = gate();
    const release = gate();
    const first = short.transaction(async () => {
      await short.lockGame(g);
      locked.open();
      await release.wait;
    });
    await locked.wait;
    const err = await short
      .transaction(async () => {
        await addServer(short, 'w');
        await short.lockGame(g);
      })
      .catch((e: unknown) => e);
    release.open();
    await first;
    // node-postgres's error (lockGame's own statement), or drizzle's around it (a query built per run).
    const failed = err as { code?: string; cause?: { code?: string } };
    expect(failed.code ?? failed.cause?.code).toBe('55P03'); // lock_not_available
    expect(await short.all(short.db.select({ id: short.t.servers.guildId }).from(short.t.servers))).toEqual([
      { id: '1' },
    ]);
  });

  it('survives a connection ended while its transaction waits between two queries: the transaction fails, the pool goes on', async () => {
    const errors: Error[] = [];
    let heard!: () => void;
    const gotError = new Promise<void>((r) => (heard = r));
    const d = await fresh();
    const o = await openPostgres(d.url, {
      poolSize: 1,
      onConnectionError: (e) => {
        errors.push(e);
        heard();
      },
    });
    opened.push(o);
    const lost = o.connection;
    const w = await watcher(d.url);
    try {
      const tx = lost.transaction(async () => {
        await addServer(lost, 'lost');
        const [me] = await lost.rows<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        await w.query('select pg_terminate_backend($1)', [me!.pid]);
        await gotError; // the client heard it while idle inside the transaction (no query of its own running)
        await addServer(lost, 'after');
      });
      await expect(tx).rejects.toThrow();
      expect(errors[0]!.message).toMatch(/terminating connection due to administrator command/);
      // The one client of the pool was dropped; the next query gets a new one.
      await addServer(lost, 'next');
      expect(await lost.rows(sql`select guild_id from servers`)).toEqual([{ guild_id: 'next' }]);
    } finally {
      await w.end();
    }
  });

  it('sets the session: timeouts and application name', async () => {
    const show = async (name: string) => (await c.rows<{ v: string }>(sql`select current_setting(${name}) as v`))[0]!.v;
    expect(await show('statement_timeout')).toBe('30s');
    expect(await show('lock_timeout')).toBe('10s');
    expect(await show('idle_in_transaction_session_timeout')).toBe('1min');
    expect(await show('application_name')).toBe('mafia-bot');
  });

  it('ends the pool on close', async () => {
    const o = await openPostgres(url, { poolSize: 2 });
    expect(await o.connection.rows(sql`select 1 as one`)).toEqual([{ one: 1 }]);
    await o.close();
    await expect(o.connection.rows(sql`select 1 as one`)).rejects.toThrow();
    await o.close(); // twice: nothing more to do
  });
});

describe('PgConnection: numbers and booleans', () => {
  let c: PgConnection;
  beforeEach(async (ctx) => {
    if (!available) return ctx.skip();
    ({ c } = await openFresh());
  });

  it('gives int8 and numeric as numbers everywhere: columns, count, sum, avg, raw rows, sql<number> fields', async () => {
    await addServer(c, '1');
    const big = Number.MAX_SAFE_INTEGER; // 2^53 - 1, exact
    const { games } = c.t;
    const g = await addGame(c);
    await c.run(c.db.update(games).set({ createdAt: big, moves: 7 }).where(eq(games.id, g)));
    expect(await c.get(c.db.select({ at: games.createdAt, moves: games.moves }).from(games))).toEqual({
      at: big,
      moves: 7,
    });
    expect(
      await c.get(
        c.db
          .select({
            n: sql<number>`count(*)`,
            total: sql<number>`sum(${games.moves})`,
            avg: sql<number>`avg(${games.moves})`,
          })
          .from(games),
      ),
    ).toEqual({ n: 1, total: 7, avg: 7 });
    expect(await c.rows(sql`select created_at, moves, id from games`)).toEqual([{ created_at: big, moves: 7, id: g }]);
    expect(await c.rows(sql`select 1.5::numeric as x, 2::int8 as y, 3::int4 as z, 0.25::float8 as w`)).toEqual([
      { x: 1.5, y: 2, z: 3, w: 0.25 },
    ]);
    // pg's global parsers are untouched: another client still gets int8 as text.
    expect(pg.types.getTypeParser(20, 'text')('5')).toBe('5');
  });

  it('stores and reads booleans through both schemas’ tables, with values and placeholders', async () => {
    const pgServers = c.t.servers;
    const liteServers = sqliteSchema.servers; // integer mode 'boolean': sends 1/0
    await c.run(
      c.db.insert(liteServers).values({ guildId: 'a', mafiaTalkEveryNight: true, createdAt: 1, updatedAt: 1 }),
    );
    await c.run(
      c.db.insert(pgServers).values({ guildId: 'b', enforceSpeakingOrder: true, createdAt: 1, updatedAt: 1 }),
    );
    const read = (t: typeof liteServers) =>
      c.all(
        c.db
          .select({ id: t.guildId, talk: t.mafiaTalkEveryNight, order: t.enforceSpeakingOrder })
          .from(t)
          .orderBy(asc(t.guildId)),
      );
    const want = [
      { id: 'a', talk: true, order: false },
      { id: 'b', talk: false, order: true },
    ];
    expect(await read(liteServers)).toEqual(want);
    expect(await read(pgServers)).toEqual(want);
    for (const t of [liteServers, pgServers]) {
      expect(await c.all(c.db.select({ id: t.guildId }).from(t).where(eq(t.mafiaTalkEveryNight, true)))).toEqual([
        { id: 'a' },
      ]);
      const byTalk = c.db
        .select({ id: t.guildId })
        .from(t)
        .where(eq(t.mafiaTalkEveryNight, sql.placeholder('talk')));
      // SQLite binds 1/0 for a placeholder (it cannot bind a boolean): PostgreSQL takes both.
      expect(await c.all(byTalk, { talk: 1 })).toEqual([{ id: 'a' }]);
      expect(await c.all(byTalk, { talk: false })).toEqual([{ id: 'b' }]);
    }
    expect(await c.run(c.db.update(liteServers).set({ enforceSpeakingOrder: false }))).toBe(2);
    // Raw SQL shows PostgreSQL's own booleans (SQLite's raw rows give 1/0).
    expect(await c.rows(sql`select enforce_speaking_order as o from servers order by guild_id`)).toEqual([
      { o: false },
      { o: false },
    ]);
  });
});

/** A reproducible stream of numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('PgConnection.ownsGuild equals ShardOwnership.owns', () => {
  let c: PgConnection;
  beforeEach(async (ctx) => {
    if (!available) return ctx.skip();
    ({ c } = await openFresh());
  });

  it('for every id and every ownership tried', async () => {
    const next = random(23);
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
    const ids: (string | null)[] = [
      null,
      '',
      '0',
      '1',
      '4194303',
      '4194304',
      '9223372036854775807', // bigint's largest
      '9223372036854775808',
      '18446744073709551615', // a snowflake's largest (64 bits)
      '99999999999999999999', // the largest 20 digits
      '00000000000000000000',
      '00000000000004194304',
      '123456789012345678901', // 21 digits: not an id
      'abc',
      '12a',
      '-1',
      '1.5',
      '1e5',
      ' 1',
      '1 ',
      '1\n',
      '٣', // a digit, but not 0-9
      '１２', // fullwidth digits
    ];
    // Random snowflakes (64 bits) and random 1-20 digit numbers.
    for (let i = 0; i < 300; i++) {
      const hi = BigInt(Math.floor(next() * 2 ** 32));
      const lo = BigInt(Math.floor(next() * 2 ** 32));
      ids.push(((hi << 32n) | lo).toString());
      ids.push(digits(1 + Math.floor(next() * 20)));
    }
    const ownerships: Ownership[] = [new ShardOwnership([0], 1), new ShardOwnership([], 1), new ShardOwnership([], 3)];
    for (let count = 2; count <= 9; count++)
      for (let k = 0; k < 4; k++) {
        const shards = Array.from({ length: count }, (_, i) => i).filter(() => next() < 0.5);
        ownerships.push(new ShardOwnership(shards, count));
      }
    ownerships.push(new ShardOwnership([1], 2), new ShardOwnership([0], 2), new ShardOwnership([0, 1, 2], 3));
    let compared = 0;
    for (const o of ownerships) {
      c.ownership.set(o);
      const rows = await c.rows<{ owned: boolean }>(
        sql`select ${c.ownsGuild(sql`u.id`)} as owned from unnest(${sql.param(ids)}::text[]) with ordinality as u(id, n) order by u.n`,
      );
      const got = rows.map((r) => r.owned);
      const want = ids.map((id) => o.owns(id));
      for (let i = 0; i < ids.length; i++) {
        expect(got[i], `${JSON.stringify(ids[i])} with shards ${o.shards.join(',')} of ${o.shardCount}`).toBe(want[i]);
        compared++;
      }
    }
    expect(compared).toBe(ids.length * ownerships.length);
    expect(ownerships.some((o) => o.all) && ownerships.some((o) => !o.all && o.shards.includes(0))).toBe(true);
  });

  it('is TRUE while the process holds every shard, and reads the ownership each time a built query runs', async () => {
    await addServer(c, '1'); // shard 0 of 2
    await addServer(c, String(1n << 22n)); // shard 1 of 2
    expect(c.db.select().from(c.t.servers).where(c.ownsGuild(c.t.servers.guildId)).toSQL().sql).toContain('(true)');
    // An ownership whose shards are not whole numbers never reaches the SQL text.
    const odd = { all: false, shards: [0.5], shardCount: 2, owns: () => false };
    expect(() => ownsGuildSql(odd, sql`x`)).toThrow('invalid ownership: shards 0.5 of 2');
    const owned = c.db.select({ id: c.t.servers.guildId }).from(c.t.servers).where(c.ownsGuild(c.t.servers.guildId));
    expect((await c.all(owned)).length).toBe(2);
    c.ownership.set(new ShardOwnership([1], 2));
    expect(await c.all(owned)).toEqual([{ id: String(1n << 22n) }]); // the same builder, run again
    c.ownership.set(new ShardOwnership([0], 2));
    expect(await c.all(owned)).toEqual([{ id: '1' }]);
  });
});

describe('openPostgres', () => {
  beforeEach((ctx) => {
    if (!available) ctx.skip();
  });

  const migrationsCount = readMigrationFiles({ migrationsFolder: PG_MIGRATIONS }).length;
  const applied = async (url: string) => {
    const w = await watcher(url);
    try {
      return Number((await w.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n);
    } finally {
      await w.end();
    }
  };

  it('applies the migrations once: opening again applies nothing', async () => {
    const d = await fresh();
    const one = await openPostgres(d.url);
    await addServer(one.connection, 'kept');
    await one.close();
    expect(await applied(d.url)).toBe(migrationsCount);
    const two = await openPostgres(d.url);
    opened.push(two);
    expect(await applied(d.url)).toBe(migrationsCount);
    expect(await two.connection.rows(sql`select guild_id from servers`)).toEqual([{ guild_id: 'kept' }]);
  });

  it('lets several processes open an empty database at once: one migrates, the others wait for it', async () => {
    const d = await fresh();
    const all = await Promise.all(Array.from({ length: 4 }, () => openPostgres(d.url, { poolSize: 2 })));
    opened.push(...all);
    expect(await applied(d.url)).toBe(migrationsCount);
    for (const [i, o] of all.entries()) await addServer(o.connection, `p${i}`);
    expect((await all[0]!.connection.rows(sql`select guild_id from servers`)).length).toBe(4);
  });

  it('waits for another process that holds the migration lock, and starts once it lets go', async () => {
    const d = await fresh();
    const holder = await watcher(d.url);
    try {
      await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      let done = false;
      const opening = openPostgres(d.url).then((o) => {
        done = true;
        opened.push(o);
        return o;
      });
      // Seen waiting on the advisory lock (no timer).
      for (;;) {
        const r = await holder.query(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
        );
        if (r.rows[0].n > 0) break;
        await new Promise<void>((res) => setImmediate(res));
      }
      expect(done).toBe(false);
      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      await opening;
      expect(await applied(d.url)).toBe(migrationsCount);
    } finally {
      await holder.end();
    }
  });

  it('gives up with one line when another process keeps the migration lock past the wait', async () => {
    const d = await fresh();
    const holder = await watcher(d.url);
    try {
      await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const err = await openPostgres(d.url, { migrationLockWaitMs: 50 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).message).toMatch(
        /^another process has been migrating postgres:\/\/.* \(it holds the advisory lock/,
      );
    } finally {
      await holder.end();
    }
  });

  it('refuses another application’s database and leaves it untouched', async () => {
    const d = await fresh();
    const w = await watcher(d.url);
    try {
      await w.query('create table customers (id int primary key, name text)');
      await w.query("insert into customers values (1, 'Ada')");
      const err = await openPostgres(d.url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).message).toMatch(
        / belongs to another application \(tables: customers\); it was left untouched; set DATABASE_URL/,
      );
      const tables = await w.query(
        `select table_schema || '.' || table_name as t from information_schema.tables
         where table_schema not in ('pg_catalog', 'information_schema') order by 1`,
      );
      expect(tables.rows.map((r) => r.t)).toEqual(['public.customers']);
      expect((await w.query("select to_regnamespace('drizzle') as s")).rows[0].s).toBeNull();
    } finally {
      await w.end();
    }
  });

  it('says in one line what is wrong with a URL, a refused connection or a missing database, never the password', async () => {
    const one = async (text: string) => {
      const e = await openPostgres(text).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(StartupError);
      const m = (e as Error).message;
      expect(m).not.toContain('\n');
      expect(m).not.toContain('s3cret');
      return m;
    };
    expect(await one('mysql://u:s3cret@h/db')).toBe(
      'not a PostgreSQL URL (the scheme is mysql:); expected postgres://user:password@host:5432/database',
    );
    expect(await one('postgres://u:s3cret@host')).toMatch(/^not a PostgreSQL URL \(no database name after the host\)/);
    expect(await one('postgres://u:s3cret@host/a b')).toMatch(/^not a PostgreSQL URL \(it holds spaces/);
    // A port nobody listens on: taken from the system, then closed.
    const port = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    expect(await one(`postgres://u:s3cret@127.0.0.1:${port}/mafia`)).toMatch(
      new RegExp(`^cannot connect to postgres://u:\\*\\*\\*@127\\.0\\.0\\.1:${port}/mafia \\(.*ECONNREFUSED`),
    );
    const d = await fresh();
    const missing = new URL(d.url);
    missing.pathname = '/no_such_database';
    missing.password = 's3cret';
    expect(await one(missing.toString())).toMatch(
      /^cannot connect to .*no_such_database.*\(3D000: database "no_such_database" does not exist\)$/,
    );
  });

  it('says in one line that a password is wrong (a server that asks for one)', async () => {
    const bin = postgresBinaries();
    if (!bin) return; // a TEST_DATABASE_URL server without binaries here: nothing to start
    const server = startTestServer(bin, { password: 'right-one' });
    try {
      const wrong = new URL(server.url);
      wrong.password = 's3cret';
      const e = await openPostgres(wrong.toString()).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(StartupError);
      const m = (e as Error).message;
      expect(m).toMatch(
        /^cannot connect to postgres:\/\/postgres:\*\*\*@.* \(28P01: password authentication failed for user "postgres"\)$/,
      );
      expect(m).not.toContain('s3cret');
      const right = await openPostgres(server.url, { poolSize: 1 });
      expect(await right.connection.rows(sql`select 1 as one`)).toEqual([{ one: 1 }]);
      await right.close();
    } finally {
      server.stop();
    }
  });
});

afterAll(() => {
  expect(opened).toEqual([]);
});
