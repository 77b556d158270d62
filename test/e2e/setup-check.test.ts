// `/mafia setup check` (issue 24), through Discord: hosts only; the channel's permissions from the
// interaction (what each missing one costs, with Discord's names of the permissions); the
// settings' channel and roles; with `dms:true`, the players of the lobby open here the bot cannot DM.
import { afterEach, describe, expect, it } from 'vitest';
import { Perm } from '../../testkit/fake-discord';
import { Driver, messageText } from '../../testkit/driver';
import { makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

async function admin(world: World): Promise<void> {
  const role = world.fake.addRole(world.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
  world.fake.setMemberRoles(world.guild.id, world.host.id, [role.id]);
}

describe('/mafia setup check', () => {
  it('a bot that may only post: what it cannot do, each with the fix; hosts only', async () => {
    w = await makeWorld({
      players: 2,
      botPermissions: Perm.ViewChannel | Perm.SendMessages | Perm.EmbedLinks | Perm.ReadMessageHistory,
    });
    const d = new Driver(w);
    const refused = await d.slash(w.users[0]!.id, 'mafia', 'check', {}, 'setup');
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toMatch(/^⛔ Only members with Manage Server or the host role/);
    await admin(w);
    const r = await d.slash(w.host.id, 'mafia', 'check', {}, 'setup');
    expect(r.ephemeral).toBe(true);
    const body = messageText(r.message);
    expect(body).toMatch(/Setup check: this channel and the server’s settings/);
    expect(body).toMatch(/✅ Posts and updates the game’s messages here\./);
    expect(body).toMatch(
      /❌ Cannot pin the game table: give the bot \*\*Manage Messages\*\* or \*\*Pin Messages\*\*\./,
    );
    expect(body).toMatch(/❌ Cannot keep the speaking order .*\*\*Manage Permissions\*\*/);
    // @everyone's own permissions (a new server's) let the bot make private threads and attach files.
    expect(body).toMatch(/❌ Cannot open the mafia’s private thread .*: give the bot \*\*Manage Threads\*\*\./);
    expect(body).toMatch(/✅ Attaches the Elo charts/);
    expect(body).toMatch(/ℹ️ Tournaments: without \*\*Manage Channels\*\*/);
    expect(body).toMatch(/ℹ️ No default rule set/);
    expect(body).toMatch(/3 things to fix\./);
    // Nothing was posted in the channel, nobody was pinged.
    expect(w.fake.publicMessages(w.channel.id)).toHaveLength(0);
  });

  it('the settings’ channel and roles, and the DMs of the lobby open here; in Ukrainian', async () => {
    w = await makeWorld({ players: 3 });
    const world = w;
    const d = new Driver(world);
    await admin(world);
    const bot = world.fake.botUser.id;
    const results = world.fake.addChannel(world.guild.id, {
      name: 'results',
      overwrites: [{ id: bot, type: 1, allow: 0n, deny: Perm.SendMessages }],
    });
    const quiet = world.fake.addRole(world.guild.id, { name: 'quiet' });
    await d.slash(world.host.id, 'mafia', 'ruleset', { ruleset: 'classic-10' }, 'settings');
    await d.slash(world.host.id, 'mafia', 'results_channel', { channel: { type: 7, value: results.id } }, 'settings');
    await d.slash(world.host.id, 'mafia', 'lobby_ping', { role: { type: 8, value: quiet.id } }, 'settings');

    // No lobby yet: the DM check says so.
    const none = messageText((await d.slash(world.host.id, 'mafia', 'check', { dms: true }, 'setup')).message);
    expect(none).toMatch(/ℹ️ No lobby is open in this channel/);
    expect(none).toMatch(new RegExp(`❌ Results cannot be posted in <#${results.id}>`));
    expect(none).toMatch(new RegExp(`❌ New lobbies show <@&${quiet.id}> but notify nobody`));
    expect(none).not.toMatch(/No default rule set/);
    expect(none).toMatch(/✅ Pins the game table\./);

    // A lobby with three players, one of whom does not accept DMs.
    const [a, b, c] = world.users;
    world.fake.setDmsOpen(b!.id, false);
    const created = await d.slash(world.host.id, 'mafia', 'create', {});
    d.gameId = Number(/#(\d+)/.exec(created.content ?? '')![1]);
    for (const u of [a!, b!, c!]) {
      const j = await world.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
      await j.settled();
    }
    await world.bot.idle();
    const r = await world.fake.slash(world.host.id, world.channel.id, 'mafia', {
      group: 'setup',
      sub: 'check',
      options: { dms: true },
      locale: 'uk',
    });
    await r.settled();
    const uk = messageText(r.message);
    expect(uk).toMatch(/Перевірка налаштувань: цей канал і налаштування сервера/);
    expect(uk).toMatch(new RegExp(`❌ Бот не може писати в особисті <@${b!.id}>:`));
    expect(uk).not.toMatch(new RegExp(`<@${a!.id}>`));
    expect(uk).toMatch(/Виправити: 3 пункти\./);
    expect(world.fake.unhandled).toEqual([]);
  });
});
