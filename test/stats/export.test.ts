// /stats export's writers (issue 24): the one CSV writer (RFC 4180 quoting, formula injection,
// numbers left alone), and the files built from stored games: the standings as /stats top ranks
// them (every page), one row per seat of every finished game (casual and annulled ones marked and
// kept out of the standings), periods, paging across page boundaries, empty data, Unicode names,
// the size limit, and the JSON's documented shape.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { Store } from '../../src/db/store';
import { csvCell, csvLine, csvTable } from '../../src/engine/csv';
import { tournamentCsv } from '../../src/engine/tournament';
import type { Role, RulesetId } from '../../src/engine/types';
import {
  buildExport,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  GAMES_COLUMNS,
  STANDINGS_COLUMNS,
  type ExportRequest,
} from '../../src/stats/export';
import { top, type StatsFilter } from '../../src/stats/queries';
import { recomputeRatings, recordGame } from '../../src/stats/record';
import { csvObjects, parseCsv } from '../../testkit/csv';
import { rawSqlite } from '../../testkit/raw-sqlite';

const G = 'g1';
const DAY = 86_400_000;
const NOW = 1000 * DAY;

function fresh() {
  const o = openDatabase(':memory:');
  const store = new Store(o.connection);
  return { o, store, db: store.stats };
}

type SeatIn = {
  user: string;
  role: Role;
  points: number;
  outcome: 'win' | 'loss' | 'draw';
  best?: boolean;
  bonus?: number;
};

/** A finished game's rows written to the results table, then rated as at a game's close. */
async function putGame(
  store: Store,
  finishedAt: number,
  seats: SeatIn[],
  extra: { rated?: boolean; ruleset?: RulesetId; holders?: { userId: string; share: number }[] } = {},
): Promise<number> {
  const ruleset = extra.ruleset ?? 'classic-10';
  const game = await store.createLobby({
    guildId: G,
    channelId: 'c',
    hostId: 'h',
    ruleset,
    pace: 'live',
    options: {},
    now: finishedAt,
  });
  const ins = rawSqlite(store).prepare(
    `INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at, no_day_vote, moves, removed, holders)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, 100, 0, ?)`,
  );
  await store.transaction(async () => {
    seats.forEach((s, i) => {
      const team = ['mafia', 'don'].includes(s.role) ? 'black' : 'red';
      const breakdown = JSON.stringify({
        [s.outcome]: s.points - (s.bonus ?? 0),
        ...(s.bonus ? { bonus: s.bonus } : {}),
      });
      ins.run(
        game.id,
        i + 1,
        G,
        s.user,
        ruleset,
        s.role,
        team,
        s.outcome,
        s.points,
        breakdown,
        s.best ? 1 : 0,
        finishedAt,
        i === 0 && extra.holders ? JSON.stringify(extra.holders) : null,
      );
    });
    const winner = seats.find((s) => s.outcome === 'win' && !['mafia', 'don'].includes(s.role)) ? 'red' : 'black';
    rawSqlite(store)
      .prepare("UPDATE games SET status = 'over', finished_at = ?, started_at = ?, winner = ?, rated = ? WHERE id = ?")
      .run(finishedAt, finishedAt - 3_600_000, winner, extra.rated === false ? 0 : 1, game.id);
    await recordGame(store.stats, game.id, game.guildId);
  });
  return game.id;
}

/** Ten seats: red wins, seat 1's user named by `first`. */
function table(users: string[], redWins = true, bonusSeat = 0): SeatIn[] {
  const roles: Role[] = [
    'civilian',
    'civilian',
    'sheriff',
    'civilian',
    'mafia',
    'civilian',
    'don',
    'civilian',
    'mafia',
    'civilian',
  ];
  return roles.map((role, i) => {
    const black = role === 'mafia' || role === 'don';
    const won = black !== redWins;
    return {
      user: users[i]!,
      role,
      points: (won ? 3 : 0) + (i === bonusSeat ? 0.5 : 0),
      outcome: won ? ('win' as const) : ('loss' as const),
      best: i === 2,
      bonus: i === bonusSeat ? 0.5 : 0,
    };
  });
}

const users = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);

const filter = (extra: Partial<StatsFilter> = {}): StatsFilter => ({
  guildId: G,
  ruleset: 'classic-10',
  period: { kind: 'all' },
  now: NOW,
  ...extra,
});

const request = (extra: Partial<ExportRequest> = {}): ExportRequest => ({
  filter: filter(),
  format: 'csv',
  what: 'both',
  nameOf: () => null,
  maxBytes: 10 * 1024 * 1024,
  ...extra,
});

describe('the CSV writer (engine/csv.ts)', () => {
  it('quotes cells with commas, quotes and line breaks (RFC 4180), ends records with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', 'cr\r'])).toBe(
      'a,"b,c","say ""hi""","two\nlines","cr\r"\r\n',
    );
    expect(parseCsv(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines']))).toEqual([['a', 'b,c', 'say "hi"', 'two\nlines']]);
  });

  it('neutralises text that a spreadsheet would run as a formula, never numbers', () => {
    for (const s of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\r=1'])
      expect(parseCsv(csvLine([s]))[0]![0]).toBe(`'${s}`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(1400.5)).toBe('1400.5');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes booleans as true/false, empty for null, nothing for a number that is not finite', () => {
    expect(csvLine([true, false, null, Number.NaN, 0])).toBe('true,false,,,0\r\n');
  });

  it('keeps Unicode as it is (Cyrillic, emoji, right-to-left)', () => {
    const names = ['Олекса́ндр', 'Дон Корлеоне 🎩', 'مافيا', 'Ёжик, "злой"'];
    expect(parseCsv(csvLine(names))).toEqual([names]);
  });

  it('an empty table is its header', () => {
    expect(csvTable(['a', 'b'], [])).toBe('a,b\r\n');
  });

  it('the tournament table writes through it: a name like a formula is text there too', () => {
    const csv = tournamentCsv(
      [
        {
          round: 1,
          table: 1,
          gameId: 7,
          seats: ['u1'],
          results: [{ seat: 1, userId: 'u1', role: 'civilian', won: true, points: -0.5, bestPlayer: false }],
        } as never,
      ],
      () => '=cmd|"/c calc"!A1',
    );
    const [header, row] = parseCsv(csv);
    expect(header).toEqual([
      'round',
      'table',
      'game',
      'seat',
      'user_id',
      'name',
      'role',
      'won',
      'points',
      'best_player',
      'counted',
    ]);
    expect(row).toEqual(['1', '1', '7', '1', 'u1', `'=cmd|"/c calc"!A1`, 'civilian', 'true', '-0.5', 'false', 'true']);
  });
});

describe('/stats export files (stats/export.ts)', () => {
  it('nothing finished: says so instead of sending empty files', async () => {
    const { db } = fresh();
    expect(await buildExport(db, request())).toEqual({ kind: 'empty' });
    expect(await buildExport(db, request({ format: 'json' }))).toEqual({ kind: 'empty' });
  });

  it('CSV: the standings exactly as /stats top ranks them, and one row per seat of every game', async () => {
    const { store, db } = fresh();
    const a = users('1000000000000000');
    const b = users('2000000000000000');
    const g1 = await putGame(store, NOW - 40 * DAY, table(a, true, 3));
    const g2 = await putGame(store, NOW - 5 * DAY, table([...a.slice(0, 5), ...b.slice(5)], false));
    const casual = await putGame(store, NOW - 2 * DAY, table(b, true), { rated: false });
    const names: Record<string, string> = {
      [a[0]!]: 'Олекса́ндр 🎩',
      [a[1]!]: '=HYPERLINK("x")',
      [a[2]!]: 'Smith, "Jr"',
    };
    const r = await buildExport(db, request({ nameOf: (u) => names[u] ?? null }));
    if (r.kind !== 'files') throw new Error(r.kind);
    expect(r.files.map((f) => f.name)).toEqual(['standings-classic-10-all.csv', 'games-classic-10-all.csv']);
    expect(r.games).toBe(3);
    // UTF-8 with a byte order mark, for Excel.
    expect([...r.files[0]!.data.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const standings = csvObjects(r.files[0]!.data.toString('utf8'));
    expect(parseCsv(r.files[0]!.data.toString('utf8'))[0]).toEqual([...STANDINGS_COLUMNS]);
    // Every row of /stats top, in its order, with its numbers.
    const shown = [];
    for (let p = 0, pages = 1; p < pages; p++) {
      const page = await top(db, filter(), 'points', p, null);
      pages = page.pages;
      shown.push(...page.rows);
    }
    expect(standings.map((s) => [s.place, s.user_id, s.points, s.games, s.wins, s.best_player])).toEqual(
      shown.map((s) => [
        String(s.place),
        s.userId,
        String(s.points),
        String(s.games),
        String(s.wins),
        String(s.bestPlayer),
      ]),
    );
    // The casual game's players who played nothing else are not in the standings.
    expect(standings.some((s) => s.user_id === b[0])).toBe(false);
    expect(standings).toHaveLength(15);
    const byElo = [];
    for (let p = 0, pages = 1; p < pages; p++) {
      const page = await top(db, filter(), 'elo', p, null);
      pages = page.pages;
      byElo.push(...page.rows);
    }
    const elo = new Map(byElo.map((x) => [x.userId, x]));
    expect(elo.size).toBe(15);
    for (const s of standings) {
      expect(Number(s.elo)).toBeCloseTo(elo.get(s.user_id!)!.elo!, 1);
      expect(Number(s.elo_place)).toBe(elo.get(s.user_id!)!.place);
      expect(Number(s.elo_games)).toBe(elo.get(s.user_id!)!.games);
    }
    // Names: Unicode kept, a formula made text, commas and quotes quoted.
    expect(standings.find((s) => s.user_id === a[0])!.name).toBe('Олекса́ндр 🎩');
    expect(standings.find((s) => s.user_id === a[1])!.name).toBe(`'=HYPERLINK("x")`);
    expect(standings.find((s) => s.user_id === a[2])!.name).toBe('Smith, "Jr"');
    expect(standings.find((s) => s.user_id === a[5])!.name).toBe('');

    const games = csvObjects(r.files[1]!.data.toString('utf8'));
    expect(parseCsv(r.files[1]!.data.toString('utf8'))[0]).toEqual([...GAMES_COLUMNS]);
    expect(games).toHaveLength(30);
    expect([...new Set(games.map((x) => Number(x.game_id)))]).toEqual([g1, g2, casual]);
    const first = games[3]!;
    expect(first).toMatchObject({
      game_id: String(g1),
      finished_at: new Date(NOW - 40 * DAY).toISOString(),
      started_at: new Date(NOW - 40 * DAY - 3_600_000).toISOString(),
      ruleset: 'classic-10',
      rated: 'true',
      annulled: 'false',
      counts: 'true',
      not_counted_reason: '',
      winner: 'red',
      seat: '4',
      user_id: a[3],
      role: 'civilian',
      team: 'red',
      outcome: 'win',
      points: '3.5',
      bonus: '0.5',
      best_player: 'false',
      breakdown: '{"win":3,"bonus":0.5}',
    });
    expect(Number(first.elo_after)).toBeGreaterThan(Number(first.elo_before));
    const c = games.filter((x) => x.game_id === String(casual));
    expect(c.every((x) => x.rated === 'false' && x.counts === 'false' && x.not_counted_reason === 'casual')).toBe(true);
    expect(c.every((x) => x.elo_before === '' && x.elo_after === '')).toBe(true);
  });

  it('an annulled game stays in the games, marked, and leaves the standings', async () => {
    const { store, db } = fresh();
    const a = users('1000000000000000');
    await putGame(store, NOW - 3 * DAY, table(a));
    const g2 = await putGame(store, NOW - 2 * DAY, table(a, false));
    rawSqlite(store)
      .prepare('UPDATE games SET annulled_at = ? WHERE id = ?')
      .run(NOW - DAY, g2);
    // What annulling does (onGameAnnulled rebuilds in the background): the rule set recomputed.
    await recomputeRatings(db, G, 'classic-10');
    const r = await buildExport(db, request({ format: 'json' }));
    if (r.kind !== 'files') throw new Error(r.kind);
    const json = JSON.parse(r.files[0]!.data.toString('utf8'));
    const annulled = json.games.find((g: { game_id: number }) => g.game_id === g2);
    expect(annulled).toMatchObject({ annulled: true, counts: false, not_counted_reason: 'annulled' });
    expect(json.standings.every((s: { games: number }) => s.games === 1)).toBe(true);
  });

  it('a period: the last N days and a season take only their games; standings of the period', async () => {
    const { store, db } = fresh();
    const a = users('1000000000000000');
    await putGame(store, NOW - 40 * DAY, table(a));
    const recent = await putGame(store, NOW - 5 * DAY, table(a, false));
    const days = await buildExport(db, request({ filter: filter({ period: { kind: 'days', days: 30 } }) }));
    if (days.kind !== 'files') throw new Error(days.kind);
    expect(days.files[0]!.name).toBe('standings-classic-10-30d.csv');
    const games = csvObjects(days.files[1]!.data.toString('utf8'));
    expect(new Set(games.map((g) => g.game_id))).toEqual(new Set([String(recent)]));
    const standings = csvObjects(days.files[0]!.data.toString('utf8'));
    expect(standings.every((s) => s.games === '1')).toBe(true);
    // The black players won the recent game: they lead the period, the Don first (wins as Don).
    expect(standings[0]!.user_id).toBe(a[6]);

    const id = await db.addSeason(G, 'Осінь', NOW - 50 * DAY, NOW - 30 * DAY, NOW);
    await db.rebuildStandingsScope(G, `s${id}`, NOW - 50 * DAY, NOW - 30 * DAY);
    const season = await buildExport(
      db,
      request({
        format: 'json',
        filter: filter({ period: { kind: 'season', id, name: 'Осінь', from: NOW - 50 * DAY, to: NOW - 30 * DAY } }),
      }),
    );
    if (season.kind !== 'files') throw new Error(season.kind);
    expect(season.files[0]!.name).toBe(`export-classic-10-season-${id}.json`);
    const json = JSON.parse(season.files[0]!.data.toString('utf8'));
    expect(json.period).toEqual({
      kind: 'season',
      season_id: id,
      season_name: 'Осінь',
      from: new Date(NOW - 50 * DAY).toISOString(),
      to: new Date(NOW - 30 * DAY).toISOString(),
    });
    expect(json.games).toHaveLength(1);
    expect(json.standings[0].user_id).toBe(a[0]);
  });

  it('pages of rows: a page size of 3 gives the same files as one page', async () => {
    const { store, db } = fresh();
    for (let g = 0; g < 4; g++)
      await putGame(store, NOW - (10 - g) * DAY, table(users(`${g % 2}00000000000000`), g % 2 === 0));
    // Two games finished at the same millisecond: the key (time, game, seat) keeps them apart.
    await putGame(store, NOW - DAY, table(users('3000000000000000')));
    await putGame(store, NOW - DAY, table(users('4000000000000000')));
    for (const format of ['csv', 'json'] as const) {
      const one = await buildExport(db, request({ format }));
      const paged = await buildExport(db, request({ format, pageSize: 3 }));
      if (one.kind !== 'files' || paged.kind !== 'files') throw new Error('no files');
      expect(paged.files.map((f) => f.data.toString('utf8'))).toEqual(one.files.map((f) => f.data.toString('utf8')));
      expect(paged.games).toBe(6);
    }
  });

  it('JSON: the documented object (format, version, metadata, standings and games with their seats)', async () => {
    const { store, db } = fresh();
    const a = users('1000000000000000');
    const g = await putGame(store, NOW - DAY, table(a), {
      holders: [
        { userId: a[0]!, share: 2 / 3 },
        { userId: 'sub', share: 1 / 3 },
      ],
    });
    const r = await buildExport(db, request({ format: 'json', nameOf: (u) => (u === a[0] ? 'Дон 🎩' : null) }));
    if (r.kind !== 'files') throw new Error(r.kind);
    expect(r.files).toHaveLength(1);
    const text = r.files[0]!.data.toString('utf8');
    expect(text.charCodeAt(0)).not.toBe(0xfeff); // JSON has no byte order mark (RFC 8259)
    const json = JSON.parse(text);
    expect(json).toMatchObject({
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      generated_at: new Date(NOW).toISOString(),
      server_id: G,
      ruleset: 'classic-10',
      scoring: 'classic',
      period: { kind: 'all', from: null, to: null },
      tournament_id: null,
    });
    expect(Object.keys(json.standings[0])).toEqual([...STANDINGS_COLUMNS]);
    expect(json.games).toHaveLength(1);
    const game = json.games[0];
    expect(game).toMatchObject({ game_id: g, rated: true, counts: true, not_counted_reason: null, winner: 'red' });
    expect(game.seats).toHaveLength(10);
    expect(game.seats[0]).toMatchObject({
      seat: 1,
      user_id: a[0],
      name: 'Дон 🎩',
      holders: [
        { user_id: a[0], share: 0.6667 },
        { user_id: 'sub', share: 0.3333 },
      ],
      breakdown: { win: 3 },
    });
    // The CSV writes the holders as id:share pairs.
    const csv = await buildExport(db, request({ what: 'games' }));
    if (csv.kind !== 'files') throw new Error(csv.kind);
    expect(csvObjects(csv.files[0]!.data.toString('utf8'))[0]!.holders).toBe(`${a[0]}:0.6667;sub:0.3333`);
    // Only the standings, or only the games.
    const only = await buildExport(db, request({ format: 'json', what: 'standings' }));
    if (only.kind !== 'files') throw new Error(only.kind);
    const o = JSON.parse(only.files[0]!.data.toString('utf8'));
    // The substitute has Elo for his share of the game, but the seat's points are its holder's:
    // he is listed after the ranked players, without a place.
    expect(o.standings).toHaveLength(11);
    expect(o.standings[10]).toMatchObject({ place: null, user_id: 'sub', points: 0, games: 0, elo_games: 1 });
    expect(o.standings[10].elo).toBeGreaterThan(0);
    expect('games' in o).toBe(false);
  });

  it('a tournament: only its games, its standings, named in the files and the metadata', async () => {
    const { store, db } = fresh();
    const a = users('1000000000000000');
    await putGame(store, NOW - 3 * DAY, table(a));
    const inTour = await putGame(store, NOW - 2 * DAY, table(a, false));
    rawSqlite(store).prepare('UPDATE games SET tournament_id = 7 WHERE id = ?').run(inTour);
    const r = await buildExport(db, request({ filter: filter({ tournament: 7 }) }));
    if (r.kind !== 'files') throw new Error(r.kind);
    expect(r.files.map((f) => f.name)).toEqual([
      'standings-classic-10-all-tournament-7.csv',
      'games-classic-10-all-tournament-7.csv',
    ]);
    const games = csvObjects(r.files[1]!.data.toString('utf8'));
    expect(new Set(games.map((g) => g.game_id))).toEqual(new Set([String(inTour)]));
    expect(games.every((g) => g.tournament_id === '7')).toBe(true);
    const standings = csvObjects(r.files[0]!.data.toString('utf8'));
    expect(standings.every((s) => s.games === '1')).toBe(true);
    const shown = (await top(db, filter({ tournament: 7 }), 'points', 0, null)).rows;
    expect(standings.map((s) => [s.place, s.user_id, s.points])).toEqual(
      shown.map((x) => [String(x.place), x.userId, String(x.points)]),
    );
    const json = await buildExport(db, request({ format: 'json', filter: filter({ tournament: 7 }) }));
    if (json.kind !== 'files') throw new Error(json.kind);
    expect(JSON.parse(json.files[0]!.data.toString('utf8')).tournament_id).toBe(7);
  });

  it('a file over the size limit is refused, named, never cut', async () => {
    const { store, db } = fresh();
    await putGame(store, NOW - DAY, table(users('1000000000000000')));
    const small = await buildExport(db, request({ maxBytes: 1500 }));
    expect(small).toEqual({ kind: 'too-large', file: 'games-classic-10-all.csv', limit: 1500 });
    expect(await buildExport(db, request({ maxBytes: 100, what: 'standings' }))).toMatchObject({
      kind: 'too-large',
      file: 'standings-classic-10-all.csv',
    });
    expect(await buildExport(db, request({ maxBytes: 1500, format: 'json' }))).toMatchObject({
      kind: 'too-large',
      file: 'export-classic-10-all.json',
    });
    const fits = await buildExport(db, request({ maxBytes: 100_000 }));
    expect(fits.kind).toBe('files');
  });
});
