// Issue 20: what the bot keeps in memory per game, per tournament and per destination is released
// when a game is cancelled (in its lobby or while played), expires, finishes or is annulled, and
// when a tournament's queued changes are done: after games come and go, the maps are as empty as
// before the first (the database is the truth; nothing piles up over months of games).
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/engine/types';
import { Perm, type InteractionResult } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

const TEN: Role[] = [
  'civilian',
  'civilian',
  'mafia',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'mafia',
  'civilian',
  'civilian',
];

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = (r: InteractionResult) => r.content ?? r.message?.content ?? '';

describe('in-memory state is released (issue 20)', () => {
  it('after games are cancelled, expire, finish or are annulled, and a tournament is used, every map is back to empty', async () => {
    const clock = new FakeClock(Date.UTC(2030, 0, 7, 12));
    w = await makeWorld({ players: 10, dealer: fixedDealer(TEN), clock: { now: clock.now, timers: clock } });
    const d = new Driver(w);
    const bot = () => w!.bot;
    const empty = {
      service: { states: 0, extended: 0, storageWarned: 0, timers: 0, queues: 0, effects: 0 },
      deliverer: { busyDest: 0, waitingPost: 0, busySlot: 0, recentPosts: 0, probing: 0 },
      tournaments: 0,
    };
    const sizes = () => ({
      service: bot().service.sizes(),
      deliverer: bot().deliverer.sizes(),
      tournaments: bot().tournaments.rules.queued,
    });
    expect(sizes()).toEqual(empty);
    const host = (sub: string, options: Record<string, string | number> = {}) =>
      d.slash(w!.host.id, 'host', sub, options);
    const games: number[] = [];

    for (let round = 0; round < 2; round++) {
      // A lobby cancelled by its host.
      const created = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
      games.push(Number(/Game #(\d+)/.exec(text(created))![1]));
      expect(text(await host('cancel'))).toBe('Done.');
      // A game cancelled while it is played.
      await d.createAndStart('chnu-2016');
      games.push(d.gameId);
      expect(bot().service.sizes().states).toBe(1);
      expect(text(await host('cancel', { reason: 'no table' }))).toBe('Done.');
      // A game played to its end, then annulled.
      await d.createAndStart('chnu-2016');
      games.push(d.gameId);
      expect(text(await host('end', { winner: 'red' }))).toBe('Done.');
      expect(text(await host('skip'))).toBe('Done.');
      expect((await bot().store.getGame(d.gameId))!.status).toBe('over');
      expect(text(await host('annul', { reason: 'wrong deal' }))).toBe('Done.');
    }
    // Their logs read afterwards (the state of an old game is read, not kept).
    for (const id of games) expect(text(await host('log', { game: id }))).toMatch(/Host log of game/);
    // And the host panel of a finished game (it reads the game's last state).
    const panel = await host('panel', { game: games.at(-1)! });
    expect(panel.ephemeral).toBe(true);

    // A tournament: registration and a refused draw go through its queue.
    const admin = w.fake.addRole(w.guild.id, { name: 'judges', permissions: Perm.ManageGuild });
    w.fake.setMemberRoles(w.guild.id, w.host.id, [admin.id]);
    const tour = await d.slash(w.host.id, 'tournament', 'create', { name: 'Cup', ruleset: 'chnu-2016' });
    const tid = Number(/Tournament #(\d+)/.exec(text(tour))![1]);
    expect(text(await d.slash(w.host.id, 'tournament', 'draw', { tournament: tid }))).toMatch(/^⛔/);

    // A lobby nobody fills expires (the sweep, a day later).
    await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    await clock.advanceTo(clock.now() + 25 * 3600_000, () => bot().idle());
    expect((await bot().service.sweep()).expired).toBe(1);
    await bot().idle();
    await bot().tournaments.rules.idle();
    expect(sizes()).toEqual(empty);
  }, 60_000);
});
