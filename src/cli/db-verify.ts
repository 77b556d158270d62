// npm run db:verify -- FILE: replays every game in a database file and prints a JSON report.
// Exit 0 when every game replays to its stored state, 1 on a mismatch, 2 when the file is unusable.
import { verifyStore } from '../app/verify';
import { openDatabase, StartupError } from '../db/client';
import { Store } from '../db/store';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run db:verify -- path/to/mafia.sqlite\n');
  process.exit(2);
}
try {
  const open = openDatabase(file, { readonly: true });
  const report = await verifyStore(new Store(open.db));
  open.close();
  process.stdout.write(`${JSON.stringify({ file: open.path, ...report })}\n`);
  process.exit(report.mismatches.length === 0 ? 0 : 1);
} catch (e) {
  if (e instanceof StartupError) {
    process.stderr.write(`db:verify: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
