// npm run bench: prints the engine's and the persistence layer's throughput as JSON.
// Median of several runs; numbers depend on the machine, tests never assert on them.
import { benchDelivery } from './delivery-bench';
import { benchEngine } from './engine-bench';
import { benchPersistence } from './persistence-bench';
import { benchStats } from './stats-bench';

const games = Number(process.env.BENCH_GAMES ?? 3000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const engine = benchEngine(games, runs);
const persistence = [];
for (const ruleset of ['chnu-2016', 'classic-10', 'kiev-12'] as const) {
  const figures = [];
  for (let i = 0; i < 3; i++) figures.push((await benchPersistence(ruleset, 100, 10 + i)).persistedActionsPerSecond);
  persistence.push({ ruleset, persistedActionsPerSecond: median(figures) });
}
// Delivery: REST calls per complete game against the lower bound, and turn time left when seen,
// with Discord's rate limits on (a few minutes of wall time; BENCH_DELIVERY=0 skips it).
const delivery = [];
if (process.env.BENCH_DELIVERY !== '0')
  for (const ruleset of ['chnu-2016', 'classic-10', 'kiev-12'] as const) delivery.push(await benchDelivery(ruleset));
// /stats on a large server (100,000 games of 2,000 players; BENCH_STATS=0 skips it).
const stats = process.env.BENCH_STATS !== '0' ? await benchStats() : null;
console.log(JSON.stringify({ node: process.version, engine, persistence, delivery, stats }, null, 2));
process.exit(0);
