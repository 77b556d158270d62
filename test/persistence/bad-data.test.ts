// Bad data at start-up: a clear one-line error, and the file is left exactly as it was.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, StartupError } from '../../src/db/client';
import { ROOT } from '../../testkit/scenario-files';

const dir = () => mkdtempSync(join(tmpdir(), 'mafia-bad-'));
const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

function expectStartupError(fn: () => unknown, message: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StartupError);
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain('\n');
    return;
  }
  throw new Error('expected a StartupError');
}

describe('start-up with bad data', () => {
  it('a file that is not SQLite at all', () => {
    const f = join(dir(), 'mafia.sqlite');
    writeFileSync(f, 'this is a spreadsheet, not a database '.repeat(200));
    const before = hash(f);
    expectStartupError(() => openDatabase(f), /is not a SQLite database .*left untouched/);
    expect(hash(f)).toBe(before);
    expect(readdirSync(join(f, '..'))).toEqual(['mafia.sqlite']);
  });

  it('a damaged SQLite file', () => {
    const d = dir();
    const good = join(d, 'good.sqlite');
    openDatabase(good).close();
    const f = join(d, 'mafia.sqlite');
    copyFileSync(good, f);
    const bytes = readFileSync(f);
    for (let i = 4096; i < bytes.length; i += 7) bytes[i] = 0xa5; // scribble over every page but the first
    writeFileSync(f, bytes);
    const before = hash(f);
    expectStartupError(() => openDatabase(f), /damaged|not a SQLite database/);
    expect(hash(f)).toBe(before);
  });

  it("another application's SQLite database", () => {
    const f = join(dir(), 'other.sqlite');
    const other = new Database(f);
    other.exec("create table users (id integer primary key, name text); insert into users (name) values ('x');");
    other.close();
    const before = hash(f);
    expectStartupError(() => openDatabase(f), /belongs to another application \(tables: users\).*left untouched/);
    expect(hash(f)).toBe(before);
    expect(readdirSync(join(f, '..'))).toEqual(['other.sqlite']);
  });

  it('a missing migrations folder', () => {
    const d = dir();
    const f = join(d, 'mafia.sqlite');
    expectStartupError(
      () => openDatabase(f, { migrationsFolder: join(d, 'nope') }),
      /migrations folder .*nope is missing/,
    );
    expect(existsSync(f)).toBe(false);
  });

  // Root ignores file modes: as root the test runs the check as an unprivileged user (nobody),
  // when that user can read the project; otherwise it uses a folder path that is a file.
  const asRoot = process.getuid?.() === 0;
  const nobody = { uid: 65534, gid: 65534 };
  const nobodyCanRun =
    !asRoot ||
    spawnSync(
      process.execPath,
      ['-e', 'require("fs").accessSync(process.argv[1])', join(ROOT, 'node_modules/tsx/dist/loader.mjs')],
      { ...nobody, cwd: '/' },
    ).status === 0;

  it.runIf(nobodyCanRun)('a read-only path', () => {
    const d = dir();
    chmodSync(d, 0o755);
    const ro = join(d, 'ro');
    mkdirSync(ro);
    const existing = join(d, 'existing');
    mkdirSync(existing);
    openDatabase(join(existing, 'mafia.sqlite')).close();
    const before = hash(join(existing, 'mafia.sqlite'));
    chmodSync(ro, 0o555);
    chmodSync(existing, 0o555);
    chmodSync(join(existing, 'mafia.sqlite'), 0o444);
    const run = (path: string) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/open-db-child.ts'), path], {
        cwd: ROOT,
        encoding: 'utf8',
        ...(asRoot ? nobody : {}),
      });
      return JSON.parse(r.stdout) as { ok: boolean; startup: boolean; message: string };
    };
    expect(run(join(ro, 'mafia.sqlite'))).toMatchObject({
      ok: false,
      startup: true,
      message: expect.stringMatching(/folder .* is not writable/),
    });
    expect(run(join(ro, 'sub', 'mafia.sqlite'))).toMatchObject({
      ok: false,
      startup: true,
      message: expect.stringMatching(/cannot create the database folder .*permission denied/),
    });
    expect(run(join(existing, 'mafia.sqlite'))).toMatchObject({
      ok: false,
      startup: true,
      message: expect.stringMatching(/not writable|read-only/),
    });
    expect(hash(join(existing, 'mafia.sqlite'))).toBe(before);
    expect(readdirSync(ro)).toEqual([]);
  });

  it.runIf(!nobodyCanRun)(
    'a path that cannot be written (as root, where no unprivileged user can run the project)',
    () => {
      const d = dir();
      writeFileSync(join(d, 'blocker'), 'a file where a folder should be');
      expectStartupError(
        () => openDatabase(join(d, 'blocker', 'sub', 'mafia.sqlite')),
        /cannot create the database folder/,
      );
      expectStartupError(
        () => openDatabase(join(d, 'blocker', 'mafia.sqlite')),
        /cannot create the database folder|not writable/,
      );
    },
  );

  it('a good file opens in WAL mode with foreign keys on, and opens again', () => {
    const f = join(dir(), 'mafia.sqlite');
    const a = openDatabase(f);
    expect(a.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(a.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    a.close();
    openDatabase(f).close();
  });
});
