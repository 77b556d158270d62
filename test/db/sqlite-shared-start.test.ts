// Two processes of one machine opening one new SQLite file at once (the shards of one machine,
// test/persistence/shared-crash.test.ts): the second waits for the first one's migrations and finds
// them applied, instead of applying them again over the first one's tables ("CREATE TABLE actions"
// failed in CI when both read "nothing applied" before either took the write lock).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS, openDatabase } from '../../src/db/client';

const ROOT = join(import.meta.dirname, '..', '..');

describe('one new SQLite file opened by two processes at once', () => {
  it('the second waits while the first migrates, then finds every migration applied once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mafia-race-')), 'mafia.sqlite');
    // The first process, as drizzle's migrator did it: the migrations table created (committed),
    // then the write lock held while it migrates.
    const first = new Database(file);
    first.pragma('journal_mode = WAL');
    const table =
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)';
    first.exec(table);
    first.exec('BEGIN IMMEDIATE');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/open-db-child.ts'), file], {
      cwd: ROOT,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The second process is about to open the file; give it time to reach the lock (if it is slow,
    // the test still passes, it only checks less).
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('opening')) resolve();
      }),
    );
    await new Promise((r) => setTimeout(r, 400));
    const migrations = readMigrationFiles({ migrationsFolder: DEFAULT_MIGRATIONS });
    for (const m of migrations) {
      for (const statement of m.sql) first.prepare(statement).run();
      first
        .prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)')
        .run(m.hash, m.folderMillis);
    }
    first.exec('COMMIT');
    first.close();
    expect(await exited).toBe(0);
    expect(JSON.parse(out)).toEqual({ ok: true });
    const again = openDatabase(file);
    const applied = again.sqlite.prepare('select hash from "__drizzle_migrations"').all() as { hash: string }[];
    again.close();
    expect(applied.map((r) => r.hash)).toEqual(migrations.map((m) => m.hash));
  });

  it('on a new file, applies every migration once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mafia-race-')), 'mafia.sqlite');
    openDatabase(file).close();
    const again = openDatabase(file);
    const applied = again.sqlite.prepare('select created_at from "__drizzle_migrations"').all();
    const tables = again.sqlite.prepare("select name from sqlite_master where name = 'actions'").all();
    again.close();
    expect(applied).toHaveLength(readMigrationFiles({ migrationsFolder: DEFAULT_MIGRATIONS }).length);
    expect(tables).toHaveLength(1);
  });
});
