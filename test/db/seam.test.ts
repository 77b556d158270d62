// Guards the storage seam (docs/storage.md): no SQL, no SQL driver and no raw connection outside
// src/db. A file that needs a query asks a store in src/db for it by name. Inside src/db, only the
// connections and the tools that open a database call the driver: every store runs its queries
// through the Connection (src/db/connection.ts), the same code on SQLite and PostgreSQL.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** Folders that are the seam: every query of the bot lives here. */
const SEAM = ['src/db/'];

/**
 * Files outside the seam allowed to hold SQL, each with its reason. Empty today: the CLIs
 * (src/cli) open the database through src/db/client.ts and read it through the stores.
 */
const ALLOWED: Record<string, string> = {};

/**
 * The files of src/db that speak to a driver, each with its reason. The stores (store.ts,
 * outbox-store.ts, …) are not among them: they build drizzle queries and `sql` templates and run
 * them through the Connection.
 */
const DRIVER_FILES: Record<string, string> = {
  'src/db/connection.ts': 'the SQLite connection: runs the statements, its transactions, the write probe',
  'src/db/client.ts': 'opens and checks the SQLite file, sets its pragmas, runs the migrations',
  'src/db/copy-to-postgres.ts': 'reads a SQLite file table by table and copies it into PostgreSQL',
  'src/db/checkpointer.ts':
    "checkpoints the SQLite file's WAL on a worker thread; hands checkpoints back to the bot's connection",
  'src/db/open.ts': 'chooses the database; counts the games of a SQLite file left behind when PostgreSQL is chosen',
};
/** PostgreSQL's connection and tools (src/db/pg-*.ts): the driver is theirs. */
const PG_FILE = /^src\/db\/pg-[^/]+\.ts$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The code without comments and the text of string and template literals (their quotes stay). */
function code(text: string): string {
  let out = '';
  let i = 0;
  // Whether a `/` here starts a regular expression (after an operator or an opening bracket).
  const regexCan = () => /(^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof)\s*$/.test(out.slice(-20));
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`') {
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\') i++;
        else if (c !== '`' && text[i] === '\n') break;
        i++;
      }
      i++;
      out += `${c}${c}`;
    } else if (c === '/' && regexCan()) {
      i++;
      let klass = false;
      while (i < text.length && text[i] !== '\n' && (klass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') klass = true;
        else if (text[i] === ']') klass = false;
        i++;
      }
      i++;
      out += '/re/';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** What a file does that belongs behind the seam, one line per finding. */
export function offences(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1]!;
    const driver = spec === 'better-sqlite3' || spec === 'drizzle-orm' || spec.startsWith('drizzle-orm/');
    if (driver) found.push(`imports ${spec}`);
  }
  if (/\bsql\s*`/.test(text)) found.push('an sql`` template');
  const bare = code(text);
  const checks: [RegExp, string][] = [
    [/(?<!\bthis)\.prepare\s*\(/, '.prepare( (a statement)'],
    [/\.sqlite\b/, '.sqlite (the raw connection)'],
    [/\.\$client\b/, '.$client (the raw connection)'],
    [/\.pragma\s*\(/, '.pragma('],
  ];
  for (const [re, what] of checks) if (re.test(bare)) found.push(what);
  return found;
}

/** Calls of a driver itself: a statement prepared, a pragma, the raw connection, a driver imported. */
export function driverCalls(text: string): string[] {
  const bare = code(text);
  const checks: [RegExp, string][] = [
    [/(?<!\bthis)\.prepare\s*\(/, '.prepare( (a statement of the driver)'],
    [/\.pragma\s*\(/, '.pragma('],
    [/\$client\b/, '$client (the raw connection)'],
    [/\.sqlite\b/, '.sqlite (the raw connection)'],
  ];
  const found: string[] = [];
  for (const [re, what] of checks) if (re.test(bare)) found.push(what);
  for (const m of text.matchAll(SPECIFIER))
    if (m[1] === 'better-sqlite3' || m[1] === 'pg') found.push(`imports ${m[1]}`);
  return found;
}

describe('the storage seam', () => {
  it('finds what it looks for (and not in comments or strings)', () => {
    expect(offences("import type Database from 'better-sqlite3';")).toEqual(['imports better-sqlite3']);
    const drizzle = "import { eq } from 'drizzle-orm';\nconst x = sql`1`;";
    expect(offences(drizzle)).toEqual(['imports drizzle-orm', 'an sql`` template']);
    const raw = "const r = store.sqlite.prepare('SELECT 1').get();";
    expect(offences(raw)).toEqual(['.prepare( (a statement)', '.sqlite (the raw connection)']);
    const harmless = "// db.prepare('x')\nconst p = './data/mafia.sqlite'; const m = /a'b/.exec(s); this.prepare(row);";
    expect(offences(harmless)).toEqual([]);
  });

  it('no file outside src/db holds SQL or a connection', () => {
    const offenders: string[] = [];
    for (const file of files(SRC)) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (SEAM.some((s) => rel.startsWith(s)) || rel in ALLOWED) continue;
      for (const what of offences(readFileSync(file, 'utf8'))) offenders.push(`${rel}: ${what}`);
    }
    expect(offenders, 'move these queries behind a store in src/db (docs/storage.md)').toEqual([]);
  });

  it('every allowed file still needs it', () => {
    for (const rel of Object.keys(ALLOWED)) {
      expect(offences(readFileSync(join(ROOT, rel), 'utf8')), rel).not.toEqual([]);
    }
  });

  it('finds a driver call (and not in comments, strings or a method of its own)', () => {
    expect(driverCalls("const r = this.sqlite.prepare('SELECT 1').get();")).toEqual([
      '.prepare( (a statement of the driver)',
      '.sqlite (the raw connection)',
    ]);
    expect(driverCalls("const c = (db as never as { $client: X }).$client; s.pragma('x');")).toEqual([
      '.pragma(',
      '$client (the raw connection)',
    ]);
    expect(driverCalls("import type Database from 'better-sqlite3';")).toEqual(['imports better-sqlite3']);
    const store = "// db.prepare('x')\nconst s = c.statement((db, t) => db.select().from(t.games)); this.prepare(x);";
    expect(driverCalls(store)).toEqual([]);
  });

  it('inside src/db, only the connections and the tools that open a database call the driver', () => {
    const offenders: string[] = [];
    for (const file of files(join(SRC, 'db'))) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (rel in DRIVER_FILES || PG_FILE.test(rel)) continue;
      for (const what of driverCalls(readFileSync(file, 'utf8'))) offenders.push(`${rel}: ${what}`);
    }
    expect(offenders, 'run these through the Connection (src/db/connection.ts: all, get, run, rows, exec)').toEqual([]);
  });

  it('every file allowed the driver still calls it', () => {
    for (const rel of Object.keys(DRIVER_FILES)) {
      expect(driverCalls(readFileSync(join(ROOT, rel), 'utf8')), rel).not.toEqual([]);
    }
  });
});
