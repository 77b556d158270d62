// `npm run db:pg-schema`: writes src/db/schema-pg.ts, the PostgreSQL schema, from src/db/schema.ts
// (issue 23: one source for both dialects). Every table, column, key and index is the same; only
// the column types are translated:
//   integer(…) primary key autoincrement  -> bigserial (mode number)
//   integer(…, { mode: 'boolean' })       -> boolean
//   integer(…)                            -> bigint (mode number): times are epoch milliseconds
//   real(…)                               -> double precision
// `test/db/pg-schema.test.ts` fails when the file is not what this writes, and compares the two
// schemas table by table. `--check` exits 1 when the file is out of date, without writing it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(ROOT, 'src/db/schema.ts');
export const TARGET = join(ROOT, 'src/db/schema-pg.ts');

const SQLITE_IMPORT =
  "import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';";
const PG_IMPORT =
  "import { bigint, bigserial, boolean, doublePrecision, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';";

/** The PostgreSQL schema's text for a SQLite schema's text, formatted as the project formats code. */
export async function pgSchemaOf(source: string): Promise<string> {
  const text = translate(source);
  return format(text, { ...(await resolveConfig(TARGET)), filepath: TARGET });
}

function translate(source: string): string {
  if (!source.includes(SQLITE_IMPORT)) throw new Error('pg-schema: the import line of src/db/schema.ts changed');
  const out = source
    .replace(SQLITE_IMPORT, PG_IMPORT)
    .replace(/\bsqliteTable\(/g, 'pgTable(')
    .replace(
      /\binteger\(('[a-z0-9_]+')\)\.primaryKey\(\{ autoIncrement: true \}\)/g,
      "bigserial($1, { mode: 'number' }).primaryKey()",
    )
    .replace(/\binteger\(('[a-z0-9_]+'), \{ mode: 'boolean' \}\)/g, 'boolean($1)')
    .replace(/\binteger\(('[a-z0-9_]+')\)/g, "bigint($1, { mode: 'number' })")
    .replace(/\breal\(('[a-z0-9_]+')\)/g, 'doublePrecision($1)');
  if (/\binteger\(|\breal\(|sqlite/i.test(out.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
    throw new Error('pg-schema: a column type has no translation (see tools/pg-schema.ts)');
  return (
    '// GENERATED from src/db/schema.ts by `npm run db:pg-schema` (tools/pg-schema.ts): do not edit.\n' +
    '// The PostgreSQL schema (issue 23): the same tables, keys and indexes, PostgreSQL types.\n' +
    out
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const want = await pgSchemaOf(readFileSync(SOURCE, 'utf8'));
  let have = '';
  try {
    have = readFileSync(TARGET, 'utf8');
  } catch {
    // not written yet
  }
  if (process.argv.includes('--check')) {
    if (have !== want) {
      process.stderr.write('src/db/schema-pg.ts is out of date: npm run db:pg-schema\n');
      process.exit(1);
    }
  } else if (have !== want) {
    writeFileSync(TARGET, want);
    process.stdout.write('wrote src/db/schema-pg.ts\n');
  } else process.stdout.write('src/db/schema-pg.ts is up to date\n');
}
