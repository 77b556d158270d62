// Lobby pings (issue 24), through Discord: a server names an opt-in role (`/mafia settings
// lobby_ping`), and a new lobby's own post mentions it (one message, no extra post), at most once
// per the server's cooldown; the line goes when the lobby closes, and an edit notifies nobody.
// Discord notifies a role only when it is mentionable or the bot may mention everyone: the fake
// Discord applies that rule, and the setting's reply warns when the role would stay silent.
import { afterEach, describe, expect, it } from 'vitest';
import { Perm } from '../../testkit/fake-discord';
import { Driver, messageText } from '../../testkit/driver';
import { FakeClock, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = messageText;

describe('lobby pings', () => {
  it('a new lobby pings the opt-in role in its own post, once per cooldown; the line goes when it closes', async () => {
    const clock = new FakeClock(Date.UTC(2026, 11, 1, 18));
    w = await makeWorld({ players: 1, clock: { now: clock.now, timers: clock } });
    const world = w;
    const d = new Driver(world);
    const boss = world.host;
    const admin = world.fake.addRole(world.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    world.fake.setMemberRoles(world.guild.id, boss.id, [admin.id]);
    const players = world.fake.addRole(world.guild.id, { name: 'players', mentionable: true });

    // Not for @everyone; only with Manage Server.
    const everyone = await d.slash(
      boss.id,
      'mafia',
      'lobby_ping',
      { role: { type: 8, value: world.guild.id } },
      'settings',
    );
    expect(everyone.content).toMatch(/^⛔ Choose a role members take to be told of new games, not @everyone\./);
    const notAdmin = await d.slash(
      world.users[0]!.id,
      'mafia',
      'lobby_ping',
      { role: { type: 8, value: players.id } },
      'settings',
    );
    expect(notAdmin.content).toMatch(/^⛔ Only members with Manage Server/);
    const set = await d.slash(
      boss.id,
      'mafia',
      'lobby_ping',
      { role: { type: 8, value: players.id }, cooldown: 30 },
      'settings',
    );
    expect(set.content).toBe('✅ Saved.');
    expect(text(set.message)).toMatch(new RegExp(`New lobbies ping\\n<@&${players.id}>, at most once per 30 min`));

    const open = async () => {
      const r = await d.slash(boss.id, 'mafia', 'create', { ruleset: 'classic-10' });
      d.gameId = Number(/#(\d+)/.exec(r.content ?? '')![1]);
      await world.bot.idle();
      return d.lobbyMessage();
    };
    const close = async () => {
      const c = await world.fake.click(boss.id, d.lobbyMessage(), `v1:l:${d.gameId}:cancel`);
      await c.settled();
      await world.bot.idle();
    };

    const first = await open();
    expect(first.content).toBe(`🔔 <@&${players.id}> — a new game is looking for players.`);
    expect(first.pingedRoles).toEqual([players.id]);
    // Joining edits the lobby: nobody is notified again.
    const join = await world.fake.click(world.users[0]!.id, first, `v1:l:${d.gameId}:join`);
    await join.settled();
    await world.bot.idle();
    expect(d.lobbyMessage().pingedRoles).toEqual([players.id]);
    expect(d.lobbyMessage().edited_timestamp).not.toBeNull();
    await close();
    // Closed: the line is gone.
    expect(d.lobbyMessage().content).toBe('');

    // Within the cooldown: a lobby without the ping.
    await clock.advanceTo(clock.now() + 20 * 60_000, () => world.bot.idle());
    const second = await open();
    expect(second.content).toBe('');
    expect(second.pingedRoles).toEqual([]);
    await close();

    // After it: pinged again.
    await clock.advanceTo(clock.now() + 11 * 60_000, () => world.bot.idle());
    const third = await open();
    expect(third.pingedRoles).toEqual([players.id]);
    await close();

    // Off: no line at all.
    const off = text((await d.slash(boss.id, 'mafia', 'lobby_ping', {}, 'settings')).message);
    expect(off).toMatch(/New lobbies ping\nnone/);
    await clock.advanceTo(clock.now() + 31 * 60_000, () => world.bot.idle());
    const fourth = await open();
    expect(fourth.content ?? '').toBe('');
    expect(fourth.mention_roles).toEqual([]);
    expect(world.fake.unhandled).toEqual([]);
  });

  it('warns when Discord would notify nobody (a role neither mentionable nor the bot allowed to mention everyone)', async () => {
    w = await makeWorld({ players: 1 });
    const world = w;
    const d = new Driver(world);
    const boss = world.host;
    const admin = world.fake.addRole(world.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    world.fake.setMemberRoles(world.guild.id, boss.id, [admin.id]);
    const quiet = world.fake.addRole(world.guild.id, { name: 'quiet' });
    const set = await d.slash(boss.id, 'mafia', 'lobby_ping', { role: { type: 8, value: quiet.id } }, 'settings');
    expect(set.content).toMatch(/^✅ Saved\.\n⚠️ Discord will show <@&\d+> in lobbies but notify nobody/);
    const r = await d.slash(boss.id, 'mafia', 'create', { ruleset: 'classic-10' });
    d.gameId = Number(/#(\d+)/.exec(r.content ?? '')![1]);
    await world.bot.idle();
    expect(d.lobbyMessage().mention_roles).toEqual([quiet.id]);
    expect(d.lobbyMessage().pingedRoles).toEqual([]);
  });
});
