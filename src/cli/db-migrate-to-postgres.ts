// npm run db:migrate-to-postgres -- --from FILE --to postgres://… (issue 23): copies a SQLite
// database of the bot into an empty PostgreSQL database (src/db/copy-to-postgres.ts), then checks
// the copy: the rows of every table counted on both sides, and every game replayed from its deal
// on PostgreSQL to its stored state (db:verify). Prints a JSON report.
// Exit 0 when the copy is whole and every game replays, 1 on a mismatch, 2 on unusable input
// (bad arguments, a file that is not the bot's current database, a bad URL or a server that cannot
// be reached, a target that is not empty), with one line on stderr.
import { verifyGames } from '../app/verify';
import { openDatabase, StartupError } from '../db/client';
import { checkSourceFile, copyToPostgres } from '../db/copy-to-postgres';
import { storeReader } from '../db/game-reader';
import { connectPostgres, databaseFailure, redactUrl } from '../db/pg-connect';
import { pgGameReader } from '../db/pg-game-reader';
import { Store } from '../db/store';
import { parseMigrateArgs } from './migrate-args';

function fail(message: string): never {
  process.stderr.write(`db:migrate-to-postgres: ${message}\n`);
  process.exit(2);
}

const args = parseMigrateArgs(process.argv.slice(2));
if (!args.ok) fail(args.error);
const { from, to: url, batch } = args;
const shown = redactUrl(url);
const t0 = performance.now();
const seconds = (t: number) => Number(((performance.now() - t) / 1000).toFixed(3));

let open;
try {
  open = openDatabase(from, { readonly: true });
} catch (e) {
  if (e instanceof StartupError) fail(e.message);
  throw e;
}

let exitCode = 0;
let refused: string | null = null;
let client;
try {
  checkSourceFile(open);
  client = await connectPostgres(url);
  let copied;
  try {
    copied = await copyToPostgres(open, client, shown, { batchRows: batch });
  } catch (e) {
    throw databaseFailure(url, 'copying into', e);
  }
  const copySeconds = seconds(t0);

  const t1 = performance.now();
  const mismatches: { table?: string; gameId?: number; problem: string; alsoInFile?: boolean }[] = [];
  const tables: Record<string, number> = {};
  for (const t of copied.tables) {
    tables[t.name] = t.postgres;
    if (t.file !== t.postgres || t.copied !== t.file)
      mismatches.push({
        table: t.name,
        problem: `${t.file} rows in the file, ${t.copied} copied, ${t.postgres} in PostgreSQL`,
      });
  }
  const replay = await verifyGames(pgGameReader(client));
  // A game that does not replay on PostgreSQL: was it already so in the file?
  const ids = [...new Set(replay.mismatches.map((m) => m.gameId))];
  const before = ids.length > 0 ? await verifyGames(storeReader(new Store(open.connection)), ids) : null;
  for (const m of replay.mismatches)
    mismatches.push({ ...m, alsoInFile: before?.mismatches.some((b) => b.gameId === m.gameId) ?? false });
  const report = {
    from: open.path,
    to: shown,
    tables,
    rows: Object.values(tables).reduce((a, b) => a + b, 0),
    nextIds: copied.nextIds,
    games: replay.games,
    checked: replay.checked,
    skipped: replay.skipped,
    actions: replay.actions,
    mismatches,
    seconds: { copy: copySeconds, verify: seconds(t1), total: seconds(t0) },
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  exitCode = mismatches.length === 0 ? 0 : 1;
} catch (e) {
  const err = databaseFailure(url, 'reading', e);
  if (!(err instanceof StartupError)) throw err;
  refused = err.message;
} finally {
  await client?.end().catch(() => {});
  open.close();
}
if (refused !== null) fail(refused);
process.exit(exitCode);
