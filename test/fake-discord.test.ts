/**
 * Proof that the in-process fake Discord (testkit/fake-discord.ts) works with the real
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
  type ChatInputCommandInteraction,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import {
  DEFAULT_BOT_PERMISSIONS,
  FakeDiscord,
  Perm,
  type FakeChannelInfo,
  type FakeGuildInfo,
  type FakeUserInfo,
  type StoredMessage,
} from '../testkit/fake-discord.js';

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
              new ButtonBuilder()
                .setCustomId('closed')
                .setLabel('Closed')
                .setStyle(ButtonStyle.Danger)
                .setDisabled(true),
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
function until<T>(
  emitter: EventEmitter,
  event: string,
  predicate: () => T | undefined | false | null,
  timeout = 3000,
): Promise<T> {
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
    // Discord's rate limits off here: these tests send more than 5 messages per 5 s to #mafia and
    // would wait out the bucket (they are about other things; the limits have their own tests below)
    fake = await FakeDiscord.start({ botUsername: 'MafiaBot', interactionTimeout: 3000, rateLimits: false });
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
    const out = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, guild.id), { body: commands })) as {
      id: string;
      name: string;
    }[];
    expect(out).toHaveLength(1);
    expect(out[0]!.id).toMatch(/^\d{17,19}$/);
    expect(fake.commands(guild.id).map((c) => c.name)).toEqual(['mafia']);
    // re-registering keeps the id
    const again = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, guild.id), {
      body: commands,
    })) as { id: string }[];
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
    expect(
      fake.log.some((l) => l.route === '/interactions/:id/:token/callback' && l.query.includes('with_response=true')),
    ).toBe(true);
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
    expect(fake.history(lobby.id).map((v) => v.content)).toEqual([
      'Lobby kiev-12',
      'Joined: alice',
      'Joined: alice, bob',
      'Page 2',
    ]);

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
    expect(th).toMatchObject({
      type: 12,
      name: 'Mafia night',
      locked: true,
      archived: false,
      invitable: false,
      ownerId: fake.botUser.id,
    });
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
    await until(client, Events.ChannelUpdate, () =>
      cachedChannel.permissionOverwrites.cache.get(guild.everyoneRoleId)?.deny.has('SendMessages'),
    );

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
    expect(
      fake.log.some(
        (l) => l.method === 'PUT' && l.route === '/channels/:channel/messages/pins/:message' && l.status === 204,
      ),
    ).toBe(true);

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
    const posts = fake.log
      .filter((l) => l.method === 'POST' && l.path === `/channels/${channel.id}/messages`)
      .slice(-2);
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
    await expect(fake.slash(alice.id, channel.id, 'mafia', { sub: 'secret' })).rejects.toThrow(
      /no bot gateway session/,
    );

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
      (e.status === 403 && (e.code === 50007 || e.code === 50013)) ||
      (e.code === 50035 && e.route === '/applications/:app/commands');
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

  it("effective permissions as Discord computes them: @everyone's overwrite, the roles' together, the member's last; a time-out; a user posts only with Send Messages", () => {
    const S = Perm.SendMessages;
    const room = fake.addChannel(guild.id, { name: 'order' });
    const muted = fake.addRole(guild.id, { name: 'muted' });
    const speakers = fake.addRole(guild.id, { name: 'speakers' });
    const can = () => (fake.permissionsIn(room.id, bob.id) & S) === S;
    expect(can()).toBe(true); // @everyone may write on a fresh server
    fake.setOverwrite(room.id, { id: guild.everyoneRoleId, type: 0, allow: 0n, deny: S });
    expect(can()).toBe(false);
    // The member's roles' overwrites together: their denies, then their allows (an allow wins).
    fake.setOverwrite(room.id, { id: muted.id, type: 0, allow: 0n, deny: S });
    fake.setOverwrite(room.id, { id: speakers.id, type: 0, allow: S, deny: 0n });
    fake.setMemberRoles(guild.id, bob.id, [speakers.id]);
    expect(can()).toBe(true);
    fake.setMemberRoles(guild.id, bob.id, [speakers.id, muted.id]);
    expect(can()).toBe(true);
    // A mute role alone denies; a member's own allow beats it (which is why the bot never allows).
    fake.setMemberRoles(guild.id, bob.id, [muted.id]);
    expect(can()).toBe(false);
    expect(() => fake.postAsUser(bob.id, room.id, 'hi')).toThrow(/Missing Permissions/);
    fake.setOverwrite(room.id, { id: bob.id, type: 1, allow: S, deny: 0n });
    expect(can()).toBe(true);
    expect(fake.postAsUser(bob.id, room.id, 'hi').content).toBe('hi');
    // A member's own deny beats every allow of his roles.
    fake.setMemberRoles(guild.id, bob.id, [speakers.id]);
    fake.setOverwrite(room.id, { id: bob.id, type: 1, allow: 0n, deny: S });
    expect(can()).toBe(false);
    // A time-out leaves only View Channel and Read Message History, whatever the overwrites say.
    fake.setOverwrite(room.id, { id: bob.id, type: 1, allow: S, deny: 0n });
    fake.setMemberTimeout(guild.id, bob.id, new Date(Date.now() + 60_000).toISOString());
    expect(fake.permissionsIn(room.id, bob.id)).toBe(Perm.ViewChannel | Perm.ReadMessageHistory);
    fake.setMemberTimeout(guild.id, bob.id, new Date(Date.now() - 1000).toISOString());
    expect(can()).toBe(true);
    fake.setMemberRoles(guild.id, bob.id, []);
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
    expect(
      (fake.message(sent[0]!.id) as StoredMessage & { reactions?: { count: number }[] }).reactions?.[0]?.count,
    ).toBe(1);
    await sent[0]!.delete();
    expect(fake.message(sent[0]!.id)).toBeUndefined();
    expect(fake.history(sent[0]!.id).at(-1)?.kind).toBe('delete');
    await ch.bulkDelete([sent[1]!.id, sent[2]!.id]);
    expect(fake.publicMessages(channel.id).filter((m) => m.type === 0)).toEqual([]);
    // a message that doesn't exist
    await expect(ch.messages.fetch({ message: '1234567890123456789', force: true })).rejects.toMatchObject({
      code: 10008,
    });
  });

  it('guild: members, create channel with overwrites, roles, member roles', async () => {
    const g = client.guilds.cache.get(guild.id)!;
    const m = await g.members.fetch({ user: alice.id, force: true });
    expect(m.user.username).toBe('alice');
    const created = await g.channels.create({
      name: 'Night',
      type: ChannelType.GuildText,
      permissionOverwrites: [
        { id: guild.everyoneRoleId, deny: [PermissionFlagsBits.ViewChannel] },
        { id: guild.botRoleId, allow: [PermissionFlagsBits.ViewChannel] },
      ],
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
    await expect(
      g.roles.create({ name: 'Admin', permissions: [PermissionFlagsBits.Administrator] }),
    ).rejects.toMatchObject({ code: 50013 });
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
    fake.resetRateLimits(); // the previous tests used up the channel's message bucket
    const ch = client.channels.cache.get(channel.id) as TextChannel;
    const botErrors: unknown[] = [];
    client.on(Events.InteractionCreate, (i) => {
      void (async () => {
        if (i.isButton() && i.customId === 'slow-update') {
          await i.deferUpdate();
          await i.editReply({ content: 'updated later' });
        } else if (i.isUserSelectMenu()) {
          await i.reply({
            content: `picked ${i.users.map((u) => u.username).join(',')}`,
            flags: MessageFlags.Ephemeral,
          });
        }
      })().catch((e) => botErrors.push(e));
    });
    await ch.send({
      content: 'panel',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('slow-update').setLabel('Go').setStyle(ButtonStyle.Primary),
        ),
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
    await expect(fake.slash(alice.id, channel.id, 'unknown', { timeout: 50 })).rejects.toThrow(
      /did not answer slash \/unknown by alice/,
    );
    expect(fake.unhandled).toEqual([]);
    expect(fake.internalErrors).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------
// Discord's rate limits, enforce_nonce, deletes by users, bulk overwrites, outages
// ------------------------------------------------------------------------------------------------

interface RawReply {
  status: number;
  headers: Headers;
  body: any;
}

/** A bare HTTP request to the fake (no discord.js queue in between). */
async function raw(
  fake: FakeDiscord,
  method: string,
  path: string,
  body?: unknown,
  auth = 'Bot raw-token',
): Promise<RawReply> {
  const res = await fetch(`${fake.apiBase}/v10${path}`, {
    method,
    headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('FakeDiscord: Discord rate limits, enforce_nonce, user deletes, bulk overwrites, outages', () => {
  let fake: FakeDiscord;
  let client: Client;
  let guild: FakeGuildInfo;
  let alice: FakeUserInfo;
  let carol: FakeUserInfo;
  /** the last /ping, once discord.js has marked it replied */
  const saved: { ping?: Promise<ChatInputCommandInteraction> } = {};
  /** the client's copy of a channel the fake just added (once CHANNEL_CREATE has arrived) */
  let cachedChannel: (info: FakeChannelInfo) => Promise<TextChannel>;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ interactionTimeout: 3000 }); // rate limits on: the default
    guild = fake.addGuild({ name: 'Limits' });
    alice = fake.addUser({ username: 'alice', guilds: [guild.id] });
    carol = fake.addUser({ username: 'carol', dmsOpen: false, guilds: [guild.id] });
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      rest: { api: fake.apiBase },
    });
    cachedChannel = async (info) => {
      await until(client, Events.ChannelCreate, () => client.channels.cache.has(info.id));
      return client.channels.cache.get(info.id) as TextChannel;
    };
    client.on(Events.InteractionCreate, (i) => {
      if (i.isChatInputCommand() && i.commandName === 'ping') {
        saved.ping = i.reply('pong').then(() => i);
      }
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login('limits-token');
    await ready;
  });

  afterAll(async () => {
    await client?.destroy();
    await fake?.stop();
  });

  it('is on by default with Discord’s numbers; setRateLimits switches and tunes it at run time', async () => {
    expect(fake.rateLimits).toEqual({
      enabled: true,
      globalPerSecond: 50,
      messageCreate: { limit: 5, windowMs: 5000 },
      messageEdit: { limit: 5, windowMs: 5000 },
    });
    const ch = fake.addChannel(guild.id, { name: 'switch' });
    try {
      fake.setRateLimits(false);
      const free = await Promise.all(
        Array.from({ length: 8 }, (_, i) => raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: `f${i}` })),
      );
      expect(free.map((r) => r.status)).toEqual(new Array(8).fill(200));
      expect(free[0]!.headers.get('x-ratelimit-limit')).toBeNull();

      fake.setRateLimits({ globalPerSecond: 0, messageCreate: { limit: 2, windowMs: 200 }, messageEdit: false });
      expect(fake.rateLimits).toMatchObject({
        enabled: true,
        globalPerSecond: 0,
        messageCreate: { limit: 2, windowMs: 200 },
        messageEdit: null,
      });
      const a = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'a' });
      const b = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'b' });
      const c = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'c' });
      expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
      expect(b.headers.get('x-ratelimit-limit')).toBe('2');
      await sleep(Number(c.headers.get('x-ratelimit-reset-after')) * 1000 + 20);
      expect((await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'd' })).status).toBe(200);
      // no edit bucket now
      const edits = await Promise.all(
        Array.from({ length: 7 }, (_, i) =>
          raw(fake, 'PATCH', `/channels/${ch.id}/messages/${a.body.id}`, { content: `e${i}` }),
        ),
      );
      expect(edits.map((r) => r.status)).toEqual(new Array(7).fill(200));
    } finally {
      fake.setRateLimits(true);
    }
    expect(fake.rateLimits.messageCreate).toEqual({ limit: 5, windowMs: 5000 });

    const off = await FakeDiscord.start({ rateLimits: false });
    try {
      expect(off.rateLimits.enabled).toBe(false);
    } finally {
      await off.stop();
    }
  });

  it('per channel: 5 creates per 5 s with Discord’s headers, then a per-route 429; edits are a bucket of their own', async () => {
    const ch = fake.addChannel(guild.id, { name: 'headers' });
    const other = fake.addChannel(guild.id, { name: 'other' });
    fake.resetStats();
    const creates: RawReply[] = [];
    for (let i = 1; i <= 5; i++)
      creates.push(await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: `m${i}` }));
    expect(creates.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(creates.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    const h = creates[0]!.headers;
    expect(h.get('x-ratelimit-limit')).toBe('5');
    expect(Number(h.get('x-ratelimit-reset-after'))).toBeGreaterThan(4.9);
    expect(Number(h.get('x-ratelimit-reset-after'))).toBeLessThanOrEqual(5);
    expect(h.get('x-ratelimit-reset-after')).toMatch(/^\d+\.\d{3}$/);
    expect(Math.abs(Number(h.get('x-ratelimit-reset')) - (Date.now() / 1000 + 5))).toBeLessThan(0.5);
    const createBucket = h.get('x-ratelimit-bucket')!;
    expect(createBucket).toMatch(/^[0-9a-f]{32}$/);
    // the window is fixed: the reset time does not move with later requests
    expect(creates[4]!.headers.get('x-ratelimit-reset')).toBe(h.get('x-ratelimit-reset'));

    const limited = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'm6' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: false,
    });
    expect(limited.body.retry_after).toBeGreaterThan(4);
    expect(limited.body.retry_after).toBeLessThanOrEqual(5);
    expect(limited.headers.get('retry-after')).toBe(String(Math.ceil(limited.body.retry_after)));
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.get('x-ratelimit-global')).toBeNull();
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-bucket')).toBe(createBucket);
    expect(fake.publicMessages(ch.id).map((m) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(fake.log.at(-1)).toMatchObject({ status: 429, rateLimit: 'user', route: '/channels/:channel/messages' });

    // another channel, another bucket (same hash); errors on a limited route carry the headers too
    const elsewhere = await raw(fake, 'POST', `/channels/${other.id}/messages`, { content: '' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(elsewhere.headers.get('x-ratelimit-bucket')).toBe(createBucket);
    // another bot token, its own buckets
    expect(
      (await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'other bot' }, 'Bot other-token')).status,
    ).toBe(200);

    // edits: a separate 5-per-5-s bucket, per channel
    const id = creates[0]!.body.id as string;
    const edits: RawReply[] = [];
    for (let i = 1; i <= 6; i++)
      edits.push(await raw(fake, 'PATCH', `/channels/${ch.id}/messages/${id}`, { content: `v${i}` }));
    expect(edits.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(edits.slice(0, 5).map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect(edits[0]!.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(edits[0]!.headers.get('x-ratelimit-bucket')).not.toBe(createBucket);
    expect(edits[5]!.body.global).toBe(false);
    expect(fake.message(id)?.content).toBe('v5');

    const st = fake.stats;
    expect(st.byRoute['POST /channels/:id/messages']).toBe(8);
    expect(st.byRoute['PATCH /channels/:id/messages/:id']).toBe(6);
    expect(st.total).toBe(14);
    expect(st.globalCounted).toBe(14);
    expect(st.rateLimited429).toBe(2);
    expect(st.rateLimitedGlobal).toBe(0);
    expect(st.rateLimitedByRoute).toEqual({ 'POST /channels/:id/messages': 1, 'PATCH /channels/:id/messages/:id': 1 });
    expect(st.rateLimitedByScope).toEqual({ global: 0, user: 2, shared: 0 });
  });

  it('a real REST client sending 12 messages at once to one channel: all arrive, never more than 5 in 5 s, no 429', async () => {
    const ch = fake.addChannel(guild.id, { name: 'burst' });
    const rest = new REST({ api: fake.apiBase }).setToken('burst-token');
    fake.resetStats();
    const t0 = Date.now();
    const sent = (await Promise.all(
      Array.from({ length: 12 }, (_, i) => rest.post(Routes.channelMessages(ch.id), { body: { content: `n${i}` } })),
    )) as { id: string; content: string }[];
    const elapsed = Date.now() - t0;
    const expected = Array.from({ length: 12 }, (_, i) => `n${i}`);
    expect(sent.map((m) => m.content)).toEqual(expected);
    expect(fake.publicMessages(ch.id).map((m) => m.content)).toEqual(expected);
    const accepted = fake.log
      .filter((l) => l.method === 'POST' && l.path === `/channels/${ch.id}/messages` && l.status === 200)
      .map((l) => l.at)
      .sort((a, b) => a - b);
    expect(accepted).toHaveLength(12);
    // no more than 5 in any 5 s window: the 6th after any request is at least 5 s later
    for (let i = 0; i + 5 < accepted.length; i++) expect(accepted[i + 5]! - accepted[i]!).toBeGreaterThanOrEqual(5000);
    expect(elapsed).toBeGreaterThanOrEqual(10_000); // 5 + 5 + 2: discord.js waited out the bucket twice
    expect(fake.stats.rateLimited429).toBe(0); // ... by reading the headers, without ever being refused
    expect(fake.stats.byRoute['POST /channels/:id/messages']).toBe(12);
  }, 20_000);

  it('global: 50 requests per second per token, a global 429; interaction routes are exempt; discord.js waits', async () => {
    fake.resetStats();
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => raw(fake, 'GET', '/users/@me', undefined, 'Bot global-a')),
    );
    const ok = burst.filter((r) => r.status === 200);
    const refused = burst.filter((r) => r.status === 429);
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(10);
    const g = refused[0]!;
    expect(g.body).toEqual({ message: 'You are being rate limited.', retry_after: expect.any(Number), global: true });
    expect(g.body.retry_after).toBeGreaterThan(0);
    expect(g.body.retry_after).toBeLessThanOrEqual(1);
    expect(g.headers.get('x-ratelimit-global')).toBe('true');
    expect(g.headers.get('x-ratelimit-scope')).toBe('global');
    expect(g.headers.get('retry-after')).toBe('1');
    expect(fake.stats.rateLimitedGlobal).toBe(10);
    expect(fake.stats.rateLimitedByScope).toEqual({ global: 10, user: 0, shared: 0 });
    expect(fake.errors.at(-1)).toMatchObject({ status: 429, rateLimit: 'global' });

    // still within that second: another token is not limited, nor are the interaction routes
    expect((await raw(fake, 'GET', '/users/@me', undefined, 'Bot global-b')).status).toBe(200);
    const cb = await raw(
      fake,
      'POST',
      '/interactions/123456789012345678/bad-token/callback',
      { type: 4, data: { content: 'x' } },
      'Bot global-a',
    );
    expect(cb.status).toBe(404);
    expect(cb.body.code).toBe(10062);
    const wh = await raw(
      fake,
      'PATCH',
      `/webhooks/${fake.applicationId}/bad-token/messages/@original`,
      { content: 'x' },
      'Bot global-a',
    );
    expect(wh.status).not.toBe(429);
    const st = fake.stats;
    expect(st.byRoute['POST /interactions/:id/:token/callback']).toBe(1);
    expect(st.byRoute['PATCH /webhooks/:id/:token/messages/:id']).toBe(1);
    expect(st.globalCounted).toBe(61); // the two interaction routes are not counted
    expect(st.peakGlobalPerSecond).toBeGreaterThanOrEqual(51);

    // a REST client that believes in 1000/s (like the e2e bot) is refused, waits Retry-After and gets everything through
    const greedy = new REST({ api: fake.apiBase, globalRequestsPerSecond: 1000 }).setToken('global-c');
    fake.resetStats();
    let t0 = Date.now();
    const all = await Promise.all(Array.from({ length: 60 }, () => greedy.get(Routes.user('@me'))));
    expect(all).toHaveLength(60);
    expect(fake.stats.rateLimitedGlobal).toBeGreaterThanOrEqual(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);

    // with discord.js's default of 50/s it paces itself and is never refused
    const polite = new REST({ api: fake.apiBase }).setToken('global-d');
    fake.resetStats();
    t0 = Date.now();
    await Promise.all(Array.from({ length: 60 }, () => polite.get(Routes.user('@me'))));
    expect(fake.stats.rateLimited429).toBe(0);
    expect(fake.stats.globalCounted).toBe(60);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);

    // a real interaction through the gateway: counted by route, not against the global limit
    fake.resetStats();
    const r = await fake.slash(alice.id, fake.addChannel(guild.id, { name: 'ping' }).id, 'ping');
    expect(r.content).toBe('pong');
    expect(fake.stats.byRoute).toEqual({ 'POST /interactions/:id/:token/callback': 1 });
    expect(fake.stats.globalCounted).toBe(0);
  });

  it('injected 429s carry the scope asked for and are counted by scope, apart from the limiter’s own', async () => {
    const ch = fake.addChannel(guild.id, { name: 'scopes' });
    fake.resetStats();
    fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 429, scope: 'shared', retryAfter: 0.2 });
    fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 429, scope: 'global', retryAfter: 0.2 });
    fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 429 });
    const shared = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'a' });
    expect(shared.status).toBe(429);
    expect(shared.headers.get('x-ratelimit-scope')).toBe('shared');
    expect(shared.headers.get('x-ratelimit-global')).toBeNull();
    expect(shared.body.global).toBe(false);
    const global = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'b' });
    expect(global.headers.get('x-ratelimit-scope')).toBe('global');
    expect(global.headers.get('x-ratelimit-global')).toBe('true');
    expect(global.body.global).toBe(true);
    const user = await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'c' });
    expect(user.headers.get('x-ratelimit-scope')).toBe('user');
    expect((await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'd' })).status).toBe(200);
    expect(
      fake.log
        .filter((l) => l.path === `/channels/${ch.id}/messages`)
        .map((l) => [l.status, l.rateLimit ?? null, l.injected ?? false]),
    ).toEqual([
      [429, 'shared', true],
      [429, 'global', true],
      [429, 'user', true],
      [200, null, false],
    ]);
    const st = fake.stats;
    expect(st.rateLimited429).toBe(3);
    expect(st.rateLimitedByScope).toEqual({ global: 1, user: 1, shared: 1 });
    // the limiter's own counters stay the limiter's
    expect(st.rateLimitedGlobal).toBe(0);
    expect(st.rateLimitedByRoute).toEqual({});
  });

  it('enforce_nonce: the same nonce from the same author in the same channel returns the first message', async () => {
    fake.setRateLimits({ messageCreate: { limit: 100, windowMs: 5000 } }); // many creates here; not what this test is about
    try {
      const chA = fake.addChannel(guild.id, { name: 'nonce-a' });
      const chB = fake.addChannel(guild.id, { name: 'nonce-b' });
      fake.resetStats();
      // through discord.js: channel.send({ nonce, enforceNonce })
      const cached = await cachedChannel(chA);
      const m1 = await cached.send({ content: 'your role', nonce: 'card-1', enforceNonce: true });
      const m2 = await cached.send({ content: 'your role (retry)', nonce: 'card-1', enforceNonce: true });
      expect(m2.id).toBe(m1.id);
      expect(m2.content).toBe('your role');
      expect(fake.publicMessages(chA.id).map((m) => m.content)).toEqual(['your role']);
      expect(fake.message(m1.id)?.nonce).toBe('card-1');
      expect(fake.stats.nonceHits).toBe(1);

      const rest = new REST({ api: fake.apiBase }).setToken('nonce-token');
      const post = (ch: string, body: Record<string, unknown>) =>
        rest.post(Routes.channelMessages(ch), { body }) as Promise<{ id: string }>;
      // an integer nonce works the same way; the same nonce in another channel is another message
      const i1 = await post(chA.id, { content: 'int', nonce: 123456789, enforce_nonce: true });
      const i2 = await post(chA.id, { content: 'int again', nonce: 123456789, enforce_nonce: true });
      expect(i2.id).toBe(i1.id);
      const elsewhere = await post(chB.id, { content: 'elsewhere', nonce: 'card-1', enforce_nonce: true });
      expect(elsewhere.id).not.toBe(m1.id);
      // without enforce_nonce Discord creates duplicates
      const d1 = await post(chB.id, { content: 'dup', nonce: 'dup-1' });
      const d2 = await post(chB.id, { content: 'dup', nonce: 'dup-1' });
      expect(d2.id).not.toBe(d1.id);
      expect(fake.publicMessages(chB.id).filter((m) => m.content === 'dup')).toHaveLength(2);

      // more than 25 characters: 400 Invalid Form Body on `nonce`, with or without enforce_nonce
      await expect(post(chB.id, { content: 'long', nonce: 'x'.repeat(26), enforce_nonce: true })).rejects.toMatchObject(
        {
          status: 400,
          code: 50035,
          rawError: { errors: { nonce: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } },
        },
      );
      await expect(post(chB.id, { content: 'long', nonce: 'y'.repeat(26) })).rejects.toMatchObject({
        status: 400,
        code: 50035,
      });
      expect((await post(chB.id, { content: 'ok', nonce: 'z'.repeat(25), enforce_nonce: true })).id).toMatch(/^\d+$/);

      // the first message was deleted: a new one is created
      fake.deleteMessage(chA.id, i1.id);
      const i3 = await post(chA.id, { content: 'int third', nonce: 123456789, enforce_nonce: true });
      expect(i3.id).not.toBe(i1.id);

      // the nonce is only remembered for the window (5 min by default; here 2 s: wide enough that
      // the second post lands inside it on a loaded machine, so the test does not hang on speed)
      fake.setEnforceNonce(true, 2000);
      const w1 = await post(chB.id, { content: 'w', nonce: 'win', enforce_nonce: true });
      expect((await post(chB.id, { content: 'w', nonce: 'win', enforce_nonce: true })).id).toBe(w1.id);
      await sleep(2100);
      expect((await post(chB.id, { content: 'w', nonce: 'win', enforce_nonce: true })).id).not.toBe(w1.id);
      // switched off: duplicates even with enforce_nonce
      fake.setEnforceNonce(false);
      const o1 = await post(chB.id, { content: 'o', nonce: 'off', enforce_nonce: true });
      expect((await post(chB.id, { content: 'o', nonce: 'off', enforce_nonce: true })).id).not.toBe(o1.id);
    } finally {
      fake.setEnforceNonce(true, 5 * 60_000);
      fake.setRateLimits(true);
    }
  });

  it('deleteMessage as a moderator: MESSAGE_DELETE to the bot, pins gone, later edits 404 Unknown Message', async () => {
    const chInfo = fake.addChannel(guild.id, { name: 'modded' });
    const ch = await cachedChannel(chInfo);
    const m = await ch.send('Rules');
    await m.pin();
    expect((await ch.messages.fetchPins()).items.map((p) => p.message.id)).toEqual([m.id]);

    const gone = new Promise<string>((resolve) => client.once(Events.MessageDelete, (x) => resolve(x.id)));
    fake.deleteMessage(chInfo.id, m.id);
    expect(await gone).toBe(m.id); // the client has the GuildMessages intent
    expect(fake.message(m.id)).toBeUndefined();
    expect(fake.history(m.id).at(-1)?.kind).toBe('delete');
    expect((await ch.messages.fetchPins()).items).toEqual([]);
    await expect(m.edit('Rules v2')).rejects.toMatchObject({ status: 404, code: 10008 });
    await expect(ch.messages.fetch({ message: m.id, force: true })).rejects.toMatchObject({ status: 404, code: 10008 });
    await expect(m.pin()).rejects.toMatchObject({ status: 404, code: 10008 });
    await expect(m.delete()).rejects.toMatchObject({ status: 404, code: 10008 });
    expect(() => fake.deleteMessage(chInfo.id, m.id)).toThrow(/no message/);

    // the reply to an interaction deleted by a moderator: editReply gets 10008 too
    const r = await fake.slash(alice.id, chInfo.id, 'ping');
    fake.deleteMessage(chInfo.id, r.message!.id);
    const ping = await saved.ping!;
    await expect(ping.editReply('pong v2')).rejects.toMatchObject({ status: 404, code: 10008 });

    // a DM, by 'dm:<userId>'
    const dm = await client.users.send(alice.id, 'psst');
    fake.deleteMessage(`dm:${alice.id}`, dm.id);
    expect(fake.dms(alice.id).map((x) => x.id)).not.toContain(dm.id);
  });

  it('PATCH /channels/:id with permission_overwrites replaces them all in one call (Manage Roles, only what the bot has)', async () => {
    const S = PermissionFlagsBits;
    const category = fake.addChannel(guild.id, {
      name: 'Game',
      type: ChannelType.GuildCategory,
      overwrites: [{ id: guild.botRoleId, type: 0, allow: S.MentionEveryone, deny: 0n }],
    });
    const night = fake.addChannel(guild.id, {
      name: 'night',
      parentId: category.id,
      overwrites: [
        { id: alice.id, type: 1, allow: 0n, deny: S.SendMessages },
        { id: carol.id, type: 1, allow: S.ViewChannel, deny: 0n },
      ],
    });
    const loose = fake.addChannel(guild.id, { name: 'loose' });
    const ch = await cachedChannel(night);
    const looseCh = await cachedChannel(loose);
    const synced = until(
      client,
      Events.ChannelUpdate,
      () => ch.permissionOverwrites.cache.size === 2 && ch.permissionOverwrites.cache.has(guild.everyoneRoleId),
    );
    fake.clearLog();
    await ch.permissionOverwrites.set([
      { id: guild.everyoneRoleId, deny: [S.SendMessages] },
      // MentionEveryone: the bot lacks it in the guild but has it in the parent category
      { id: guild.botRoleId, allow: [S.ViewChannel, S.SendMessages, S.MentionEveryone] },
    ]);
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    const want = [
      { id: guild.everyoneRoleId, type: 0, allow: 0n, deny: S.SendMessages },
      { id: guild.botRoleId, type: 0, allow: S.ViewChannel | S.SendMessages | S.MentionEveryone, deny: 0n },
    ].sort(byId);
    expect(fake.overwrites(night.id).sort(byId)).toEqual(want);
    expect(fake.log.filter((l) => l.path === `/channels/${night.id}`).map((l) => `${l.method} ${l.status}`)).toEqual([
      'PATCH 200',
    ]);
    await synced; // CHANNEL_UPDATE reached the client
    expect(ch.permissionOverwrites.cache.has(alice.id)).toBe(false);

    // a permission the bot has neither in the guild nor in the parent: 403, nothing changes
    await expect(
      ch.permissionOverwrites.set([{ id: alice.id, type: 1, allow: [S.ManageGuild] }]),
    ).rejects.toMatchObject({ status: 403, code: 50013 });
    await expect(
      looseCh.permissionOverwrites.set([{ id: guild.everyoneRoleId, allow: [S.MentionEveryone] }]),
    ).rejects.toMatchObject({ status: 403, code: 50013 });
    expect(fake.overwrites(night.id).sort(byId)).toEqual(want);

    // per-overwrite PUT (type required), as the bot does for players
    await ch.permissionOverwrites.edit(alice.id, { SendMessages: true });
    expect(fake.overwrites(night.id).find((o) => o.id === alice.id)).toEqual({
      id: alice.id,
      type: 1,
      allow: S.SendMessages,
      deny: 0n,
    });
    const rest = new REST({ api: fake.apiBase }).setToken('ow-token');
    await expect(
      rest.put(Routes.channelPermission(night.id, carol.id), { body: { allow: '0', deny: '2048' } }),
    ).rejects.toMatchObject({ status: 400, code: 50035 });

    // without Manage Roles: 403 for the bulk PATCH and the PUT
    fake.setBotPermissions(guild.id, DEFAULT_BOT_PERMISSIONS & ~S.ManageRoles);
    try {
      await expect(ch.permissionOverwrites.set([])).rejects.toMatchObject({ status: 403, code: 50013 });
      await expect(ch.permissionOverwrites.edit(carol.id, { SendMessages: false })).rejects.toMatchObject({
        status: 403,
        code: 50013,
      });
      expect(fake.overwrites(night.id)).toHaveLength(3);
    } finally {
      fake.setBotPermissions(guild.id, DEFAULT_BOT_PERMISSIONS);
    }
  });

  it('failFor: an outage on one route for a while; 403 50007 for DMs to closed DMs and to strangers', async () => {
    const ch = fake.addChannel(guild.id, { name: 'outage' });
    const rest = new REST({ api: fake.apiBase }).setToken('outage-token');
    fake.clearLog();
    const end = fake.failFor({ method: 'POST', route: '/channels/:id/messages', status: 500, ms: 60_000 });
    await expect(rest.post(Routes.channelMessages(ch.id), { body: { content: 'x' } })).rejects.toMatchObject({
      status: 500,
    });
    await expect(rest.post(Routes.channelMessages(ch.id), { body: { content: 'y' } })).rejects.toMatchObject({
      status: 500,
    });
    const posts = fake.log.filter((l) => l.path === `/channels/${ch.id}/messages`);
    expect(posts.map((l) => [l.status, l.injected])).toEqual(new Array(8).fill([500, true])); // 2 × (1 try + 3 retries)
    expect((await rest.get(Routes.channel(ch.id))) as { id: string }).toMatchObject({ id: ch.id }); // other routes work
    end();
    expect(
      ((await rest.post(Routes.channelMessages(ch.id), { body: { content: 'back' } })) as { content: string }).content,
    ).toBe('back');

    // the outage ends by itself
    fake.failFor({ route: /\/channels\/\d+\/messages$/, status: 503, ms: 100 });
    expect((await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'z' })).status).toBe(503);
    await sleep(120);
    expect((await raw(fake, 'POST', `/channels/${ch.id}/messages`, { content: 'z' })).status).toBe(200);
    // injected failures did not use up the bucket: 2 real creates so far
    expect(fake.log.filter((l) => l.path === `/channels/${ch.id}/messages`).at(-1)?.status).toBe(200);

    // DMs: the DM channel opens, the message is refused
    const dm = (await rest.post(Routes.userChannels(), { body: { recipient_id: carol.id } })) as { id: string };
    expect(dm.id).toBe(fake.dmChannelId(carol.id));
    await expect(rest.post(Routes.channelMessages(dm.id), { body: { content: 'your role' } })).rejects.toMatchObject({
      status: 403,
      code: 50007,
      message: 'Cannot send messages to this user',
    });
    const stranger = fake.addUser({ username: 'stranger' }); // shares no server with the bot
    const sdm = (await rest.post(Routes.userChannels(), { body: { recipient_id: stranger.id } })) as { id: string };
    await expect(rest.post(Routes.channelMessages(sdm.id), { body: { content: 'hi' } })).rejects.toMatchObject({
      status: 403,
      code: 50007,
    });
    const adm = (await rest.post(Routes.userChannels(), { body: { recipient_id: alice.id } })) as { id: string };
    expect(
      ((await rest.post(Routes.channelMessages(adm.id), { body: { content: 'hi' } })) as { content: string }).content,
    ).toBe('hi');
  });

  it('recorded nothing unexpected', () => {
    expect(fake.unhandled).toEqual([]);
    expect(fake.internalErrors).toEqual([]);
  });
});
