// The pages an action writes on SQLite, by table and index: `bench:persistence`'s workload on a
// fresh file whose WAL is never checkpointed (the checkpoint worker stopped, SQLite's own
// checkpoints off), so that every page each commit wrote is still in the WAL when the games end.
// Each WAL frame is one page written by one commit; its page number says which b-tree it belongs
// to (SQLite's `dbstat`). Deterministic for a seed: a count, not a timing.
//
// npx tsx bench/wal-pages.ts [--ruleset R] [--games G] [--seed S]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RULESET_IDS } from '../src/engine/rulesets';
import type { RulesetId } from '../src/engine/types';
import { benchPersistence } from './persistence-bench';

const { values } = parseArgs({
  options: {
    ruleset: { type: 'string', default: 'classic-10' },
    games: { type: 'string', default: '20' },
    seed: { type: 'string', default: '11' },
  },
});
const ruleset = values.ruleset as RulesetId;
if (!RULESET_IDS.includes(ruleset)) throw new Error(`--ruleset: one of ${RULESET_IDS.join(', ')}`);
const games = Number(values.games);
const seed = Number(values.seed);
if (!Number.isInteger(games) || games < 1 || !Number.isInteger(seed)) throw new Error('--games and --seed: integers');

/** A WAL file's header, then frames: a 24-byte header (page number, then the database's size in pages on a commit's last frame) and the page. */
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

let report: unknown = null;
const r = await benchPersistence(ruleset, games, seed, {
  async opened(db) {
    if (!db.sqlite) throw new Error('SQLite only');
    await db.checkpointer?.stop();
    db.sqlite.sqlite.pragma('wal_autocheckpoint = 0');
  },
  played(db) {
    const sqlite = db.sqlite!.sqlite;
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    const owner = new Map<number, string>();
    for (const row of sqlite.prepare('select name, pageno from dbstat').all() as { name: string; pageno: number }[])
      owner.set(row.pageno, row.name);
    const wal = readFileSync(`${db.sqlite!.path}-wal`);
    const byTree = new Map<string, number>();
    let frames = 0;
    let commits = 0;
    for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
      const page = wal.readUInt32BE(at);
      frames++;
      if (wal.readUInt32BE(at + 4) !== 0) commits++;
      const tree = owner.get(page) ?? '(free or other)';
      byTree.set(tree, (byTree.get(tree) ?? 0) + 1);
    }
    const perCommit = (n: number) => Math.round((n / commits) * 100) / 100;
    report = {
      frames,
      commits,
      pagesPerCommit: perCommit(frames),
      byTable: Object.fromEntries(
        [...byTree]
          .sort((a, b) => b[1] - a[1])
          .filter(([, n]) => n / commits >= 0.01)
          .map(([k, n]) => [k, perCommit(n)]),
      ),
    };
  },
});
console.log(JSON.stringify({ ruleset, games, seed, actions: r.actions, ...(report as object) }, null, 2));
