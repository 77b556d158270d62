// The storage seam's connection (issue 23): what every store runs its queries through, the same
// for SQLite and PostgreSQL. Stores build queries with drizzle on `c.db` and the dialect's tables
// `c.t`, and run them with `c.all`, `c.get`, `c.run` (or `c.rows`, `c.exec` for raw SQL); they
// never call a driver themselves. Everything is asynchronous, because PostgreSQL's driver is.
//
// Transactions: `c.transaction(fn)` runs `fn` as one transaction; the queries `fn` makes (through
// any store on this connection) run inside it: the connection knows which asynchronous flow holds
// the transaction (AsyncLocalStorage). A transaction inside a transaction is a savepoint.
//
// SQLite has one connection per process. While one flow's transaction is open (waiting between
// two of its queries), another flow's query would run inside it: see its uncommitted rows, or be
// rolled back with it. So a query or transaction of another flow waits until the open one ends.
// A query's check and its execution are one synchronous step (better-sqlite3 is synchronous), so
// nothing can slip in between. An idle connection costs no waiting at all.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import { Column, is, Param, Placeholder, sql, SQL, type SQLWrapper } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import * as schema from './schema';
import { OwnershipRef } from './ownership';
import type { Checkpointer } from './checkpointer';

export type Dialect = 'sqlite' | 'postgres';

/** The context of no flow at all (made when this module loads, outside any transaction). */
const ROOT = new AsyncResource('mafia:outside-transactions');

/**
 * Runs `fn` outside whatever transaction the calling flow is in: work it starts (a timer, a queued
 * task, a promise left running) is another flow of its own. Work started inside a transaction
 * otherwise belongs to it while it is open (its queries would run inside it, and be undone with
 * it): everything that hands work on from a change (the game service's effects, the deliverer's
 * cue, the game queues) starts it through here.
 */
export function detached<T>(fn: () => T): T {
  return ROOT.runInAsyncScope(fn);
}
/**
 * `p` itself, marked as handled: a statement's answer kept for later (a transaction's cache) that
 * nobody may wait for is not an unhandled rejection when it fails; whoever waits for it still gets
 * the failure (and the transaction fails with it).
 */
export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** drizzle over this connection, typed with the SQLite schema (PostgreSQL's is generated from it: same tables, same columns). */
export type Db = BetterSQLite3Database<typeof schema>;
/** The tables of the connection's dialect (`schema.ts` or `schema-pg.ts`), typed as `schema.ts`'s. */
export type Tables = typeof schema;
export type Params = Record<string, unknown>;

/**
 * A query or prepared statement built with drizzle. SQLite's run synchronously through all/get/run;
 * PostgreSQL's through execute (the connection calls the one its dialect has).
 */
export interface Runnable<T> {
  all(params?: Params): T[];
  get(params?: Params): T | undefined;
  run(params?: Params): unknown;
}

/**
 * A query builder with placeholders (`sql.placeholder`), as drizzle returns it before `.prepare()`:
 * what `prepare()` gives is run with `all`/`get` (a select, or a write with `.returning()`) or `run`.
 */
export interface Preparable {
  prepare(): unknown;
}

export interface Connection {
  readonly dialect: Dialect;
  /** Which guilds this process owns (issue 22); `ownsGuild` reads it at each run. */
  readonly ownership: OwnershipRef;
  /** drizzle: inside a transaction, the transaction's. Build queries on it at the time they run. */
  readonly db: Db;
  readonly t: Tables;
  /** The rows of a query. */
  all<T>(q: Pick<Runnable<T>, 'all'>, params?: Params): Promise<T[]>;
  /** Its first row (add `.limit(1)` where more could match). */
  get<T>(q: Pick<Runnable<T>, 'get'>, params?: Params): Promise<T | undefined>;
  /** Runs an insert, update or delete; how many rows it changed. */
  run(q: Pick<Runnable<unknown>, 'run'>, params?: Params): Promise<number>;
  /**
   * Runs an insert, update or delete whose count nobody needs (the hot paths' writes). Inside a
   * transaction on PostgreSQL, a statement built with `statement()` is sent without waiting for
   * its answer: it travels with the next statement that is waited for, or with the commit, and
   * its failure fails the transaction there. Elsewhere, as `run`.
   */
  queue(q: Pick<Runnable<unknown>, 'run'>, params?: Params): Promise<void>;
  /**
   * `queue` for an insert, update or delete built when it runs (drizzle's builder on `db`, its
   * values in it: a game's results, as many rows as seats). Inside a transaction on PostgreSQL it is
   * sent without waiting for its answer, as `queue` sends a statement; elsewhere, as `run`.
   */
  queueBuilt(q: Pick<Runnable<unknown>, 'run'>): Promise<void>;
  /** Raw SQL (drizzle's `sql` template) returning rows. */
  rows<T>(query: SQL): Promise<T[]>;
  /** Raw SQL that changes rows; how many. */
  exec(query: SQL): Promise<number>;
  /**
   * A statement with placeholders, for hot paths: SQLite prepares it once; PostgreSQL builds it
   * at each run on `db` (inside a transaction a statement must run on the transaction's client).
   * Run what the returned function gives with `all`/`get`/`run` and the placeholders' values.
   */
  statement<Q extends Preparable>(build: (db: Db, t: Tables) => Q): () => ReturnType<Q['prepare']>;
  /**
   * A statement written in SQL (drizzle's `sql` template, values as `sql.placeholder`), for what
   * drizzle's builders cannot say (PostgreSQL's data-modifying WITH); prepared once as `statement`
   * prepares, and run the same way (`run`, `queue`).
   */
  sqlStatement(build: () => SQL): () => Runnable<unknown>;
  /** SQL: this process owns the guild whose id `guildId` is (ownership.ts). */
  ownsGuild(guildId: SQLWrapper): SQL;
  /** SQL: the larger of two numbers. */
  greatest(a: SQLWrapper, b: SQLWrapper): SQL;
  /** One write transaction: all of `fn`'s queries, or none. Nested: a savepoint. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: holds the game's row until it ends, so a second process that believes it
   * owns the guild (during a handover) waits instead of writing the same game (PostgreSQL's
   * `SELECT … FOR UPDATE`, sent without waiting for its answer: the server runs the transaction's
   * statements in order, so the next one the flow waits for is the one that waits for the row).
   * SQLite: nothing to do, its transactions hold the whole file.
   */
  lockGame(gameId: number): Promise<void>;
  /** Whether the calling flow is inside a transaction of this connection. */
  readonly inTransaction: boolean;
  /**
   * Rows the calling flow's transaction has read or written, kept by the stores that use it so the
   * same row is not read again in the same transaction (a round trip each on PostgreSQL). One map
   * per outermost transaction, emptied when a savepoint inside it rolls back; null outside one. A
   * store keeps only rows that nothing but its own methods write, and updates them as it writes.
   */
  txCache(): Map<string, unknown> | null;
  /** The longest an outermost transaction stayed open so far, in ms (a metric). */
  readonly longestTransactionMs: number;
  close(): Promise<void>;
}

/** drizzle's selected fields, as the prepared queries of both drivers hold them. */
export type Fields = { path: string[]; field: unknown }[];

/** A drizzle prepared query of better-sqlite3, as far as `direct` reads it. */
interface DrizzlePrepared {
  stmt?: Database.Statement;
  query?: { params: unknown[] };
  fields?: Fields;
  customResultMapper?: unknown;
}

type Decoder = { mapFromDriverValue(v: unknown): unknown };

/**
 * A statement's values from the placeholders' (each encoded as its column's when bound to one),
 * in the order of drizzle's params; fixed values as they are.
 */
export function valuesOf(params: readonly unknown[]): (v?: Params) => unknown[] {
  const fill: ((v: Params) => unknown)[] = params.map((x) => {
    if (is(x, Placeholder)) return (v: Params) => v[x.name];
    if (is(x, Param) && is(x.value, Placeholder)) {
      const { name } = x.value;
      return (v: Params) => x.encoder.mapToDriverValue(v[name]);
    }
    return () => x;
  });
  return (v: Params = {}) => fill.map((f) => f(v));
}

/**
 * A row given as an array, mapped to the selected names through their columns' decoders, as
 * drizzle maps it; null where drizzle's own mapping is needed (a nested selection, a field it
 * cannot decode).
 */
export function rowMapper(fields: Fields): ((r: unknown[]) => Record<string, unknown>) | null {
  if (fields.some((f) => f.path.length !== 1)) return null;
  const names = fields.map((f) => f.path[0]!);
  const decoders = fields.map(({ field }): Decoder | undefined => {
    if (is(field, Column)) return field as Decoder;
    if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
    return (field as { sql?: { decoder?: Decoder } }).sql?.decoder;
  });
  if (decoders.some((d) => d === undefined)) return null;
  return (r: unknown[]) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const raw = r[i];
      out[names[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
    }
    return out;
  };
}

/**
 * A prepared statement run straight on better-sqlite3 (the hot paths: every action reads and
 * writes the outbox's rows through these): its values placed once per run and its row mapped to
 * the selected names, without drizzle's general machinery (a check of every value's kind, nested
 * paths) at each run; the same values and rows as drizzle's own `all`/`get`/`run`. Null (drizzle's
 * own is used) for anything else: nested selections, a custom mapper.
 */
function direct(prepared: unknown): Runnable<unknown> | null {
  const p = prepared as DrizzlePrepared;
  const stmt = p.stmt;
  if (!stmt || !p.query || p.customResultMapper) return null;
  const values = valuesOf(p.query.params);
  const fields = p.fields;
  const row = fields ? rowMapper(fields) : null;
  if (fields && !row) return null;
  if (row && stmt.reader) stmt.raw(true);
  return {
    run: (v) => stmt.run(...values(v)),
    get: (v) => {
      if (!row) return stmt.get(...values(v));
      const r = stmt.get(...values(v)) as unknown[] | undefined;
      return r === undefined ? undefined : row(r);
    },
    all: (v) => {
      if (!row) return stmt.all(...values(v));
      return (stmt.all(...values(v)) as unknown[][]).map(row);
    },
  };
}

interface Open {
  readonly done: Promise<void>;
  /** Savepoints opened inside, to name the next one. */
  depth: number;
  /** See Connection.txCache. */
  readonly cache: Map<string, unknown>;
}

/**
 * Closes the bot's connection to a SQLite file with everything committed copied into the file (a
 * FULL checkpoint: the checkpoint worker's connection may still be open, and then this one is not
 * the file's last, which would do it as it closes). A file in memory or read-only has no WAL.
 */
export function closeSqlite(sqlite: Database.Database): void {
  if (!sqlite.open) return;
  if (!sqlite.readonly && sqlite.name !== ':memory:') {
    try {
      sqlite.pragma('wal_checkpoint(FULL)');
    } catch {
      // closing anyway: the WAL is read back at the next open
    }
  }
  sqlite.close();
}

/**
 * SQLite (better-sqlite3) behind the asynchronous seam. `BEGIN IMMEDIATE`: the write lock is taken
 * at BEGIN, so a process sharing the file waits for it there (busy_timeout) instead of failing with
 * "database is locked" when a read transaction turns into a write one (issue 22).
 */
export class SqliteConnection implements Connection {
  readonly dialect = 'sqlite' as const;
  readonly t: Tables = schema;
  private readonly flow = new AsyncLocalStorage<Open>();
  private open: Open | null = null;
  /** Raw SQL's statements by their text, prepared once (the stats' statements run per game closed). */
  private readonly raw = new Map<string, Database.Statement>();
  private readonly dialectOf = new SQLiteSyncDialect();
  /** The longest a transaction stayed open, in ms (the event loop may run other work meanwhile). */
  longestTransactionMs = 0;
  /**
   * The worker that checkpoints the file's WAL off the event loop (checkpointer.ts), when the file
   * has one (client.ts starts it); closing stops it first.
   */
  checkpointer: Checkpointer | null = null;
  /** BEGIN IMMEDIATE, COMMIT, ROLLBACK and the savepoints' statements, prepared once. */
  private readonly control = new Map<string, Database.Statement>();

  constructor(
    readonly db: Db,
    readonly sqlite: Database.Database,
    /** The ref the connection's `owns_guild` function reads (client.ts registers it). */
    readonly ownership: OwnershipRef = new OwnershipRef(),
    private readonly clock: () => number = () => performance.now(),
  ) {}

  statement<Q extends Preparable>(build: (db: Db, t: Tables) => Q): () => ReturnType<Q['prepare']> {
    const prepared = build(this.db, this.t).prepare();
    const runnable = (direct(prepared) ?? prepared) as ReturnType<Q['prepare']>;
    return () => runnable;
  }

  sqlStatement(build: () => SQL): () => Runnable<unknown> {
    const q = this.dialectOf.sqlToQuery(build());
    const st = this.sqlite.prepare(q.sql);
    const values = valuesOf(q.params);
    const runnable: Runnable<unknown> = {
      run: (v) => st.run(...values(v)),
      get: (v) => st.get(...values(v)),
      all: (v) => st.all(...values(v)),
    };
    return () => runnable;
  }

  ownsGuild(guildId: SQLWrapper): SQL {
    return sql`owns_guild(${guildId})`;
  }

  greatest(a: SQLWrapper, b: SQLWrapper): SQL {
    return sql`max(${a}, ${b})`;
  }

  get inTransaction(): boolean {
    const mine = this.flow.getStore();
    return mine !== undefined && mine === this.open;
  }

  txCache(): Map<string, unknown> | null {
    const mine = this.flow.getStore();
    return mine !== undefined && mine === this.open ? mine.cache : null;
  }

  /**
   * No other flow's transaction is open. Each method checks it in a loop right before it runs its
   * statement, with no await in between (a helper awaited in between would give another flow the
   * turns to begin its transaction there).
   */
  private free(): boolean {
    return this.open === null || this.flow.getStore() === this.open;
  }

  all<T>(q: Pick<Runnable<T>, 'all'>, params?: Params): Promise<T[]> {
    return this.when(() => q.all(params));
  }

  get<T>(q: Pick<Runnable<T>, 'get'>, params?: Params): Promise<T | undefined> {
    return this.when(() => q.get(params));
  }

  run(q: Pick<Runnable<unknown>, 'run'>, params?: Params): Promise<number> {
    return this.when(() => (q.run(params) as { changes: number }).changes);
  }

  queue(q: Pick<Runnable<unknown>, 'run'>, params?: Params): Promise<void> {
    return this.when(() => {
      q.run(params);
    });
  }

  queueBuilt(q: Pick<Runnable<unknown>, 'run'>): Promise<void> {
    return this.queue(q);
  }

  rows<T>(query: SQL): Promise<T[]> {
    return this.when(() => {
      const { st, params } = this.prepared(query);
      return st.all(...params) as T[];
    });
  }

  exec(query: SQL): Promise<number> {
    return this.when(() => {
      const { st, params } = this.prepared(query);
      return st.run(...params).changes;
    });
  }

  /**
   * Runs a statement as soon as no other flow's transaction is open: at once on a free connection
   * (the check and the run one synchronous step), else after that transaction ends.
   */
  private when<T>(step: () => T): Promise<T> {
    if (this.free()) {
      try {
        return Promise.resolve(step());
      } catch (e) {
        return Promise.reject(e as Error);
      }
    }
    return this.later(step);
  }

  private async later<T>(step: () => T): Promise<T> {
    while (!this.free()) await this.open!.done;
    return step();
  }

  /** A raw query's statement (prepared once per text; a few hundred texts at most) and its values. */
  private prepared(query: SQL): { st: Database.Statement; params: unknown[] } {
    const q = this.dialectOf.sqlToQuery(query);
    let st = this.raw.get(q.sql);
    if (!st) {
      if (this.raw.size >= 500) this.raw.clear();
      this.raw.set(q.sql, (st = this.sqlite.prepare(q.sql)));
    }
    return { st, params: q.params };
  }

  /**
   * Whether the file takes a write now (the operators' health check): the write lock is taken
   * (`BEGIN IMMEDIATE`) and let go at once, waiting at most `waitMs` for another process's writer
   * (the connection's own busy timeout is put back). One synchronous step, so no other flow's
   * query runs with the short timeout. Null when it does, or why not. While a transaction of this
   * process is open, the lock is its own: null.
   */
  probeWrite(waitMs = 250): string | null {
    const sqlite = this.sqlite;
    if (!sqlite.open) return 'the database is closed';
    if (sqlite.readonly) return 'the database is open read-only';
    if (sqlite.inTransaction) return null;
    const before = sqlite.pragma('busy_timeout', { simple: true }) as number;
    try {
      sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
      sqlite.exec('BEGIN IMMEDIATE');
      sqlite.exec('ROLLBACK');
      return null;
    } catch (e) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      return (e as Error).message;
    } finally {
      sqlite.pragma(`busy_timeout = ${before}`);
    }
  }

  async lockGame(_gameId: number): Promise<void> {
    if (!this.inTransaction) throw new Error('lockGame outside a transaction');
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const mine = this.flow.getStore();
    if (mine !== undefined && mine === this.open) return this.savepoint(mine, fn);
    while (!this.free()) await this.open!.done;
    let release!: () => void;
    const open: Open = { done: new Promise<void>((r) => (release = r)), depth: 0, cache: new Map() };
    this.do('BEGIN IMMEDIATE');
    this.open = open;
    const started = this.clock();
    try {
      const out = await this.flow.run(open, fn);
      this.do('COMMIT');
      return out;
    } catch (e) {
      if (this.sqlite.inTransaction) this.do('ROLLBACK');
      throw e;
    } finally {
      this.longestTransactionMs = Math.max(this.longestTransactionMs, this.clock() - started);
      this.open = null;
      release();
    }
  }

  private async savepoint<T>(open: Open, fn: () => Promise<T>): Promise<T> {
    const name = `sp${++open.depth}`;
    this.do(`SAVEPOINT ${name}`);
    try {
      const out = await fn();
      this.do(`RELEASE ${name}`);
      return out;
    } catch (e) {
      this.do(`ROLLBACK TO ${name}`);
      this.do(`RELEASE ${name}`);
      open.cache.clear();
      throw e;
    } finally {
      open.depth--;
    }
  }

  /** A transaction's control statement (prepared once, as better-sqlite3's own transactions do). */
  private do(text: string): void {
    let st = this.control.get(text);
    if (!st) this.control.set(text, (st = this.sqlite.prepare(text)));
    st.run();
  }

  async close(): Promise<void> {
    while (this.open !== null) await this.open.done;
    // No await before the close: nothing can begin in between.
    const stopped = this.checkpointer?.stop();
    closeSqlite(this.sqlite);
    await stopped;
  }
}
