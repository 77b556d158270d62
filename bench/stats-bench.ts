// /stats at scale: fills a database with finished games of 2,000 players across the rule sets
// (every game closed through the real incremental path, recordGame), plays a few real games
// through the game service, then times each /stats query. On SQLite every query is one
// synchronous call on the event loop, so its time is the longest step a running game's click can
// wait behind it; on PostgreSQL it is the wait of the player who asked (the event loop runs other
// work meanwhile).
// BENCH_STATS_GAMES (default 100000) and BENCH_STATS_PLAYERS (2000) change the size.
//
// npm run bench:stats -- [--db sqlite|postgres|both] [--url URL] [--games N] [--players P]
//   [--fill copy|real] [--close K] [--no-rebuild]
// --db both (the default when there is a PostgreSQL: --url, TEST_DATABASE_URL or the machine's
// binaries, see bench/pg.ts) puts the same games in each database (each game's rows drawn from its
// own seed) and prints the two side by side. How the games get there (--fill):
// - copy (the default): the first N-K are built through recordGame in a SQLite file, which is
//   copied into each PostgreSQL database as `npm run db:migrate-to-postgres` copies it (the
//   operator's way there); then the last K (--close, default 2000) are closed through recordGame
//   in each database (their closing time measured on each), and the SQLite figures are taken on
//   the file itself. On this machine recordGame takes about 35 ms a game on PostgreSQL (some 70
//   queries, each a round trip), 0.5 ms on SQLite: building 100,000 games through it on
//   PostgreSQL would take about an hour.
// - real: every game closed through recordGame in each database.
// --no-rebuild leaves out the full rebuild after an annul (the longest part).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { memberStanding } from '../src/app/conduct';
import { GameService } from '../src/app/game-service';
import { openDatabase } from '../src/db/client';
import { copyToPostgres } from '../src/db/copy-to-postgres';
import { openConnection, type DatabaseEnv } from '../src/db/open';
import { connectPostgres, parsePostgresUrl } from '../src/db/pg-connect';
import { redactUrl } from '../src/db/pg-url';
import { Store } from '../src/db/store';
import { RULESETS, teamOf } from '../src/engine/rulesets';
import type { RulesetId } from '../src/engine/types';
import { randomAction, randomDeal, seededRng } from '../src/sim/random-play';
import { renderChart } from '../src/stats/chart';
import { gameRecord } from '../src/stats/game-record';
import { profile, top, type StatsFilter } from '../src/stats/queries';
import { rebuildSeason, recomputeInBackground, recordGame } from '../src/stats/record';
import { benchPostgres, sqliteSettings, type BenchPostgres } from './pg';

const DAY = 86_400_000;
const GUILD = 'bench-guild';

function stat(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
  return { median: q(0.5), p95: q(0.95), max: Math.round(s[s.length - 1]! * 100) / 100 };
}

async function time(runs: number, fn: (i: number) => unknown): Promise<{ median: number; p95: number; max: number }> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    xs.push(performance.now() - t0);
  }
  return stat(xs);
}

export interface StatsBenchOptions {
  /** The database, as the bot's environment names it; default a fresh SQLite file in a temporary folder. */
  env?: DatabaseEnv;
  /** The first games are in the database already (built by buildStatsFile and copied): fill from here. */
  prebuilt?: number;
  /** The full rebuild after an annul (default true). */
  rebuild?: boolean;
  /** Progress lines on stderr while filling. */
  progress?: (line: string) => void;
}

const PLAYER_IDS = (n: number) => Array.from({ length: n }, (_, i) => String(100_000_000_000_000_000n + BigInt(i)));
const RULESET_MIX: RulesetId[] = ['classic-10', 'chnu-2016', 'kiev-12'];
const SPAN = 730 * DAY; // two years of play
const START = 1_700_000_000_000;

/**
 * Games `from`..`to` (of `total`, spread over two years) written as finished games and closed
 * through recordGame, 500 to a transaction; how long each recordGame took (ms).
 */
async function fillGames(
  store: Store,
  from: number,
  to: number,
  total: number,
  playerCount: number,
  progress?: (line: string) => void,
): Promise<number[]> {
  const c = store.c;
  const stats = store.stats;
  const players = PLAYER_IDS(playerCount);
  const rulesets = RULESET_MIX;
  const span = SPAN;
  const start = START;
  const games = total;
  await store.ensureServer(GUILD, start);
  const closing: number[] = [];
  const tFill = performance.now();
  const BATCH = 500;
  for (let g0 = from; g0 < to; g0 += BATCH) {
    // One transaction of the store per batch: the rows are written straight into the tables inside it.
    await store.transaction(async () => {
      for (let g = g0; g < Math.min(to, g0 + BATCH); g++) {
        // Each game's rows from a seed of its own: the same games on every database.
        const rng = seededRng(12_000_000 + g);
        const rs = rulesets[g % 20 < 8 ? 0 : g % 20 < 15 ? 1 : 2]!;
        const roles = randomDeal(rng, rs);
        // Players come in circles of friends, so ratings spread as on a real server.
        const base = Math.floor(rng() * playerCount);
        const seats = new Set<string>();
        while (seats.size < roles.length) seats.add(players[(base + Math.floor(rng() * 60)) % playerCount]!);
        const finishedAt = start + Math.floor((g * span) / games);
        const r = rng();
        const winner = r < 0.03 ? 'draw' : r < 0.55 ? 'red' : 'black';
        const moves = 60 + Math.floor(rng() * 200);
        const tournament = g % 50 === 0 ? 1 + Math.floor(g / 5000) : null;
        const { db, t } = c;
        const { id } = (await c.get(
          db
            .insert(t.games)
            .values({
              guildId: GUILD,
              channelId: 'c',
              hostId: 'h',
              ruleset: rs,
              pace: 'live',
              status: 'archived',
              moves,
              winner,
              createdAt: finishedAt,
              startedAt: finishedAt - 3_600_000,
              updatedAt: finishedAt,
              finishedAt,
              tournamentId: tournament,
              // Issue 24: a fifth of the games played with one preset of the server.
              preset: g % 5 === 2 ? 'fast' : null,
            })
            .returning({ id: t.games.id }),
        ))!;
        const best = Math.floor(rng() * roles.length);
        // Issue 24: the feats the achievements read (src/stats/achievements.ts), about as often as
        // real games give them: a team winning in full strength, the Sheriff finding every black
        // player, the Don finding the Sheriff on night 1.
        const fullStrength = winner !== 'draw' && rng() < 0.05;
        const clearSight = winner === 'red' && rng() < 0.04;
        const sharpNose = rng() < 0.12;
        const rows = [...seats].map((user, i) => {
          const role = roles[i]!;
          const team = teamOf(role);
          const outcome = winner === 'draw' ? 'draw' : winner === team ? 'win' : 'loss';
          const scoring = RULESETS[rs].scoring;
          const pts =
            scoring === 'kiev'
              ? i === best
                ? 3
                : rng() < 0.2
                  ? 1
                  : 0
              : (outcome === 'win'
                  ? 3 + (role === 'don' ? 2 : role === 'civilian' ? 0 : 1)
                  : role === 'don' || role === 'sheriff'
                    ? -1
                    : 0) +
                (i === best ? 2 : 0) -
                (rng() < 0.1 ? 0.5 : 0);
          return {
            gameId: id,
            seat: i + 1,
            guildId: GUILD,
            userId: user,
            ruleset: rs,
            role,
            team,
            outcome,
            points: pts,
            breakdown: '{}',
            bestPlayer: i === best,
            killedNight1: rng() < 0.07,
            finishedAt,
            moves,
            fouls: rng() < 0.1 ? 1 : 0,
            removed: false,
            bestMoveBlack: i === 0 && rng() < 0.3 ? (rng() < 0.2 ? 3 : 2) : null,
            feats: [
              ...(clearSight && (role === 'sheriff' || role === 'commissioner') ? ['clear-sight'] : []),
              ...(sharpNose && role === 'don' ? ['sharp-nose'] : []),
              ...(fullStrength && outcome === 'win' ? ['full-strength'] : []),
            ].join(','),
          };
        });
        await c.run(db.insert(t.results).values(rows));
        const t0 = performance.now();
        await recordGame(stats, id, GUILD); // the work the game-closing transaction adds
        closing.push(performance.now() - t0);
      }
    });
    if ((g0 / BATCH) % 20 === 19 || g0 + BATCH >= to)
      progress?.(
        `${Math.min(to, g0 + BATCH)} of ${total} games in ${Math.round((performance.now() - tFill) / 1000)} s`,
      );
  }
  return closing;
}

/**
 * A SQLite file at `path` holding the first `upTo` of `total` games, built through recordGame (for
 * the copy into PostgreSQL: bench:stats --fill copy). The seconds it took and the closing times.
 */
export async function buildStatsFile(
  path: string,
  upTo: number,
  total: number,
  playerCount: number,
  progress?: (line: string) => void,
): Promise<{ seconds: number; closingMs: ReturnType<typeof stat> | null }> {
  const open = await openConnection({ DATABASE_PATH: path });
  const t = performance.now();
  const closing = await fillGames(new Store(open.connection), 0, upTo, total, playerCount, progress);
  await open.close();
  return {
    seconds: Math.round((performance.now() - t) / 100) / 10,
    closingMs: closing.length > 0 ? stat(closing) : null,
  };
}

export async function benchStats(
  games = Number(process.env.BENCH_STATS_GAMES ?? 100_000),
  playerCount = Number(process.env.BENCH_STATS_PLAYERS ?? 2000),
  options: StatsBenchOptions = {},
) {
  const dir = options.env ? null : mkdtempSync(join(tmpdir(), 'mafia-stats-bench-'));
  const open = await openConnection(options.env ?? { DATABASE_PATH: join(dir!, 'bench.sqlite') });
  const c = open.connection;
  const store = new Store(c);
  const stats = store.stats;
  const rng = seededRng(12);
  const players = PLAYER_IDS(playerCount);
  const rulesets = RULESET_MIX;
  const span = SPAN;
  const start = START;
  const prebuilt = options.prebuilt ?? 0;
  const tFill = performance.now();
  const closing = await fillGames(store, prebuilt, games, games, playerCount, options.progress);
  const fillSeconds = Math.round((performance.now() - tFill) / 100) / 10;
  // PostgreSQL: the tables vacuumed and analyzed, as autovacuum does on a running server within
  // a minute or so of this many new rows (the queries are timed on the planner's statistics).
  let vacuumAnalyzeSeconds: number | null = null;
  if (open.dialect === 'postgres') {
    const t = performance.now();
    await c.exec(sql`vacuum analyze`);
    vacuumAnalyzeSeconds = Math.round((performance.now() - t) / 100) / 10;
  }
  const [{ n: results } = { n: 0 }] = await c.rows<{ n: number }>(sql`select count(*) as n from results`);

  // A few real games through the service: their log is what /stats game replays.
  let clock = start + span + DAY;
  const service = new GameService(store, {
    now: () => clock,
    timers: { setTimeout: () => null, clearTimeout: () => {} },
  });
  const real: number[] = [];
  for (let k = 0; k < 6; k++) {
    const rs = rulesets[k % 3]!;
    const game = await service.createLobby({
      guildId: GUILD,
      channelId: `real${k}`,
      hostId: 'h',
      ruleset: rs,
      pace: 'live',
      options: {},
    });
    const roles = randomDeal(rng, rs);
    await service.start(game.id, players.slice(k * 12, k * 12 + roles.length), roles);
    for (;;) {
      const s = await service.state(game.id);
      if (!s || s.stage.kind === 'over') break;
      const a = randomAction(s, rng)!;
      if (a.kind === 'timeout' && s.deadline !== null) clock = Math.max(clock, s.deadline);
      else clock += 100;
      await service.dispatch(game.id, a, 'system');
    }
    real.push(game.id);
  }
  await service.close();

  // A season of the last 90 days, defined after the fact (its standings are built in SQL).
  const now = clock;
  const seasonId = await stats.addSeason(GUILD, 'Autumn', now - 90 * DAY, null, now);
  const tSeason = performance.now();
  await rebuildSeason(stats, GUILD, seasonId);
  const seasonDefineMs = Math.round((performance.now() - tSeason) * 10) / 10;

  const f = (extra: Partial<StatsFilter> = {}): StatsFilter => ({
    guildId: GUILD,
    ruleset: 'classic-10',
    period: { kind: 'all' },
    now,
    ...extra,
  });
  const st = c.t.standingsTable;
  const busiest = (await c.get(
    c.db
      .select({ user_id: st.userId, games: st.games })
      .from(st)
      .where(and(eq(st.guildId, GUILD), eq(st.ruleset, 'classic-10'), eq(st.scope, 'all')))
      .orderBy(desc(st.games))
      .limit(1),
  ))!;
  const season: StatsFilter['period'] = {
    kind: 'season',
    id: seasonId,
    name: 'Autumn',
    from: now - 90 * DAY,
    to: null,
  };
  const RUNS = 30;
  const queries = {
    'top points, all time, page 1': await time(RUNS, async () => await top(stats, f(), 'points', 0, busiest.user_id)),
    'top points, all time, page 40': await time(RUNS, async () => await top(stats, f(), 'points', 39, busiest.user_id)),
    'top elo, all time': await time(RUNS, async () => await top(stats, f(), 'elo', 0, busiest.user_id)),
    'top points, season (90 days)': await time(
      RUNS,
      async () => await top(stats, f({ period: season }), 'points', 0, busiest.user_id),
    ),
    'top elo, season (90 days)': await time(
      RUNS,
      async () => await top(stats, f({ period: season }), 'elo', 0, busiest.user_id),
    ),
    'top points, last 30 days': await time(
      RUNS,
      async () => await top(stats, f({ period: { kind: 'days', days: 30 } }), 'points', 0, busiest.user_id),
    ),
    'top points, last 365 days': await time(
      RUNS,
      async () => await top(stats, f({ period: { kind: 'days', days: 365 } }), 'points', 0, busiest.user_id),
    ),
    'top points, a tournament': await time(
      RUNS,
      async () => await top(stats, f({ tournament: 3 }), 'points', 0, busiest.user_id),
    ),
    'top points, a preset, all time': await time(
      RUNS,
      async () => await top(stats, f({ preset: 'fast' }), 'points', 0, busiest.user_id),
    ),
    'top points, a preset, season (90 days)': await time(
      RUNS,
      async () => await top(stats, f({ preset: 'fast', period: season }), 'points', 0, busiest.user_id),
    ),
    'player, all time (busiest player)': await time(RUNS, async () => await profile(stats, f(), busiest.user_id)),
    // Issue 24: a member's conduct record (his fouls, removals, absences and games left in the
    // record's window, and his bans and pauses), as /mafia conduct record and every lobby join read it.
    'conduct record (busiest player)': await time(
      RUNS,
      async () => await memberStanding(store, GUILD, busiest.user_id, now),
    ),
    'player, last 30 days': await time(
      RUNS,
      async () => await profile(stats, f({ period: { kind: 'days', days: 30 } }), busiest.user_id),
    ),
    'player chart (PNG, 200 points)': await time(10, async () => {
      const p = await profile(stats, f(), busiest.user_id);
      renderChart({
        title: 'Гравець — Elo',
        points: p.history.map((h) => ({ at: h.at, value: h.elo })),
        fromLabel: 'a',
        toLabel: 'b',
        baseline: 1000,
      });
    }),
    'game record (replay of a real game)': await time(
      RUNS,
      async (i) => await gameRecord(stats, GUILD, real[i % real.length]!),
    ),
  };
  // An annul or a settings change: the rebuild in small steps, the event loop watched meanwhile.
  let rebuildAfterAnnul: Record<string, unknown> | null = null;
  if (options.rebuild !== false) {
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const tRe = performance.now();
    const stepMs: number[] = [];
    const byKind: Record<string, number[]> = {};
    await recomputeInBackground(stats, GUILD, 'classic-10', (ms, kind) => {
      stepMs.push(ms);
      (byKind[kind] ??= []).push(ms);
    });
    const rebuildSeconds = Math.round((performance.now() - tRe) / 100) / 10;
    loop.disable();
    rebuildAfterAnnul = {
      ruleset: 'classic-10',
      seconds: rebuildSeconds,
      steps: stepMs.length,
      stepMs: stat(stepMs),
      stepMsByKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, { steps: v.length, ...stat(v) }])),
      longestEventLoopStallMs: Math.round(loop.max / 1e5) / 10,
    };
  }
  // Issue 24: the achievements the games earned, and the busiest player's (every /stats player reads them).
  const achievements = {
    rows: Number((await c.get(c.db.select({ n: count() }).from(c.t.achievements)))?.n ?? 0),
    busiestPlayer: (await stats.playerAchievements(GUILD, 'classic-10', busiest.user_id)).map((a) => a.code),
  };
  await open.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  return {
    database: open.dialect,
    games,
    players: playerCount,
    results,
    fillSeconds,
    /** Games closed through recordGame in this database (the others came with a copy: --fill copy). */
    closedHere: closing.length,
    closingTransactionExtraMs: closing.length > 0 ? stat(closing) : null,
    vacuumAnalyzeSeconds,
    seasonDefineMs,
    queriesMs: queries,
    busiestPlayerGames: busiest.games,
    /** Issue 24: the achievements the games earned, and the busiest player's (read by every /stats player). */
    achievements,
    rebuildAfterAnnul,
  };
}

async function main(): Promise<void> {
  const usage = (msg: string): never => {
    process.stderr.write(
      `bench:stats: ${msg}\nusage: npm run bench:stats -- [--db sqlite|postgres|both] [--url URL] [--games N] [--players P] [--no-rebuild]\n`,
    );
    process.exit(2);
  };
  let values;
  try {
    values = parseArgs({
      options: {
        db: { type: 'string' },
        url: { type: 'string' },
        games: { type: 'string', default: process.env.BENCH_STATS_GAMES ?? '100000' },
        players: { type: 'string', default: process.env.BENCH_STATS_PLAYERS ?? '2000' },
        fill: { type: 'string', default: 'copy' },
        close: { type: 'string', default: '2000' },
        'no-rebuild': { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (e) {
    return usage((e as Error).message);
  }
  const games = Number(values.games);
  const players = Number(values.players);
  if (!/^\d+$/.test(values.games) || games < 1 || games > 1_000_000) usage('--games must be 1..1000000');
  if (!/^\d+$/.test(values.players) || players < 20 || players > 1_000_000) usage('--players must be 20..1000000');
  if (values.db !== undefined && !['sqlite', 'postgres', 'both'].includes(values.db))
    usage('--db is sqlite, postgres or both');
  if (values.fill !== 'copy' && values.fill !== 'real') usage('--fill is copy or real');
  if (!/^\d+$/.test(values.close)) usage('--close must be a number of games');
  const close = Math.min(games, Number(values.close));
  let pgServer: BenchPostgres | null = null;
  if (values.db !== 'sqlite') {
    pgServer = await benchPostgres(values.url);
    if (!pgServer && values.db !== undefined)
      usage('no PostgreSQL: give --url, set TEST_DATABASE_URL, or install the postgresql package');
  }
  const dbs =
    values.db === 'sqlite' || !pgServer ? ['sqlite'] : values.db === 'postgres' ? ['postgres'] : ['sqlite', 'postgres'];
  if (pgServer)
    process.stderr.write(`bench:stats: PostgreSQL ${pgServer.server} ${JSON.stringify(pgServer.settings)}\n`);
  const out: Record<string, unknown> = {};
  const say = (line: string) => process.stderr.write(`bench:stats: ${line}\n`);
  // --fill copy: the first games built once in a SQLite file, copied into PostgreSQL before the
  // SQLite figures are taken on the file itself.
  let built: { dir: string; path: string; build: unknown; copy?: unknown } | null = null;
  const pgDb = dbs.includes('postgres') ? await pgServer!.database() : null;
  try {
    if (values.fill === 'copy') {
      const dir = mkdtempSync(join(tmpdir(), 'mafia-stats-bench-'));
      const path = join(dir, 'bench.sqlite');
      const build = await buildStatsFile(path, games - close, games, players, (l) => say(`SQLite build: ${l}`));
      built = { dir, path, build };
      if (pgDb) {
        const t = performance.now();
        const source = openDatabase(path, { readonly: true });
        const url = parsePostgresUrl(pgDb.url);
        const client = await connectPostgres(url);
        try {
          await copyToPostgres(source, client, redactUrl(url));
        } finally {
          await client.end();
          source.close();
        }
        built.copy = { seconds: Math.round((performance.now() - t) / 100) / 10 };
        say(`copied into PostgreSQL in ${(built.copy as { seconds: number }).seconds} s`);
      }
    }
    for (const kind of dbs) {
      const env = kind === 'postgres' ? { DATABASE_URL: pgDb!.url } : built ? { DATABASE_PATH: built.path } : undefined;
      out[kind] = await benchStats(games, players, {
        ...(env ? { env } : {}),
        ...(built ? { prebuilt: games - close } : {}),
        rebuild: !values['no-rebuild'],
        progress: (line) => say(`${kind}: ${line}`),
      });
      say(`${kind} done`);
    }
  } finally {
    await pgDb?.drop();
    if (built) rmSync(built.dir, { recursive: true, force: true });
  }
  pgServer?.stop();
  // The queries' medians, p95 and maxima side by side (ms), then each database in full.
  const sideBySide: Record<string, Record<string, string>> = {};
  for (const kind of dbs)
    for (const [q, v] of Object.entries(
      (out[kind] as { queriesMs: Record<string, ReturnType<typeof stat>> }).queriesMs,
    ))
      (sideBySide[q] ??= {})[kind] = `${v.median} / ${v.p95} / ${v.max}`;
  console.log(
    JSON.stringify(
      {
        node: process.version,
        games,
        players,
        fill:
          values.fill === 'copy'
            ? {
                how: `the first ${games - close} games built through recordGame in a SQLite file${pgDb ? ', copied into PostgreSQL as db:migrate-to-postgres copies' : ''}; the last ${close} closed through recordGame in each database`,
                ...(built ? { sqliteBuild: built.build, ...(built.copy ? { copy: built.copy } : {}) } : {}),
              }
            : { how: 'every game closed through recordGame in each database' },
        databases: {
          ...(dbs.includes('sqlite') ? { sqlite: sqliteSettings() } : {}),
          ...(pgServer ? { postgres: { server: pgServer.server, ...pgServer.settings } } : {}),
        },
        queriesMedianP95MaxMs: sideBySide,
        stats: out,
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
