// npm run db:migrate-to-postgres (issue 23): copies a SQLite database of the bot into an empty
// PostgreSQL database. Every table of the PostgreSQL schema (src/db/schema-pg.ts, generated from
// src/db/schema.ts: a new table is copied without a change here), parents before children (the
// foreign keys), in batches, in one PostgreSQL transaction, from one snapshot of the file. Booleans
// (0/1 in SQLite) become true/false by the column's type; each bigserial sequence continues after
// the highest id the file ever gave (max(id), or SQLite's AUTOINCREMENT counter when rows were
// deleted). The file is only read. The replay of every game (db:verify) is the caller's.
import type Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { DEFAULT_MIGRATIONS, StartupError, type OpenDb } from './client';
import { PG_MIGRATIONS } from './pg-connect';
import * as pgSchema from './schema-pg';

type Kind = 'integer' | 'boolean' | 'real' | 'text';

const KIND: Record<string, Kind> = {
  PgBigInt53: 'integer',
  PgBigSerial53: 'integer',
  PgBoolean: 'boolean',
  PgDoublePrecision: 'real',
  PgText: 'text',
};

/** The PostgreSQL array type each kind is sent as (one array per column: unnest). */
const ARRAY: Record<Kind, string> = {
  integer: 'bigint[]',
  boolean: 'boolean[]',
  real: 'double precision[]',
  text: 'text[]',
};

export interface TablePlan {
  name: string;
  columns: { name: string; kind: Kind; notNull: boolean }[];
  primaryKey: string[];
  /** The bigserial column (the id), if any. */
  serial: string | null;
  /** Tables this one's foreign keys point at. */
  parents: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Every table of the PostgreSQL schema, each after the tables its foreign keys point at (in the
 * schema's order otherwise). Throws on a column type it does not know how to copy, or a cycle.
 */
export function copyPlan(): TablePlan[] {
  const plans = new Map<string, TablePlan>();
  for (const t of Object.values(pgSchema)) {
    if (!(t instanceof PgTable)) continue;
    const c = getTableConfig(t);
    const columns = c.columns.map((col) => {
      const kind = KIND[col.columnType];
      if (!kind)
        throw new Error(`copy-to-postgres: ${c.name}.${col.name} has a column type it cannot copy (${col.columnType})`);
      return { name: col.name, kind, notNull: col.notNull };
    });
    const pk = c.columns.filter((col) => col.primary).map((col) => col.name);
    plans.set(c.name, {
      name: c.name,
      columns,
      primaryKey: pk.length > 0 ? pk : c.primaryKeys.flatMap((p) => p.columns.map((x) => x.name)),
      serial: c.columns.find((col) => col.columnType === 'PgBigSerial53')?.name ?? null,
      parents: [
        ...new Set(
          c.foreignKeys.map((f) => getTableConfig(f.reference().foreignTable).name).filter((p) => p !== c.name),
        ),
      ],
    });
  }
  const order: TablePlan[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new Error(`copy-to-postgres: foreign keys in a cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    const plan = plans.get(name)!;
    for (const p of plan.parents) visit(p, [...path, name]);
    state.set(name, 'done');
    order.push(plan);
  };
  for (const name of plans.keys()) visit(name, []);
  return order;
}

// ---------------------------------------------------------------------------------------------
// The source: a SQLite file of this bot, with every migration of this version applied.

interface Applied {
  created_at: number;
}

/**
 * Checks that the file is this bot's database at this version's schema (all of migrations/ applied,
 * none newer) and that each of its tables has a PostgreSQL twin with the same columns.
 */
export function checkSource(sqlite: Database.Database, path: string, plans: TablePlan[]): void {
  const tables = (
    sqlite
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'")
      .all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  if (!tables.includes('__drizzle_migrations'))
    throw new StartupError(`${path} is not a database of this bot (no __drizzle_migrations table); nothing was copied`);
  const ours = readMigrationFiles({ migrationsFolder: DEFAULT_MIGRATIONS });
  const last = ours.at(-1)?.folderMillis ?? 0;
  const applied = (sqlite.prepare('select created_at from __drizzle_migrations').all() as Applied[]).map((r) =>
    Number(r.created_at),
  );
  const newest = Math.max(0, ...applied);
  if (newest > last)
    throw new StartupError(
      `${path} was migrated by a newer version of the bot (a migration of ${new Date(newest).toISOString()} that migrations/ does not have); copy it with that version`,
    );
  const missing = ours.filter((m) => m.folderMillis > newest).length;
  if (missing > 0)
    throw new StartupError(
      `${path} lacks ${missing} of this version's ${ours.length} migrations (it was made by an older version of the bot): start the bot on it once (it applies them), stop it, then copy`,
    );
  const byName = new Map(plans.map((p) => [p.name, p]));
  for (const t of tables) {
    if (t === '__drizzle_migrations') continue;
    const plan = byName.get(t);
    if (!plan)
      throw new StartupError(`table ${t} of ${path} has no PostgreSQL twin in src/db/schema-pg.ts; nothing was copied`);
    const cols = (sqlite.prepare(`select name from pragma_table_info(?)`).all(t) as { name: string }[]).map(
      (r) => r.name,
    );
    const want = plan.columns.map((c) => c.name);
    const extra = cols.filter((c) => !want.includes(c));
    const lacking = want.filter((c) => !cols.includes(c));
    if (extra.length > 0 || lacking.length > 0)
      throw new StartupError(
        `table ${t} of ${path} does not match the PostgreSQL schema (${[...extra.map((c) => `${c} only in the file`), ...lacking.map((c) => `${c} missing from the file`)].join(', ')}); nothing was copied`,
      );
  }
  for (const p of plans)
    if (!tables.includes(p.name)) throw new StartupError(`${path} has no table ${p.name}; nothing was copied`);
}

/** Rows per table of the file. */
export function countSqlite(sqlite: Database.Database, plans: TablePlan[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of plans)
    out[p.name] = (sqlite.prepare(`select count(*) as n from ${q(p.name)}`).get() as { n: number }).n;
  return out;
}

// ---------------------------------------------------------------------------------------------
// The target: an empty PostgreSQL database (or one holding this bot's schema without rows).

/** Tables of the target that hold rows, with their counts (drizzle's own bookkeeping aside). */
export async function nonEmptyTables(client: pg.Client): Promise<{ table: string; rows: number }[]> {
  const tables = await client.query<{ s: string; t: string }>(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
       and not (table_schema = 'drizzle' and table_name = '__drizzle_migrations')
     order by table_schema, table_name`,
  );
  const out: { table: string; rows: number }[] = [];
  for (const { s, t } of tables.rows) {
    const r = await client.query<{ n: string }>(`select count(*) as n from ${q(s)}.${q(t)}`);
    const n = Number(r.rows[0]!.n);
    if (n > 0) out.push({ table: s === 'public' ? t : `${s}.${t}`, rows: n });
  }
  return out;
}

/**
 * Refuses a target that holds rows or was migrated by a newer version, then applies
 * migrations-pg/ (its own transaction: after a failed copy the target keeps the empty schema).
 */
export async function prepareTarget(client: pg.Client, shown: string): Promise<void> {
  const full = await nonEmptyTables(client);
  if (full.length > 0) {
    const list = full.map((f) => `${f.table}: ${f.rows} ${f.rows === 1 ? 'row' : 'rows'}`).join(', ');
    throw new StartupError(
      `${shown} is not empty (${list}); it was left unchanged: copy into an empty database (createdb), or drop these rows first`,
    );
  }
  const ours = readMigrationFiles({ migrationsFolder: PG_MIGRATIONS });
  const has = await client.query<{ t: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as t");
  if (has.rows[0]?.t) {
    const r = await client.query<{ newest: string | null }>(
      'select max(created_at)::text as newest from drizzle.__drizzle_migrations',
    );
    const newest = Number(r.rows[0]?.newest ?? 0);
    if (newest > (ours.at(-1)?.folderMillis ?? 0))
      throw new StartupError(
        `${shown} was migrated by a newer version of the bot (a migration that migrations-pg/ does not have); it was left unchanged`,
      );
  }
  await migrate(drizzle(client), { migrationsFolder: PG_MIGRATIONS });
}

// ---------------------------------------------------------------------------------------------
// The copy.

export interface CopyResult {
  /** Rows copied per table, in the order they were copied. */
  rows: Record<string, number>;
  /** The next id each bigserial sequence gives. */
  nextIds: Record<string, number>;
}

/** What the copy refuses: a value PostgreSQL's column cannot hold as it is. */
function convert(table: string, col: TablePlan['columns'][number], v: unknown, where: () => string): unknown {
  const bad = (what: string) =>
    new StartupError(
      `${table}.${col.name} of ${where()} holds ${what}, which a PostgreSQL ${col.kind} column cannot take; nothing was copied`,
    );
  if (v === null || v === undefined) {
    if (col.notNull) throw bad('NULL');
    return null;
  }
  switch (col.kind) {
    case 'boolean':
      if (v === 0 || v === 1) return v === 1;
      throw bad(JSON.stringify(v) ?? String(v));
    case 'integer':
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      throw bad(typeof v === 'string' ? `the text ${JSON.stringify(v.slice(0, 40))}` : String(v));
    case 'real':
      if (typeof v === 'number') return v;
      throw bad(typeof v === 'string' ? `the text ${JSON.stringify(v.slice(0, 40))}` : String(v));
    case 'text':
      if (typeof v === 'string') {
        if (v.includes('\u0000')) throw bad('a NUL character');
        return v;
      }
      throw bad(Buffer.isBuffer(v) ? 'a blob' : `the number ${String(v)}`);
  }
}

const BATCH_ROWS = 5000;
const BATCH_CHARS = 16 * 1024 * 1024;

/**
 * Copies every table, in one transaction of the target and one read transaction (snapshot) of the
 * file; the target must hold the schema and no rows (checked again inside the transaction). On
 * any failure the transaction is rolled back: nothing is copied.
 */
export async function copyRows(
  sqlite: Database.Database,
  client: pg.Client,
  plans: TablePlan[],
  options: { batchRows?: number } = {},
): Promise<CopyResult> {
  const batchRows = Math.max(1, options.batchRows ?? BATCH_ROWS);
  const result: CopyResult = { rows: {}, nextIds: {} };
  const sequences = new Map<string, number>();
  if (sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_sequence'").get())
    for (const r of sqlite.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[])
      sequences.set(r.name, Number(r.seq));
  await client.query('BEGIN');
  sqlite.exec('BEGIN');
  try {
    for (const p of plans) {
      const r = await client.query<{ n: string }>(`select count(*) as n from ${q(p.name)}`);
      if (Number(r.rows[0]!.n) > 0)
        throw new StartupError(`table ${p.name} of the target got rows while the copy began; nothing was copied`);
    }
    for (const p of plans) {
      const names = p.columns.map((c) => q(c.name)).join(', ');
      const insert = `insert into ${q(p.name)} (${names}) select * from unnest(${p.columns
        .map((c, i) => `$${i + 1}::${ARRAY[c.kind]}`)
        .join(', ')})`;
      const serialAt = p.serial ? p.columns.findIndex((c) => c.name === p.serial) : -1;
      const keyAt = p.primaryKey.map((k) => p.columns.findIndex((c) => c.name === k));
      let maxId = 0;
      let count = 0;
      let cols: unknown[][] = p.columns.map(() => []);
      let rows = 0;
      let chars = 0;
      // One batch in flight while the next is read and converted: PostgreSQL inserts as this
      // process reads (a failed batch is thrown when the next one waits for it).
      let inFlight: Promise<unknown> | null = null;
      const flush = async () => {
        if (rows === 0) return;
        const sent = client.query(insert, cols);
        sent.catch(() => {});
        if (inFlight) await inFlight;
        inFlight = sent;
        cols = p.columns.map(() => []);
        rows = 0;
        chars = 0;
      };
      const stmt = sqlite.prepare(`select ${names} from ${q(p.name)}`).raw(true);
      for (const row of stmt.iterate() as IterableIterator<unknown[]>) {
        const where = () =>
          `the row ${p.primaryKey.map((k, i) => `${k} = ${JSON.stringify(row[keyAt[i]!])}`).join(', ') || `#${count + 1}`}`;
        for (let i = 0; i < p.columns.length; i++) {
          const v = convert(p.name, p.columns[i]!, row[i], where);
          if (typeof v === 'string') chars += v.length;
          cols[i]!.push(v);
        }
        if (serialAt >= 0) maxId = Math.max(maxId, row[serialAt] as number);
        count++;
        rows++;
        // The statement reads on while PostgreSQL takes the batch: better-sqlite3's iterator keeps
        // its place across the await (nothing else uses this connection meanwhile).
        if (rows >= batchRows || chars >= BATCH_CHARS) await flush();
      }
      await flush();
      // (Set by flush: the compiler's narrowing does not see the closure's assignment.)
      await (inFlight as Promise<unknown> | null);
      result.rows[p.name] = count;
      if (p.serial) {
        const last = Math.max(maxId, sequences.get(p.name) ?? 0);
        await client.query('select setval(pg_get_serial_sequence($1, $2), $3, $4)', [
          q(p.name),
          p.serial,
          Math.max(last, 1),
          last > 0,
        ]);
        result.nextIds[p.name] = last + 1;
      }
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    sqlite.exec('COMMIT');
  }
  return result;
}

/** Rows per table of the target, as committed. */
export async function countPostgres(client: pg.Client, plans: TablePlan[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const p of plans) {
    const r = await client.query<{ n: string }>(`select count(*) as n from ${q(p.name)}`);
    out[p.name] = Number(r.rows[0]!.n);
  }
  return out;
}

/** The file's checks alone (checkSource), before anything connects to PostgreSQL. */
export function checkSourceFile(source: OpenDb): void {
  checkSource(source.sqlite, source.path, copyPlan());
}

export interface CopyReport {
  /** Per table, in the order copied: rows in the file, rows copied, rows in PostgreSQL after the commit. */
  tables: { name: string; file: number; copied: number; postgres: number }[];
  /** The next id each bigserial sequence gives. */
  nextIds: Record<string, number>;
}

/**
 * The whole copy of a file opened read-only (openDatabase) into a PostgreSQL database: the checks
 * of both, the migrations, the rows, and each table counted again on both sides afterwards.
 * StartupError when either is unusable (nothing copied).
 */
export async function copyToPostgres(
  source: OpenDb,
  client: pg.Client,
  shown: string,
  options: { batchRows?: number } = {},
): Promise<CopyReport> {
  const plans = copyPlan();
  checkSource(source.sqlite, source.path, plans);
  await prepareTarget(client, shown);
  const copied = await copyRows(source.sqlite, client, plans, options);
  const inFile = countSqlite(source.sqlite, plans);
  const inTarget = await countPostgres(client, plans);
  return {
    tables: plans.map((p) => ({
      name: p.name,
      file: inFile[p.name]!,
      copied: copied.rows[p.name]!,
      postgres: inTarget[p.name]!,
    })),
    nextIds: copied.nextIds,
  };
}
