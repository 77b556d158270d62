// Issue 20, fair hosting, through the fake Discord: anyone may create a game, host it and play in
// it; a host who plays keeps the day's clock and gives fouls (F-1) but may not end the game with a
// result (E-4, F-4), run the night (N-13), name the best player (S-4) or annul the game; a host
// who does not play may (G-7). Who plays is read from the seats' holders now (a substitution
// counts), and a host who handed the game over no longer hosts it. Annulling is limited to 24 hours
// after the end for the host, 7 days for Manage Server, and is announced in the game's channel and
// the server's results channel.
import { afterEach, describe, expect, it } from 'vitest';
import { AsyncStore } from '../../src/db/async-store';
import type { GameState, Role } from '../../src/engine/types';
import { allComponents, Perm, type FakeUserInfo, type InteractionResult } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

/** Seats 3 and 8 mafia, 6 the Don, 4 the Sheriff; seat 1 (the playing host) a civilian. */
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
const H = 3_600_000;

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

type Opt = string | number | { type: number; value: string };

async function slash(
  world: World,
  userId: string,
  name: string,
  sub: string,
  options: Record<string, Opt> = {},
  group?: string,
): Promise<InteractionResult> {
  const r = await world.fake.slash(userId, world.channel.id, name, {
    sub,
    options: options as never,
    ...(group ? { group } : {}),
  });
  await r.settled();
  await world.bot.idle();
  return r;
}

const text = (r: InteractionResult) => r.content ?? r.message?.content ?? '';
const done = (r: InteractionResult) => expect(text(r).trim(), text(r)).toBe('Done.');
const refused = (r: InteractionResult, why: RegExp) => {
  expect(r.ephemeral).toBe(true);
  expect(text(r).startsWith('⛔'), text(r)).toBe(true);
  expect(text(r)).toMatch(why);
};
const user = (id: string) => ({ type: 6, value: id });

const NIGHT = /the night is not yours to run.*\/host transfer/;
const RESULT = /you may not make rulings that decide its outcome.*\/host transfer/;
const PLAYED = /You played in this game, so you may not annul it/;

async function state(world: World, gameId: number): Promise<GameState> {
  return (await world.bot.store.getState(gameId))!;
}

/** What the game is, to check that a refusal changed nothing. */
async function snapshot(world: World, gameId: number) {
  const store = world.bot.store;
  return {
    state: await store.rawState(gameId),
    log: (await store.log(gameId)).length,
    audit: (await store.auditLog(gameId)).length,
    game: await store.getGame(gameId),
  };
}

/** A member with Manage Server who does not play: a referee. */
function manager(world: World, name: string): FakeUserInfo {
  const u = world.fake.addUser({ username: name, guilds: [world.guild.id] });
  const role = world.fake.addRole(world.guild.id, { name: `${name}-admin`, permissions: Perm.ManageGuild });
  world.fake.setMemberRoles(world.guild.id, u.id, [role.id]);
  return u;
}

/** users[0] creates the game, joins it (seat 1) with the others and starts it: a host who plays. */
async function playingHostGame(): Promise<{ d: Driver; host: FakeUserInfo }> {
  w = await makeWorld({ players: 10, dealer: fixedDealer(TEN) });
  const d = new Driver(w);
  const host = w.users[0]!;
  const r = await slash(w, host.id, 'mafia', 'create', { ruleset: 'chnu-2016', pace: 'live' });
  d.gameId = Number(/Game #(\d+)/.exec(text(r))![1]);
  for (const u of w.users) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
  await w.bot.idle();
  const s = await w.fake.click(host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`);
  await s.settled();
  await w.bot.idle();
  expect((await w.bot.store.getGame(d.gameId))!.hostId).toBe(host.id);
  expect((await w.bot.store.players(d.gameId)).find((p) => p.seat === 1)!.userId).toBe(host.id);
  return { d, host };
}

/** A host-panel button, forged by a user who never got the panel. */
async function panelButton(world: World, userId: string, d: Driver, op: string): Promise<InteractionResult> {
  const id = `v1:h:${d.gameId}:${(await state(world, d.gameId)).seq}:${op}`;
  const r = await world.fake.click(userId, d.tableMessage(), id, { forge: true });
  await r.settled();
  await world.bot.idle();
  return r;
}

describe('a host who plays (G-7 with E-4, F-4, S-4, N-13)', () => {
  it('is refused the night, the result, the best player and the annulment; keeps the day’s clock; a referee who does not play may', async () => {
    const { d, host } = await playingHostGame();
    const id = d.gameId;
    const ref = manager(w!, 'referee');

    // Night 0: he may not end it (N-13), not by command nor by a panel button; nothing changes.
    expect((await state(w!, id)).stage.kind).toBe('night0');
    let before = await snapshot(w!, id);
    refused(await slash(w!, host.id, 'host', 'skip'), NIGHT);
    refused(await slash(w!, host.id, 'host', 'extend', { duration: '-30s' }), NIGHT);
    const forged = await panelButton(w!, host.id, d, 'skip');
    expect(text(forged)).toMatch(/You play in this game/);
    // E-4, F-4: nor end the game with his team's win.
    refused(await slash(w!, host.id, 'host', 'end', { winner: 'red' }), RESULT);
    refused(await slash(w!, host.id, 'host', 'cancel'), RESULT);
    const cancel = await w!.fake.click(host.id, d.tableMessage(), `v1:l:${id}:cancel`, { forge: true });
    await cancel.settled();
    await w!.bot.idle();
    refused(cancel, RESULT);
    expect(await snapshot(w!, id)).toEqual(before);
    // He may stop and start the clock.
    done(await slash(w!, host.id, 'host', 'pause'));
    done(await slash(w!, host.id, 'host', 'resume'));
    // A referee who does not play ends the night.
    done(await slash(w!, ref.id, 'host', 'skip'));
    expect((await state(w!, id)).clock).toEqual({ phase: 'day', n: 1 });

    // Day 1, the speeches: he keeps time (cuts a speech) and gives fouls (F-1)...
    const turn = (await state(w!, id)).stage;
    expect(turn.kind).toBe('turns');
    done(await slash(w!, host.id, 'host', 'skip'));
    const next = (await state(w!, id)).stage;
    expect(next.kind === 'turns' && turn.kind === 'turns' && next.index).toBe(turn.kind === 'turns' && turn.index + 1);
    done(await slash(w!, host.id, 'host', 'foul', { seat: 6 }));
    expect((await state(w!, id)).players[5]!.fouls).toBe(1);
    // ... but no ruling on who stays at the table, and still no result.
    before = await snapshot(w!, id);
    refused(await slash(w!, host.id, 'host', 'kill', { seat: 3 }), RESULT);
    refused(await slash(w!, host.id, 'host', 'remove', { seat: 6 }), RESULT);
    refused(await slash(w!, host.id, 'host', 'end', { winner: 'red' }), RESULT);
    expect(await snapshot(w!, id)).toEqual(before);

    // The referee ends it (E-4); in the post-game vote the host may not weigh in as host (S-4) nor close it.
    done(await slash(w!, ref.id, 'host', 'end', { winner: 'red' }));
    expect((await state(w!, id)).stage.kind).toBe('postGame');
    before = await snapshot(w!, id);
    refused(await slash(w!, host.id, 'host', 'best', { seat: 1 }), RESULT);
    refused(await slash(w!, host.id, 'host', 'skip'), RESULT);
    expect(await snapshot(w!, id)).toEqual(before);
    done(await slash(w!, ref.id, 'host', 'best', { seat: 4 }));
    done(await slash(w!, ref.id, 'host', 'skip'));
    expect((await w!.bot.store.getGame(id))!.status).toBe('over');

    // The game counted: he may not annul it; the referee may.
    before = await snapshot(w!, id);
    refused(await slash(w!, host.id, 'host', 'annul'), PLAYED);
    expect(await snapshot(w!, id)).toEqual(before);
    done(await slash(w!, ref.id, 'host', 'annul', { reason: 'wrong table' }));
    expect((await w!.bot.store.getGame(id))!.annulledAt).not.toBeNull();
    // His log is his again once the game is over.
    const log = text(await slash(w!, host.id, 'host', 'log'));
    expect(log).toContain('annulled the game — reason: wrong table');
  });

  it('who plays is who holds a seat now, or held one: a substitution counts both ways', async () => {
    const { d, host } = await playingHostGame();
    const id = d.gameId;
    const ref = manager(w!, 'referee');
    const boss = manager(w!, 'boss');
    // The host gives his seat up; a member with Manage Server takes seat 2.
    const newcomer = w!.fake.addUser({ username: 'newcomer', guilds: [w!.guild.id] });
    done(await slash(w!, ref.id, 'host', 'substitute', { seat: 1, user: user(newcomer.id) }));
    done(await slash(w!, ref.id, 'host', 'substitute', { seat: 2, user: user(boss.id) }));
    expect((await w!.bot.store.players(id)).map((p) => p.userId)).not.toContain(host.id);
    const before = await snapshot(w!, id);
    // The one who left the seat saw his card and shares its result: still a player.
    refused(await slash(w!, host.id, 'host', 'skip'), NIGHT);
    refused(await slash(w!, host.id, 'host', 'end', { winner: 'black' }), RESULT);
    // The one who took a seat plays now, whatever his rights on the server.
    refused(await slash(w!, boss.id, 'host', 'skip'), NIGHT);
    refused(await slash(w!, boss.id, 'host', 'panel'), /You play in this game/);
    const forged = await panelButton(w!, boss.id, d, 'pause');
    expect(text(forged)).toMatch(/You play in this game/);
    expect(await snapshot(w!, id)).toEqual(before);
    done(await slash(w!, ref.id, 'host', 'skip'));
    expect((await state(w!, id)).clock).toEqual({ phase: 'day', n: 1 });
  });

  it('who handed hosting over no longer hosts: the new host does, the night and the result are his', async () => {
    const { d, host } = await playingHostGame();
    const id = d.gameId;
    const next = w!.fake.addUser({ username: 'next', guilds: [w!.guild.id] });
    refused(await slash(w!, host.id, 'host', 'skip'), NIGHT);
    // The refusal's advice: hand the game to someone who does not play.
    done(await slash(w!, host.id, 'host', 'transfer', { member: user(next.id) }));
    expect((await w!.bot.store.getGame(id))!.hostId).toBe(next.id);
    const before = await snapshot(w!, id);
    for (const [sub, o] of [
      ['pause', {}],
      ['skip', {}],
      ['end', { winner: 'red' }],
      ['transfer', { member: user(host.id) }],
      ['log', {}],
    ] as [string, Record<string, Opt>][])
      refused(await slash(w!, host.id, 'host', sub, o), /Only the host/);
    const forged = await panelButton(w!, host.id, d, 'pause');
    expect(text(forged)).toMatch(/Only the host/);
    const cancel = await w!.fake.click(host.id, d.tableMessage(), `v1:l:${id}:cancel`, { forge: true });
    await cancel.settled();
    await w!.bot.idle();
    expect((await w!.bot.store.getGame(id))!.status).toBe('running');
    expect(await snapshot(w!, id)).toEqual(before);
    // The new host, who does not play, runs the night and may end the game.
    done(await slash(w!, next.id, 'host', 'skip'));
    expect((await state(w!, id)).clock).toEqual({ phase: 'day', n: 1 });
    done(await slash(w!, next.id, 'host', 'end', { winner: 'draw' }));
    expect((await state(w!, id)).stage.kind).toBe('postGame');
  });
});

/** A button click (or a forged one) by a user, settled. */
async function press(world: World, userId: string, message: Parameters<World['fake']['click']>[1], id: string) {
  const r = await world.fake.click(userId, message, id, { forge: true });
  await r.settled();
  await world.bot.idle();
  return r;
}

describe('who may take a seat when it changes hands (N-13; issue 20)', () => {
  it('nobody who watched the game (its roles hidden), was replaced, or hosts it; a newcomer may', async () => {
    const { d } = await playingHostGame();
    const id = d.gameId;
    const ref = manager(w!, 'referee');
    // A member watches from the spectators' thread (public facts only: the server's default).
    const fan = w!.fake.addUser({ username: 'fan', guilds: [w!.guild.id] });
    expect(text(await press(w!, fan.id, d.tableMessage(), `v1:y:${id}:watch`))).toMatch(/^✅/);
    const before = await snapshot(w!, id);
    refused(
      await slash(w!, ref.id, 'host', 'substitute', { seat: 5, user: user(fan.id) }),
      /watched this game in the spectators’ thread cannot take a seat/,
    );
    // The referee who gives the command hosts it now: he may not seat himself.
    refused(
      await slash(w!, ref.id, 'host', 'substitute', { seat: 5, user: user(ref.id) }),
      /Whoever hosts or hosted this game cannot take a seat/,
    );
    expect(await snapshot(w!, id)).toEqual(before);
    // A newcomer takes seat 5; the player he replaced may not come back into another seat.
    const newcomer = w!.fake.addUser({ username: 'newcomer', guilds: [w!.guild.id] });
    done(await slash(w!, ref.id, 'host', 'substitute', { seat: 5, user: user(newcomer.id) }));
    const after = await snapshot(w!, id);
    refused(
      await slash(w!, ref.id, 'host', 'substitute', { seat: 7, user: user(w!.users[4]!.id) }),
      /was replaced in this game cannot take a seat in it again/,
    );
    expect(await snapshot(w!, id)).toEqual(after);
    expect((await w!.bot.store.players(id)).find((p) => p.seat === 5)!.userId).toBe(newcomer.id);
  });

  it('a host who plays: no seat given freely; a call only for a seat flagged absent, the seat only to its volunteer', async () => {
    const { d, host } = await playingHostGame();
    const id = d.gameId;
    const ref = manager(w!, 'referee');
    done(await slash(w!, ref.id, 'host', 'skip')); // the night is not his: a referee ends it
    expect((await state(w!, id)).clock).toEqual({ phase: 'day', n: 1 });
    const alt = w!.fake.addUser({ username: 'alt', guilds: [w!.guild.id] });
    const before = await snapshot(w!, id);
    // Not his second account in seat 5, not a player pushed out by a call.
    refused(
      await slash(w!, host.id, 'host', 'substitute', { seat: 5, user: user(alt.id) }),
      /You play in this game, so you may give a seat only to someone who volunteered.*\/host transfer/,
    );
    refused(
      await press(w!, host.id, d.tableMessage(), `v1:y:${id}:call:5`),
      /You play in this game, so you may call a substitute only for a player I have reported to you as absent/,
    );
    expect(await snapshot(w!, id)).toEqual(before);
    const calls = () =>
      w!.fake.publicMessages(w!.channel.id).filter((m) => m.content.includes('Seat #5 needs a substitute'));
    expect(calls()).toEqual([]);
    // Seat 5 is flagged as absent (the bot's own count of owed actions let pass): he may call.
    const astore = new AsyncStore(w!.bot.db.connection);
    await astore.flag(id, 5, Date.now());
    expect(text(await press(w!, host.id, d.tableMessage(), `v1:y:${id}:call:5`))).toMatch(/^✅/);
    const call = calls()[0]!;
    const vol = allComponents(call).find((c) => c.custom_id?.includes(':vol:'))!.custom_id!;
    const taras = w!.fake.addUser({ username: 'taras', guilds: [w!.guild.id] });
    await press(w!, taras.id, call, vol);
    expect((await astore.openCalls(id)).map((c) => c.volunteers)).toEqual([[taras.id]]);
    // Still only the volunteer, whom he may seat by the command or the call's menu.
    refused(
      await slash(w!, host.id, 'host', 'substitute', { seat: 5, user: user(alt.id) }),
      /only to someone who volunteered/,
    );
    done(await slash(w!, host.id, 'host', 'substitute', { seat: 5, user: user(taras.id) }));
    expect((await w!.bot.store.players(id)).find((p) => p.seat === 5)!.userId).toBe(taras.id);
  });
});

describe('annulling a finished game', () => {
  it('its host within 24 hours, Manage Server within 7 days; announced in the game’s channel and the results channel', async () => {
    const clock = new FakeClock(Date.parse('2026-12-01T07:00:00Z'));
    w = await makeWorld({ players: 10, dealer: fixedDealer(TEN), clock: { now: clock.now, timers: clock } });
    const idle = () => w!.bot.idle();
    const admin = manager(w, 'admin');
    const results = w.fake.addChannel(w.guild.id, { name: 'results' });
    const rc = await slash(
      w,
      admin.id,
      'mafia',
      'results_channel',
      { channel: { type: 7, value: results.id } },
      'settings',
    );
    expect(text(rc)).toMatch(/^✅/);
    const d = new Driver(w);

    // Game A, hosted by w.host (who does not play), over; 25 hours later.
    await d.createAndStart('chnu-2016', 'live');
    const a = d.gameId;
    expect(await d.host('end', { winner: 'red' })).toBe('ok');
    expect(await d.host('skip', {})).toBe('ok');
    expect((await w.bot.store.getGame(a))!.status).toBe('over');
    await clock.advanceTo(clock.now() + 25 * H, idle);
    let before = await snapshot(w, a);
    refused(
      await slash(w, w.host.id, 'host', 'annul', { game: a }),
      /more than 24 hours ago.*Manage Server can, within 7 days/,
    );
    expect(await snapshot(w, a)).toEqual(before);
    // A member with Manage Server may, within 7 days.
    done(await slash(w, admin.id, 'host', 'annul', { game: a, reason: 'seats mixed up' }));
    expect((await w.bot.store.getGame(a))!.annulledAt).not.toBeNull();
    const until = Date.now() + 10_000;
    const annulHere = () =>
      w!.fake.publicMessages(w!.channel.id).filter((m) => m.content.includes(`Game #${a} was annulled`));
    const annulThere = () =>
      w!.fake
        .publicMessages(results.id)
        .filter((m) => m.content.includes(`Game #${a} (<#${w!.channel.id}>) was annulled`));
    while ((annulHere().length === 0 || annulThere().length === 0) && Date.now() < until)
      await new Promise((x) => setTimeout(x, 100));
    expect(annulHere().map((m) => m.content)).toEqual([
      `🚫 Game #${a} was annulled by <@${admin.id}>: it stays in the archive, but its points no longer count and the ratings are recalculated without it.\nreason: seats mixed up`,
    ]);
    expect(annulThere()).toHaveLength(1);
    expect(annulThere()[0]!.content).toContain(`by <@${admin.id}>`);
    // The results channel had the points before; now their annulment too, and nothing else.
    expect(w.fake.publicMessages(results.id).map((m) => m.embeds[0]?.title ?? m.content.split(':')[0])).toEqual([
      `Points, game #${a}`,
      `🚫 Game #${a} (<#${w.channel.id}>) was annulled by <@${admin.id}>`,
    ]);

    // Game B, over; 8 days later not even Manage Server may annul it.
    await d.createAndStart('chnu-2016', 'live');
    const b = d.gameId;
    expect(b).not.toBe(a);
    expect(await d.host('end', { winner: 'black' })).toBe('ok');
    expect(await d.host('skip', {})).toBe('ok');
    await clock.advanceTo(clock.now() + 8 * 24 * H, idle);
    before = await snapshot(w, b);
    refused(
      await slash(w, admin.id, 'host', 'annul', { game: b }),
      /more than 7 days ago: it can no longer be annulled/,
    );
    refused(await slash(w, w.host.id, 'host', 'annul', { game: b }), /more than 7 days ago/);
    expect(await snapshot(w, b)).toEqual(before);
  });
});
