// npm run sim -- --db FILE|postgres://… --games N --ruleset R [--seed S] [--resume] [--acks]
//                 [--concurrency C] [--rate R] [--shard I/N]
// Plays N random complete games through the real game service and database (a SQLite file, or a
// PostgreSQL database: issue 23; no Discord) and prints a JSON summary. --resume continues every
// unfinished game of the database instead. --acks prints `ack <game> <seq> <kind>` on stdout after
// each action is committed.
// --shard I/N: this process holds shard I of N (issue 22's ownership, src/db/ownership.ts): its new
// games are in guilds of that shard, and --resume continues only the games of its guilds, so
// several processes can share one database, each playing (and resuming) its own games.
// Without it: every game (guild `sim`), as one process.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { GameService } from '../app/game-service';
import { StartupError } from '../db/client';
import { openConnection } from '../db/open';
import { ShardOwnership } from '../db/ownership';
import { looksLikePostgresUrl } from '../db/pg-url';
import { Store } from '../db/store';
import { RULESET_IDS } from '../engine/rulesets';
import type { RulesetId } from '../engine/types';
import { randomAction, randomDeal, seededRng } from '../sim/random-play';

const argsSchema = z.object({
  db: z.string().min(1, 'needs --db FILE or --db postgres://…'),
  games: z.coerce.number().int().min(0).max(1_000_000).default(10),
  ruleset: z.enum(RULESET_IDS as [RulesetId, ...RulesetId[]]).default('kiev-12'),
  seed: z.coerce.number().int().default(1),
  resume: z.boolean().default(false),
  acks: z.boolean().default(false),
  concurrency: z.coerce.number().int().min(1).max(10_000).default(8),
  /** Actions per second to keep to (0: as fast as it goes): a bot's real pace, for bench/shared-file.ts. */
  rate: z.coerce.number().min(0).max(1_000_000).default(0),
  shard: z
    .string()
    .regex(/^\d{1,4}\/\d{1,4}$/, 'expected I/N, e.g. 0/2')
    .transform((v) => v.split('/').map(Number) as [number, number])
    .refine(([i, n]) => n >= 1 && i < n, 'expected I/N with 0 <= I < N')
    .optional(),
});

function usage(msg: string): never {
  process.stderr.write(
    `sim: ${msg}\nusage: npm run sim -- --db FILE|postgres://… --games N --ruleset ${RULESET_IDS.join('|')} [--seed S] [--resume] [--shard I/N]\n`,
  );
  process.exit(2);
}

let raw;
try {
  raw = parseArgs({
    options: {
      db: { type: 'string' },
      games: { type: 'string' },
      ruleset: { type: 'string' },
      seed: { type: 'string' },
      resume: { type: 'boolean' },
      acks: { type: 'boolean' },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      shard: { type: 'string' },
    },
    strict: true,
  }).values;
} catch (e) {
  usage((e as Error).message);
}
const parsed = argsSchema.safeParse(raw);
if (!parsed.success) usage(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
const args = parsed.data;

let open;
try {
  // The bot's own way to open a database (src/db/open.ts): a URL selects PostgreSQL, else the file.
  // (Its warnings are about the bot's DATABASE_PATH next to DATABASE_URL: nothing of the sim's.)
  open = await openConnection(looksLikePostgresUrl(args.db) ? { DATABASE_URL: args.db } : { DATABASE_PATH: args.db });
} catch (e) {
  if (e instanceof StartupError) {
    process.stderr.write(`sim: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
if (args.shard) open.ownership.set(new ShardOwnership([args.shard[0]], args.shard[1]));
const store = new Store(open.connection);
/** A guild of this process's shard for its i-th new game (a snowflake: (id >> 22) % N = I). */
const guildOf = (i: number): string =>
  args.shard ? String((BigInt(1000 + i) * BigInt(args.shard[1]) + BigInt(args.shard[0])) << 22n) : 'sim';

// A virtual clock: it moves a little with every action and jumps to a deadline when a timer runs
// out, so whole games take no real time. On resume it starts after the last logged action.
const lastAction = await store.lastActionTime();
let clock = Math.max(1_700_000_000_000, lastAction + 1);
const noTimers = { setTimeout: () => null, clearTimeout: () => {} };
const service = new GameService(store, { now: () => clock, timers: noTimers });

const rng = seededRng(args.seed * 7919 + (args.resume ? lastAction % 100_000 : 0));
const ids: number[] = [];
if (args.resume) {
  for (const g of await store.gamesWithStatus(['running', 'post-game']))
    if (open.ownership.owns(g.guildId)) ids.push(g.id);
} else {
  for (let i = 0; i < args.games; i++) {
    const game = await service.createLobby({
      guildId: guildOf(i),
      channelId: args.shard ? `sim-${args.shard[0]}-${i}` : `sim-${i}`,
      hostId: 'sim-host',
      ruleset: args.ruleset,
      pace: 'live',
      options: {},
    });
    const roles = randomDeal(rng, args.ruleset);
    const users = roles.map((_, seat) => `sim-${game.id}-${seat + 1}`);
    const r = await service.start(game.id, users, roles);
    if (!r.ok) throw new Error(`cannot start game ${game.id}: ${r.code}`);
    ids.push(game.id);
  }
}

let applied = 0;
let started = 0;
let finished = 0;
const t0 = performance.now();
// How long each action's transaction took from its start to its commit: one that waits for another
// process's write lock (busy_timeout) waits inside it, holding this process's connection (its
// other games' queries wait for it; bench/shared-file.ts reads this).
const txMs: number[] = [];
const transaction = store.transaction.bind(store);
store.transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  try {
    return await transaction(fn);
  } finally {
    txMs.push(performance.now() - t);
  }
};

async function play(id: number): Promise<void> {
  const seats = await store.players(id);
  for (;;) {
    const s = await service.state(id);
    if (!s || s.stage.kind === 'over') break;
    const a = randomAction(s, rng);
    if (!a) break;
    if (a.kind === 'timeout' && s.deadline !== null) clock = Math.max(clock, s.deadline);
    else clock += 1 + Math.floor(rng() * 500);
    const actor =
      a.kind === 'timeout'
        ? 'timer'
        : 'seat' in a
          ? (`user:${seats[a.seat - 1]!.userId}` as const)
          : ('host:sim-host' as const);
    if (args.rate > 0) {
      // Keep to the rate: the next action waits for its slot (a real timer: the loop runs).
      const due = t0 + (1000 * started++) / args.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const r = await service.dispatch(id, a, actor);
    if (r.ok) {
      applied++;
      if (args.acks) process.stdout.write(`ack ${id} ${r.seq} ${a.kind}\n`);
    }
  }
  finished++;
}

// Several games at once, so their actions interleave through the per-game queues.
const queue = [...ids];
await Promise.all(
  Array.from({ length: Math.min(args.concurrency, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await play(id);
  }),
);
await service.close();
await open.close();
const seconds = (performance.now() - t0) / 1000;
txMs.sort((a, b) => a - b);
const ms = (x: number | undefined) => Number((x ?? 0).toFixed(2));
process.stdout.write(
  `${JSON.stringify({ db: open.sqlite?.path ?? open.shown, ruleset: args.resume ? null : args.ruleset, resumed: args.resume, games: ids.length, finished, actions: applied, seconds: Number(seconds.toFixed(3)), actionsPerSecond: Math.round(applied / Math.max(seconds, 1e-9)), transactionMs: { p99: ms(txMs[Math.floor(txMs.length * 0.99)]), max: ms(txMs.at(-1)) } })}\n`,
);
