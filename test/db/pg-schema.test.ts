// Issue 23: one schema for both databases. src/db/schema-pg.ts is generated from src/db/schema.ts
// (tools/pg-schema.ts); the two must describe the same tables, columns, keys and indexes, and the
// migrations of both dialects must build the same structure in a real database of each kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import * as sqliteSchema from '../../src/db/schema';
import * as pgSchema from '../../src/db/schema-pg';
import { openDatabase } from '../../src/db/client';
import { postgresOrSkip, type TestPostgres } from '../../testkit/postgres';
import { pgSchemaOf, TARGET } from '../../tools/pg-schema';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ROOT = join(__dirname, '..', '..');

/** Each table's shape, with the column types in one vocabulary for both dialects. */
type Shape = Record<
  string,
  {
    columns: Record<string, { type: string; notNull: boolean; default: string | null; pk: boolean }>;
    primaryKey: string[];
    indexes: Record<string, { columns: string[]; unique: boolean; partial: boolean }>;
    foreignKeys: string[];
  }
>;

const TYPE: Record<string, string> = {
  // SQLite (drizzle's column types)
  SQLiteInteger: 'integer',
  SQLiteBoolean: 'boolean',
  SQLiteText: 'text',
  SQLiteReal: 'real',
  // PostgreSQL
  PgBigInt53: 'integer',
  PgBigSerial53: 'integer',
  PgBoolean: 'boolean',
  PgText: 'text',
  PgDoublePrecision: 'real',
};

function normDefault(d: unknown): string | null {
  if (d === undefined || d === null) return null;
  if (typeof d === 'boolean') return d ? '1' : '0';
  return String(d);
}

function shapeOf(tables: Record<string, unknown>, dialect: 'sqlite' | 'pg'): Shape {
  const out: Shape = {};
  for (const t of Object.values(tables)) {
    if (!t || typeof t !== 'object' || !(Symbol.for('drizzle:IsDrizzleTable') in (t as object))) continue;
    const c = dialect === 'sqlite' ? sqliteConfig(t as SQLiteTable) : pgConfig(t as PgTable);
    const columns: Shape[string]['columns'] = {};
    for (const col of c.columns) {
      const type = TYPE[col.columnType];
      if (!type) throw new Error(`${c.name}.${col.name}: unknown column type ${col.columnType}`);
      columns[col.name] = { type, notNull: col.notNull, default: normDefault(col.default), pk: col.primary };
    }
    const indexes: Shape[string]['indexes'] = {};
    for (const ix of c.indexes) {
      const cfg = ix.config as { name: string; columns: { name?: string }[]; unique: boolean; where?: unknown };
      indexes[cfg.name] = {
        columns: cfg.columns.map((x) => x.name ?? '?'),
        unique: cfg.unique,
        partial: cfg.where !== undefined,
      };
    }
    out[c.name] = {
      columns,
      primaryKey: c.primaryKeys.flatMap((p) => p.columns.map((x) => x.name)),
      indexes,
      foreignKeys: c.foreignKeys
        .map((f) => {
          const r = f.reference();
          return `${r.columns.map((x) => x.name).join(',')} -> ${r.foreignColumns.map((x) => x.name).join(',')}`;
        })
        .sort(),
    };
  }
  return out;
}

describe('issue 23: the PostgreSQL schema is the SQLite schema', () => {
  it('src/db/schema-pg.ts is what tools/pg-schema.ts makes of src/db/schema.ts (npm run db:pg-schema)', async () => {
    const want = await pgSchemaOf(readFileSync(join(ROOT, 'src/db/schema.ts'), 'utf8'));
    expect(readFileSync(TARGET, 'utf8')).toBe(want);
  });

  it('the same tables, columns, keys, defaults and indexes in both', () => {
    const a = shapeOf(sqliteSchema, 'sqlite');
    const b = shapeOf(pgSchema, 'pg');
    expect(Object.keys(a).length).toBeGreaterThanOrEqual(25);
    expect(b).toEqual(a);
  });
});

describe('issue 23: the migrations of both dialects build the same database', () => {
  let db: TestPostgres | null = null;
  afterAll(async () => {
    await db?.drop();
  });

  it('migrations-pg/ on a real PostgreSQL gives the tables and columns migrations/ gives SQLite', async () => {
    db = await postgresOrSkip('pg-schema migrations');
    if (!db) return;
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await migrate(drizzle(client), { migrationsFolder: join(ROOT, 'migrations-pg') });
      const cols = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
        `select table_name, column_name, is_nullable from information_schema.columns
         where table_schema = 'public' order by table_name, column_name`,
      );
      const pgCols = cols.rows.map(
        (r) => `${r.table_name}.${r.column_name}${r.is_nullable === 'NO' ? ' not null' : ''}`,
      );

      const file = join(mkdtempSync(join(tmpdir(), 'mafia-schema-')), 'x.sqlite');
      openDatabase(file).close();
      const lite = new Database(file, { readonly: true });
      const tables = (
        lite
          .prepare(
            "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'",
          )
          .all() as { name: string }[]
      ).map((r) => r.name);
      const liteCols: string[] = [];
      for (const t of tables)
        for (const c of lite.prepare(`pragma table_info("${t}")`).all() as {
          name: string;
          notnull: number;
          pk: number;
        }[])
          liteCols.push(`${t}.${c.name}${c.notnull || c.pk ? ' not null' : ''}`);
      lite.close();
      expect(pgCols).toEqual(liteCols.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));

      const ix = await client.query<{ indexname: string }>(
        `select indexname from pg_indexes where schemaname = 'public'
         and indexname not in (select conname from pg_constraint where contype = 'p') order by indexname`,
      );
      const names = Object.values(shapeOf(sqliteSchema, 'sqlite'))
        .flatMap((t) => Object.keys(t.indexes))
        .sort();
      expect(ix.rows.map((r) => r.indexname)).toEqual(names);
    } finally {
      await client.end();
    }
  });
});
