// Child process for start-up tests: opens a database the way the bot does and prints the outcome.
import { openDatabase, StartupError } from '../../src/db/client';

const [path, migrations] = process.argv.slice(2);
// Tells a test waiting on this process that it is about to open the file (after its imports).
process.stderr.write('opening\n');
try {
  const open = openDatabase(path!, migrations ? { migrationsFolder: migrations } : {});
  open.close();
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (e) {
  process.stdout.write(
    JSON.stringify({ ok: false, startup: e instanceof StartupError, message: (e as Error).message }),
  );
}
