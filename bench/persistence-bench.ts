// Actions per second through the game service with persistence (one transaction each, with the
// outbox rows the planner writes for it, as the bot does), on SQLite or PostgreSQL: the database
// is opened as the bot opens it (openConnection: DATABASE_URL or the SQLite file).
//
// npm run bench:persistence -- [--db sqlite|postgres|both] [--url URL] [--processes N]
//   [--games G] [--runs R] [--ruleset R]... [--concurrency C]
// The same workload on each database, side by side in one run: G random games per run (default
// 100), played one after another (or C at a time: --concurrency), R runs (default 3) per rule set
// (default all three), the databases alternating, each run on a fresh database; the median per
// rule set. --db defaults to both when there is a PostgreSQL (--url, TEST_DATABASE_URL, or the
// machine's binaries: bench/pg.ts starts a server with a production's durability), else sqlite.
// --processes N (2..8): each database is measured with one process, then with N processes at once
// on one database (bench/persistence-child.ts, each playing its own G games), and the combined
// actions per second printed (all actions / the longest process's time).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { GameService } from '../src/app/game-service';
import { OutboxStore } from '../src/db/outbox-store';
import { openConnection, type DatabaseEnv, type OpenedDatabase } from '../src/db/open';
import { Contexts } from '../src/discord/context';
import { Planner } from '../src/discord/planner';
import { Store } from '../src/db/store';
import { RULESET_IDS } from '../src/engine/rulesets';
import type { RulesetId } from '../src/engine/types';
import { randomAction, randomDeal, seededRng } from '../src/sim/random-play';
import { benchPostgres, sqliteSettings, type BenchPostgres } from './pg';

export interface PersistenceOptions {
  /** The database, as the bot's environment names it; default a fresh SQLite file in a temporary folder. */
  env?: DatabaseEnv;
  /** Games played at once (default 1: one after another). */
  concurrency?: number;
  /** Prefix of the games' channel ids (processes sharing one database play their own channels). */
  tag?: string;
  /** Called once the database is open, before the clock starts (a child waits here for the others). */
  ready?: () => Promise<void>;
  /** Called with the database once it is open, and again once the games are played, before it closes (bench/wal-pages.ts). */
  opened?: (db: OpenedDatabase) => void | Promise<void>;
  played?: (db: OpenedDatabase) => void | Promise<void>;
}

export async function benchPersistence(
  ruleset: RulesetId,
  games: number,
  seed: number,
  options: PersistenceOptions = {},
) {
  const dir = options.env ? null : mkdtempSync(join(tmpdir(), 'mafia-bench-'));
  const open = await openConnection(options.env ?? { DATABASE_PATH: join(dir!, 'bench.sqlite') });
  await options.opened?.(open);
  const store = new Store(open.connection);
  let clock = 1_700_000_000_000;
  // The bot's real write path: every action's outbox rows are planned in its own transaction.
  const service = new GameService(store, {
    now: () => clock,
    timers: { setTimeout: () => null, clearTimeout: () => {} },
  });
  const planner = new Planner(
    new OutboxStore(open.connection),
    new Contexts(store, service, 'en'),
    () => ({ manageRoles: true, threads: true }),
    () => clock,
  );
  service.use({ plan: (e) => planner.plan(e), prefetch: (id, e) => planner.prefetch(id, e) });
  const rng = seededRng(seed);
  const tag = options.tag ?? '';
  let actions = 0;
  let next = 0;
  const play = async (g: number) => {
    const game = await service.createLobby({
      guildId: 'bench',
      channelId: `${tag}c${g}`,
      hostId: 'h',
      ruleset,
      pace: 'live',
      options: {},
    });
    const roles = randomDeal(rng, ruleset);
    await service.start(
      game.id,
      roles.map((_, i) => `u${i}`),
      roles,
    );
    for (;;) {
      const s = await service.state(game.id);
      if (!s || s.stage.kind === 'over') break;
      const a = randomAction(s, rng)!;
      if (a.kind === 'timeout' && s.deadline !== null) clock = Math.max(clock, s.deadline);
      else clock += 100;
      const r = await service.dispatch(game.id, a, 'system');
      if (r.ok) actions++;
    }
  };
  await options.ready?.();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, games)) }, async () => {
      for (let g = next++; g < games; g = next++) await play(g);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await service.close();
  await options.played?.(open);
  await open.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  return {
    ruleset,
    games,
    actions,
    seconds: Math.round(seconds * 1000) / 1000,
    persistedActionsPerSecond: Math.round(actions / seconds),
    /** This process's CPU time while it played (user and system), in ms. */
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    /** Of which in the kernel (system calls: the socket's writes and reads, the file's). */
    cpuSystemMs: Math.round(cpu.system / 1000),
  };
}

type Db = 'sqlite' | 'postgres';

interface ChildResult {
  actions: number;
  seconds: number;
  persistedActionsPerSecond: number;
  cpuMs: number;
  cpuSystemMs: number;
}

/** N processes at once on one database (opened and migrated already), started together. */
async function inProcesses(
  n: number,
  db: string,
  ruleset: RulesetId,
  games: number,
  seed: number,
  concurrency: number,
): Promise<{ perProcess: number[]; combined: number; actions: number; cpuMs: number; cpuSystemMs: number }> {
  const children = Array.from({ length: n }, (_, i) => {
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        join(import.meta.dirname, 'persistence-child.ts'),
        '--db',
        db,
        '--ruleset',
        ruleset,
        '--games',
        String(games),
        '--seed',
        String(seed * 100 + i),
        '--tag',
        `p${i}-`,
        '--concurrency',
        String(concurrency),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    let onReady = () => {};
    const ready = new Promise<void>((r) => (onReady = r));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('ready\n')) onReady();
    });
    const done = new Promise<ChildResult>((resolve, reject) =>
      child.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult)
          : reject(new Error(`persistence-child exited ${code}`)),
      ),
    );
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.end('go\n');
  const results = await Promise.all(children.map((c) => c.done));
  const total = results.reduce((a, r) => a + r.actions, 0);
  return {
    perProcess: results.map((r) => r.persistedActionsPerSecond),
    combined: Math.round(total / Math.max(...results.map((r) => r.seconds))),
    actions: total,
    cpuMs: results.reduce((a, r) => a + r.cpuMs, 0),
    cpuSystemMs: results.reduce((a, r) => a + r.cpuSystemMs, 0),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const usage = (msg: string): never => {
    process.stderr.write(
      `bench:persistence: ${msg}\nusage: npm run bench:persistence -- [--db sqlite|postgres|both] [--url URL] [--processes N (2..8)] [--games G] [--runs R] [--ruleset ${RULESET_IDS.join('|')}]... [--concurrency C]\n`,
    );
    process.exit(2);
  };
  let values;
  try {
    values = parseArgs({
      options: {
        db: { type: 'string' },
        url: { type: 'string' },
        processes: { type: 'string', default: '1' },
        games: { type: 'string', default: '100' },
        runs: { type: 'string', default: '3' },
        ruleset: { type: 'string', multiple: true },
        concurrency: { type: 'string', default: '1' },
      },
      strict: true,
    }).values;
  } catch (e) {
    return usage((e as Error).message);
  }
  const int = (name: string, v: string, lo: number, hi: number) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < lo || n > hi) usage(`--${name} must be ${lo}..${hi}`);
    return n;
  };
  const processes = int('processes', values.processes, 1, 8);
  const games = int('games', values.games, 1, 100_000);
  const runs = int('runs', values.runs, 1, 50);
  const concurrency = int('concurrency', values.concurrency, 1, 1000);
  const rulesets = (values.ruleset ?? [...RULESET_IDS]) as RulesetId[];
  for (const r of rulesets) if (!RULESET_IDS.includes(r)) usage(`no rule set ${r}`);
  if (values.db !== undefined && !['sqlite', 'postgres', 'both'].includes(values.db))
    usage('--db is sqlite, postgres or both');

  const wantsPg = values.db === 'postgres' || values.db === 'both' || values.db === undefined;
  let pgServer: BenchPostgres | null = null;
  if (wantsPg) {
    pgServer = await benchPostgres(values.url);
    if (!pgServer && values.db !== undefined)
      usage('no PostgreSQL: give --url, set TEST_DATABASE_URL, or install the postgresql package');
  }
  const dbs: Db[] =
    values.db === 'sqlite' || !pgServer ? ['sqlite'] : values.db === 'postgres' ? ['postgres'] : ['sqlite', 'postgres'];
  if (pgServer)
    process.stderr.write(`bench:persistence: PostgreSQL ${pgServer.server} ${JSON.stringify(pgServer.settings)}\n`);

  /** A fresh database of the kind: its environment, its name for a child's --db, and how to remove it. */
  const fresh = async (db: Db) => {
    if (db === 'postgres') {
      const d = await pgServer!.database();
      return { env: { DATABASE_URL: d.url }, arg: d.url, drop: () => d.drop() };
    }
    const dir = mkdtempSync(join(tmpdir(), 'mafia-bench-'));
    const path = join(dir, 'bench.sqlite');
    return { env: { DATABASE_PATH: path }, arg: path, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  };

  const rows: Record<string, unknown>[] = [];
  const counts = processes === 1 ? [1] : [1, processes];
  for (const ruleset of rulesets) {
    const figures: Record<string, number[]> = {};
    /** CPU µs per action: the bench's processes (the bot's work), the PostgreSQL server's. */
    const cpu: Record<string, { bot: number; botSystem: number; server: number | null }[]> = {};
    const perProcess: Record<string, number[][]> = {};
    for (let run = 0; run < runs; run++) {
      // Alternating which database goes first, so neither always runs on the warmer machine.
      const order = run % 2 === 0 ? dbs : [...dbs].reverse();
      for (const db of order) {
        for (const n of counts) {
          const key = processes === 1 ? db : `${db}, ${n} ${n === 1 ? 'process' : 'processes'}`;
          const d = await fresh(db);
          try {
            let perSecond: number;
            let actions: number;
            let botCpuMs: number;
            let botSystemMs: number;
            let serverCpuMs = db === 'postgres' ? pgServer!.cpuMs() : null;
            if (processes === 1) {
              const r = await benchPersistence(ruleset, games, 10 + run, { env: d.env, concurrency });
              perSecond = r.persistedActionsPerSecond;
              actions = r.actions;
              botCpuMs = r.cpuMs;
              botSystemMs = r.cpuSystemMs;
            } else {
              // Migrated once before the processes start, so they start together on a ready database.
              await (await openConnection(d.env)).close();
              serverCpuMs = db === 'postgres' ? pgServer!.cpuMs() : null;
              const r = await inProcesses(n, d.arg, ruleset, games, 10 + run, concurrency);
              perSecond = r.combined;
              actions = r.actions;
              botCpuMs = r.cpuMs;
              botSystemMs = r.cpuSystemMs;
              (perProcess[key] ??= []).push(r.perProcess);
            }
            // The server's CPU over the run (its start-up and the bot's opening included: small).
            const after = db === 'postgres' ? pgServer!.cpuMs() : null;
            const serverUs =
              serverCpuMs !== null && after !== null ? Math.round(((after - serverCpuMs) * 1000) / actions) : null;
            (figures[key] ??= []).push(perSecond);
            const us = (ms: number) => Math.round((ms * 1000) / actions);
            (cpu[key] ??= []).push({ bot: us(botCpuMs), botSystem: us(botSystemMs), server: serverUs });
            const load = loadavg()[0]!.toFixed(2);
            process.stderr.write(
              `bench:persistence: ${ruleset} run ${run + 1}/${runs} ${key}: ${perSecond}/s; CPU per action ${us(botCpuMs)} µs bot (${us(botSystemMs)} in the kernel)${serverUs !== null ? `, ${serverUs} µs server` : ''} (load ${load})\n`,
            );
          } finally {
            await d.drop();
          }
        }
      }
    }
    rows.push({
      ruleset,
      persistedActionsPerSecond: Object.fromEntries(
        Object.entries(figures).map(([k, v]) => [k, { median: median(v), runs: v }]),
      ),
      cpuUsPerAction: cpu,
      ...(processes > 1 ? { perProcess } : {}),
    });
  }
  pgServer?.stop();
  console.log(
    JSON.stringify(
      {
        node: process.version,
        games,
        runs,
        concurrency,
        processes: counts,
        databases: {
          ...(dbs.includes('sqlite') ? { sqlite: sqliteSettings() } : {}),
          ...(pgServer ? { postgres: { server: pgServer.server, ...pgServer.settings } } : {}),
        },
        results: rows,
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
