// /stats export at scale (issue 24): the games of bench:stats (100,000 games of 2,000 players over
// two years, every one closed through recordGame) in a SQLite file, then each export timed: the
// whole build (what the member waits for) and the longest stall of the event loop meanwhile (what
// a running game's click may wait behind it: the reads are paged, a turn between pages).
//
// npx tsx bench/export-bench.ts [--games N] [--players P] [--db PATH] [--page ROWS]
// --db reuses a file built before (it is built when missing and kept); --page sets the rows read
// per query (default EXPORT_PAGE).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openConnection } from '../src/db/open';
import { Store } from '../src/db/store';
import { buildExport, type ExportFormat, type ExportWhat } from '../src/stats/export';
import type { StatsFilter } from '../src/stats/queries';
import { buildStatsFile } from './stats-bench';

const DAY = 86_400_000;
const GUILD = 'bench-guild';
// bench:stats's games run from this time over two years.
const START = 1_700_000_000_000;
const END = START + 730 * DAY;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      games: { type: 'string' },
      players: { type: 'string' },
      db: { type: 'string' },
      page: { type: 'string' },
    },
  });
  const games = Number(values.games ?? 100_000);
  const players = Number(values.players ?? 2000);
  const path = values.db ?? join(mkdtempSync(join(tmpdir(), 'mafia-export-bench-')), 'bench.sqlite');
  if (!existsSync(path)) {
    const built = await buildStatsFile(path, games, games, players, (l) => process.stderr.write(`${l}\n`));
    console.log(`built ${games} games of ${players} players in ${built.seconds} s: ${path}`);
  }
  const open = await openConnection({ DATABASE_PATH: path });
  const db = new Store(open.connection).stats;
  const f = (period: StatsFilter['period']): StatsFilter => ({
    guildId: GUILD,
    ruleset: 'classic-10',
    period,
    now: END,
  });
  const cases: { name: string; filter: StatsFilter; format: ExportFormat; what: ExportWhat }[] = [
    { name: 'standings, all time, CSV', filter: f({ kind: 'all' }), format: 'csv', what: 'standings' },
    {
      name: 'standings + games, last 30 days, CSV',
      filter: f({ kind: 'days', days: 30 }),
      format: 'csv',
      what: 'both',
    },
    {
      name: 'standings + games, last 30 days, JSON',
      filter: f({ kind: 'days', days: 30 }),
      format: 'json',
      what: 'both',
    },
    {
      name: 'games, a 90-day season, CSV',
      filter: f({ kind: 'season', id: 0, name: 'x', from: END - 90 * DAY, to: END }),
      format: 'csv',
      what: 'games',
    },
    { name: 'standings + games, all time, CSV (over 10 MiB)', filter: f({ kind: 'all' }), format: 'csv', what: 'both' },
    {
      name: 'standings + games, all time, JSON (over 10 MiB)',
      filter: f({ kind: 'all' }),
      format: 'json',
      what: 'both',
    },
  ];
  const rows: Record<string, unknown>[] = [];
  for (const c of cases) {
    const h = monitorEventLoopDelay({ resolution: 1 });
    // A timer that must fire every millisecond: the stall is how late it comes at worst.
    let last = performance.now();
    let stall = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    h.enable();
    const t0 = performance.now();
    const r = await buildExport(db, {
      filter: c.filter,
      format: c.format,
      what: c.what,
      nameOf: () => null,
      maxBytes: 10 * 1024 * 1024,
      ...(values.page ? { pageSize: Number(values.page) } : {}),
    });
    const ms = performance.now() - t0;
    h.disable();
    clearInterval(tick);
    rows.push({
      export: c.name,
      result:
        r.kind === 'files'
          ? `${r.players} players, ${r.games} games, ${r.files.map((x) => `${Math.round(x.data.length / 1024)} KiB`).join(' + ')}`
          : r.kind,
      'total ms': Math.round(ms),
      'longest stall ms': Math.round(stall),
      'loop delay p99 ms': Math.round(h.percentile(99) / 1e6),
    });
  }
  for (const r of rows) console.log(JSON.stringify(r));
  await open.close();
}

void main();
