// /stats export through Discord (issue 24): a rated and a casual game played, then the standings
// and games as CSV and JSON attachments of a private, deferred answer; the files read back (a
// strict RFC 4180 reader, JSON.parse) and checked against what /stats top says; a period filter;
// refusals (a bad period, the cooldown, a file over Discord's attachment limit); Ukrainian.
import { sql } from 'drizzle-orm';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { recordGame } from '../../src/stats/record';
import type { InteractionResult } from '../../testkit/fake-discord';
import { csvObjects, parseCsv } from '../../testkit/csv';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver, messageText } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = messageText;
const DAY = 86_400_000;

async function stats(
  d: Driver,
  userId: string,
  sub: string,
  options: Record<string, string | number> = {},
  locale?: string,
): Promise<InteractionResult> {
  const r = await d.w.fake.slash(userId, d.w.channel.id, 'stats', { sub, options, ...(locale ? { locale } : {}) });
  await r.settled();
  return r;
}

/** The files of an export's answer: name -> text. */
function files(w: World, r: InteractionResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of r.message?.attachments ?? []) out.set(a.filename, w.fake.attachmentText(a.id)!);
  return out;
}

/** A finished game written as the game-closing transaction writes it (ten seats, red wins). */
async function seedGame(w: World, finishedAt: number, userOf: (seat: number) => string): Promise<number> {
  const store = w.bot.store;
  const game = await store.createLobby({
    guildId: w.guild.id,
    channelId: w.channel.id,
    hostId: w.host.id,
    ruleset: 'chnu-2016',
    pace: 'live',
    options: {},
    now: finishedAt,
  });
  await store.c.exec(
    sql`UPDATE games SET status = 'over', finished_at = ${finishedAt}, winner = 'red' WHERE id = ${game.id}`,
  );
  for (let seat = 1; seat <= 10; seat++) {
    const black = seat === 3 || seat === 6 || seat === 9;
    await store.c.exec(
      sql`INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at, moves)
          VALUES (${game.id}, ${seat}, ${w.guild.id}, ${userOf(seat)}, 'chnu-2016', ${black ? 'mafia' : 'civilian'},
            ${black ? 'black' : 'red'}, ${black ? 'loss' : 'win'}, ${black ? 0 : 4}, '{}', FALSE, FALSE, ${finishedAt}, 100)`,
    );
  }
  await recordGame(store.stats, game.id, game.guildId);
  return game.id;
}

describe('/stats export through Discord', () => {
  it('CSV and JSON of a rated and a casual game, as /stats top ranks them; the cooldown', async () => {
    const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
    w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles) });
    const d = new Driver(w);
    await d.createAndStart(sc.ruleset, sc.pace);
    for (const step of sc.steps) await d.step(step);
    const rated = d.gameId;
    await d.createAndStart(sc.ruleset, sc.pace, { rated: false });
    for (const step of sc.steps) await d.step(step);
    const casual = d.gameId;
    expect((await w.bot.store.getGame(casual))!.status).toBe('over');
    const [u1, u2, , u4] = w.users;

    const csv = await stats(d, u1!.id, 'export', { ruleset: 'chnu-2016' });
    // Deferred (the reads may take longer than 3 s), then private, with the two files.
    expect(csv.type).toBe(5);
    expect(csv.ephemeral).toBe(true);
    expect(text(csv.message)).toMatch(
      /^📄 ChNU 2016 tournament \(10\), all time: 10 players in the standings, 2 finished games \(casual and annulled ones included, marked\)\.$/,
    );
    const got = files(w, csv);
    expect([...got.keys()]).toEqual(['standings-chnu-2016-all.csv', 'games-chnu-2016-all.csv']);
    expect(got.get('standings-chnu-2016-all.csv')!.startsWith('\uFEFFplace,user_id,name,points,')).toBe(true);
    const standings = csvObjects(got.get('standings-chnu-2016-all.csv')!);

    // The same rows, numbers and order as /stats top (one page of 10 here).
    const top = await stats(d, u1!.id, 'top', { ruleset: 'chnu-2016' });
    const shown = top
      .message!.embeds[0]!.description!.split('\n')
      .map((l) =>
        /^\*\*(\d+)\.\*\* <@(\d+)> — points: (−?[\d.]+) · games: (\d+) · wins: (\d+) · best player: (\d+)$/.exec(l),
      )
      .filter((m) => m !== null)
      .map((m) => m.slice(1).map((x) => x.replace('−', '-')));
    expect(shown).toHaveLength(10);
    expect(standings.map((s) => [s.place, s.user_id, s.points, s.games, s.wins, s.best_player])).toEqual(shown);
    // Seat 4, the Sheriff and best player: 9 points, first; names as the server shows them.
    expect(standings[0]).toMatchObject({ place: '1', user_id: u4!.id, points: '9', name: 'p4' });
    const elo = text((await stats(d, u4!.id, 'top', { ruleset: 'chnu-2016', by: 'elo' })).message);
    expect(elo).toContain(`<@${u4!.id}> — Elo ${Math.round(Number(standings[0]!.elo))} · games: 1`);

    // One row per seat of both games; the casual one marked and in no standings row's count.
    const games = csvObjects(got.get('games-chnu-2016-all.csv')!);
    expect(games).toHaveLength(20);
    expect(
      games.filter((g) => g.game_id === String(rated)).every((g) => g.counts === 'true' && g.rated === 'true'),
    ).toBe(true);
    const c = games.filter((g) => g.game_id === String(casual));
    expect(c).toHaveLength(10);
    expect(c.every((g) => g.rated === 'false' && g.counts === 'false' && g.not_counted_reason === 'casual')).toBe(true);
    expect(standings.every((s) => s.games === '1')).toBe(true);
    const sheriff = games.find((g) => g.game_id === String(rated) && g.seat === '4')!;
    expect(sheriff).toMatchObject({
      user_id: u4!.id,
      role: 'sheriff',
      outcome: 'win',
      points: '9',
      best_player: 'true',
    });
    expect(sheriff.finished_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // JSON: one file, the documented object, the same standings.
    const json = await stats(d, u2!.id, 'export', { format: 'json' });
    expect(json.ephemeral).toBe(true);
    const jf = files(w, json);
    expect([...jf.keys()]).toEqual(['export-chnu-2016-all.json']);
    const doc = JSON.parse(jf.get('export-chnu-2016-all.json')!);
    expect(doc).toMatchObject({
      format: 'mafia-bot-export',
      version: 1,
      server_id: w.guild.id,
      ruleset: 'chnu-2016',
      scoring: 'chnu',
      period: { kind: 'all', from: null, to: null },
    });
    expect(doc.standings.map((s: { user_id: string; points: number }) => [s.user_id, String(s.points)])).toEqual(
      standings.map((s) => [s.user_id, s.points]),
    );
    expect(doc.games.map((g: { game_id: number }) => g.game_id)).toEqual([rated, casual]);
    expect(doc.games[1]).toMatchObject({ rated: false, counts: false, not_counted_reason: 'casual' });
    expect(doc.games[0].seats).toHaveLength(10);

    // The same member again at once: the cooldown; another member may.
    const again = await stats(d, u1!.id, 'export', { what: 'standings' });
    expect(again.ephemeral).toBe(true);
    expect(again.content).toMatch(/^⛔ You have just made an export: try again <t:\d+:R>\.$/);
    expect(again.message!.attachments).toHaveLength(0);
    const only = await stats(d, w.users[4]!.id, 'export', { what: 'games' });
    expect([...files(w, only).keys()]).toEqual(['games-chnu-2016-all.csv']);
    expect(w.fake.unhandled).toEqual([]);
  });

  it('a period: the last 30 days leave out an older game; a season by name; refusals; Ukrainian', async () => {
    w = await makeWorld({ players: 10 });
    const d = new Driver(w);
    const world = w;
    const user = (seat: number) => world.users[seat - 1]!.id;
    const old = await seedGame(w, Date.now() - 60 * DAY, user);
    const recent = await seedGame(w, Date.now() - 2 * DAY, (seat) => (seat === 1 ? '100000000000000001' : user(seat)));
    const [u1, u2, u3, u4, u5] = w.users;

    const all = files(w, await stats(d, u1!.id, 'export', { what: 'games' }));
    expect(new Set(csvObjects(all.get('games-chnu-2016-all.csv')!).map((g) => g.game_id))).toEqual(
      new Set([String(old), String(recent)]),
    );
    const month = await stats(d, u2!.id, 'export', { period: '30' });
    expect(text(month.message)).toMatch(/last 30 days: 10 players in the standings, 1 finished game /);
    const mf = files(w, month);
    const games = csvObjects(mf.get('games-chnu-2016-30d.csv')!);
    expect(new Set(games.map((g) => g.game_id))).toEqual(new Set([String(recent)]));
    const standings = csvObjects(mf.get('standings-chnu-2016-30d.csv')!);
    // User 1 played only the old game: not in the period's standings.
    expect(standings.some((s) => s.user_id === u1!.id)).toBe(false);
    expect(standings.every((s) => s.games === '1')).toBe(true);

    // A season: its name as the other /stats subcommands take it.
    const id = await w.bot.store.stats.addSeason(w.guild.id, 'Осінь', Date.now() - 90 * DAY, Date.now() - 30 * DAY, 0);
    await w.bot.store.stats.rebuildStandingsScope(w.guild.id, `s${id}`, Date.now() - 90 * DAY, Date.now() - 30 * DAY);
    const season = await stats(d, u3!.id, 'export', { period: 'Осінь', format: 'json' });
    const doc = JSON.parse(files(w, season).get(`export-chnu-2016-season-${id}.json`)!);
    expect(doc.period).toMatchObject({ kind: 'season', season_id: id, season_name: 'Осінь' });
    expect(doc.games.map((g: { game_id: number }) => g.game_id)).toEqual([old]);
    expect(doc.standings.some((s: { user_id: string }) => s.user_id === u1!.id)).toBe(true);

    // Refusals: private, no files, and they do not start the cooldown.
    const noSeason = await stats(d, u4!.id, 'export', { period: 'весна' });
    expect(noSeason.ephemeral).toBe(true);
    expect(noSeason.content).toBe('⛔ This server has no season named “весна”.');
    expect((await stats(d, u4!.id, 'export', { period: '99999' })).content).toMatch(
      /^⛔ I do not understand the period “99999”/,
    );
    const none = await stats(d, u4!.id, 'export', { ruleset: 'kiev-12' });
    expect(none.content).toMatch(/^No finished games in Kyiv club .*: there is nothing to export\.$/);
    expect(none.message!.attachments).toHaveLength(0);

    // Ukrainian: the answer in the reader's language, the files' columns as documented.
    const uk = await stats(d, u5!.id, 'export', { period: '30д' }, 'uk');
    expect(text(uk.message)).toMatch(
      /^📄 Турнір ЧНУ 2016 \(10\), за останні 30 днів: у таблиці 10 гравців, 1 завершена гра \(разом із нерейтинговими й анульованими — вони позначені\)\.$/,
    );
    const ukFiles = files(w, uk);
    expect(parseCsv(ukFiles.get('standings-chnu-2016-30d.csv')!)[0]![0]).toBe('place');
    const ukAgain = await stats(d, u5!.id, 'export', {}, 'uk');
    expect(ukAgain.content).toMatch(/^⛔ Ви щойно зробили експорт — спробуйте ще раз <t:\d+:R>\.$/);
    expect(w.fake.unhandled).toEqual([]);
  });

  it('a file over Discord’s attachment limit: a clear refusal, nothing sent', async () => {
    w = await makeWorld({ players: 1 });
    const d = new Driver(w);
    const store = w.bot.store;
    // 5,000 finished games of ten seats (50,000 rows), a minute apart, written in two statements:
    // the JSON of their seats is well over the 10 MiB the fake Discord (as Discord) takes from a bot.
    const t0 = Date.now() - 5001 * 60_000;
    // (The server's row, which games reference, as a lobby's creation writes it.)
    await store.createLobby({
      guildId: w.guild.id,
      channelId: w.channel.id,
      hostId: w.host.id,
      ruleset: 'classic-10',
      pace: 'live',
      options: {},
      now: t0,
    });
    await store.c.exec(sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
      INSERT INTO games (guild_id, channel_id, host_id, ruleset, pace, status, created_at, updated_at, started_at,
        finished_at, winner)
      SELECT ${w.guild.id}, 'bulk', ${w.host.id}, 'classic-10', 'live', 'over', CAST(${t0} AS BIGINT) + i * 60000,
        CAST(${t0} AS BIGINT) + i * 60000, CAST(${t0} AS BIGINT) + i * 60000, CAST(${t0} AS BIGINT) + i * 60000, 'red'
      FROM n`);
    await store.c.exec(sql`WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < 10)
      INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown,
        best_player, killed_night1, finished_at, moves)
      SELECT g.id, s.k, g.guild_id, '2000000000000' || CAST(s.k AS TEXT), 'classic-10', 'civilian', 'red', 'win', 3,
        '{"win":3}', FALSE, FALSE, g.finished_at, 100
      FROM games g CROSS JOIN s WHERE g.channel_id = 'bulk'`);
    const me = w.users[0]!.id;
    const started = Date.now();
    const r = await stats(d, me, 'export', { ruleset: 'classic-10', format: 'json', what: 'games' });
    expect(r.type).toBe(5);
    expect(r.ephemeral).toBe(true);
    expect(r.content).toBe(
      '⛔ export-classic-10-all.json would be larger than 10 MiB, the largest file Discord takes here. Choose a season or fewer days, or the standings alone.',
    );
    expect(r.message!.attachments).toHaveLength(0);
    // The last day's games fit, and are sent.
    const day = await stats(d, w.host.id, 'export', { ruleset: 'classic-10', what: 'games', period: '1' });
    const rows = parseCsv(files(w, day).get('games-classic-10-1d.csv')!);
    expect(rows.length).toBeGreaterThan(14_000);
    expect(rows.length).toBeLessThan(15_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(w.fake.unhandled).toEqual([]);
  });
});
