// Child process for test/db/checkpointer.test.ts: one of two processes writing one SQLite file
// through the bot's connection without a pause, each with its checkpoint worker (small WAL limits
// so that restarts happen), and prints what it did.
import { openDatabase } from '../../src/db/client';

const [path, count] = process.argv.slice(2);
const o = openDatabase(path!, { checkpoints: { intervalMs: 5, restartFrames: 200 } });
const c = o.connection;
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ guildId: `${process.pid}-${i}`, createdAt: 1, updatedAt: 1 }));
let written = 0;
try {
  for (let i = 0; i < Number(count); i++) {
    // Four rows of about a page each (their id is long), as one transaction awaited like the bot's.
    await c.transaction(async () => {
      for (const r of rows(4)) {
        await c.run(c.db.insert(c.t.servers).values({ ...r, guildId: `${r.guildId}-${i}-${'x'.repeat(3000)}` }));
      }
    });
    written += 4;
    await new Promise((r) => setImmediate(r));
  }
  const stats = { ...c.checkpointer!.stats };
  await c.close();
  process.stdout.write(JSON.stringify({ ok: true, written, stats }));
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, written, message: (e as Error).message }));
}
