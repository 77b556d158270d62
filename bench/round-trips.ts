// Statements and round trips per persisted action on PostgreSQL (issue 23): the workload of
// bench:persistence (one game at a time), with a hook on pg.Client.prototype.query that counts
// each statement and, as a round trip, each one sent while nothing else was in flight on its client
// (with pipelining, statements sent behind unanswered ones travel with them).
// `npx tsx bench/round-trips.ts [--games G] [--ruleset R]`
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { RulesetId } from '../src/engine/types';
import { benchPostgres } from './pg';
import { benchPersistence } from './persistence-bench';

const { values } = parseArgs({
  options: { games: { type: 'string', default: '20' }, ruleset: { type: 'string', default: 'classic-10' } },
});
const statements = new Map<string, number>();
let trips = 0;
let sent = 0;
type Inflight = { _activeQuery?: unknown; _sentQueryQueue?: unknown[]; _queryQueue?: unknown[] };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client & Inflight, config: unknown, ...rest: unknown[]) {
  const text = typeof config === 'string' ? config : ((config as { text?: string }).text ?? '?');
  const idle = !this._activeQuery && !this._sentQueryQueue?.length && !this._queryQueue?.length;
  if (idle) trips++;
  sent++;
  // A select's columns left out: the statement's table and conditions name it.
  const key = text
    .replace(/\s+/g, ' ')
    .replace(/^select .*? from/, 'select … from')
    .slice(0, 150);
  statements.set(key, (statements.get(key) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).call(this, config, ...rest);
} as typeof query;

const server = await benchPostgres();
if (!server) throw new Error('no PostgreSQL');
const db = await server.database();
try {
  // A game first, not counted: each connection's first run of a statement parses it.
  await benchPersistence(values.ruleset as RulesetId, 1, 99, { env: { DATABASE_URL: db.url } });
  statements.clear();
  trips = 0;
  sent = 0;
  const r = await benchPersistence(values.ruleset as RulesetId, Number(values.games), 11, {
    env: { DATABASE_URL: db.url },
  });
  const n = r.actions;
  console.log(`${n} actions: ${(sent / n).toFixed(2)} statements and ${(trips / n).toFixed(2)} round trips per action`);
  for (const [k, v] of [...statements].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${(v / n).toFixed(2)}  ${k}`);
} finally {
  await db.drop();
  server.stop();
}
