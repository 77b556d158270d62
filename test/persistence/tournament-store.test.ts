// The tournaments' storage: registration, the stored draw, the link from tables to games (and
// games.tournament_id), what counts as a finished game (over, results written, not annulled),
// the holder game that owns the tournament's messages, the refresh after a restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { Store } from '../../src/db/store';
import { TournamentStore } from '../../src/db/tournament-store';
import { OutboxStore } from '../../src/db/outbox-store';
import { createGame } from '../../src/engine/apply';
import { rolePool } from '../../src/engine/rulesets';

let db: OpenDb | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

function open() {
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'mafia-tour-')), 'db.sqlite'));
  return {
    store: new Store(db.connection),
    tstore: new TournamentStore(db.connection),
    outbox: new OutboxStore(db.connection),
    sqlite: db.sqlite,
  };
}

describe('tournament storage (T-1..T-3)', () => {
  it('registration in order, once each; the current and the latest tournament of a server', async () => {
    const { tstore } = open();
    const a = await tstore.create({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      name: 'Cup',
      ruleset: 'chnu-2016',
      options: { timers: { night: 30 } },
      locale: 'uk',
      now: 1,
    });
    expect(a).toMatchObject({ status: 'registration', name: 'Cup', options: { timers: { night: 30 } }, locale: 'uk' });
    expect(await tstore.join(a.id, { userId: 'u2', name: 'Two', locale: 'ru' }, 10)).toBe(true);
    expect(await tstore.join(a.id, { userId: 'u1', name: 'One', locale: null }, 11)).toBe(true);
    expect(await tstore.join(a.id, { userId: 'u2', name: 'Two again', locale: null }, 12)).toBe(false);
    expect(await tstore.players(a.id)).toEqual([
      { userId: 'u2', name: 'Two', locale: 'ru' },
      { userId: 'u1', name: 'One', locale: null },
    ]);
    expect(await tstore.leave(a.id, 'u2')).toBe(true);
    expect(await tstore.leave(a.id, 'u2')).toBe(false);
    const b = await tstore.create({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      name: 'Cup 2',
      ruleset: 'classic-10',
      options: {},
      locale: 'en',
      now: 2,
    });
    expect((await tstore.current('g'))!.id).toBe(b.id);
    await tstore.setStatus(b.id, 'finished', 3);
    expect((await tstore.current('g'))!.id).toBe(a.id);
    expect((await tstore.latest('g'))!.id).toBe(b.id);
    expect((await tstore.get(b.id))!.finishedAt).toBe(3);
    expect(await tstore.current('other')).toBeNull();
  });

  it('the holder game owns the messages and is never played: not a game of the channel, no results', async () => {
    const { store, tstore, sqlite } = open();
    const t = await tstore.create({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      name: 'Cup',
      ruleset: 'chnu-2016',
      options: {},
      locale: 'en',
      now: 1,
    });
    const holder = (await store.getGame(t.holderGameId))!;
    expect(holder).toMatchObject({ status: 'cancelled', channelId: 'c', ui: { holder: 'tournament', locale: 'en' } });
    expect(await store.activeGamesInChannel('c')).toEqual([]);
    expect(
      (sqlite.prepare('SELECT tournament_id AS t FROM games WHERE id = ?').get(t.holderGameId) as { t: number }).t,
    ).toBe(t.id);
  });

  it('tables link to games; a game counts once over with results, and stops counting when annulled', async () => {
    const { store, tstore, sqlite } = open();
    const t = await tstore.create({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      name: 'Cup',
      ruleset: 'chnu-2016',
      options: {},
      locale: 'en',
      now: 1,
    });
    const seats = Array.from({ length: 10 }, (_, i) => `u${i + 1}`);
    await tstore.addTables(t.id, 1, [seats]);
    expect(await tstore.tables(t.id)).toEqual([{ round: 1, table: 1, seats, channelId: null, gameId: null, subs: {} }]);
    const game = await store.createLobby({
      guildId: 'g',
      channelId: 'c1',
      hostId: 'h',
      ruleset: 'chnu-2016',
      pace: 'live',
      options: {},
      now: 5,
    });
    await tstore.setTableChannel(t.id, 1, 1, 'c1');
    await tstore.setTableGame(t.id, 1, 1, game.id, { u1: 'sub' });
    expect(await tstore.tableOfGame(game.id)).toEqual({ tournamentId: t.id, round: 1, table: 1 });
    expect((sqlite.prepare('SELECT tournament_id AS t FROM games WHERE id = ?').get(game.id) as { t: number }).t).toBe(
      t.id,
    );
    // Running: not counted.
    const roles = rolePool('chnu-2016');
    await store.startGame(
      game.id,
      ['sub', ...seats.slice(1)].map((userId, i) => ({ seat: i + 1, userId, role: roles[i]! })),
      createGame('chnu-2016', { roles }, {}, 'live', { now: 6 }),
      6,
    );
    expect((await tstore.withResults(t.id))[0]).toMatchObject({
      status: 'running',
      results: null,
      channelId: 'c1',
      subs: { u1: 'sub' },
    });
    // Over, with its results: counted, with every seat's line.
    const insert =
      sqlite.prepare(`INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at)
                                   VALUES (?, ?, 'g', ?, 'chnu-2016', ?, 'red', ?, ?, '{}', ?, 0, 9)`);
    ['sub', ...seats.slice(1)].forEach((u, i) =>
      insert.run(game.id, i + 1, u, roles[i], i < 7 ? 'win' : 'loss', i < 7 ? 5 : 0, i === 2 ? 1 : 0),
    );
    await store.setStatus(game.id, 'over', 9);
    const done = (await tstore.withResults(t.id))[0]!;
    expect(done.results).toHaveLength(10);
    expect(done.results!.find((r) => r.seat === 3)).toMatchObject({
      userId: 'u3',
      points: 5,
      won: true,
      bestPlayer: true,
    });
    // Annulled: not counted any more.
    sqlite.prepare('UPDATE games SET annulled_at = 10 WHERE id = ?').run(game.id);
    expect((await tstore.withResults(t.id))[0]!.results).toBeNull();
  });

  it('after a restart the messages of open tournaments are sent once more (a deleted one is found)', async () => {
    const { tstore, outbox } = open();
    const open1 = await tstore.create({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      name: 'Open',
      ruleset: 'chnu-2016',
      options: {},
      locale: 'en',
      now: 1,
    });
    const done = await tstore.create({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      name: 'Done',
      ruleset: 'chnu-2016',
      options: {},
      locale: 'en',
      now: 1,
    });
    for (const t of [open1, done]) {
      await outbox.setSlot(t.holderGameId, 'board', 'message', 'ch:c', { content: t.name }, 1, { repost: true });
      await outbox.sentSlot(t.holderGameId, 'board', 1, `m${t.id}`, 'c');
    }
    await tstore.setStatus(done.id, 'finished', 2);
    expect(await tstore.touchMessages(3)).toBe(1);
    expect(await outbox.slot(open1.holderGameId, 'board')).toMatchObject({ version: 2, sentVersion: 1 });
    expect(await outbox.slot(done.holderGameId, 'board')).toMatchObject({ version: 1, sentVersion: 1 });
  });
});
