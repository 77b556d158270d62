/**
 * Proof that the in-process fake Discord (test/support/fake-discord.ts) works with the real
 * discord.js 14 Client: handshake, slash commands, components, DMs, threads, permission
 * overwrites, pins, edits, command registration, rate limits / 5xx retries, concurrency and
 * reconnects. The "bot" here is a tiny in-test bot, not the project's bot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  HTTPError,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  REST,
  Routes,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import {
  DEFAULT_BOT_PERMISSIONS,
  FakeDiscord,
  type FakeChannelInfo,
  type FakeGuildInfo,
  type FakeUserInfo,
  type StoredMessage,
} from './support/fake-discord.js';

// ------------------------------------------------------------------------------------------------
// a tiny bot
// ------------------------------------------------------------------------------------------------

const commands = [
  new SlashCommandBuilder()
    .setName('mafia')
    .setDescription('Mafia game')
    .addSubcommand((s) =>
      s
        .setName('create')
        .setDescription('Create a lobby')
        .addStringOption((o) => o.setName('ruleset').setDescription('Ruleset').setRequired(true))
        .addStringOption((o) => o.setName('pace').setDescription('Pace'))
        .addIntegerOption((o) => o.setName('players').setDescription('Players')),
    )
    .addSubcommand((s) => s.setName('secret').setDescription('Ephemeral reply'))
    .addSubcommand((s) => s.setName('slow').setDescription('Deferred reply'))
    .addSubcommand((s) => s.setName('fetch').setDescription('withResponse reply'))
    .addSubcommand((s) =>
      s
        .setName('dm')
        .setDescription('DM a user')
        .addUserOption((o) => o.setName('target').setDescription('Target')),
    )
    .addSubcommand((s) => s.setName('thread').setDescription('Private thread'))
    .addSubcommand((s) => s.setName('lock').setDescription('Lock the channel'))
    .addSubcommand((s) => s.setName('pin').setDescription('Pin rules'))
    .addSubcommand((s) => s.setName('edit').setDescription('Edit a message'))
    .addSubcommand((s) =>
      s
        .setName('say')
        .setDescription('Say something')
        .addStringOption((o) => o.setName('text').setDescription('Text').setRequired(true)),
    )
    .toJSON(),
];

interface BotRecord {
  errors: unknown[];
  createOptions: { ruleset: string; pace: string | null; players: number | null; locale: string }[];
  joined: Set<string>;
  withResponseContent?: string;
}

function codeOf(e: unknown): string {
  if (e instanceof DiscordAPIError) return `${e.status}/${e.code}`;
  if (e instanceof HTTPError) return `${e.status}`;
  return String(e);
}

function attachBot(client: Client, rec: BotRecord): void {
  client.on(Events.InteractionCreate, (i) => {
    handle(i, rec).catch((e) => rec.errors.push(e));
  });
}

async function handle(i: Interaction, rec: BotRecord): Promise<void> {
  const eph = MessageFlags.Ephemeral;
  if (i.isChatInputCommand() && i.commandName === 'mafia') {
    const ch = i.channel as TextChannel;
    switch (i.options.getSubcommand()) {
      case 'create': {
        rec.createOptions.push({
          ruleset: i.options.getString('ruleset', true),
          pace: i.options.getString('pace'),
          players: i.options.getInteger('players'),
          locale: i.locale,
        });
        await i.reply({
          content: `Lobby ${i.options.getString('ruleset')}`,
          components: [
            new ActionRowBuilder<ButtonBuilder>().addComponents(
              new ButtonBuilder().setCustomId('join').setLabel('Join').setStyle(ButtonStyle.Primary),
              new ButtonBuilder().setCustomId('next').setLabel('Next').setStyle(ButtonStyle.Secondary),
              new ButtonBuilder().setCustomId('name').setLabel('Name').setStyle(ButtonStyle.Secondary),
              new ButtonBuilder().setCustomId('closed').setLabel('Closed').setStyle(ButtonStyle.Danger).setDisabled(true),
            ),
            new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
              new StringSelectMenuBuilder()
                .setCustomId('vote')
                .setPlaceholder('Vote')
                .addOptions(
                  { label: 'Player 1', value: '1' },
                  { label: 'Player 2', value: '2' },
                  { label: 'Player 3', value: '3' },
                ),
            ),
          ],
        });
        return;
      }
      case 'secret':
        await i.reply({ content: 'Your role: mafia', flags: eph });
        return;
      case 'slow':
        await i.deferReply({ flags: eph });
        await i.editReply('done');
        await i.followUp({ content: 'extra', flags: eph });
        return;
      case 'fetch': {
        const r = await i.reply({ content: 'with-response', withResponse: true });
        rec.withResponseContent = r.resource?.message?.content;
        await i.followUp(`resource said: ${r.resource?.message?.content}`);
        return;
      }
      case 'dm': {
        const target = i.options.getUser('target') ?? i.user;
        try {
          await target.send({
            content: 'Your role: doctor',
            components: [
              new ActionRowBuilder<ButtonBuilder>().addComponents(
                new ButtonBuilder().setCustomId('ack').setLabel('OK').setStyle(ButtonStyle.Success),
              ),
            ],
          });
          await i.reply({ content: 'sent', flags: eph });
        } catch (e) {
          await i.reply({ content: `cannot dm: ${codeOf(e)}`, flags: eph });
        }
        return;
      }
      case 'thread': {
        const th = await ch.threads.create({ name: 'Mafia night', type: ChannelType.PrivateThread, invitable: false });
        await th.members.add(i.user.id);
        await th.setLocked(true);
        await i.reply({ content: `thread ${th.id}`, flags: eph });
        return;
      }
      case 'lock':
        try {
          await ch.permissionOverwrites.edit(i.guild!.roles.everyone, { SendMessages: false });
          await i.reply('locked');
        } catch (e) {
          await i.reply(`lock failed: ${codeOf(e)}`);
        }
        return;
      case 'pin': {
        const m = await ch.send('Rules: be nice');
        await m.pin();
        await i.reply(`pinned ${m.id}`);
        return;
      }
      case 'edit': {
        const m = await ch.send('v1');
        await m.edit('v2');
        await i.reply(`edited ${m.id}`);
        return;
      }
      case 'say': {
        await i.deferReply({ flags: eph });
        try {
          const m = await ch.send(i.options.getString('text', true));
          await i.editReply(`sent ${m.id}`);
        } catch (e) {
          await i.editReply(`send failed: ${codeOf(e)}`);
        }
        return;
      }
    }
  }
  if (i.isButton()) {
    switch (i.customId) {
      case 'join': {
        rec.joined.add(i.user.username);
        // queue the edit before awaiting anything, so concurrent joins edit in handling order
        const edit = i.message.edit({ content: `Joined: ${[...rec.joined].join(', ')}` });
        await i.reply({ content: 'You joined', flags: eph });
        await edit;
        return;
      }
      case 'next':
        await i.update({ content: 'Page 2' });
        return;
      case 'ack':
        await i.reply(`ack from ${i.user.username} (dm: ${i.channel?.isDMBased() ?? 'uncached'})`);
        return;
      case 'name':
        await i.showModal(
          new ModalBuilder()
            .setCustomId('name-modal')
            .setTitle('Your name')
            .addComponents(
              new ActionRowBuilder<TextInputBuilder>().addComponents(
                new TextInputBuilder().setCustomId('nick').setLabel('Nick').setStyle(TextInputStyle.Short),
              ),
            ),
        );
        return;
    }
  }
  if (i.isStringSelectMenu() && i.customId === 'vote') {
    await i.reply({ content: `voted ${i.values.join(',')}`, flags: eph });
    return;
  }
  if (i.isModalSubmit() && i.customId === 'name-modal') {
    await i.reply({ content: `hello ${i.fields.getTextInputValue('nick')}`, flags: eph });
  }
}

/** Resolve when `predicate()` holds, re-checking on every `event` of `emitter` (no polling). */
function until<T>(emitter: EventEmitter, event: string, predicate: () => T | undefined | false | null, timeout = 3000): Promise<T> {
  const v = predicate();
  if (v) return Promise.resolve(v);
  return new Promise((resolve, reject) => {
    const on = (): void => {
      const r = predicate();
      if (!r) return;
      clearTimeout(timer);
      emitter.off(event, on);
      resolve(r);
    };
    const timer = setTimeout(() => {
      emitter.off(event, on);
      reject(new Error(`until(${event}) timed out`));
    }, timeout);
    emitter.on(event, on);
  });
}

async function loginBot(fake: FakeDiscord, guildId: string, rec: BotRecord): Promise<Client> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase } });
  attachBot(client, rec);
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login('any-token');
  await ready;
  expect(client.guilds.cache.get(guildId)?.available).toBe(true);
  return client;
}

// ------------------------------------------------------------------------------------------------

describe('FakeDiscord with a real discord.js Client', () => {
  let fake: FakeDiscord;
  let client: Client;
  let guild: FakeGuildInfo;
  let channel: FakeChannelInfo;
  let alice: FakeUserInfo;
  let bob: FakeUserInfo;
  let carol: FakeUserInfo;
  const rec: BotRecord = { errors: [], createOptions: [], joined: new Set() };
  let lobby: StoredMessage;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ botUsername: 'MafiaBot', interactionTimeout: 3000 });
    guild = fake.addGuild({ name: 'Club', locale: 'uk' });
    channel = fake.addChannel(guild.id, { name: 'mafia' });
    alice = fake.addUser({ username: 'alice', locale: 'en-US', guilds: [guild.id] });
    bob = fake.addUser({ username: 'bob', locale: 'uk', guilds: [guild.id] });
    carol = fake.addUser({ username: 'carol', dmsOpen: false, guilds: [guild.id] });
  });

  afterAll(async () => {
    await client?.destroy();
    await fake?.stop();
    await fake?.stop(); // idempotent
  });

  it('registers slash commands through a standalone REST', async () => {
    const rest = new REST({ api: fake.apiBase }).setToken('x');
    const out = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, guild.id), { body: commands })) as { id: string; name: string }[];
    expect(out).toHaveLength(1);
    expect(out[0]!.id).toMatch(/^\d{17,19}$/);
    expect(fake.commands(guild.id).map((c) => c.name)).toEqual(['mafia']);
    // re-registering keeps the id
    const again = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, guild.id), { body: commands })) as { id: string }[];
    expect(again[0]!.id).toBe(out[0]!.id);
    // Discord-style validation: upper-case names are rejected
    await expect(
      rest.put(Routes.applicationCommands(fake.applicationId), { body: [{ name: 'Bad', description: 'x' }] }),
    ).rejects.toMatchObject({ status: 400, code: 50035 });
  });

  it('logs in a real discord.js Client (READY + GUILD_CREATE)', async () => {
    client = await loginBot(fake, guild.id, rec);
    const g = client.guilds.cache.get(guild.id)!;
    expect(g.name).toBe('Club');
    expect(g.preferredLocale).toBe('uk');
    expect(g.channels.cache.get(channel.id)?.name).toBe('mafia');
    expect(g.members.cache.get(fake.botUser.id)?.roles.cache.has(guild.botRoleId)).toBe(true);
    expect(g.members.me?.permissions.has(PermissionFlagsBits.ManageRoles)).toBe(true);
    expect(g.members.me?.permissions.has(PermissionFlagsBits.Administrator)).toBe(false);
    expect(client.user?.id).toBe(fake.botUser.id);

    // a user added after connect arrives via GUILD_MEMBER_ADD
    const dave = fake.addUser({ username: 'dave', guilds: [guild.id] });
    await until(client, Events.GuildMemberAdd, () => g.members.cache.has(dave.id));
  });

  it('slash command with sub-command and options: public reply with components', async () => {
    const r = await fake.slash(alice.id, channel.id, 'mafia', {
      sub: 'create',
      options: { ruleset: 'kiev-12', pace: 'live', players: 10 },
      locale: 'uk',
    });
    expect(r.type).toBe(4);
    expect(r.ephemeral).toBe(false);
    expect(r.content).toBe('Lobby kiev-12');
    expect(rec.createOptions).toEqual([{ ruleset: 'kiev-12', pace: 'live', players: 10, locale: 'uk' }]);
    lobby = r.message!;
    expect(fake.publicMessages(channel.id)).toContain(lobby);
    expect(lobby.author.id).toBe(fake.botUser.id);
    expect(lobby.interaction_metadata?.user.id).toBe(alice.id);
    expect(fake.findComponent(lobby, (c) => c.label === 'Join')?.custom_id).toBe('join');
    expect(fake.components(lobby).filter((c) => c.type === 2)).toHaveLength(4);
  });

  it('ephemeral reply, deferred reply + editReply + followUp, withResponse', async () => {
    const secret = await fake.slash(bob.id, channel.id, 'mafia', { sub: 'secret' });
    expect(secret.ephemeral).toBe(true);
    expect(secret.message?.ephemeralFor).toBe(bob.id);
    expect(fake.publicMessages(channel.id)).not.toContain(secret.message);
    expect(fake.messages(channel.id)).toContain(secret.message);

    const slow = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'slow' });
    expect(slow.type).toBe(5);
    expect(slow.deferred).toBe(true);
    await slow.settled();
    expect(slow.content).toBe('done');
    const extra = await slow.followup(0);
    expect(extra.content).toBe('extra');
    expect(extra.ephemeralFor).toBe(alice.id);
    expect(fake.history(slow.message!.id).map((v) => [v.kind, v.content])).toEqual([
      ['create', ''],
      ['edit', 'done'],
    ]);
    expect(fake.ephemeralsFor(alice.id)).toEqual(expect.arrayContaining([slow.message, extra]));

    const fetched = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'fetch' });
    const follow = await fetched.followup(0);
    expect(rec.withResponseContent).toBe('with-response');
    expect(follow.content).toBe('resource said: with-response');
    expect(fake.log.some((l) => l.route === '/interactions/:id/:token/callback' && l.query.includes('with_response=true'))).toBe(true);
  });

  it('button clicks: two users at the same moment, update, disabled buttons are not clickable', async () => {
    const [a, b] = await Promise.all([fake.click(alice.id, lobby, 'join'), fake.click(bob.id, lobby, 'join')]);
    expect([a.content, b.content]).toEqual(['You joined', 'You joined']);
    expect(a.message!.ephemeralFor).toBe(alice.id);
    expect(b.message!.ephemeralFor).toBe(bob.id);
    await fake.waitFor(() => lobby.content === 'Joined: alice, bob', { message: 'lobby lists both players' });

    const next = await fake.click(bob.id, lobby, 'next');
    expect(next.type).toBe(7);
    expect(next.message).toBe(lobby);
    expect(lobby.content).toBe('Page 2');
    expect(lobby.components).toHaveLength(2); // update without components keeps them
    expect(fake.history(lobby.id).map((v) => v.content)).toEqual(['Lobby kiev-12', 'Joined: alice', 'Joined: alice, bob', 'Page 2']);

    await expect(fake.click(alice.id, lobby, 'closed')).rejects.toThrow(/disabled/);
    await expect(fake.click(alice.id, lobby, 'nope')).rejects.toThrow(/no component "nope"/);
  });

  it('string select and modal', async () => {
    const r = await fake.select(carol.id, lobby, 'vote', ['2']);
    expect(r.content).toBe('voted 2');
    expect(r.ephemeral).toBe(true);
    await expect(fake.select(carol.id, lobby, 'vote', ['9'])).rejects.toThrow(/no option/);
    await expect(fake.select(carol.id, lobby, 'vote', ['1', '2'])).rejects.toThrow(/1\.\.1 values/);

    const m = await fake.click(alice.id, lobby, 'name');
    expect(m.type).toBe(9);
    expect(m.modal?.custom_id).toBe('name-modal');
    const submitted = await fake.submitModal(alice.id, m, { nick: 'Ally' });
    expect(submitted.content).toBe('hello Ally');
  });

  it('DMs: sent to open DMs, 403 50007 when closed, DM button clicks', async () => {
    const ok = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'dm' });
    expect(ok.content).toBe('sent');
    const dm = fake.dms(alice.id);
    expect(dm.map((m) => m.content)).toEqual(['Your role: doctor']);
    expect(dm[0]!.channel_id).toBe(fake.dmChannelId(alice.id));

    const closed = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'dm', options: { target: carol.id } });
    expect(closed.content).toBe('cannot dm: 403/50007');
    expect(fake.dms(carol.id)).toEqual([]);
    expect(fake.errors.some((e) => e.status === 403 && e.code === 50007)).toBe(true);

    const ack = await fake.click(alice.id, dm[0]!, 'ack');
    expect(ack.content).toBe('ack from alice (dm: true)');
    expect(ack.message?.channel_id).toBe(fake.dmChannelId(alice.id));
    await expect(fake.click(bob.id, dm[0]!, 'ack')).rejects.toThrow(/another user's DM/);
  });

  it('private thread: create, add member, lock', async () => {
    const r = await fake.slash(bob.id, channel.id, 'mafia', { sub: 'thread' });
    const threads = fake.threads(channel.id);
    expect(threads).toHaveLength(1);
    const th = threads[0]!;
    expect(r.content).toBe(`thread ${th.id}`);
    expect(th).toMatchObject({ type: 12, name: 'Mafia night', locked: true, archived: false, invitable: false, ownerId: fake.botUser.id });
    expect(th.members.sort()).toEqual([fake.botUser.id, bob.id].sort());
    const cached = client.channels.cache.get(th.id);
    expect(cached?.isThread() && cached.locked).toBe(true);
  });

  it('permission overwrites: edit, bot locked out by its own overwrite, 403 without ManageRoles', async () => {
    const locked = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'lock' });
    expect(locked.content).toBe('locked');
    const everyone = fake.overwrites(channel.id).find((o) => o.id === guild.everyoneRoleId);
    expect(everyone).toEqual({ id: guild.everyoneRoleId, type: 0, allow: 0n, deny: PermissionFlagsBits.SendMessages });
    const cachedChannel = client.channels.cache.get(channel.id) as TextChannel;
    await until(client, Events.ChannelUpdate, () => cachedChannel.permissionOverwrites.cache.get(guild.everyoneRoleId)?.deny.has('SendMessages'));

    // the @everyone deny applies to the bot too (no Administrator) -> channel.send is rejected
    const blocked = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'say', options: { text: 'night falls' } });
    await blocked.settled();
    expect(blocked.content).toBe('send failed: 403/50013');
    // an allow overwrite for the bot role fixes it
    fake.setOverwrite(channel.id, { id: guild.botRoleId, type: 0, allow: PermissionFlagsBits.SendMessages, deny: 0n });
    const allowed = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'say', options: { text: 'night falls' } });
    await allowed.settled();
    expect(allowed.content).toMatch(/^sent \d+$/);

    fake.setBotPermissions(guild.id, DEFAULT_BOT_PERMISSIONS & ~PermissionFlagsBits.ManageRoles);
    const g = client.guilds.cache.get(guild.id)!;
    await until(client, Events.GuildRoleUpdate, () => !g.members.me!.permissions.has(PermissionFlagsBits.ManageRoles));
    const denied = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'lock' });
    expect(denied.content).toBe('lock failed: 403/50013');
    fake.setBotPermissions(guild.id, DEFAULT_BOT_PERMISSIONS);
  });

  it('pins and edits', async () => {
    const pin = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'pin' });
    const pinnedId = /pinned (\d+)/.exec(pin.content!)![1]!;
    expect(fake.message(pinnedId)?.pinned).toBe(true);
    const notice = fake.publicMessages(channel.id).find((m) => m.type === 6);
    expect(notice?.message_reference?.message_id).toBe(pinnedId);
    expect(fake.log.some((l) => l.method === 'PUT' && l.route === '/channels/:channel/messages/pins/:message' && l.status === 204)).toBe(true);

    const edit = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'edit' });
    const editedId = /edited (\d+)/.exec(edit.content!)![1]!;
    expect(fake.message(editedId)?.content).toBe('v2');
    expect(fake.message(editedId)?.edited_timestamp).not.toBeNull();
    expect(fake.history(editedId).map((v) => v.content)).toEqual(['v1', 'v2']);
  });

  it('429 injected once: discord.js waits and retries', async () => {
    const before = fake.publicMessages(channel.id).length;
    fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 429, retryAfter: 0.05 });
    const t0 = Date.now();
    const r = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'say', options: { text: 'after 429' } });
    await r.settled();
    expect(r.content).toMatch(/^sent \d+$/);
    expect(Date.now() - t0).toBeLessThan(2000);
    const posts = fake.log.filter((l) => l.method === 'POST' && l.path === `/channels/${channel.id}/messages`).slice(-2);
    expect(posts.map((p) => p.status)).toEqual([429, 200]);
    expect(posts[0]!.injected).toBe(true);
    expect(fake.publicMessages(channel.id).filter((m) => m.content === 'after 429')).toHaveLength(1);
    expect(fake.publicMessages(channel.id).length).toBe(before + 1);
  });

  it('500 injected: discord.js retries 5xx (3 retries), then gives up', async () => {
    fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 500 });
    const once = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'say', options: { text: 'after one 500' } });
    await once.settled();
    expect(once.content).toMatch(/^sent \d+$/);
    let posts = fake.log.filter((l) => l.method === 'POST' && l.path === `/channels/${channel.id}/messages`).slice(-2);
    expect(posts.map((p) => p.status)).toEqual([500, 200]);

    fake.clearLog();
    fake.failNext({ method: 'POST', route: /\/channels\/\d+\/messages$/, status: 500, times: 10 });
    const fails = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'say', options: { text: 'never' } });
    await fails.settled();
    expect(fails.content).toBe('send failed: 500');
    posts = fake.log.filter((l) => l.method === 'POST' && l.path === `/channels/${channel.id}/messages`);
    expect(posts.map((p) => p.status)).toEqual([500, 500, 500, 500]); // 1 try + 3 retries
    fake.clearFailures();
    expect(fake.publicMessages(channel.id).some((m) => m.content === 'never')).toBe(false);
  });

  it('gateway RESUME after a server-side disconnect replays missed events', async () => {
    const resumed = new Promise<void>((resolve) => client.once(Events.ShardResume, () => resolve()));
    fake.disconnectBot(); // close code 4000 -> discord.js resumes
    await fake.waitFor(() => fake.stats.connected === 0);
    const late = fake.addChannel(guild.id, { name: 'Day Chat' }); // emitted while disconnected
    await resumed;
    expect(fake.stats.resumes).toBe(1);
    expect(client.channels.cache.get(late.id)?.type).toBe(ChannelType.GuildText);
    const r = await fake.slash(bob.id, channel.id, 'mafia', { sub: 'secret' });
    expect(r.content).toBe('Your role: mafia');
  });

  it('a second Client can connect after client.destroy() and sees the same state', async () => {
    await client.destroy();
    await fake.waitFor(() => fake.stats.sessions === 0, { message: 'session closed' });
    await expect(fake.slash(alice.id, channel.id, 'mafia', { sub: 'secret' })).rejects.toThrow(/no bot gateway session/);

    const rec2: BotRecord = { errors: [], createOptions: [], joined: new Set(['alice', 'bob']) };
    client = await loginBot(fake, guild.id, rec2);
    expect(client.channels.cache.has(fake.threads(channel.id)[0]!.id)).toBe(true);
    const r = await fake.click(carol.id, lobby, 'join');
    expect(r.content).toBe('You joined');
    await fake.waitFor(() => lobby.content === 'Joined: alice, bob, carol');
    expect(rec2.errors).toEqual([]);
    expect(fake.stats.identifies).toBe(2);
  });

  it('recorded nothing unexpected', () => {
    expect(rec.errors).toEqual([]);
    expect(fake.unhandled).toEqual([]);
    expect(fake.internalErrors).toEqual([]);
    // every non-injected error reply was one the tests provoked on purpose
    const provoked = (e: (typeof fake.errors)[number]) =>
      (e.status === 403 && (e.code === 50007 || e.code === 50013)) || (e.code === 50035 && e.route === '/applications/:app/commands');
    const unexpected = fake.errors.filter((e) => !e.injected && !provoked(e));
    expect(unexpected).toEqual([]);
  });
});

describe('FakeDiscord: more REST surface', () => {
  let fake: FakeDiscord;
  let client: Client;
  let guild: FakeGuildInfo;
  let channel: FakeChannelInfo;
  let alice: FakeUserInfo;
  let bob: FakeUserInfo;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ interactionTimeout: 3000 });
    guild = fake.addGuild({ name: 'Club' });
    channel = fake.addChannel(guild.id, { name: 'Lobby Room' });
    alice = fake.addUser({ username: 'alice', guilds: [guild.id] });
    bob = fake.addUser({ username: 'bob', guilds: [guild.id] });
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase } });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login('t');
    await ready;
  });

  afterAll(async () => {
    await client?.destroy();
    await fake?.stop();
  });

  it('channel messages: send, fetch list/single, pins list, reactions, delete, bulk delete', async () => {
    const ch = client.channels.cache.get(channel.id) as TextChannel;
    expect(ch.name).toBe('lobby-room'); // Discord normalizes text channel names
    const sent = [];
    for (const text of ['a', 'b', 'c']) sent.push(await ch.send(text));
    const list = await ch.messages.fetch({ limit: 2, cache: false });
    expect([...list.values()].map((m) => m.content)).toEqual(['c', 'b']);
    const older = await ch.messages.fetch({ before: sent[1]!.id, cache: false });
    expect([...older.values()].map((m) => m.content)).toEqual(['a']);
    const single = await ch.messages.fetch({ message: sent[0]!.id, force: true });
    expect(single.content).toBe('a');
    await sent[2]!.pin();
    const pins = await ch.messages.fetchPins();
    expect(pins.items.map((p) => p.message.id)).toEqual([sent[2]!.id]);
    await sent[0]!.react('🎲');
    expect((fake.message(sent[0]!.id) as StoredMessage & { reactions?: { count: number }[] }).reactions?.[0]?.count).toBe(1);
    await sent[0]!.delete();
    expect(fake.message(sent[0]!.id)).toBeUndefined();
    expect(fake.history(sent[0]!.id).at(-1)?.kind).toBe('delete');
    await ch.bulkDelete([sent[1]!.id, sent[2]!.id]);
    expect(fake.publicMessages(channel.id).filter((m) => m.type === 0)).toEqual([]);
    // a message that doesn't exist
    await expect(ch.messages.fetch({ message: '1234567890123456789', force: true })).rejects.toMatchObject({ code: 10008 });
  });

  it('guild: members, create channel with overwrites, roles, member roles', async () => {
    const g = client.guilds.cache.get(guild.id)!;
    const m = await g.members.fetch({ user: alice.id, force: true });
    expect(m.user.username).toBe('alice');
    const created = await g.channels.create({
      name: 'Night',
      type: ChannelType.GuildText,
      permissionOverwrites: [{ id: guild.everyoneRoleId, deny: [PermissionFlagsBits.ViewChannel] }, { id: guild.botRoleId, allow: [PermissionFlagsBits.ViewChannel] }],
    });
    expect(fake.channel(created.id)?.name).toBe('night');
    expect(fake.permissionsIn(created.id, alice.id)).toBe(0n);
    expect(fake.permissionsIn(created.id) & PermissionFlagsBits.ViewChannel).toBe(PermissionFlagsBits.ViewChannel);
    // alice can't see the channel -> can't run commands there
    await expect(fake.slash(alice.id, created.id, 'x')).rejects.toThrow(/lacks permissions/);

    const role = await g.roles.create({ name: 'Alive', permissions: [] });
    expect(fake.roles(guild.id).find((r) => r.name === 'Alive')?.permissions).toBe(0n);
    await m.roles.add(role.id);
    expect(fake.memberRoles(guild.id, alice.id)).toEqual([role.id]);
    await until(client, Events.GuildMemberUpdate, () => g.members.cache.get(alice.id)?.roles.cache.has(role.id));
    await m.roles.remove(role.id);
    expect(fake.memberRoles(guild.id, alice.id)).toEqual([]);
    // cannot create roles with permissions the bot lacks
    await expect(g.roles.create({ name: 'Admin', permissions: [PermissionFlagsBits.Administrator] })).rejects.toMatchObject({ code: 50013 });
    await created.delete();
    expect(fake.channel(created.id)).toBeUndefined();
  });

  it('threads: archive/unlock, remove member, send into thread', async () => {
    const ch = client.channels.cache.get(channel.id) as TextChannel;
    const th = await ch.threads.create({ name: 'Mafia', type: ChannelType.PrivateThread });
    await th.members.add(alice.id);
    await th.members.add(bob.id);
    await th.members.remove(bob.id);
    expect(fake.thread(th.id)?.members.sort()).toEqual([fake.botUser.id, alice.id].sort());
    const sent = await th.send('psst');
    expect(fake.messages(th.id).map((m) => m.content)).toEqual(['psst']);
    expect(sent.channelId).toBe(th.id);
    await th.setArchived(true);
    expect(fake.thread(th.id)?.archived).toBe(true);
    await expect(th.members.add(bob.id)).rejects.toMatchObject({ code: 50083 });
    await th.send('unarchives'); // sending unarchives an unlocked thread
    expect(fake.thread(th.id)?.archived).toBe(false);
    // bob is not in the private thread: he can't interact there
    await expect(fake.slash(bob.id, th.id, 'x')).rejects.toThrow(/lacks permissions/);
  });

  it('component interactions: deferUpdate + editReply, user select, validation of bad components', async () => {
    const ch = client.channels.cache.get(channel.id) as TextChannel;
    const botErrors: unknown[] = [];
    client.on(Events.InteractionCreate, (i) => {
      void (async () => {
        if (i.isButton() && i.customId === 'slow-update') {
          await i.deferUpdate();
          await i.editReply({ content: 'updated later' });
        } else if (i.isUserSelectMenu()) {
          await i.reply({ content: `picked ${i.users.map((u) => u.username).join(',')}`, flags: MessageFlags.Ephemeral });
        }
      })().catch((e) => botErrors.push(e));
    });
    await ch.send({
      content: 'panel',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('slow-update').setLabel('Go').setStyle(ButtonStyle.Primary)),
        { type: 1, components: [{ type: 5, custom_id: 'who', max_values: 2 }] } as never,
      ],
    });
    const panel = fake.publicMessages(channel.id).at(-1)!;
    const r = await fake.click(alice.id, panel, 'slow-update');
    expect(r.type).toBe(6);
    await r.settled();
    expect(panel.content).toBe('updated later');
    const pick = await fake.select(alice.id, panel, 'who', [alice.id, bob.id]);
    expect(pick.content).toBe('picked alice,bob');
    expect(botErrors).toEqual([]);

    // Discord would reject these, so the fake does too
    await expect(ch.send({ content: 'x'.repeat(2001) })).rejects.toMatchObject({ code: 50035 });
    await expect(
      ch.send({
        components: [
          new ActionRowBuilder<ButtonBuilder>().addComponents(
            new ButtonBuilder().setCustomId('dup').setLabel('1').setStyle(ButtonStyle.Primary),
            new ButtonBuilder().setCustomId('dup').setLabel('2').setStyle(ButtonStyle.Primary),
          ),
        ],
      }),
    ).rejects.toMatchObject({ code: 50035 });
    await expect(ch.send({ content: '' })).rejects.toThrow();
  });

  it('waitForMessage, interaction timeouts, strict bookkeeping', async () => {
    const ch = client.channels.cache.get(channel.id) as TextChannel;
    const waiting = fake.waitForMessage(channel.id, (m) => m.content === 'later');
    void ch.send('later');
    expect((await waiting).content).toBe('later');
    // nobody handles /unknown -> the fake rejects with a clear error after the timeout
    await expect(fake.slash(alice.id, channel.id, 'unknown', { timeout: 50 })).rejects.toThrow(/did not answer slash \/unknown by alice/);
    expect(fake.unhandled).toEqual([]);
    expect(fake.internalErrors).toEqual([]);
  });
});
