// /stats at scale: fills a database with finished games of 2,000 players across the rule sets
// (every game closed through the real incremental path, recordGame), plays a few real games
// through the game service, then times each /stats query. Every query is one synchronous call on
// the event loop, so its time is the longest step a running game's click can wait behind it.
// BENCH_STATS_GAMES (default 100000) and BENCH_STATS_PLAYERS (2000) change the size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { GameService } from '../src/app/game-service';
import { openDatabase } from '../src/db/client';
import { Store } from '../src/db/store';
import { RULESETS, teamOf } from '../src/engine/rulesets';
import type { RulesetId } from '../src/engine/types';
import { randomAction, randomDeal, seededRng } from '../src/sim/random-play';
import { renderChart } from '../src/stats/chart';
import { gameRecord } from '../src/stats/game-record';
import { profile, top, type StatsFilter } from '../src/stats/queries';
import { rebuildSeason, recomputeInBackground, recordGame } from '../src/stats/record';

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

export async function benchStats(
  games = Number(process.env.BENCH_STATS_GAMES ?? 100_000),
  playerCount = Number(process.env.BENCH_STATS_PLAYERS ?? 2000),
) {
  const dir = mkdtempSync(join(tmpdir(), 'mafia-stats-bench-'));
  const open = openDatabase(join(dir, 'bench.sqlite'));
  const store = new Store(open.connection);
  const db = open.sqlite;
  const stats = store.stats;
  const rng = seededRng(12);
  const players = Array.from({ length: playerCount }, (_, i) => String(100_000_000_000_000_000n + BigInt(i)));
  const rulesets: RulesetId[] = ['classic-10', 'chnu-2016', 'kiev-12'];
  const span = 730 * DAY; // two years of play
  const start = 1_700_000_000_000;
  const insGame = db.prepare(
    "INSERT INTO games (guild_id, channel_id, host_id, ruleset, pace, status, moves, winner, created_at, started_at, updated_at, finished_at, tournament_id) VALUES (?, 'c', 'h', ?, 'live', 'archived', ?, ?, ?, ?, ?, ?, ?)",
  );
  const insResult = db.prepare(
    `INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at, moves, fouls, removed, best_move_black)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?)`,
  );
  await store.ensureServer(GUILD, start);
  const closing: number[] = [];
  const tFill = performance.now();
  const BATCH = 500;
  for (let g0 = 0; g0 < games; g0 += BATCH) {
    // One transaction of the store per batch: the rows are written straight into the file inside it.
    await store.transaction(async () => {
      for (let g = g0; g < Math.min(games, g0 + BATCH); g++) {
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
        const id = Number(
          insGame.run(GUILD, rs, moves, winner, finishedAt, finishedAt - 3_600_000, finishedAt, finishedAt, tournament)
            .lastInsertRowid,
        );
        const best = Math.floor(rng() * roles.length);
        [...seats].forEach((user, i) => {
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
          insResult.run(
            id,
            i + 1,
            GUILD,
            user,
            rs,
            role,
            team,
            outcome,
            pts,
            i === best ? 1 : 0,
            rng() < 0.07 ? 1 : 0,
            finishedAt,
            moves,
            rng() < 0.1 ? 1 : 0,
            0,
            i === 0 && rng() < 0.3 ? 2 : null,
          );
        });
        const t0 = performance.now();
        await recordGame(stats, id); // the work the game-closing transaction adds
        closing.push(performance.now() - t0);
      }
    });
  }
  const fillSeconds = Math.round((performance.now() - tFill) / 100) / 10;
  const results = (db.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;

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
  const seasonId = Number(
    db
      .prepare("INSERT INTO seasons (guild_id, name, starts_at, ends_at, created_at) VALUES (?, 'Autumn', ?, NULL, ?)")
      .run(GUILD, now - 90 * DAY, now).lastInsertRowid,
  );
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
  const busiest = db
    .prepare(
      "SELECT user_id, games FROM standings WHERE guild_id = ? AND ruleset = 'classic-10' AND scope = 'all' ORDER BY games DESC LIMIT 1",
    )
    .get(GUILD) as { user_id: string; games: number };
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
    'player, all time (busiest player)': await time(RUNS, async () => await profile(stats, f(), busiest.user_id)),
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
  const rebuildLongestStepMs = Math.round(loop.max / 1e5) / 10;
  open.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    games,
    players: playerCount,
    results,
    fillSeconds,
    closingTransactionExtraMs: stat(closing),
    seasonDefineMs,
    queriesMs: queries,
    busiestPlayerGames: busiest.games,
    rebuildAfterAnnul: {
      ruleset: 'classic-10',
      seconds: rebuildSeconds,
      steps: stepMs.length,
      stepMs: stat(stepMs),
      stepMsByKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, { steps: v.length, ...stat(v) }])),
      longestEventLoopStallMs: rebuildLongestStepMs,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ node: process.version, stats: await benchStats() }, null, 2));
  process.exit(0);
}
