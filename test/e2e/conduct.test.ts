// Conduct across games (issue 24), through Discord: a member's record on the server (absences,
// fouls, removals, games left to a substitute, with dates) that he and the hosts may read and
// nobody else; the server's thresholds that pause a member from rated games (a casual lobby stays
// open to him) until the pause ends; the hosts' bans (a barred member joins no lobby and takes no
// seat as a substitute; he alone is told why), unbans, pauses and lifts, each in the server's log.
import { afterEach, describe, expect, it } from 'vitest';
import { ConductStore } from '../../src/db/conduct-store';
import type { Role } from '../../src/engine/types';
import { allComponents, Perm, type InteractionResult } from '../../testkit/fake-discord';
import { Driver, messageText } from '../../testkit/driver';
import { FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

/** Seats 3 and 8 mafia, 6 the Don, 4 the Sheriff. */
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
const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = (r: InteractionResult) => messageText(r.message ?? undefined) || (r.content ?? '');
const user = (id: string) => ({ type: 6, value: id });

async function setup(base: number, players = 10, userLocale?: string) {
  const clock = new FakeClock(base);
  w = await makeWorld({
    players,
    dealer: fixedDealer(TEN),
    clock: { now: clock.now, timers: clock },
    ...(userLocale ? { userLocale } : {}),
  });
  const boss = w.fake.addUser({
    username: 'boss',
    guilds: [w.guild.id],
    ...(userLocale ? { locale: userLocale } : {}),
  });
  const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
  w.fake.setMemberRoles(w.guild.id, boss.id, [admin.id]);
  return { d: new Driver(w), clock, boss, world: w };
}

/** Opens a lobby (rated or casual) and returns a join as `userId` clicks it. */
async function lobby(world: World, d: Driver, hostId: string, rated: boolean) {
  const r = await d.slash(hostId, 'mafia', 'create', { ruleset: 'classic-10', rated });
  d.gameId = Number(/#(\d+)/.exec(r.content ?? '')![1]);
  await world.bot.idle();
  return {
    join: async (userId: string) => {
      const j = await world.fake.click(userId, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
      await j.settled();
      await world.bot.idle();
      return j;
    },
    cancel: async () => {
      const c = await world.fake.click(hostId, d.lobbyMessage(), `v1:l:${d.gameId}:cancel`);
      await c.settled();
      await world.bot.idle();
    },
  };
}

/** The refusal a click got: its private answer or follow-up. */
const refusalOf = (r: InteractionResult) =>
  [r.content ?? '', ...r.followups().map((m) => m.content)].find((c) => c.startsWith('⛔')) ?? '';

describe('conduct', () => {
  it(
    'the record after an async game: an absence and a game left to a substitute, a foul, a removal; the member reads his own, only hosts read others’',
    { timeout: 120_000 },
    async () => {
      const { d, clock, boss, world } = await setup(Date.parse('2026-12-01T07:00:00Z'));
      const idle = () => world.bot.idle();
      expect((await d.slash(boss.id, 'mafia', 'reminders', { reminders: 'off' }, 'settings')).content).toMatch(/^✅/);
      expect((await d.slash(boss.id, 'mafia', 'pings', { pings: 'off' }, 'settings')).content).toMatch(/^✅/);
      await d.createAndStart('classic-10', 'async', { night: '1h', discussion: '2h', vote: '2h' });
      const g = d.gameId;
      const u = (seat: number) => world.users[seat - 1]!.id;
      await clock.advanceTo(clock.now() + 1 * H + MIN, idle);
      expect(await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 2 })).toBe('ok');
      expect(await d.step({ type: 'player', seat: 3, verb: 'nominate', target: 4 })).toBe('ok');
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      // Seat 5 let the window and the vote pass: flagged to the host, and kept in his record.
      const flag = d.dmWith(world.host.id, (id) => id === `v1:y:${g}:call:5`)!;
      expect(flag).not.toBeNull();
      const absences = (await ConductStore.of(world.bot.db.connection).member(world.guild.id, u(5))).filter(
        (r) => r.action === 'absent',
      );
      expect(absences).toEqual([expect.objectContaining({ gameId: g, actorId: 'system', userId: u(5) })]);

      // The host calls a substitute; a member the server barred may not take the seat.
      await (await world.fake.click(world.host.id, flag.message, flag.id)).settled();
      await idle();
      const call = world.fake
        .publicMessages(world.channel.id)
        .find((m) => m.content.includes('Seat #5 needs a substitute'))!;
      const vol = allComponents(call).find((c) => c.custom_id?.includes(':vol:'))!.custom_id!;
      const barred = world.fake.addUser({ username: 'barred', guilds: [world.guild.id] });
      const ban = await d.slash(
        boss.id,
        'mafia',
        'ban',
        { member: user(barred.id), reason: 'two accounts' },
        'conduct',
      );
      expect(ban.ephemeral).toBe(true);
      expect(ban.content).toMatch(/^✅ <@\d+> may not join this server’s games/);
      const refusedVol = await world.fake.click(barred.id, call, vol);
      await refusedVol.settled();
      expect(refusalOf(refusedVol)).toMatch(
        /^⛔ A host has barred you from this server’s games\.\nReason: two accounts/,
      );
      // Nor may the host seat him.
      const seated = await d.slash(world.host.id, 'host', 'substitute', { seat: 5, user: user(barred.id) });
      expect(seated.content).toMatch(/^⛔ This member is barred from this server’s games\./);
      const v = world.fake.addUser({ username: 'taras', guilds: [world.guild.id] });
      await (await world.fake.click(v.id, call, vol)).settled();
      await idle();
      // The host seats him from the volunteers' menu (or the first took it): either way he holds seat 5.
      const pick = d.publicWith((id) => id.includes(':pick:'));
      if (pick) {
        const p = await world.fake.select(world.host.id, pick.message, pick.id, [v.id]);
        await p.settled();
        await idle();
      }
      expect((await world.bot.store.players(g)).find((p) => p.seat === 5)!.userId).toBe(v.id);

      // A foul for seat 3 (RULES F-1), a removal of seat 7, then the host ends the game.
      expect(await d.host('foul', { seat: 3 })).toBe('ok');
      expect(await d.host('remove', { seat: 7 })).toBe('ok');
      expect(await d.host('end', { winner: 'red' })).toBe('ok');
      expect(await d.host('best', { seat: 4 })).toBe('ok');
      expect(await d.host('skip', {})).toBe('ok');
      expect((await world.bot.store.getGame(g))!.status).toBe('over');

      // Seat 5's player reads his own record: the absence and the game he left.
      const own5 = text(await d.slash(u(5), 'mafia', 'record', {}, 'conduct'));
      expect(own5).toMatch(new RegExp(`Conduct of <@${u(5)}>`));
      expect(own5).toMatch(/✅ Free to play in every game\./);
      expect(own5).toMatch(new RegExp(`<t:\\d+:d> absent in game #${g}`));
      expect(own5).toMatch(new RegExp(`<t:\\d+:d> left game #${g} to a substitute`));
      expect(own5).toMatch(/The last year:\*\* 1 absence, 1 game left to a substitute/);
      const own3 = text(await d.slash(u(3), 'mafia', 'record', {}, 'conduct'));
      expect(own3).toMatch(new RegExp(`<t:\\d+:d> 1 foul in game #${g}`));
      expect(own3).not.toMatch(/removed|left game/);
      // Seat 7's removal, read by a host (Manage Server).
      const host7 = await d.slash(boss.id, 'mafia', 'record', { member: user(u(7)) }, 'conduct');
      expect(host7.ephemeral).toBe(true);
      expect(text(host7)).toMatch(new RegExp(`removed from game #${g}`));
      // Nobody else reads another's record, and a member who is no host bans nobody.
      const nosy = await d.slash(u(1), 'mafia', 'record', { member: user(u(7)) }, 'conduct');
      expect(nosy.content).toMatch(/^⛔ Only members with Manage Server or the host role may do this\./);
      expect(text(nosy)).not.toMatch(/removed/);
      const notHost = await d.slash(u(1), 'mafia', 'ban', { member: user(u(7)), reason: 'x' }, 'conduct');
      expect(notHost.content).toMatch(/^⛔ Only members with Manage Server/);
      // Nothing of it was posted in the channel.
      const pub = world.fake
        .publicMessages(world.channel.id)
        .map((m) => messageText(m))
        .join('\n');
      expect(pub).not.toMatch(/two accounts|barred|Conduct of/);
      expect(world.fake.unhandled).toEqual([]);
    },
  );

  it('thresholds pause from rated games (a casual lobby stays open) until the pause ends; bans, unbans, pauses and lifts in the log', async () => {
    const { d, clock, boss, world } = await setup(Date.parse('2026-12-01T12:00:00Z'), 10);
    const idle = () => world.bot.idle();
    const u = (seat: number) => world.users[seat - 1]!.id;
    // A live game: seat 5 is removed, seat 3 gets two fouls.
    await d.createAndStart('classic-10', 'live');
    const g = d.gameId;
    expect(await d.host('skip', {})).toBe('ok'); // night 0
    expect(await d.host('foul', { seat: 3, count: 2 })).toBe('ok');
    expect(await d.host('remove', { seat: 5 })).toBe('ok');
    expect(await d.host('end', { winner: 'red' })).toBe('ok');
    expect(await d.host('best', { seat: 4 })).toBe('ok');
    expect(await d.host('skip', {})).toBe('ok');
    expect((await world.bot.store.getGame(g))!.status).toBe('over');

    // The server's thresholds: one removal, or three fouls, within 30 days pause for 7 days.
    const notAdmin = await d.slash(u(1), 'mafia', 'conduct', { removals: 1 }, 'settings');
    expect(notAdmin.content).toMatch(/^⛔ Only members with Manage Server/);
    const set = await d.slash(boss.id, 'mafia', 'conduct', { removals: 1, fouls: 3, within: 30, pause: 7 }, 'settings');
    expect(set.content).toBe('✅ Saved.');
    expect(text(set)).toMatch(/Pause from rated games\nfor 7 d after 3 fouls or 1 removal within 30 d/);

    // Seat 5's player may not join a rated lobby: told privately why and until when.
    const rated = await lobby(world, d, boss.id, true);
    const refused = await rated.join(u(5));
    const said = refusalOf(refused);
    expect(said).toMatch(/^⛔ You are paused from rated games on this server\. Casual games are open to you\./);
    expect(said).toMatch(/The pause ends <t:\d+:f> \(<t:\d+:R>\)\./);
    const until = Number(/<t:(\d+):f>/.exec(said)![1]) * 1000;
    expect(until).toBeGreaterThan(clock.now() + 6 * DAY);
    expect(messageText(d.lobbyMessage())).not.toMatch(new RegExp(`<@${u(5)}>|paused`));
    // Seat 3 (two fouls, under three) joins.
    expect(refusalOf(await rated.join(u(3)))).toBe('');
    await rated.cancel();
    // A casual lobby is open to him.
    const casual = await lobby(world, d, boss.id, false);
    expect(refusalOf(await casual.join(u(5)))).toBe('');
    expect(messageText(d.lobbyMessage())).toMatch(new RegExp(`<@${u(5)}>`));
    await casual.cancel();
    // His record says so.
    const own = text(await d.slash(u(5), 'mafia', 'record', {}, 'conduct'));
    expect(own).toMatch(/⏸️ Paused from rated games until <t:\d+:f> \(<t:\d+:R>\)\.\nWhy: removals/);
    expect(own).toMatch(/The last 30 days:\*\* 1 removal/);
    expect(own).toMatch(/This server pauses from rated games for 7 d after 3 fouls or 1 removal within 30 d\./);

    // After the pause, he joins rated games again.
    await clock.advanceTo(until + MIN, idle);
    const later = await lobby(world, d, boss.id, true);
    expect(refusalOf(await later.join(u(5)))).toBe('');

    // A host's ban: the barred member cannot join (even a casual lobby); he alone sees the reason.
    const ban = await d.slash(boss.id, 'mafia', 'ban', { member: user(u(2)), reason: 'insults in chat' }, 'conduct');
    expect(ban.content).toMatch(/^✅ <@\d+> may not join/);
    const again = await d.slash(boss.id, 'mafia', 'ban', { member: user(u(2)), reason: 'again' }, 'conduct');
    expect(again.content).toMatch(/^⛔ This member is already barred\./);
    const barred = await later.join(u(2));
    expect(refusalOf(barred)).toMatch(/^⛔ A host has barred you from this server’s games\.\nReason: insults in chat/);
    const pub = world.fake
      .publicMessages(world.channel.id)
      .map((m) => messageText(m))
      .join('\n');
    expect(pub).not.toMatch(/insults in chat/);
    await later.cancel();
    const casual2 = await lobby(world, d, boss.id, false);
    expect(refusalOf(await casual2.join(u(2)))).toMatch(/^⛔ A host has barred you/);

    // A host's pause and its lift; the unban.
    const pause = await d.slash(
      boss.id,
      'mafia',
      'pause',
      { member: user(u(4)), days: 3, reason: 'left a final' },
      'conduct',
    );
    expect(pause.content).toMatch(/^✅ <@\d+> is paused from rated games until <t:\d+:f>/);
    const bans = text(await d.slash(boss.id, 'mafia', 'bans', {}, 'conduct'));
    expect(bans).toMatch(new RegExp(`⛔ <@${u(2)}> since <t:\\d+:D> — Reason: insults in chat`));
    expect(bans).toMatch(new RegExp(`⏸️ <@${u(4)}> paused from rated games until <t:\\d+:f> \\(<t:\\d+:R>\\)`));
    expect(bans).toMatch(
      new RegExp(
        `<t:\\d+:d> <@${boss.id}>: paused <@${u(4)}> from rated games until <t:\\d+:f> — Reason: left a final`,
      ),
    );
    expect(bans).toMatch(new RegExp(`<t:\\d+:d> <@${boss.id}>: barred <@${u(2)}> — Reason: insults in chat`));
    const lift = await d.slash(boss.id, 'mafia', 'lift', { member: user(u(4)) }, 'conduct');
    expect(lift.content).toMatch(/^✅ <@\d+>’s pause is over/);
    expect((await d.slash(boss.id, 'mafia', 'lift', { member: user(u(4)) }, 'conduct')).content).toMatch(
      /^⛔ This member is not paused\./,
    );
    const unban = await d.slash(boss.id, 'mafia', 'unban', { member: user(u(2)), reason: 'apologised' }, 'conduct');
    expect(unban.content).toMatch(/^✅ <@\d+> may join games again\./);
    expect(refusalOf(await casual2.join(u(2)))).toBe('');
    // The member's own record shows the decisions about him, not who made them.
    const own2 = text(await d.slash(u(2), 'mafia', 'record', {}, 'conduct'));
    expect(own2).toMatch(/barred <@\d+> — Reason: insults in chat/);
    expect(own2).toMatch(/let <@\d+> play again — Reason: apologised/);
    expect(own2).not.toMatch(new RegExp(`<@${boss.id}>`));
    // The server's log, in the database: who, what, about whom, why.
    const log = await ConductStore.of(world.bot.db.connection).log(world.guild.id, 10);
    expect(log.map((r) => [r.action, r.userId, r.actorId, r.reason])).toEqual([
      ['unban', u(2), `host:${boss.id}`, 'apologised'],
      ['lift', u(4), `host:${boss.id}`, null],
      ['pause', u(4), `host:${boss.id}`, 'left a final'],
      ['ban', u(2), `host:${boss.id}`, 'insults in chat'],
    ]);
    expect(world.fake.unhandled).toEqual([]);
  });

  it('in Ukrainian: a barred member is told in his language, with the reason', async () => {
    const { d, boss, world } = await setup(Date.parse('2026-12-01T12:00:00Z'), 1, 'uk');
    const member = world.users[0]!.id;
    const ban = await d.slash(boss.id, 'mafia', 'ban', { member: user(member), reason: 'образи в чаті' }, 'conduct');
    expect(ban.content).toMatch(/^✅ <@\d+> не зможе приєднуватися до ігор цього сервера/);
    const l = await lobby(world, d, boss.id, false);
    const r = refusalOf(await l.join(member));
    expect(r).toMatch(/^⛔ Ведучі заборонили вам грати на цьому сервері\.\nПричина: образи в чаті/);
    const own = text(await d.slash(member, 'mafia', 'record', {}, 'conduct'));
    expect(own).toMatch(/⛔ Заборонено грати на цьому сервері з <t:\d+:D>\./);
    expect(own).toMatch(/За останній рік нічого не записано\./);
  });
});
