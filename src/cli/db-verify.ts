// npm run db:verify -- FILE | postgres://…: replays every game of a database (a SQLite file, or a
// PostgreSQL database: issue 23) and prints a JSON report.
// Exit 0 when every game replays to its stored state, 1 on a mismatch, 2 when the database is unusable.
import { verifyGames, type VerifyReport } from '../app/verify';
import { openDatabase, StartupError } from '../db/client';
import { storeReader } from '../db/game-reader';
import { connectPostgres, databaseFailure, looksLikePostgresUrl, parsePostgresUrl, redactUrl } from '../db/pg-connect';
import { hasGamesTable, pgGameReader } from '../db/pg-game-reader';
import { Store } from '../db/store';

const USAGE = 'usage: npm run db:verify -- path/to/mafia.sqlite | postgres://user:password@host:5432/database\n';

async function verifyPostgres(text: string): Promise<{ url: string } & VerifyReport> {
  const url = parsePostgresUrl(text);
  const client = await connectPostgres(url);
  try {
    if (!(await hasGamesTable(client)))
      throw new StartupError(`${redactUrl(url)} has no games table: not a database of this bot, or not migrated`);
    return { url: redactUrl(url), ...(await verifyGames(pgGameReader(client))) };
  } catch (e) {
    throw databaseFailure(url, 'reading', e);
  } finally {
    await client.end();
  }
}

async function verifyFile(file: string): Promise<{ file: string } & VerifyReport> {
  const open = openDatabase(file, { readonly: true });
  try {
    return { file: open.path, ...(await verifyGames(storeReader(new Store(open.connection)))) };
  } finally {
    open.close();
  }
}

const args = process.argv.slice(2);
if (args.length !== 1 || !args[0]) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const target = args[0];
try {
  const report = looksLikePostgresUrl(target) ? await verifyPostgres(target) : await verifyFile(target);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(report.mismatches.length === 0 ? 0 : 1);
} catch (e) {
  if (e instanceof StartupError) {
    process.stderr.write(`db:verify: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
