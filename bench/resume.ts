// `npm run bench:resume -- --games N [--runs K]`: how fast the bot takes games back after a crash.
// N games are set up mid-day (a speaker's turn open) by the bot in this process, against the
// project's fake Discord; the bot is then killed as a SIGKILL would kill it, and started again as
// `npm start` starts it (a child process, Discord's rate limits on). At the moment the new gateway
// session is up, every game's speaker clicks "Thank you": the figure is how long after that each
// game accepted it. Also printed: how long the process took to connect, and its event-loop delay
// while resuming. With --runs K this is done K times in a row on the same games: once every game
// shows its next speaker's turn, the process is SIGKILLed again and started again.
// --db postgres (issue 23): the games are in a PostgreSQL database (a fresh one on --url's server,
// else TEST_DATABASE_URL's, else a server of the bench's own with a production's durability:
// bench/pg.ts), and the restarted bot is given DATABASE_URL instead of DATABASE_PATH.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBot } from '../src/discord/bot';
import { rolePool } from '../src/engine/rulesets';
import { allComponents, FakeDiscord, type StoredMessage } from '../testkit/fake-discord';
import { botConfig, isPostgresUrl } from '../testkit/world';
import { benchPostgres, sqliteSettings, type BenchDatabase, type BenchPostgres } from './pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSX = createRequire(import.meta.url).resolve('tsx');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function pct(xs: number[], p: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const k = argv.indexOf(name);
    return k >= 0 ? (argv[k + 1] ?? '') : undefined;
  };
  const flag = (name: string, dflt: number): number => {
    const v = value(name);
    return v === undefined ? dflt : /^\d+$/.test(v) ? Number(v) : NaN;
  };
  const n = flag('--games', 1000);
  const runs = flag('--runs', 1);
  const kind = value('--db') ?? 'sqlite';
  const url = value('--url');
  const known = argv.every((a, k) => (k % 2 === 0 ? ['--games', '--runs', '--db', '--url'].includes(a) : true));
  if (
    !(n >= 1 && n <= 5000) ||
    !(runs >= 1 && runs <= 8) ||
    !['sqlite', 'postgres'].includes(kind) ||
    (url !== undefined && kind !== 'postgres') ||
    !known ||
    argv.length % 2 !== 0
  ) {
    process.stderr.write(
      'bench:resume: use --games N (1..5000) [--runs K (1..8)] [--db sqlite|postgres] [--url postgres://… (with --db postgres)]\n',
    );
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'mafia-resume-'));
  // SQLite: a file in the bench's folder; PostgreSQL: a fresh database, its URL where the path was.
  let pgServer: BenchPostgres | null = null;
  let pgDb: BenchDatabase | null = null;
  if (kind === 'postgres') {
    pgServer = await benchPostgres(url);
    if (!pgServer) {
      process.stderr.write(
        'bench:resume: no PostgreSQL: give --url, set TEST_DATABASE_URL, or install the postgresql package\n',
      );
      process.exit(2);
    }
    pgDb = await pgServer.database();
    process.stderr.write(`bench:resume: PostgreSQL ${pgServer.server} ${JSON.stringify(pgServer.settings)}\n`);
  }
  const dbPath = pgDb ? pgDb.url : join(dir, 'mafia.sqlite');
  const fake = await FakeDiscord.start({ interactionTimeout: 30_000, interactionDeadlineMs: 3_000, rateLimits: false });
  const guild = fake.addGuild({ name: 'Resume', locale: 'en-US' });
  const roles = rolePool('chnu-2016');

  // Set-up: N games in day 1, each with a speaker's turn open, everything delivered.
  const t0 = Date.now();
  const bot = await startBot({ ...botConfig(fake, dbPath, { limits: 'off' }), requestsPerSecond: 5000 });
  const games: { gameId: number; channelId: string; users: string[] }[] = [];
  for (let g = 0; g < n; g++) {
    const channel = fake.addChannel(guild.id, { name: `mafia-${g + 1}` });
    const host = fake.addUser({ username: `h${g + 1}`, guilds: [guild.id] });
    const users = Array.from(
      { length: roles.length },
      (_, k) => fake.addUser({ username: `g${g + 1}p${k + 1}`, guilds: [guild.id] }).id,
    );
    const game = await bot.service.createLobby({
      guildId: guild.id,
      channelId: channel.id,
      hostId: host.id,
      ruleset: 'chnu-2016',
      pace: 'async',
      options: {},
      lobby: { members: users },
    });
    games.push({ gameId: game.id, channelId: channel.id, users });
  }
  for (let k = 0; k < games.length; k += 50) {
    await Promise.all(
      games.slice(k, k + 50).map(async (g) => {
        const r = await bot.service.start(g.gameId, g.users, roles);
        if (!r.ok) throw new Error(`start ${g.gameId}: ${r.code}`);
        const skip = await bot.service.dispatch(g.gameId, { kind: 'host-skip' }, 'host:bench');
        if (!skip.ok) throw new Error(`skip ${g.gameId}: ${skip.code}`);
      }),
    );
  }
  await bot.idle();
  const setupSeconds = Math.round((Date.now() - t0) / 1000);
  await bot.kill();

  const results: unknown[] = [];
  fake.setRateLimits(true);
  process.stderr.write(`bench:resume: ${n} games set up in ${setupSeconds} s\n`);
  for (let run = 1; run <= runs; run++) {
    results.push(await restartAndClick(fake, games, dbPath, dir, run, runs));
    process.stderr.write(`bench:resume: run ${run} of ${runs} done\n`);
  }
  await fake.stop();
  await pgDb?.drop();
  pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
  const figures = (k: string) =>
    results.map((r) => (r as Record<string, { p50: number; p99: number; max: number }>)[k]);
  console.log(
    JSON.stringify(
      {
        node: process.version,
        database: pgServer
          ? { kind: 'postgres', server: pgServer.server, ...pgServer.settings }
          : { kind: 'sqlite', ...sqliteSettings() },
        games: n,
        runs,
        setupSeconds,
        // Each run's key figures side by side, then each run in full.
        summary: {
          acceptedP99Ms: figures('acceptedAfterGatewayMs').map((f) => f?.p99),
          acceptedMaxMs: figures('acceptedAfterGatewayMs').map((f) => f?.max),
          answeredP99Ms: figures('answeredAfterGatewayMs').map((f) => f?.p99),
          retriedClicks: results.map((r) => (r as { retriedClicks: number }).retriedClicks),
          lateAnswers: results.map((r) => (r as { interactions: { late: number } }).interactions.late),
        },
        results,
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

/** One restart: the process started as npm start starts it, every speaker's click at once, the figures. */
async function restartAndClick(
  fake: FakeDiscord,
  games: { gameId: number; channelId: string; users: string[] }[],
  dbPath: string,
  dir: string,
  run: number,
  runs: number,
): Promise<Record<string, unknown>> {
  const metricsFile = join(dir, `metrics-${run}.json`);
  // The restart, as npm start runs it, with Discord's limits.
  fake.resetStats();
  const sessions = fake.stats.identifies;
  const killedAt = Date.now();
  // BENCH_CPU_PROF=<dir>: the restarted bot writes a CPU profile there when it stops.
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', TSX, join(ROOT, 'src/index.ts')], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      DISCORD_TOKEN: 'test-token',
      DISCORD_API_BASE: fake.apiBase,
      ...(isPostgresUrl(dbPath) ? { DATABASE_URL: dbPath } : { DATABASE_PATH: dbPath }),
      METRICS_FILE: metricsFile,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  while (fake.stats.identifies === sessions) {
    if (Date.now() - killedAt > 120_000) throw new Error(`bench:resume: the bot never connected\n${stderr}`);
    await sleep(5);
  }
  const readyAt = Date.now();
  const benchCpu0 = process.cpuUsage();
  // Every speaker clicks "Thank you" on his turn's message at once; a refused or failed click
  // (the game not yet loaded) is tried again after a moment.
  const accepted: number[] = [];
  const answered: number[] = [];
  let unanswered = 0;
  let retries = 0;
  const clicked = new Map<number, string>();
  const ix0 = { ...fake.stats.interactions };
  await Promise.all(
    games.map(async (g) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const turn = latestTurn(fake, g.channelId, g.gameId);
        const speaker = turn && speakerOf(turn);
        const pass = turn && allComponents(turn).find((c) => c.custom_id?.includes(':pass') && !c.disabled);
        if (!turn || !speaker || !pass) throw new Error(`game ${g.gameId}: no open turn to click`);
        clicked.set(g.gameId, `${pass.custom_id!} ${speaker}`);
        try {
          // A click Discord failed shows "This interaction failed" after 3 s; the player clicks again.
          const r = await fake.click(speaker, turn, pass.custom_id!, { timeout: 4_000 });
          if (r.type === 6 || r.type === 7) {
            accepted.push(Date.now() - readyAt);
            // Acknowledged first (a burst): the turn's message changes once the click's work is done.
            if (r.type === 6) await r.settled({ timeout: 600_000 }).catch(() => unanswered++);
            answered.push(Date.now() - readyAt);
            return;
          }
        } catch {
          // no answer in time: try again
        }
        retries++;
        await sleep(500);
      }
    }),
  );
  const benchCpu = process.cpuUsage(benchCpu0);
  const resumeWallMs = Date.now() - readyAt;
  await sleep(6000);
  process.kill(child.pid!, 'SIGUSR2');
  await sleep(500);
  const metrics = existsSync(metricsFile)
    ? (JSON.parse(readFileSync(metricsFile, 'utf8')) as {
        eventLoopDelayMs?: unknown;
        startupEventLoopDelayMs?: unknown;
        rssMb?: number;
        startup?: { marks: Record<string, number>; intake: unknown };
        stalls?: unknown[];
        startupStalls?: unknown[];
      })
    : null;
  // Before the next run: every game shows its next speaker's turn (everything delivered), then
  // the process dies as a SIGKILL kills it.
  const until = Date.now() + Number(process.env.BENCH_RESUME_WAIT_MS ?? 300_000);
  if (run < runs) process.stderr.write(`bench:resume: run ${run}: waiting for every game's next turn\n`);
  // The click a game waits for next: its control and whose it is (the first player named as waited for).
  const openPass = (g: { gameId: number; channelId: string }) => {
    const turn = latestTurn(fake, g.channelId, g.gameId);
    const id = turn && allComponents(turn).find((c) => c.custom_id?.includes(':pass') && !c.disabled)?.custom_id;
    return id && `${id} ${speakerOf(turn)}`;
  };
  while (games.some((g) => (openPass(g) ?? clicked.get(g.gameId)) === clicked.get(g.gameId))) {
    if (Date.now() > until) {
      const g = games.find((x) => (openPass(x) ?? clicked.get(x.gameId)) === clicked.get(x.gameId))!;
      const msgs = fake.publicMessages(g.channelId).slice(-3);
      throw new Error(
        `bench:resume: the next turns were not all shown within 300 s; game ${g.gameId} clicked ${clicked.get(g.gameId)}, open ${openPass(g)}; last: ${JSON.stringify(msgs.map((m) => [m.content, allComponents(m).map((c) => [c.custom_id, c.disabled])]))}`,
      );
    }
    await sleep(200);
  }
  const exited = new Promise((r) => child.once('exit', r));
  // The last run's process stops cleanly (a CPU profile, BENCH_CPU_PROF, is written then).
  child.kill(run < runs ? 'SIGKILL' : 'SIGTERM');
  await exited;
  const limited: Record<string, number> = {};
  for (const e of fake.log)
    if (e.status === 429) limited[`${e.method} ${e.route}`] = (limited[`${e.method} ${e.route}`] ?? 0) + 1;
  return {
    run,
    connectedAfterStartMs: readyAt - killedAt,
    acceptedAfterGatewayMs: {
      p50: pct(accepted, 50),
      p99: pct(accepted, 99),
      max: accepted.length ? Math.max(...accepted) : null,
      games: accepted.length,
    },
    // A click acknowledged before its work: when the work was done and shown (the turn's
    // message changed); the same as accepted for a click answered with its result at once.
    answeredAfterGatewayMs: {
      p50: pct(answered, 50),
      p99: pct(answered, 99),
      max: answered.length ? Math.max(...answered) : null,
      neverAnswered: unanswered,
    },
    retriedClicks: retries,
    // The fake's view: clicks sent, answered too late for Discord (404), never answered.
    interactions: (() => {
      const ix = fake.stats.interactions;
      return {
        sent: ix.dispatched - ix0.dispatched,
        late: ix.late - ix0.late,
        timedOut: ix.timedOut - ix0.timedOut,
      };
    })(),
    // The restarted bot: when its session was ready, its command ids loaded, its recovery done
    // (ms after the gateway session), and its interactions' age on arrival and time queued.
    startupMarksMs: Object.fromEntries(Object.entries(metrics?.startup?.marks ?? {}).map(([k, v]) => [k, v - readyAt])),
    intake: metrics?.startup?.intake ?? null,
    // The fake Discord and the simulated players run in this process: if its CPU time is
    // close to the wall time, the figures above are the fake's limit, not the bot's.
    benchProcess: { wallMs: resumeWallMs, cpuMs: Math.round((benchCpu.user + benchCpu.system) / 1000) },
    rateLimited429: limited,
    eventLoopDelayMs: metrics?.eventLoopDelayMs ?? null,
    // The longest stalls after the gateway, with the CPU and GC time inside each.
    stalls: (metrics?.stalls?.slice(0, 5) ?? []).map((x) => ({
      ...(x as { at: number }),
      at: (x as { at: number }).at - readyAt,
    })),
    startupStalls: (metrics?.startupStalls?.slice(0, 3) ?? []).map((x) => ({
      ...(x as { at: number }),
      at: (x as { at: number }).at - readyAt,
    })),
    startupEventLoopDelayMs: metrics?.startupEventLoopDelayMs ?? null,
    rssMb: metrics?.rssMb ?? null,
  };
}

/** Whose click the turn waits for: the first player it names (the speaker, or the first not done yet). */
function speakerOf(turn: StoredMessage): string | undefined {
  return /<@(\d+)>/.exec(turn.content.split('\n\n').find((p) => /<t:\d+:R>/.test(p)) ?? '')?.[1];
}

function latestTurn(fake: FakeDiscord, channelId: string, gameId: number): StoredMessage | null {
  const msgs = fake.publicMessages(channelId);
  for (let k = msgs.length - 1; k >= 0; k--)
    if (
      allComponents(msgs[k]!).some(
        (c) => c.custom_id?.startsWith(`v1:a:${gameId}:`) && c.custom_id.includes(':pass') && !c.disabled,
      )
    )
      return msgs[k]!;
  return null;
}

await main();
