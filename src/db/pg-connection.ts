// The storage seam's PostgreSQL connection (issue 23): the Connection of src/db/connection.ts over a
// pool of node-postgres clients, with drizzle's node-postgres driver and the PostgreSQL schema
// (schema-pg.ts, generated from schema.ts: the same tables and columns).
//
// Transactions: each runs on a client of its own, taken from the pool for its length; every query
// of the flow that started it (AsyncLocalStorage, as SqliteConnection tracks its flow) runs on that
// client, so the stores need no handle passed around. Other flows' queries run on other clients
// at the same time: PostgreSQL's isolation keeps them out of the transaction (they never see its
// uncommitted rows), and its row locks order two writers of the same rows (`lockGame`). A flow
// started inside a transaction that outlives it is another flow once the transaction has ended
// (its queries go to the pool, never to a client given back to it).
//
// Pipelining: the pool's clients run in node-postgres's pipeline mode (a statement is sent while
// earlier ones are unanswered; the server answers in order). A transaction sends BEGIN, lockGame's
// lock and the writes the stores `queue` without waiting for their answers, and holds its socket's
// writes back until the flow waits (cork): they leave in one write with the next statement waited
// for, and the last ones with COMMIT. A transaction so takes a round trip per read it waits for
// and one for the commit (issue 23: an action took 12 round trips, one per statement; with its
// reads sent together, Store.commitAction, it takes 3). A
// statement sent that fails fails the transaction: the next one waited for throws its error, and
// so does the commit (see `send`).
//
// Queries are built on `db` when they run (a query built on the pool's drizzle and run inside a
// transaction would run on another client, outside the transaction, and could wait for the
// transaction's own locks). Two flows sharing one transaction must not open savepoints at the same
// time (the savepoints of one client nest; the same holds on SQLite).
//
// Statements (`statement()`, the hot paths: every action's log row, state, deadline and outbox
// rows) are built once, as SQLite's are prepared once: their SQL text and values taken from
// drizzle's prepared query, and run on the flow's client (or the pool) as a named statement, so each
// connection parses and plans it once, and the bot builds no SQL per run (issue 23's profile: a
// fifth of the bot's CPU per action went to building queries). One that reads the ownership
// (`ownsGuild`: its SQL changes with the shards held) is built at each run, as before. Behind
// PgBouncer in transaction mode, named statements need its max_prepared_statements (1.21+).
//
// Numbers: the schema's bigint columns are `mode: 'number'`, which drizzle maps with Number() when
// it reads a column of a table. Everything else PostgreSQL returns as int8 or numeric (count(*),
// sum(…), a raw `rows()` query, a `sql<number>` field) would be a string with node-postgres's
// defaults, where SQLite gives a number. So the pool's clients parse int8 and numeric as numbers
// (pgNumbers below): exact up to 2^53, as better-sqlite3's numbers are. Set on the pool's own
// clients, never on pg's global parsers (which other code in the process may rely on).
//
// Booleans: schema-pg's boolean columns take and give JavaScript booleans. A query built with a
// table of schema.ts (integer `mode: 'boolean'`) sends 1/0, which PostgreSQL reads as true/false
// for a boolean column, and reads true/false back as booleans: both work. Raw SQL differs: `rows()`
// gives true/false on PostgreSQL where SQLite gives 1/0, and `= 1` on a boolean column is an error.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { PgDialect, type PgDatabase } from 'drizzle-orm/pg-core';
import pg from 'pg';
import {
  rowMapper,
  valuesOf,
  type Connection,
  type Db,
  type Fields,
  type Params,
  type Preparable,
  type Runnable,
  type Tables,
} from './connection';
import { OwnershipRef, type Ownership } from './ownership';
import * as pgSchema from './schema-pg';

type PgDb = PgDatabase<NodePgQueryResultHKT, typeof pgSchema>;

/** Turns `sqlStatement`'s SQL into text and values (no schema involved). */
const PG_DIALECT = new PgDialect();

/** A transaction (or savepoint) of one flow; `active` until it ends. */
interface Open {
  /** drizzle on the transaction's client. */
  readonly tx: PgDb;
  readonly client: pg.PoolClient;
  readonly parent: Open | null;
  /** Savepoints: 0 for the transaction itself. */
  readonly depth: number;
  active: boolean;
  /** See Connection.txCache: the outermost transaction's, shared by its savepoints. */
  readonly cache: Map<string, unknown>;
  /** The outermost transaction's statements sent without waiting for their answers (see `send`). */
  readonly sent: Sent;
}

/**
 * What a transaction sent without waiting (BEGIN, `lockGame`, `queue`, COMMIT): each answer's
 * wait, which never fails (a failure is kept in `failed`, the first one).
 */
interface Sent {
  waits: Promise<void>[];
  failed: Error | null;
  /** Its client's socket is corked until the flow next waits (see PgConnection.cork). */
  corked: boolean;
}

/** A drizzle prepared query of node-postgres, as far as `directPg` reads it. */
interface DrizzlePgPrepared {
  queryString?: string;
  params?: unknown[];
  fields?: Fields;
  customResultMapper?: unknown;
}

/** Names of the statements run as named statements (unique in the process: one text each). */
let statements = 0;

/**
 * A statement's SQL and values taken once from drizzle's prepared query, run on the client `on`
 * gives (the flow's transaction's, or the pool) as a named statement; rows mapped to the selected
 * names as drizzle maps them. Null where drizzle's own run is needed (a custom mapper, a nested
 * selection).
 */
function directPg(prepared: unknown, on: () => pg.Pool | pg.PoolClient): Executable | null {
  const p = prepared as DrizzlePgPrepared;
  if (typeof p.queryString !== 'string' || !Array.isArray(p.params) || p.customResultMapper) return null;
  const row = p.fields ? rowMapper(p.fields) : null;
  if (p.fields && !row) return null;
  const values = valuesOf(p.params);
  const name = `mafia_${++statements}`;
  const text = p.queryString;
  if (row) {
    const config = { name, text, rowMode: 'array' as const };
    return {
      execute: async (v?: Params) => (await on().query<unknown[]>(config, values(v))).rows.map(row),
    };
  }
  const config = { name, text };
  return { execute: (v?: Params) => on().query(config, values(v)), [SENT_AT_ONCE]: true };
}

/**
 * Marks an Executable of `directPg`: its execute hands the statement to the client before it
 * returns (drizzle's own execute does so only after awaits of its own), so statements sent one
 * after another reach the server in that order.
 */
const SENT_AT_ONCE = Symbol('sent at once');

/** What drizzle's PostgreSQL builders, prepared queries and relational queries have in common. */
interface Executable {
  execute(params?: Params): Promise<unknown>;
  [SENT_AT_ONCE]?: true;
}

const INT8 = 20;
const NUMERIC = 1700;
type TypeParser = (text: string) => unknown;
interface Types {
  getTypeParser(oid: number, format?: string): unknown;
}

/** Type parsers: int8 and numeric as JavaScript numbers, every other type as `base` parses it. */
export function pgNumbers(base: Types = pg.types): Types {
  return {
    getTypeParser(oid: number, format?: string): unknown {
      if (format === 'binary') return base.getTypeParser(oid, format);
      if (oid === INT8) return Number as TypeParser;
      if (oid === NUMERIC) return Number as TypeParser;
      return base.getTypeParser(oid, format);
    },
  };
}

const NUMBERS = pgNumbers();

/**
 * A pool client whose queries parse int8 and numeric as numbers. drizzle passes type parsers with
 * each query (for its date and time types), which take the place of the client's own: they are
 * kept, with int8 and numeric in front of them.
 *
 * Its connection's failures go to `onError` and never end the process: pg-pool listens for them
 * only while a client is idle, and a client checked out for a transaction that waits between two
 * queries (the server restarted, idle_in_transaction_session_timeout ended the session) would
 * otherwise emit 'error' with no listener. The transaction's next query fails instead, and the
 * pool drops the client when it comes back.
 */
function numbersClient(connectionTimeoutMillis: number, onError: (e: Error) => void): typeof pg.Client {
  return class NumbersClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      const c = typeof config === 'string' ? { connectionString: config } : { ...config };
      super({ ...c, types: NUMBERS, connectionTimeoutMillis, pipeline: true } as pg.ClientConfig);
      this.on('error', onError);
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      this.query = ((config: unknown, ...rest: unknown[]) => {
        if (config !== null && typeof config === 'object' && !('submit' in config) && 'types' in config) {
          const types = (config as { types?: Types }).types;
          if (types) config = { ...config, types: pgNumbers(types) };
        }
        return query(config, ...rest);
      }) as typeof this.query;
    }
  };
}

export interface PgPoolOptions {
  /** Clients at most (each open transaction holds one). */
  max?: number;
  /** How long opening one connection may take before it fails. */
  connectionTimeoutMillis?: number;
  /** A connection failed (idle or in use): the pool replaces it; a query on it fails. */
  onConnectionError?: (e: Error) => void;
}

/** A pool whose clients parse int8 and numeric as numbers; `config` as pg.Pool's. */
export function numbersPool(config: pg.PoolConfig, options: PgPoolOptions = {}): pg.Pool {
  const onError = (e: Error) => options.onConnectionError?.(e);
  const pool = new pg.Pool({
    ...config,
    ...(options.max !== undefined ? { max: options.max } : {}),
    types: NUMBERS,
    // On the client only: the pool's own connectionTimeoutMillis would also bound the wait for a
    // free client, and a burst of transactions may queue longer than it takes to connect.
    Client: numbersClient(options.connectionTimeoutMillis ?? 10_000, onError),
  });
  // The pool repeats an idle client's failure, already told by the client's listener.
  pool.on('error', () => {});
  return pool;
}

/** The SQL of `ownership.owns(guildId)` at this moment: see PgConnection.ownsGuild. */
export function ownsGuildSql(o: Ownership, guildId: SQLWrapper): SQL {
  if (o.all) return sql`true`;
  const count = o.shardCount;
  const shards = [...o.shards];
  if (!Number.isInteger(count) || count < 1 || !shards.every((s) => Number.isInteger(s) && s >= 0))
    throw new Error(`invalid ownership: shards ${shards.join(',')} of ${count}`);
  const held = sql.raw(`'{${shards.join(',')}}'::int[]`);
  const zero = shards.includes(0) ? sql`true` : sql`false`;
  // A guild id is up to 20 digits (larger than bigint's 9223372036854775807): numeric, and
  // div(…, 2^22) is `>> 22` for a number >= 0. CASE keeps the cast from text that is not a number.
  return sql`(case when (${guildId})::text ~ '^[0-9]{1,20}$' then mod(div((${guildId})::numeric, 4194304), ${sql.raw(String(count))}) = any(${held}) else ${zero} end)`;
}

interface Corkable {
  cork?: () => void;
  uncork?: () => void;
}

const LOCK_GAME = { name: 'mafia_lock_game', text: 'select 1 from games where id = $1 for update' };

export class PgConnection implements Connection {
  readonly dialect = 'postgres' as const;
  /** schema-pg.ts, typed as schema.ts: the same tables and columns under the same names. */
  readonly t: Tables = pgSchema as unknown as Tables;
  private readonly flow = new AsyncLocalStorage<Open>();
  private readonly root: NodePgDatabase<typeof pgSchema>;
  /** drizzle on each client of the pool (made once per client). */
  private readonly onClient = new WeakMap<pg.PoolClient, PgDb>();
  /** How many times `ownsGuild` was called: a statement whose build calls it is not kept. */
  private ownershipReads = 0;
  /** The longest an outermost transaction stayed open, in ms (waiting for a client of the pool included). */
  longestTransactionMs = 0;

  constructor(
    readonly pool: pg.Pool,
    /** The ref `ownsGuild` reads each time a query is built into SQL. */
    readonly ownership: OwnershipRef = new OwnershipRef(),
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.root = drizzle(pool, { schema: pgSchema });
  }

  /** The calling flow's transaction, or its innermost one still open; null outside. */
  private current(): Open | null {
    let o = this.flow.getStore() ?? null;
    while (o !== null && !o.active) o = o.parent;
    return o;
  }

  private get pgDb(): PgDb {
    const open = this.current();
    if (!open) return this.root;
    this.cork(open);
    return open.tx;
  }

  /** Where a statement runs now: the flow's transaction's client (corked), else the pool. */
  private clientNow(): pg.Pool | pg.PoolClient {
    const open = this.current();
    if (!open) return this.pool;
    this.cork(open);
    return open.client;
  }

  /**
   * Holds the transaction's socket writes back until the flow waits for something (the end of the
   * current run of the event loop's ticks and microtasks: process.nextTick), so the statements
   * sent meanwhile leave in one write, not one system call each (pg writes each statement's
   * messages at once; a fifth of the bot's CPU per action went to those writes).
   */
  private cork(open: Open): void {
    const sent = open.sent;
    if (sent.corked) return;
    const stream = (open.client as unknown as { connection?: { stream?: Corkable } }).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    const { cork, uncork } = stream;
    cork.call(stream);
    sent.corked = true;
    process.nextTick(() => {
      sent.corked = false;
      uncork.call(stream);
    });
  }

  get db(): Db {
    return this.pgDb as unknown as Db;
  }

  get inTransaction(): boolean {
    return this.current() !== null;
  }

  txCache(): Map<string, unknown> | null {
    return this.current()?.cache ?? null;
  }

  /** drizzle's PostgreSQL queries run with execute (the Runnable type is SQLite's). */
  private execute(q: unknown, params?: Params): Promise<unknown> {
    return (q as Executable).execute(params);
  }

  async all<T>(q: Pick<Runnable<T>, 'all'>, params?: Params): Promise<T[]> {
    const r = await this.answer(this.execute(q, params));
    return (Array.isArray(r) ? r : (r as pg.QueryResult).rows) as T[];
  }

  async get<T>(q: Pick<Runnable<T>, 'get'>, params?: Params): Promise<T | undefined> {
    const r = await this.answer(this.execute(q, params));
    if (Array.isArray(r)) return r[0] as T | undefined;
    // A relational findFirst gives its row (or undefined) itself.
    if (r !== null && typeof r === 'object' && 'rows' in r && 'command' in r)
      return (r as pg.QueryResult).rows[0] as T | undefined;
    return r as T | undefined;
  }

  async run(q: Pick<Runnable<unknown>, 'run'>, params?: Params): Promise<number> {
    const r = await this.answer(this.execute(q, params));
    // With `.returning()`, the rows.
    return Array.isArray(r) ? r.length : ((r as pg.QueryResult).rowCount ?? 0);
  }

  /**
   * Inside a transaction, a statement built with `statement()` is sent at once and not waited for:
   * it goes out with the next statement that is (see `send`). Anything else is run as `run` runs it.
   */
  async queue(q: Pick<Runnable<unknown>, 'run'>, params?: Params): Promise<void> {
    const open = this.current();
    const x = q as unknown as Executable;
    if (open && x[SENT_AT_ONCE]) this.send(open, x.execute(params));
    else await this.run(q, params);
  }

  /** A builder's SQL and values, sent on the transaction's client as an unnamed statement. */
  async queueBuilt(q: Pick<Runnable<unknown>, 'run'>): Promise<void> {
    const open = this.current();
    const built = q as unknown as { toSQL?: () => { sql: string; params: unknown[] } };
    if (!open || typeof built.toSQL !== 'function') {
      await this.run(q);
      return;
    }
    const { sql: text, params } = built.toSQL();
    this.cork(open);
    this.send(open, open.client.query(text, params));
  }

  async rows<T>(query: SQL): Promise<T[]> {
    return (await this.answer(this.pgDb.execute(query))).rows as T[];
  }

  async exec(query: SQL): Promise<number> {
    return (await this.answer(this.pgDb.execute(query))).rowCount ?? 0;
  }

  /**
   * A transaction's statement sent without waiting for its answer (pipelining: the pool's clients
   * send a statement while earlier ones are still running, and the server answers them in order).
   * Its failure is kept and fails the transaction: the next statement waited for throws it, and
   * so does the commit (PostgreSQL would otherwise answer COMMIT of a failed transaction with a
   * rollback, not an error).
   */
  private send(open: Open, answer: Promise<unknown>): void {
    const sent = open.sent;
    sent.waits.push(
      answer.then(
        () => {},
        (e: Error) => {
          sent.failed ??= e;
        },
      ),
    );
  }

  /**
   * The answer of a statement waited for. Inside a transaction, when it fails, a statement sent
   * earlier that failed first is what is thrown (this one failed because the transaction had).
   */
  private async answer<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      const open = this.current();
      if (!open) throw e;
      // PostgreSQL fails the whole transaction with any of its statements (its savepoint's, when
      // it is in one): the commit must fail even if the caller goes on.
      await Promise.all(open.sent.waits.splice(0));
      open.sent.failed ??= e as Error;
      throw open.sent.failed;
    }
  }

  /** Waits for every answer sent for so far; throws the first failure among them. */
  private async settle(sent: Sent): Promise<void> {
    while (sent.waits.length > 0) {
      const waits = sent.waits.splice(0);
      await Promise.all(waits);
    }
    if (sent.failed) throw sent.failed;
  }

  /**
   * Built once on first use and run as a named statement on the flow's client (see the top of this
   * file); one whose SQL reads the ownership is built on `db` at each run.
   */
  statement<Q extends Preparable>(build: (db: Db, t: Tables) => Q): () => ReturnType<Q['prepare']> {
    // The builder itself: PostgreSQL's builders run with execute(params), as a prepared one does.
    const each = () => build(this.db, this.t) as unknown as ReturnType<Q['prepare']>;
    let kept: Executable | null | undefined;
    return () => {
      if (kept === undefined) {
        const before = this.ownershipReads;
        const prepared = build(this.root as unknown as Db, this.t).prepare();
        kept = this.ownershipReads === before ? directPg(prepared, () => this.clientNow()) : null;
      }
      return (kept ?? each()) as ReturnType<Q['prepare']>;
    };
  }

  /** Its SQL and values taken once, as `statement`'s, and run as a named statement the same way. */
  sqlStatement(build: () => SQL): () => Runnable<unknown> {
    const preparable = {
      prepare: () => {
        const q = PG_DIALECT.sqlToQuery(build());
        return { queryString: q.sql, params: q.params } satisfies DrizzlePgPrepared;
      },
    };
    return this.statement(() => preparable) as unknown as () => Runnable<unknown>;
  }

  /**
   * TRUE while this process holds every shard; else the SQL of `ShardOwnership.owns`: a snowflake's
   * shard `(id >> 22) % count` among the held ones, anything else (null, not 1-20 digits) owned
   * only by shard 0's holder. Built when the query is turned into SQL, which drizzle does at each
   * run: the ownership of that moment.
   */
  ownsGuild(guildId: SQLWrapper): SQL {
    this.ownershipReads++;
    const ref = this.ownership;
    return sql`${{ getSQL: () => ownsGuildSql(ref, guildId) }}`;
  }

  /** PostgreSQL's GREATEST ignores a NULL (SQLite's max(a, b) gives NULL): pass numbers. */
  greatest(a: SQLWrapper, b: SQLWrapper): SQL {
    return sql`greatest(${a}, ${b})`;
  }

  /**
   * BEGIN … COMMIT on a client of the pool (ROLLBACK when `fn` fails), as drizzle's transaction
   * does; inside the flow's transaction, a savepoint of it (`sp<depth>`, as drizzle names them).
   *
   * Pipelined: BEGIN, `lockGame` and `queue`d writes are sent without waiting for their answers,
   * so they travel with the next statement that is waited for, and COMMIT with the last writes:
   * an action's transaction takes a round trip per read it waits for, plus one for the commit. A
   * savepoint waits for what was sent before it opens and before it ends, so its rollback undoes
   * exactly its own failures.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const parent = this.current();
    if (parent) {
      const open: Open = {
        tx: parent.tx,
        client: parent.client,
        parent,
        depth: parent.depth + 1,
        active: true,
        cache: parent.cache,
        sent: parent.sent,
      };
      const name = `sp${open.depth}`;
      await this.settle(parent.sent);
      await parent.client.query(`savepoint ${name}`);
      try {
        const r = await this.flow.run(open, fn);
        await this.settle(open.sent);
        open.active = false;
        await parent.client.query(`release savepoint ${name}`);
        return r;
      } catch (e) {
        open.active = false;
        open.cache.clear();
        // Its own failures are undone with it: wait for every answer, forget the failure.
        await Promise.all(open.sent.waits.splice(0));
        open.sent.failed = null;
        await parent.client.query(`rollback to savepoint ${name}`);
        throw e;
      }
    }
    const started = this.clock();
    const client = await this.pool.connect();
    // A client whose ROLLBACK failed is broken (its connection lost): the pool ends it.
    let broken: Error | undefined;
    try {
      let tx = this.onClient.get(client);
      if (!tx) this.onClient.set(client, (tx = drizzle(client, { schema: pgSchema }) as unknown as PgDb));
      const open: Open = {
        tx,
        client,
        parent: null,
        depth: 0,
        active: true,
        cache: new Map(),
        sent: { waits: [], failed: null, corked: false },
      };
      this.cork(open);
      const begun = client.query('begin');
      this.send(open, begun);
      try {
        const r = await this.flow.run(open, fn);
        open.active = false;
        this.cork(open);
        const committed = client.query('commit');
        this.send(open, committed);
        await this.settle(open.sent);
        // A failed transaction's COMMIT is answered ROLLBACK: never the case after settle.
        const tag = (await committed).command;
        if (tag !== 'COMMIT') throw new Error(`the transaction was not committed (${tag})`);
        return r;
      } catch (e) {
        open.active = false;
        await Promise.all(open.sent.waits.splice(0));
        await client.query('rollback').catch((r: Error) => (broken = r));
        throw e;
      }
    } finally {
      client.release(broken);
      this.longestTransactionMs = Math.max(this.longestTransactionMs, this.clock() - started);
    }
  }

  /**
   * `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`: the row held until the transaction ends. Sent
   * without waiting: the server runs the transaction's statements in order, so every later one
   * runs with the row held.
   */
  async lockGame(gameId: number): Promise<void> {
    const open = this.current();
    if (!open) throw new Error('lockGame outside a transaction');
    this.cork(open);
    this.send(open, open.client.query(LOCK_GAME, [gameId]));
  }

  /** Ends the pool: idle clients at once, a transaction's when it ends. */
  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}
