// One process of `npm run bench:persistence -- --processes N` (bench/persistence-bench.ts): opens
// the database (a postgres:// URL as DATABASE_URL, else a SQLite file) as the bot opens it, prints
// `ready`, waits for `go` on stdin (so the processes start together), plays its own games (its
// channels prefixed with --tag), and prints its result as JSON on the last line.
import { parseArgs } from 'node:util';
import { looksLikePostgresUrl } from '../src/db/pg-url';
import { RULESET_IDS } from '../src/engine/rulesets';
import type { RulesetId } from '../src/engine/types';
import { benchPersistence } from './persistence-bench';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    ruleset: { type: 'string', default: 'kiev-12' },
    games: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    tag: { type: 'string', default: '' },
    concurrency: { type: 'string', default: '1' },
  },
  strict: true,
});
const db = values.db;
const ruleset = values.ruleset as RulesetId;
if (!db || !RULESET_IDS.includes(ruleset)) {
  process.stderr.write('persistence-child: --db URL|FILE [--ruleset R] [--games G] [--seed S] [--tag T]\n');
  process.exit(2);
}

const go = new Promise<void>((resolve) => {
  let input = '';
  process.stdin.on('data', (b: Buffer) => {
    input += b.toString();
    if (input.includes('go\n')) resolve();
  });
});
const r = await benchPersistence(ruleset, Number(values.games), Number(values.seed), {
  env: looksLikePostgresUrl(db) ? { DATABASE_URL: db } : { DATABASE_PATH: db },
  tag: values.tag,
  concurrency: Number(values.concurrency),
  ready: async () => {
    process.stdout.write('ready\n');
    await go;
  },
});
process.stdout.write(`${JSON.stringify(r)}\n`);
process.exit(0);
