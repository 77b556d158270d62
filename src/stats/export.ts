// /stats export (issue 24): a server's standings and finished games of one rule set and period as
// CSV or JSON files that a rating site can import. The format is documented in docs/export.md:
// its column names are stable English identifiers, whatever the reader's language. Rows are read
// in pages (keyset paging, a turn of the event loop between pages) and the files are built only up
// to the attachment limit: an export that would not fit stops there and says so.
import type { ExportSeatRow, StatsStore } from '../db/stats-store';
import { csvLine, type CsvCell } from '../engine/csv';
import { RULESETS } from '../engine/rulesets';
import { range, type StatsFilter } from './queries';

/** The format's version: raised when a column is removed or changes its meaning (added ones do not). */
export const EXPORT_VERSION = 1;
/** The JSON's `format` field: what a reader checks before it trusts the rest. */
export const EXPORT_FORMAT = 'mafia-bot-export';

export type ExportFormat = 'csv' | 'json';
export type ExportWhat = 'standings' | 'games' | 'both';

/**
 * Seats read per query: a page's query and its rows' text take about 10 ms on 100,000 games
 * (bench/export-bench.ts; 2,000 a page made stalls of up to 90 ms, mostly the rows' text).
 */
export const EXPORT_PAGE = 500;
/**
 * Standings rows per query. The ranking is computed over every player at each call, so fewer,
 * larger calls are cheaper: one call ranks 2,000 players in 15–40 ms, as /stats top does.
 */
export const STANDINGS_PAGE = 5000;

export interface ExportRequest {
  filter: StatsFilter;
  format: ExportFormat;
  what: ExportWhat;
  /** A member's name on the server when the bot knows it (else the column is empty). */
  nameOf: (userId: string) => string | null;
  /** The largest file that may be sent (Discord's attachment size limit). */
  maxBytes: number;
  /** Rows per query, standings and seats (tests make it small to cross page boundaries). */
  pageSize?: number;
}

export interface ExportFile {
  name: string;
  data: Buffer;
}

export type ExportResult =
  | { kind: 'files'; files: ExportFile[]; players: number; games: number }
  | { kind: 'empty' }
  | { kind: 'too-large'; file: string; limit: number };

/** The standings columns, in their order (docs/export.md). */
export const STANDINGS_COLUMNS = [
  'place',
  'user_id',
  'name',
  'points',
  'games',
  'wins',
  'best_player',
  'wins_don',
  'wins_sheriff',
  'wins_mafia',
  'killed_night1',
  'elo',
  'elo_place',
  'elo_games',
] as const;

/** The games columns: one row per seat of every finished game (docs/export.md). */
export const GAMES_COLUMNS = [
  'game_id',
  'finished_at',
  'started_at',
  'ruleset',
  'pace',
  'tournament_id',
  'rated',
  'annulled',
  'counts',
  'not_counted_reason',
  'winner',
  'moves',
  'seat',
  'user_id',
  'name',
  'role',
  'team',
  'outcome',
  'points',
  'bonus',
  'best_player',
  'killed_night1',
  'best_move_black',
  'fouls',
  'removed',
  'elo_before',
  'elo_after',
  'holders',
  'breakdown',
] as const;

export interface StandingRow {
  place: number | null;
  user_id: string;
  name: string | null;
  points: number;
  games: number;
  wins: number;
  best_player: number;
  wins_don: number;
  wins_sheriff: number;
  wins_mafia: number;
  killed_night1: number;
  elo: number | null;
  elo_place: number | null;
  elo_games: number | null;
}

/** The yield between pages: other interactions and timers run before the next query. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The period's part of the files' names: `all`, `30d`, `season-3`, and `-tournament-2`. */
export function periodSlug(f: StatsFilter): string {
  const p = f.period.kind === 'all' ? 'all' : f.period.kind === 'days' ? `${f.period.days}d` : `season-${f.period.id}`;
  return f.tournament ? `${p}-tournament-${f.tournament}` : p;
}

/**
 * Every standings row of the rule set and period, as `/stats top` ranks them: by points in the
 * scoring system's order (place shared by level players), with each player's Elo and Elo place.
 */
export async function exportStandings(
  db: StatsStore,
  f: StatsFilter,
  nameOf: (userId: string) => string | null,
  pageSize = STANDINGS_PAGE,
): Promise<StandingRow[]> {
  const system = RULESETS[f.ruleset].scoring;
  const { from, to } = range(f);
  const period =
    f.period.kind === 'season'
      ? { kind: 'season' as const, id: f.period.id }
      : { kind: f.period.kind as 'all' | 'days' };
  const q = { guildId: f.guildId, ruleset: f.ruleset, period, from, to, tournament: f.tournament ?? null };
  const all = async (by: 'points' | 'elo') => {
    const out: Record<string, unknown>[] = [];
    for (let lo = 0; ; lo += pageSize) {
      const rows = await db.rankedPage(q, by, system, lo, lo + pageSize, '');
      out.push(...(rows as unknown as Record<string, unknown>[]));
      if (rows.length < pageSize) break;
      await breathe();
    }
    return out;
  };
  const byPoints = await all('points');
  await breathe();
  const byElo = new Map((await all('elo')).map((r) => [String(r.user_id), r]));
  const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  const row = (r: Record<string, unknown> | null, userId: string): StandingRow => {
    const e = byElo.get(userId);
    return {
      place: r ? n(r.place) : null,
      user_id: userId,
      name: nameOf(userId),
      points: r ? n(r.half_points) / 2 : 0,
      games: r ? n(r.games) : 0,
      wins: r ? n(r.wins) : 0,
      best_player: r ? n(r.best_player) : 0,
      wins_don: r ? n(r.wins_don) : 0,
      wins_sheriff: r ? n(r.wins_sheriff) : 0,
      wins_mafia: r ? n(r.wins_mafia) : 0,
      killed_night1: r ? n(r.killed_night1) : 0,
      elo: e && e.elo != null ? Math.round(Number(e.elo) * 10) / 10 : null,
      elo_place: e ? n(e.place) : null,
      elo_games: e ? n(e.games) : null,
    };
  };
  const out = byPoints.map((r) => row(r, String(r.user_id)));
  const seen = new Set(out.map((r) => r.user_id));
  // A rated player without points: a substitute has Elo for his share of a seat whose points are
  // its holder's. Listed after the ranked players, without a place.
  for (const [userId] of byElo) if (!seen.has(userId)) out.push(row(null, userId));
  return out;
}

/** One game of the export: its facts and its seats, in seat order. */
export interface GameOut {
  game_id: number;
  finished_at: string;
  started_at: string | null;
  ruleset: string;
  pace: string;
  tournament_id: number | null;
  rated: boolean;
  annulled: boolean;
  counts: boolean;
  not_counted_reason: 'annulled' | 'casual' | 'no-day-vote' | 'too-few-moves' | null;
  winner: string | null;
  moves: number;
  seats: SeatOut[];
}

export interface SeatOut {
  seat: number;
  user_id: string;
  name: string | null;
  role: string;
  team: string;
  outcome: string;
  points: number;
  bonus: number;
  best_player: boolean;
  killed_night1: boolean;
  best_move_black: number | null;
  fouls: number;
  removed: boolean;
  elo_before: number | null;
  elo_after: number | null;
  holders: { user_id: string; share: number }[] | null;
  breakdown: Record<string, number>;
}

function reasonOf(r: ExportSeatRow): GameOut['not_counted_reason'] {
  if (r.counts) return null;
  if (r.annulledAt !== null) return 'annulled';
  if (!r.rated) return 'casual';
  if (r.noDayVote) return 'no-day-vote';
  return 'too-few-moves';
}

function parseJson<T>(s: string | null, fallback: T): T {
  if (s === null) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

const round = (x: number | null, digits: number) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

function gameOf(r: ExportSeatRow, ruleset: string): Omit<GameOut, 'seats'> {
  return {
    game_id: r.gameId,
    finished_at: iso(r.finishedAt)!,
    started_at: iso(r.startedAt),
    ruleset,
    pace: r.pace,
    tournament_id: r.tournamentId,
    rated: r.rated,
    annulled: r.annulledAt !== null,
    counts: r.counts,
    not_counted_reason: reasonOf(r),
    winner: r.winner,
    moves: r.moves,
  };
}

function seatOf(r: ExportSeatRow, nameOf: (userId: string) => string | null): SeatOut {
  const breakdown = parseJson<Record<string, number>>(r.breakdown, {});
  const holders = parseJson<{ userId: string; share: number }[] | null>(r.holders, null);
  return {
    seat: r.seat,
    user_id: r.userId,
    name: nameOf(r.userId),
    role: r.role,
    team: r.team,
    outcome: r.outcome,
    points: r.points,
    bonus: typeof breakdown.bonus === 'number' ? breakdown.bonus : 0,
    best_player: r.bestPlayer,
    killed_night1: r.killedNight1,
    best_move_black: r.bestMoveBlack,
    fouls: r.fouls,
    removed: r.removed,
    elo_before: round(r.eloBefore, 1),
    elo_after: round(r.eloAfter, 1),
    holders: Array.isArray(holders) ? holders.map((h) => ({ user_id: h.userId, share: round(h.share, 4)! })) : null,
    breakdown,
  };
}

/** The CSV cells of one seat, in GAMES_COLUMNS' order. */
function seatCells(g: Omit<GameOut, 'seats'>, s: SeatOut): CsvCell[] {
  return [
    g.game_id,
    g.finished_at,
    g.started_at,
    g.ruleset,
    g.pace,
    g.tournament_id,
    g.rated,
    g.annulled,
    g.counts,
    g.not_counted_reason,
    g.winner,
    g.moves,
    s.seat,
    s.user_id,
    s.name,
    s.role,
    s.team,
    s.outcome,
    s.points,
    s.bonus,
    s.best_player,
    s.killed_night1,
    s.best_move_black,
    s.fouls,
    s.removed,
    s.elo_before,
    s.elo_after,
    s.holders ? s.holders.map((h) => `${h.user_id}:${h.share}`).join(';') : null,
    JSON.stringify(s.breakdown),
  ];
}

function standingCells(r: StandingRow): CsvCell[] {
  return STANDINGS_COLUMNS.map((c) => r[c]);
}

/** Text collected up to a size limit (in UTF-8 bytes): past it, `over` is set and the rest ignored. */
class Sink {
  private readonly parts: string[] = [];
  bytes = 0;
  over = false;
  constructor(private readonly limit: number) {}
  push(s: string): void {
    if (this.over) return;
    this.bytes += Buffer.byteLength(s, 'utf8');
    if (this.bytes > this.limit) {
      this.over = true;
      this.parts.length = 0;
      return;
    }
    this.parts.push(s);
  }
  buffer(): Buffer {
    return Buffer.from(this.parts.join(''), 'utf8');
  }
}

/**
 * The seats of every finished game of the rule set and period, a page at a time, grouped by game
 * (the rows come in the order the games finished, then by game id, then by seat). `each` returns
 * false to stop early (a file over the limit).
 */
async function eachGame(
  db: StatsStore,
  f: StatsFilter,
  nameOf: (userId: string) => string | null,
  pageSize: number,
  each: (g: GameOut) => boolean,
): Promise<number> {
  const { from, to } = range(f);
  const q = { guildId: f.guildId, ruleset: f.ruleset, from, to, tournament: f.tournament ?? null };
  let after: { finishedAt: number; gameId: number; seat: number } | null = null;
  let current: GameOut | null = null;
  let count = 0;
  for (;;) {
    const rows = await db.exportSeats(q, after, pageSize);
    for (const r of rows) {
      if (current && current.game_id !== r.gameId) {
        count++;
        if (!each(current)) return count;
        current = null;
      }
      current ??= { ...gameOf(r, f.ruleset), seats: [] };
      current.seats.push(seatOf(r, nameOf));
    }
    if (rows.length < pageSize) break;
    const last = rows[rows.length - 1]!;
    after = { finishedAt: last.finishedAt, gameId: last.gameId, seat: last.seat };
    await breathe();
  }
  if (current) {
    count++;
    each(current);
  }
  return count;
}

/** The JSON's metadata (docs/export.md). */
export function exportMeta(f: StatsFilter, generatedAt: number) {
  const { from, to } = range(f);
  const p = f.period;
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    generated_at: iso(generatedAt),
    server_id: f.guildId,
    ruleset: f.ruleset,
    scoring: RULESETS[f.ruleset].scoring,
    period: {
      kind: p.kind,
      ...(p.kind === 'days' ? { days: p.days } : {}),
      ...(p.kind === 'season' ? { season_id: p.id, season_name: p.name } : {}),
      from: from > 0 ? iso(from) : null,
      to: to < Number.MAX_SAFE_INTEGER ? iso(to) : null,
    },
    tournament_id: f.tournament ?? null,
  };
}

/** CSV files start with a byte order mark, so Excel reads them as UTF-8 (docs/export.md). */
const BOM = '\uFEFF';

/** Builds the export's files, or says that there is nothing to export or that a file is too large. */
export async function buildExport(db: StatsStore, req: ExportRequest): Promise<ExportResult> {
  const { filter: f, format, what, nameOf, maxBytes } = req;
  const pageSize = req.pageSize ?? EXPORT_PAGE;
  const base = `${f.ruleset}-${periodSlug(f)}`;
  const standings = what === 'games' ? [] : await exportStandings(db, f, nameOf, req.pageSize ?? STANDINGS_PAGE);
  await breathe();
  const files: ExportFile[] = [];
  let games = 0;

  if (format === 'csv') {
    if (what !== 'games') {
      const name = `standings-${base}.csv`;
      const sink = new Sink(maxBytes);
      sink.push(BOM + csvLine(STANDINGS_COLUMNS));
      for (const r of standings) sink.push(csvLine(standingCells(r)));
      if (sink.over) return { kind: 'too-large', file: name, limit: maxBytes };
      files.push({ name, data: sink.buffer() });
    }
    if (what !== 'standings') {
      const name = `games-${base}.csv`;
      const sink = new Sink(maxBytes);
      sink.push(BOM + csvLine(GAMES_COLUMNS));
      games = await eachGame(db, f, nameOf, pageSize, (g) => {
        const { seats, ...facts } = g;
        for (const s of seats) sink.push(csvLine(seatCells(facts, s)));
        return !sink.over;
      });
      if (sink.over) return { kind: 'too-large', file: name, limit: maxBytes };
      files.push({ name, data: sink.buffer() });
    }
  } else {
    const name = `export-${base}.json`;
    const sink = new Sink(maxBytes);
    const meta = JSON.stringify(exportMeta(f, f.now), null, 2);
    // The metadata's object, left open for the arrays; one array element per line.
    sink.push(meta.slice(0, meta.lastIndexOf('}')).trimEnd());
    if (what !== 'games') {
      sink.push(',\n  "standings": [');
      standings.forEach((r, i) => sink.push(`${i ? ',' : ''}\n    ${JSON.stringify(r)}`));
      sink.push(standings.length ? '\n  ]' : ']');
    }
    if (what !== 'standings') {
      sink.push(',\n  "games": [');
      let n = 0;
      games = await eachGame(db, f, nameOf, pageSize, (g) => {
        sink.push(`${n++ ? ',' : ''}\n    ${JSON.stringify(g)}`);
        return !sink.over;
      });
      sink.push(games ? '\n  ]' : ']');
    }
    sink.push('\n}\n');
    if (sink.over) return { kind: 'too-large', file: name, limit: maxBytes };
    files.push({ name, data: sink.buffer() });
  }
  if (standings.length === 0 && games === 0) return { kind: 'empty' };
  return { kind: 'files', files, players: standings.length, games };
}
