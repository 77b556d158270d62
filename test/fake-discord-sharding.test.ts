/**
 * The fake Discord shards as Discord does (testkit/fake-discord/gateway.ts): GET /gateway/bot
 * recommends ceil(guilds / guildsPerShard) shards with a faithful session_start_limit; IDENTIFY
 * with [shard_id, shard_count] is checked (4010 Invalid shard, 4011 Sharding required, op 9 for
 * max_concurrency, 4004 past the session start limit); each guild's events reach only the shard
 * that owns it ((guild_id >> 22) % shard_count) and DMs only shard 0. Against the real discord.js
 * Client (bare clients, not the project's bot) and, for the refusals, a raw WebSocket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  Client,
  Events,
  GatewayIntentBits,
  REST,
  Routes,
  SlashCommandBuilder,
  type ClientOptions,
  type GatewayDispatchPayload,
} from 'discord.js';
import { FakeDiscord, shardOf, snowflakeOnShard, type FakeGuildInfo } from '../testkit/fake-discord.js';

const intents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages];

interface Seen {
  t: string;
  guildId: string | null;
  shard: number;
}

/** A bare discord.js client that answers /ping with its shard id and records every dispatch with its shard. */
function makeClient(fake: FakeDiscord, opts: Partial<ClientOptions> = {}): { client: Client; seen: Seen[] } {
  const client = new Client({ intents, rest: { api: fake.apiBase }, ...opts });
  const seen: Seen[] = [];
  client.on(Events.Raw, (p: GatewayDispatchPayload, shard: number) => {
    const d = p.d as { guild_id?: string; id?: string } | null;
    const guildId = p.t === 'GUILD_CREATE' || p.t === 'GUILD_DELETE' ? (d?.id ?? null) : (d?.guild_id ?? null);
    seen.push({ t: p.t, guildId, shard });
  });
  client.on(Events.InteractionCreate, (i) => {
    if (i.isChatInputCommand()) void i.reply(`pong from shard ${i.guild?.shardId ?? client.ws.shards.first()!.id}`);
  });
  return { client, seen };
}

/** The id of the next channel the client learns of (CHANNEL_CREATE). */
function nextChannelCreate(client: Client): Promise<string> {
  return new Promise((resolve) => client.once(Events.ChannelCreate, (ch) => resolve(ch.id)));
}

async function login(client: Client): Promise<void> {
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login('any-token');
  await ready;
}

async function registerPing(fake: FakeDiscord): Promise<void> {
  const rest = new REST({ api: fake.apiBase }).setToken('any-token');
  const ping = new SlashCommandBuilder().setName('ping').setDescription('Ping').setContexts(0, 1, 2);
  await rest.put(Routes.applicationCommands(fake.applicationId), { body: [ping.toJSON()] });
}

type RawOutcome = { ready: { guilds: { id: string }[]; shard: [number, number] } } | { op9: true } | { close: number };

/** IDENTIFY over a raw WebSocket and report what the gateway answered first. */
function rawIdentify(fake: FakeDiscord, shard?: unknown): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(fake.gatewayUrl);
    ws.on('error', reject);
    ws.on('close', (code) => resolve({ close: code }));
    ws.on('message', (raw) => {
      const p = JSON.parse(String(raw)) as { op: number; t?: string; d: never };
      if (p.op === 10) {
        const d: Record<string, unknown> = { token: 'any-token', intents: 1, properties: {} };
        if (shard !== undefined) d.shard = shard;
        ws.send(JSON.stringify({ op: 2, d }));
      } else if (p.op === 9) {
        resolve({ op9: true });
        ws.close(1000);
      } else if (p.op === 0 && p.t === 'READY') {
        resolve({ ready: p.d });
        ws.close(1000);
      }
    });
  });
}

async function gatewayBot(fake: FakeDiscord): Promise<{
  shards: number;
  session_start_limit: { total: number; remaining: number; reset_after: number; max_concurrency: number };
}> {
  const res = await fetch(`${fake.apiBase}/v10/gateway/bot`, { headers: { authorization: 'Bot any-token' } });
  return (await res.json()) as never;
}

let fake: FakeDiscord | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
  await fake?.stop();
  fake = undefined;
});

describe('snowflakes on chosen shards', () => {
  it('addGuild({ shard }) and snowflakeOnShard give ids that the chosen shard owns', async () => {
    fake = await FakeDiscord.start();
    const made: FakeGuildInfo[] = [];
    for (const [id, count] of [
      [0, 2],
      [1, 2],
      [1, 2],
      [2, 3],
      [0, 1],
      [6, 7],
    ] as const) {
      const g = fake.addGuild({ name: `g${id}/${count}`, shard: [id, count] });
      expect(shardOf(g.id, count)).toBe(id);
      expect((BigInt(g.id) >> 22n) % BigInt(count)).toBe(BigInt(id));
      made.push(g);
    }
    // still strictly increasing, real-looking snowflakes
    for (let i = 1; i < made.length; i++) expect(BigInt(made[i]!.id) > BigInt(made[i - 1]!.id)).toBe(true);
    expect(made.every((g) => /^\d{17,19}$/.test(g.id))).toBe(true);
    expect(shardOf(snowflakeOnShard(3, 5), 5)).toBe(3);
    expect(shardOf(null, 4)).toBe(0); // DMs: shard 0
    expect(() => snowflakeOnShard(2, 2)).toThrow(/invalid shard/);
  });
});

describe('GET /gateway/bot', () => {
  it('recommends ceil(guilds / guildsPerShard) shards and counts session starts down', async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 2, sessionStartLimit: 10, maxConcurrency: 2 });
    let info = await gatewayBot(fake);
    expect(info.shards).toBe(1); // no guilds: still one
    expect(info.session_start_limit).toMatchObject({ total: 10, remaining: 10, max_concurrency: 2 });
    expect(info.session_start_limit.reset_after).toBeGreaterThan(23 * 3600_000);
    // ids made in the same millisecond share their shard, so place them (2, 2, 1 over 3 shards)
    for (let i = 0; i < 5; i++) fake.addGuild({ name: `g${i}`, shard: [i % 3, 3] });
    info = await gatewayBot(fake);
    expect(info.shards).toBe(3);
    fake.removeBot(fake.addGuild({ name: 'left' }).id); // a guild the bot left does not count
    expect((await gatewayBot(fake)).shards).toBe(3);
    expect(await rawIdentify(fake, [1, 3])).toMatchObject({ ready: { shard: [1, 3] } });
    expect((await gatewayBot(fake)).session_start_limit.remaining).toBe(9);
    expect(fake.gatewayBot.session_start_limit.remaining).toBe(9);
  });

  it('the default is one shard and Discord limits (2500 guilds per shard, 1000 starts, concurrency 1)', async () => {
    fake = await FakeDiscord.start();
    fake.addGuild({ name: 'one' });
    const info = await gatewayBot(fake);
    expect(info.shards).toBe(1);
    expect(info.session_start_limit).toMatchObject({ total: 1000, remaining: 1000, max_concurrency: 1 });
    expect(await rawIdentify(fake)).toMatchObject({ ready: { shard: [0, 1] } });
  });
});

describe('IDENTIFY is checked as Discord checks it (raw WebSocket)', () => {
  it('4010 for a shard outside the count, 4011 for a session that would hold too many guilds', async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 1 });
    const a = fake.addGuild({ name: 'A', shard: [0, 2] });
    const b = fake.addGuild({ name: 'B', shard: [0, 2] });
    for (const bad of [
      [2, 2],
      [-1, 2],
      [0, 0],
      [0.5, 2],
      ['x', 2],
    ])
      expect(await rawIdentify(fake, bad)).toEqual({ close: 4010 });
    expect(await rawIdentify(fake)).toEqual({ close: 4011 }); // no shard = [0, 1]: both guilds
    expect(await rawIdentify(fake, [0, 2])).toEqual({ close: 4011 }); // both guilds land on shard 0
    // shard 1 of 2 holds none of them: allowed (Discord checks the session's own share)
    expect(await rawIdentify(fake, [1, 2])).toEqual({ ready: expect.objectContaining({ guilds: [] }) });
    // once the bot has left one of them, shard 0 of 2 holds one guild: allowed
    fake.removeBot(b.id);
    const r = await rawIdentify(fake, [0, 2]);
    expect(r).toMatchObject({ ready: { shard: [0, 2] } });
    if ('ready' in r) expect(r.ready.guilds).toEqual([{ id: a.id, unavailable: true }]);
    expect(fake.identifies.map((i) => i.outcome)).toEqual([4010, 4010, 4010, 4010, 4010, 4011, 4011, 'ready', 'ready']);
    expect(fake.gatewayClosures.filter((c) => c.code >= 4010).map((c) => [c.code, c.shard])).toEqual([
      [4010, [2, 2]],
      [4010, [-1, 2]],
      [4010, [0, 0]],
      [4010, [0.5, 2]],
      [4010, [NaN, 2]],
      [4011, [0, 1]],
      [4011, [0, 2]],
    ]);
    expect(fake.stats.identifies).toBe(2); // only the sessions that started
  });

  it('max_concurrency: a second IDENTIFY of one bucket within the interval gets op 9; another bucket does not', async () => {
    fake = await FakeDiscord.start({ maxConcurrency: 2, identifyIntervalMs: 60_000 });
    expect(await rawIdentify(fake, [0, 4])).toMatchObject({ ready: {} });
    expect(await rawIdentify(fake, [1, 4])).toMatchObject({ ready: {} }); // bucket 1
    expect(await rawIdentify(fake, [2, 4])).toEqual({ op9: true }); // bucket 0 again, too soon
    expect(fake.identifies.map((i) => i.outcome)).toEqual(['ready', 'ready', 'invalid-session']);
    expect(fake.gatewayBot.session_start_limit.remaining).toBe(998); // op 9 started no session
  });

  it('past the session start limit IDENTIFY is closed with 4004, and discord.js refuses to log in', async () => {
    fake = await FakeDiscord.start({ sessionStartLimit: 1 });
    fake.addGuild({ name: 'A' });
    expect(await rawIdentify(fake)).toMatchObject({ ready: {} });
    expect(fake.gatewayBot.session_start_limit.remaining).toBe(0);
    expect(await rawIdentify(fake)).toEqual({ close: 4004 });
    const { client } = makeClient(fake);
    clients.push(client);
    await expect(client.login('any-token')).rejects.toThrow(/Not enough sessions remaining/);
  });
});

describe('the real discord.js Client against a sharded fake', () => {
  it("shards: 'auto' gets the recommended 2 shards and each guild arrives on its own shard", async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 1, maxConcurrency: 2, identifyIntervalMs: 5000 });
    const g0 = fake.addGuild({ name: 'Zero', shard: [0, 2] });
    const g1 = fake.addGuild({ name: 'One', shard: [1, 2] });
    const { client, seen } = makeClient(fake, { shards: 'auto' });
    clients.push(client);
    await login(client);
    expect(client.options.shardCount).toBe(2);
    expect([...client.ws.shards.keys()].sort()).toEqual([0, 1]);
    expect(client.guilds.cache.get(g0.id)?.shardId).toBe(0);
    expect(client.guilds.cache.get(g1.id)?.shardId).toBe(1);
    const creates = seen.filter((s) => s.t === 'GUILD_CREATE').map((s) => [s.guildId, s.shard]);
    expect(creates.sort()).toEqual(
      [
        [g0.id, 0],
        [g1.id, 1],
      ].sort(),
    );
    const sessions = fake.gatewaySessions().sort((a, b) => a.shard[0] - b.shard[0]);
    expect(sessions.map((s) => [s.shard, s.connected, s.guildIds])).toEqual([
      [[0, 2], true, [g0.id]],
      [[1, 2], true, [g1.id]],
    ]);
    expect(fake.identifies.map((i) => i.outcome)).toEqual(['ready', 'ready']);
    expect(fake.gatewayBot.session_start_limit.remaining).toBe(998);

    // a guild's later events go to its shard only
    const created = nextChannelCreate(client);
    const c1 = fake.addChannel(g1.id, { name: 'late' });
    expect(await created).toBe(c1.id);
    expect(seen.filter((s) => s.t === 'CHANNEL_CREATE').map((s) => [s.guildId, s.shard])).toEqual([[g1.id, 1]]);
  });

  it('with max_concurrency 1 and the 5 s rule enforced, discord.js waits between its shards: no op 9', async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 1, identifyIntervalMs: 5000 });
    fake.addGuild({ name: 'Zero', shard: [0, 2] });
    fake.addGuild({ name: 'One', shard: [1, 2] });
    const { client } = makeClient(fake, { shards: 'auto' });
    clients.push(client);
    await login(client);
    const ids = fake.identifies;
    expect(ids.map((i) => i.outcome)).toEqual(['ready', 'ready']);
    expect(ids[1]!.at - ids[0]!.at).toBeGreaterThanOrEqual(5000);
  }, 20_000);

  it('a client of shard 0 of 2 gets only its guilds; the other guild is served by shard 1; DMs only by shard 0', async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 1, maxConcurrency: 2 });
    const g0 = fake.addGuild({ name: 'Zero', shard: [0, 2] });
    const g1 = fake.addGuild({ name: 'One', shard: [1, 2] });
    const ch0 = fake.addChannel(g0.id, { name: 'table' });
    const ch1 = fake.addChannel(g1.id, { name: 'table' });
    const alice = fake.addUser({ username: 'alice', guilds: [g0.id, g1.id] });
    await registerPing(fake);

    const a = makeClient(fake, { shards: [0], shardCount: 2 });
    clients.push(a.client);
    await login(a.client);
    expect([...a.client.guilds.cache.keys()]).toEqual([g0.id]);
    const ready = a.seen.find((s) => s.t === 'READY');
    expect(ready?.shard).toBe(0);

    // no session holds shard 1 yet: the interaction in guild One reaches nobody
    await expect(fake.slash(alice.id, ch1.id, 'ping')).rejects.toThrow(/no bot gateway session/);
    expect((await fake.slash(alice.id, ch0.id, 'ping')).content).toBe('pong from shard 0');

    const b = makeClient(fake, { shards: [1], shardCount: 2 });
    clients.push(b.client);
    await login(b.client);
    expect([...b.client.guilds.cache.keys()]).toEqual([g1.id]);
    expect((await fake.slash(alice.id, ch1.id, 'ping')).content).toBe('pong from shard 1');
    expect((await fake.slash(alice.id, ch0.id, 'ping')).content).toBe('pong from shard 0');

    // messages, members, roles, channels of a guild: its shard only
    fake.postAsUser(alice.id, ch1.id, 'in One');
    fake.postAsUser(alice.id, ch0.id, 'in Zero');
    const bob = fake.addUser({ username: 'bob', guilds: [g1.id] });
    const host = fake.addRole(g1.id, { name: 'Host' });
    fake.setMemberRoles(g1.id, bob.id, [host.id]);
    // a DM (no guild) goes to shard 0 only, and a slash command in a DM is answered by shard 0
    fake.postAsUser(alice.id, 'dm', 'hello bot');
    expect((await fake.slash(alice.id, 'dm', 'ping')).content).toBe('pong from shard 0');
    // the events above were sent in order on each socket: once shard 1 has the marker, it has them all
    const marked = nextChannelCreate(b.client);
    const last = fake.addChannel(g1.id, { name: 'marker' });
    expect(await marked).toBe(last.id);

    const of = (seen: Seen[]) => seen.filter((s) => s.t !== 'READY' && s.t !== 'GUILD_CREATE');
    expect(of(a.seen).every((s) => s.shard === 0 && s.guildId !== g1.id)).toBe(true);
    expect(of(b.seen).every((s) => s.shard === 1 && s.guildId === g1.id)).toBe(true);
    const types = (seen: Seen[]) => [...new Set(of(seen).map((s) => `${s.t}${s.guildId ? '' : ' (no guild)'}`))].sort();
    expect(types(a.seen)).toEqual([
      'INTERACTION_CREATE',
      'INTERACTION_CREATE (no guild)',
      'MESSAGE_CREATE',
      'MESSAGE_CREATE (no guild)',
    ]);
    expect(types(b.seen)).toEqual([
      'CHANNEL_CREATE',
      'GUILD_MEMBER_ADD',
      'GUILD_MEMBER_UPDATE',
      'GUILD_ROLE_CREATE',
      'INTERACTION_CREATE',
      'MESSAGE_CREATE',
    ]);
    expect(
      fake
        .gatewaySessions()
        .map((s) => s.shard)
        .sort(),
    ).toEqual([
      [0, 2],
      [1, 2],
    ]);
  });

  it('a one-shard client of a bot in too many guilds is closed with 4011: shardError and shardDisconnect', async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 1 });
    fake.addGuild({ name: 'A' });
    fake.addGuild({ name: 'B' });
    const { client } = makeClient(fake); // discord.js default: shards [0], shardCount 1
    clients.push(client);
    const errors: string[] = [];
    client.on(Events.ShardError, (e, id) => errors.push(`${id}: ${e.message}`));
    const closed = new Promise<[number, number]>((resolve) =>
      client.on(Events.ShardDisconnect, (ev, id) => resolve([ev.code, id])),
    );
    const login = client.login('any-token');
    login.catch(() => undefined);
    expect(await closed).toEqual([4011, 0]);
    expect(errors).toEqual(['0: Sharding is required']);
    await expect(login).rejects.toThrow('Sharding is required'); // login() rejects with the close
    expect(client.isReady()).toBe(false);
    expect(fake.gatewayClosures.map((c) => [c.code, c.shard])).toEqual([[4011, [0, 1]]]);
    expect(fake.gatewaySessions()).toEqual([]);
    expect(fake.identifies.map((i) => i.outcome)).toEqual([4011]); // no retry: 4011 is unrecoverable
  });

  it('an invalid shard is closed with 4010', async () => {
    fake = await FakeDiscord.start();
    fake.addGuild({ name: 'A' });
    const { client } = makeClient(fake, { shards: [2], shardCount: 2 });
    clients.push(client);
    const errors: string[] = [];
    client.on(Events.ShardError, (e, id) => errors.push(`${id}: ${e.message}`));
    const closed = new Promise<[number, number]>((resolve) =>
      client.on(Events.ShardDisconnect, (ev, id) => resolve([ev.code, id])),
    );
    const login = client.login('any-token');
    login.catch(() => undefined);
    expect(await closed).toEqual([4010, 2]);
    await expect(login).rejects.toThrow('Invalid shard');
    expect(errors).toEqual(['2: Invalid shard']);
    expect(fake.gatewayClosures.map((c) => [c.code, c.shard])).toEqual([[4010, [2, 2]]]);
    expect(fake.gatewaySessions()).toEqual([]);
  });

  it('disconnectBot({ shard }) closes only that shard; it resumes and the other never noticed', async () => {
    fake = await FakeDiscord.start({ guildsPerShard: 1, maxConcurrency: 2 });
    fake.addGuild({ name: 'Zero', shard: [0, 2] });
    const g1 = fake.addGuild({ name: 'One', shard: [1, 2] });
    const { client } = makeClient(fake, { shards: 'auto' });
    clients.push(client);
    await login(client);
    const resumed = new Promise<number>((resolve) => client.once(Events.ShardResume, (id) => resolve(id)));
    fake.disconnectBot({ shard: 1 });
    const created = nextChannelCreate(client);
    const late = fake.addChannel(g1.id, { name: 'while-away' });
    expect(await resumed).toBe(1);
    expect(await created).toBe(late.id); // replayed on RESUME
    expect(fake.gatewayClosures.map((c) => [c.code, c.shard])).toEqual([[4000, [1, 2]]]);
    expect(fake.stats.resumes).toBe(1);
    expect(fake.stats.identifies).toBe(2);
  });
});
