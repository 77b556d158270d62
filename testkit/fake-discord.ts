/**
 * FakeDiscord — an in-process fake of Discord's REST API + gateway that the real discord.js 14
 * `Client` connects to, plus a typed API for tests to act as users and inspect what the bot did.
 *
 *   const fake = await FakeDiscord.start();
 *   const guild = fake.addGuild({ name: 'Club', locale: 'uk' });
 *   const channel = fake.addChannel(guild.id, { name: 'mafia' });
 *   const alice = fake.addUser({ username: 'alice', guilds: [guild.id] });
 *   const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase } });
 *   await client.login('any-token');
 *   const r = await fake.slash(alice.id, channel.id, 'mafia', { sub: 'create' });
 *
 * Faithful to Discord where bots get it wrong: REST rate limits (on by default: 50 req/s global per
 * token, interaction routes exempt; 5 message creates and 5 edits per 5 s per channel, with Discord's
 * X-RateLimit-* headers and 429 bodies — `setRateLimits`, `stats`, `resetStats`), `enforce_nonce`,
 * deletes by users (`deleteMessage`), outages (`failNext`, `failFor`), and sharding (GET /gateway/bot
 * recommends ceil(guilds / `guildsPerShard`) shards; IDENTIFY's [shard_id, shard_count] is checked,
 * 4010/4011; each guild's events only to its shard, DMs to shard 0 — see ./fake-discord/gateway.ts).
 *
 * Implementation lives in ./fake-discord/*.ts (state, gateway, rest, interactions, ratelimit, util).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gateway, type GatewayClose, type IdentifyRecord } from './fake-discord/gateway.js';
import {
  InteractionResult,
  Interactions,
  allComponents,
  findComponent,
  type ActOptions,
  type SlashOptions,
} from './fake-discord/interactions.js';
import {
  Reply,
  Router,
  normalizeChannelName,
  registerRoutes,
  removeChannel,
  type RestContext,
} from './fake-discord/rest.js';
import {
  RateLimiter,
  isInteractionRoute,
  resolveRateLimits,
  statsRouteKey,
  type RateLimitOptions,
  type ResolvedRateLimits,
} from './fake-discord/ratelimit.js';
import {
  ChannelTypes,
  Intent,
  State,
  type ChannelRec,
  type GuildRec,
  type MemberRec,
  type RoleRec,
} from './fake-discord/state.js';
import type {
  FailRule,
  FakeAttachment,
  FakeChannelInfo,
  FakeComponent,
  FakeGuildInfo,
  FakeRoleInfo,
  FakeUserInfo,
  MessageVersion,
  OverwriteInfo,
  RegisteredCommand,
  RequestStats,
  RateLimitScope,
  RestLogEntry,
  StoredMessage,
  ThreadInfo,
  UnhandledRequest,
} from './fake-discord/types.js';
import {
  ApiError,
  Errors,
  DEFAULT_BOT_PERMISSIONS,
  DEFAULT_EVERYONE_PERMISSIONS,
  Perm,
  RingBuffer,
  isoNow,
  shardOf,
  snowflakeOnShard,
} from './fake-discord/util.js';

export {
  InteractionResult,
  allComponents,
  findComponent,
  Perm,
  DEFAULT_BOT_PERMISSIONS,
  DEFAULT_EVERYONE_PERMISSIONS,
  shardOf,
  snowflakeOnShard,
};
export type { GatewayClose, IdentifyRecord };
export type * from './fake-discord/types.js';
export type { BucketLimit, RateLimitOptions, ResolvedRateLimits } from './fake-discord/ratelimit.js';
export type { ActOptions, SlashOptions, SlashOptionValue, ModalData } from './fake-discord/interactions.js';

export interface FakeDiscordOptions {
  /** application id == bot user id (default: a generated snowflake) */
  applicationId?: string;
  /** default 'MafiaBot' */
  botUsername?: string;
  /** ms that slash/click/select wait for the bot's callback before rejecting (default 5000) */
  interactionTimeout?: number;
  /** if set, callbacks later than this many ms after dispatch get 404 Unknown interaction (Discord: 3000) */
  interactionDeadlineMs?: number;
  /** interaction tokens stop working (and records are dropped) after this many ms (default 15 min, as on Discord) */
  interactionTtlMs?: number;
  /** REST log ring-buffer capacity (default 2000; 0 disables `fake.log`) */
  logLimit?: number;
  /** keep every message version for `fake.history()` (default true) */
  recordHistory?: boolean;
  /** gateway heartbeat interval in ms (default 41250) */
  heartbeatInterval?: number;
  /**
   * 'all' (default): GUILD_MEMBER_ADD/UPDATE go to every session.
   * 'intents': only to sessions with the GuildMembers intent (as on real Discord).
   */
  memberEvents?: 'all' | 'intents';
  /** frames kept per session for RESUME replay (default 1000) */
  replayBuffer?: number;
  /**
   * Discord's REST rate limits (default: on — 50 req/s global per token, interaction routes exempt;
   * 5 message creates and, separately, 5 message edits per 5 s per channel). `false` turns them off;
   * an object overrides single limits. Change at run time with `fake.setRateLimits()`.
   * Without this option the environment decides: FAKE_DISCORD_RATE_LIMITS=off starts with them off,
   * FAKE_DISCORD_RATE_LIMITS='{"globalPerSecond":0}' with these overrides.
   */
  rateLimits?: boolean | RateLimitOptions;
  /** honour `enforce_nonce` on message creates (default true, as Discord) */
  enforceNonce?: boolean;
  /** how long a nonce is remembered for `enforce_nonce` (default 5 min) */
  nonceWindowMs?: number;
  /**
   * Sharding: the most guilds one gateway session may hold (default 2500, Discord's figure). An
   * IDENTIFY whose shard would hold more is closed with 4011 Sharding required; GET /gateway/bot
   * recommends ceil(guilds / guildsPerShard) shards.
   */
  guildsPerShard?: number;
  /** `session_start_limit.max_concurrency` of GET /gateway/bot (default 1) */
  maxConcurrency?: number;
  /** `session_start_limit.total` (default 1000): IDENTIFYs per 24 h; past it, IDENTIFY is closed with 4004 */
  sessionStartLimit?: number;
  /**
   * Enforce max_concurrency: two IDENTIFYs of one bucket (`shard_id % max_concurrency`) closer than
   * this many ms get op 9 Invalid Session (Discord: 5000). Default 0 = not enforced.
   */
  identifyIntervalMs?: number;
}

/** A bot gateway session as `fake.gatewaySessions()` shows it. */
export interface GatewaySessionInfo {
  sessionId: string;
  /** [shard_id, shard_count] of its IDENTIFY */
  shard: [number, number];
  /** has an open socket (false: disconnected but resumable) */
  connected: boolean;
  intents: number;
  identifiedAt: number;
  /** the guilds (the bot is in) that this session's shard owns */
  guildIds: string[];
}

export interface AddGuildOptions {
  name: string;
  /** preferred_locale (default 'en-US') */
  locale?: string;
  /** permissions of the bot's managed role (default DEFAULT_BOT_PERMISSIONS: no Administrator) */
  botPermissions?: bigint;
  /** permissions of @everyone (default DEFAULT_EVERYONE_PERMISSIONS) */
  everyonePermissions?: bigint;
  /** owner user id (default: a synthetic id that is not a member) */
  ownerId?: string;
  /**
   * [shard_id, shard_count]: give the guild an id that shard `shard_id` of `shard_count` owns
   * (`(id >> 22) % shard_count === shard_id`), e.g. two guilds on two shards.
   */
  shard?: [number, number];
}

export interface AddChannelOptions {
  name: string;
  /** 0 text (default), 2 voice, 4 category, 5 announcement */
  type?: number;
  parentId?: string;
  topic?: string;
  overwrites?: OverwriteInfo[];
}

export interface AddUserOptions {
  username: string;
  globalName?: string;
  /** user locale sent with interactions (default 'en-US') */
  locale?: string;
  /** default true */
  dmsOpen?: boolean;
  bot?: boolean;
  /** guild ids to join as a member */
  guilds?: string[];
}

export interface WaitOptions {
  timeout?: number;
  /** text for the timeout error */
  message?: string;
}

const DEFAULT_WAIT = 5000;

interface ActiveFailRule extends FailRule {
  remaining: number;
  /** Date.now() after which the rule is dropped (failFor / `ms`) */
  until?: number;
}

/**
 * The default of `rateLimits` when the option is not given: FAKE_DISCORD_RATE_LIMITS=off (or 0/false)
 * turns them off, a JSON RateLimitOptions object tunes them (e.g. '{"messageCreate":false}'),
 * unset = on. For comparing e2e runs without touching the tests.
 */
function rateLimitsFromEnv(): boolean | RateLimitOptions {
  const v = process.env.FAKE_DISCORD_RATE_LIMITS?.trim();
  if (!v) return true;
  if (v.startsWith('{')) return JSON.parse(v) as RateLimitOptions;
  return !['off', '0', 'false', 'no'].includes(v.toLowerCase());
}

function emptyStats(): Omit<RequestStats, 'nonceHits'> {
  return {
    total: 0,
    byRoute: {},
    globalCounted: 0,
    peakGlobalPerSecond: 0,
    rateLimited429: 0,
    rateLimitedGlobal: 0,
    rateLimitedByRoute: {},
    rateLimitedByScope: { global: 0, user: 0, shared: 0 },
    injected: 0,
  };
}

/** Run `fn`, turning a synchronous precondition error into a rejected promise. */
function attempt<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e);
  }
}

/** A promise, or anything with a `then` (waitFor's predicate that reads the bot's storage). */
function isThenable<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** ' (waited at file:line:col)' for the first stack frame outside this file, so a timeout names its waiter. */
function callerOf(e: Error): string {
  const frame = e.stack
    ?.split('\n')
    .slice(1)
    .find((l) => !l.includes('fake-discord.ts') && !l.includes('node:internal'));
  const at = frame?.trim().replace(/^at\s+/, '');
  return at ? ` (waited at ${at})` : '';
}

function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1) throw new Error(`FakeDiscord: ${name} must be a positive integer, got ${n}`);
  return n;
}

function normRoute(s: string): string {
  return s.replace(/^\/api(\/v\d+)?/, '').replace(/:[^/]+/g, ':');
}

export class FakeDiscord {
  /** 'http://127.0.0.1:PORT/api' — pass as `rest: { api }` to discord.js */
  readonly apiBase: string;
  /** 'ws://127.0.0.1:PORT' */
  readonly gatewayUrl: string;
  readonly port: number;
  /** REST requests that matched no route (each also got a 404). */
  readonly unhandled: UnhandledRequest[] = [];
  /** 4xx/5xx replies the fake produced (incl. injected ones), capped at 1000. */
  readonly errors: RestLogEntry[] = [];
  /** unexpected exceptions thrown by fake handlers (they are answered with 500) */
  readonly internalErrors: Error[] = [];

  private readonly state: State;
  private readonly gateway: Gateway;
  private readonly ix: Interactions;
  private readonly router = new Router();
  private readonly logRing: RingBuffer<RestLogEntry>;
  private readonly failRules: ActiveFailRule[] = [];
  private readonly limiter: RateLimiter;
  private reqStats = emptyStats();
  /** times of the globally counted requests of the last second (for peakGlobalPerSecond) */
  private globalTimes: number[] = [];
  private requestCount = 0;
  private stopped = false;

  private constructor(
    private readonly server: Server,
    port: number,
    opts: FakeDiscordOptions,
  ) {
    this.port = port;
    this.apiBase = `http://127.0.0.1:${port}/api`;
    this.gatewayUrl = `ws://127.0.0.1:${port}`;
    this.logRing = new RingBuffer(opts.logLimit ?? 2000);
    this.state = new State({
      applicationId: opts.applicationId,
      botUsername: opts.botUsername ?? 'MafiaBot',
      recordHistory: opts.recordHistory ?? true,
      memberEvents: opts.memberEvents ?? 'all',
    });
    this.gateway = new Gateway(this.state, server, {
      url: this.gatewayUrl,
      heartbeatInterval: opts.heartbeatInterval ?? 41250,
      replayBuffer: opts.replayBuffer ?? 1000,
      guildsPerShard: positiveInt(opts.guildsPerShard ?? 2500, 'guildsPerShard'),
      maxConcurrency: positiveInt(opts.maxConcurrency ?? 1, 'maxConcurrency'),
      sessionStartTotal: Math.max(0, opts.sessionStartLimit ?? 1000),
      identifyIntervalMs: Math.max(0, opts.identifyIntervalMs ?? 0),
    });
    this.state.gateway = this.gateway;
    this.state.nonceConfig = { enforce: opts.enforceNonce ?? true, windowMs: opts.nonceWindowMs ?? 5 * 60_000 };
    this.limiter = new RateLimiter(resolveRateLimits(opts.rateLimits ?? rateLimitsFromEnv()));
    this.ix = new Interactions(this.state, this.gateway, {
      timeout: opts.interactionTimeout ?? 5000,
      deadlineMs: opts.interactionDeadlineMs,
      ttlMs: opts.interactionTtlMs ?? 15 * 60_000,
    });
    registerRoutes(
      this.router,
      this.state,
      this.ix,
      () => this.gatewayUrl,
      () => ({ shards: this.gateway.recommendedShards(), session_start_limit: this.gateway.sessionStartLimit() }),
    );
    server.on('request', (req, res) => void this.onRequest(req, res));
  }

  static async start(opts: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const server = createServer({ keepAlive: true });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    return new FakeDiscord(server, port, opts);
  }

  /** An uploaded attachment's content as text (UTF-8), or undefined if no such upload. */
  attachmentText(id: string): string | undefined {
    return this.attachmentData.get(id)?.toString('utf8');
  }

  /** Close the HTTP server and all gateway sockets. Idempotent. (FAKE_DISCORD_REPORT=1: print `stats` first.) */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (process.env.FAKE_DISCORD_REPORT) {
      // one line per fake, attributed to the running test by vitest: what the bot sent and what was refused
      const { interactions: _i, ...st } = this.stats;
      console.error(`fake-discord stats: ${JSON.stringify({ rateLimits: this.rateLimits.enabled, ...st })}`);
    }
    this.ix.rejectAll('fake Discord stopped');
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get botUser(): { id: string; username: string } {
    return { id: this.state.botUser.id, username: this.state.botUser.username };
  }

  get applicationId(): string {
    return this.state.applicationId;
  }

  // =============================================================================================
  // setup
  // =============================================================================================

  addGuild(o: AddGuildOptions): FakeGuildInfo {
    const s = this.state;
    const id = o.shard ? s.ids.nextOnShard(o.shard[0], o.shard[1]) : s.ids.next();
    const botRoleId = s.ids.next();
    const now = isoNow();
    const g: GuildRec = {
      id,
      name: o.name,
      ownerId: o.ownerId ?? s.ids.next(),
      locale: o.locale ?? 'en-US',
      roles: new Map(),
      members: new Map(),
      channelIds: new Set(),
      botRoleId,
      createdAt: now,
    };
    g.roles.set(id, {
      id,
      guildId: id,
      name: '@everyone',
      permissions: o.everyonePermissions ?? DEFAULT_EVERYONE_PERMISSIONS,
      position: 0,
      managed: false,
      color: 0,
      hoist: false,
      mentionable: false,
    });
    g.roles.set(botRoleId, {
      id: botRoleId,
      guildId: id,
      name: s.botUser.username,
      permissions: o.botPermissions ?? DEFAULT_BOT_PERMISSIONS,
      position: 1,
      managed: true,
      color: 0,
      hoist: false,
      mentionable: false,
      botId: s.botUser.id,
    });
    g.members.set(s.botUser.id, {
      userId: s.botUser.id,
      roles: [botRoleId],
      joinedAt: now,
      nick: null,
      communicationDisabledUntil: null,
    });
    s.guilds.set(id, g);
    s.emitGuild('GUILD_CREATE', id, s.guildCreatePayload(g));
    s.notify();
    return this.guildInfo(g);
  }

  /** Add a channel (text channel names are normalized like Discord does: 'Day Chat' -> 'day-chat'). */
  addChannel(guildId: string, o: AddChannelOptions): FakeChannelInfo {
    const s = this.state;
    const g = s.requireGuild(guildId);
    const type = o.type ?? ChannelTypes.GuildText;
    const ch = s.newChannelRec({
      type,
      guildId,
      name: normalizeChannelName(type, o.name),
      parentId: o.parentId ?? null,
      position: g.channelIds.size,
      topic: o.topic ?? null,
    });
    for (const ow of o.overwrites ?? []) ch.overwrites.set(ow.id, { ...ow });
    s.channels.set(ch.id, ch);
    g.channelIds.add(ch.id);
    s.emitGuild('CHANNEL_CREATE', guildId, s.channelToApi(ch, true));
    s.notify();
    return this.channelInfo(ch);
  }

  addUser(o: AddUserOptions): FakeUserInfo {
    const s = this.state;
    const id = s.ids.next();
    s.users.set(id, {
      api: {
        id,
        username: o.username,
        discriminator: '0',
        global_name: o.globalName ?? null,
        avatar: null,
        ...(o.bot ? { bot: true } : {}),
        public_flags: 0,
      },
      locale: o.locale ?? 'en-US',
      dmsOpen: o.dmsOpen ?? true,
    });
    for (const g of o.guilds ?? []) this.addMember(g, id);
    return this.user(id);
  }

  /** Add a user to a guild (emits GUILD_MEMBER_ADD). */
  addMember(guildId: string, userId: string, o: { roles?: string[]; nick?: string } = {}): void {
    const s = this.state;
    const g = s.requireGuild(guildId);
    s.requireUser(userId);
    if (g.members.has(userId)) return;
    const m: MemberRec = {
      userId,
      roles: o.roles ?? [],
      joinedAt: isoNow(),
      nick: o.nick ?? null,
      communicationDisabledUntil: null,
    };
    g.members.set(userId, m);
    const target = this.state.memberEvents === 'intents' ? { guildId, intent: Intent.GuildMembers } : { guildId };
    s.gateway.dispatch('GUILD_MEMBER_ADD', { guild_id: guildId, ...s.memberToApi(g, m) }, target);
    s.notify();
  }

  removeMember(guildId: string, userId: string): void {
    const s = this.state;
    const g = s.requireGuild(guildId);
    if (!g.members.delete(userId)) return;
    // Who leaves a server leaves its threads too.
    for (const ch of s.channels.values()) if (ch.guildId === guildId && ch.thread) ch.thread.members.delete(userId);
    const target = this.state.memberEvents === 'intents' ? { guildId, intent: Intent.GuildMembers } : { guildId };
    s.gateway.dispatch('GUILD_MEMBER_REMOVE', { guild_id: guildId, user: s.users.get(userId)?.api }, target);
    s.notify();
  }

  addRole(
    guildId: string,
    o: { name: string; permissions?: bigint; position?: number; mentionable?: boolean },
  ): FakeRoleInfo {
    const s = this.state;
    const g = s.requireGuild(guildId);
    const role: RoleRec = {
      id: s.ids.next(),
      guildId,
      name: o.name,
      permissions: o.permissions ?? 0n,
      position: o.position ?? 1,
      managed: false,
      color: 0,
      hoist: false,
      mentionable: o.mentionable ?? false,
    };
    if (o.position === undefined) for (const r of g.roles.values()) if (r.id !== g.id) r.position++;
    g.roles.set(role.id, role);
    s.emitGuild('GUILD_ROLE_CREATE', guildId, { guild_id: guildId, role: s.roleToApi(role) });
    s.notify();
    return { id: role.id, guildId, name: role.name, permissions: role.permissions };
  }

  setMemberRoles(guildId: string, userId: string, roles: string[]): void {
    const g = this.state.requireGuild(guildId);
    const m = g.members.get(userId);
    if (!m) throw new Error(`fake: ${userId} is not a member of ${guildId}`);
    m.roles = roles.slice();
    this.state.emitMemberUpdate(g, m);
    this.state.notify();
  }

  /** Time a member out until `until` (ISO date; null ends it), as a moderator would (emits GUILD_MEMBER_UPDATE). */
  setMemberTimeout(guildId: string, userId: string, until: string | null): void {
    const g = this.state.requireGuild(guildId);
    const m = g.members.get(userId);
    if (!m) throw new Error(`fake: ${userId} is not a member of ${guildId}`);
    m.communicationDisabledUntil = until;
    this.state.emitMemberUpdate(g, m);
    this.state.notify();
  }

  /** Set the permissions of the bot's managed role (emits GUILD_ROLE_UPDATE). Base = @everyone | bot role. */
  setBotPermissions(guildId: string, permissions: bigint): void {
    const g = this.state.requireGuild(guildId);
    this.setRolePermissions(guildId, g.botRoleId, permissions);
  }

  setRolePermissions(guildId: string, roleId: string, permissions: bigint): void {
    const g = this.state.requireGuild(guildId);
    const role = g.roles.get(roleId);
    if (!role) throw new Error(`fake: unknown role ${roleId}`);
    role.permissions = permissions;
    this.state.emitGuild('GUILD_ROLE_UPDATE', guildId, { guild_id: guildId, role: this.state.roleToApi(role) });
    this.state.notify();
  }

  /** Set an overwrite as an admin would (no permission checks; emits CHANNEL_UPDATE). */
  setOverwrite(channelId: string, ow: OverwriteInfo): void {
    const ch = this.state.requireChannel(channelId);
    ch.overwrites.set(ow.id, { ...ow });
    this.state.emitChannelUpdate(ch);
    this.state.notify();
  }

  /**
   * Set an overwrite in Discord's own state only, without its CHANNEL_UPDATE: a bot's gateway cache
   * does not know of it (a moderator's change whose event has not reached the bot yet).
   */
  setOverwriteQuietly(channelId: string, ow: OverwriteInfo): void {
    const ch = this.state.requireChannel(channelId);
    ch.overwrites.set(ow.id, { ...ow });
    this.state.notify();
  }

  /** Delete a channel as an admin would (emits CHANNEL_DELETE). */
  deleteChannel(channelId: string): void {
    removeChannel(this.state, this.state.requireChannel(channelId));
  }

  /**
   * The bot is removed from a server (kicked, or the server deleted): GUILD_DELETE without
   * `unavailable`, then nothing more of that server reaches it; REST calls on its channels get 403
   * Missing Access (50001), as Discord answers.
   */
  removeBot(guildId: string): void {
    const s = this.state;
    const g = s.requireGuild(guildId);
    if (!g.members.has(s.botUser.id)) return;
    s.emitGuild('GUILD_DELETE', guildId, { id: guildId });
    g.members.delete(s.botUser.id);
    s.notify();
  }

  /** The bot is invited back (with its managed role): GUILD_CREATE with the whole server. */
  addBotBack(guildId: string): void {
    const s = this.state;
    const g = s.requireGuild(guildId);
    if (g.members.has(s.botUser.id)) return;
    g.members.set(s.botUser.id, {
      userId: s.botUser.id,
      roles: [g.botRoleId],
      joinedAt: isoNow(),
      nick: null,
      communicationDisabledUntil: null,
    });
    s.emitGuild('GUILD_CREATE', guildId, s.guildCreatePayload(g));
    s.notify();
  }

  /**
   * A Discord outage of one server: GUILD_DELETE with `unavailable: true` (the bot is still in it),
   * and, with `back`, the GUILD_CREATE that ends it.
   */
  guildOutage(guildId: string, back = false): void {
    const s = this.state;
    const g = s.requireGuild(guildId);
    if (back) s.emitGuild('GUILD_CREATE', guildId, s.guildCreatePayload(g));
    else s.emitGuild('GUILD_DELETE', guildId, { id: guildId, unavailable: true });
    s.notify();
  }

  setDmsOpen(userId: string, open: boolean): void {
    this.state.requireUser(userId).dmsOpen = open;
  }

  /** The DM channel id between the bot and a user (created on first use, stable). */
  dmChannelId(userId: string): string {
    return this.state.dmChannelFor(userId).id;
  }

  /**
   * A user writes a plain message (MESSAGE_CREATE goes to sessions with GuildMessages/DirectMessages).
   * In a server channel he needs View Channel and Send Messages (Send Messages in Threads in a
   * thread) there, as Discord's client and API require: otherwise this throws 50013.
   */
  postAsUser(userId: string, channelId: string, content: string): StoredMessage {
    const s = this.state;
    const u = s.requireUser(userId);
    const ch = channelId === 'dm' ? s.dmChannelFor(userId) : s.requireChannel(channelId);
    if (ch.guildId) {
      const need = Perm.ViewChannel | (ch.thread ? Perm.SendMessagesInThreads : Perm.SendMessages);
      if ((s.channelPermissions(ch, userId) & need) !== need) throw Errors.missingPermissions();
    }
    return s.createMessage(ch, { content }, { author: u.api });
  }

  /**
   * Delete a message as its author or a moderator would (no permission checks). Emits
   * MESSAGE_DELETE to sessions with the GuildMessages (DMs: DirectMessages) intent; the message
   * leaves the pins (Discord sends no CHANNEL_PINS_UPDATE for that), and later REST calls on it
   * (edit, fetch, pin, delete, reply-by-reference) get 404 Unknown Message (10008).
   * `channelId` may be 'dm:<userId>'. Throws if there is no such message.
   */
  deleteMessage(channelId: string, messageId: string): void {
    const s = this.state;
    const resolved = channelId.startsWith('dm:') ? s.users.get(channelId.slice(3))?.dmChannelId : channelId;
    const ch = resolved ? s.channels.get(resolved) : undefined;
    const msg = ch?.messages.get(messageId);
    if (!ch || !msg) throw new Error(`fake.deleteMessage: no message ${messageId} in channel ${channelId}`);
    s.deleteMessage(msg);
  }

  // =============================================================================================
  // acting as users
  //   All return promises. They reject immediately if a real user could not do this (unknown /
  //   disabled component, ephemeral message of someone else, no permission to see the channel,
  //   invalid select values, no bot connected) and after `timeout` if the bot never answers.
  // =============================================================================================

  /** Run a slash command as `userId` in `channelId` (or 'dm'). Resolves when the bot acknowledged it. */
  slash(userId: string, channelId: string, name: string, opts: SlashOptions = {}): Promise<InteractionResult> {
    return attempt(() => this.ix.slash(userId, channelId, name, opts));
  }

  /** Click a button (by custom_id) on a stored message. Resolves when the bot acknowledged it. */
  click(userId: string, message: StoredMessage, customId: string, opts: ActOptions = {}): Promise<InteractionResult> {
    return attempt(() => this.ix.click(userId, message, customId, opts));
  }

  /** Choose values in a select menu (by custom_id) on a stored message. */
  select(
    userId: string,
    message: StoredMessage,
    customId: string,
    values: string[],
    opts: ActOptions = {},
  ): Promise<InteractionResult> {
    return attempt(() => this.ix.select(userId, message, customId, values, opts));
  }

  /** Submit the modal the bot showed in `from` (callback type 9). `fields`: custom_id -> value. */
  submitModal(
    userId: string,
    from: InteractionResult,
    fields: Record<string, string | string[]>,
    opts: ActOptions = {},
  ): Promise<InteractionResult> {
    return attempt(() => this.ix.submitModal(userId, from, fields, opts));
  }

  // =============================================================================================
  // reading
  // =============================================================================================

  /** All current messages of a channel in order, incl. ephemeral ones (tagged `ephemeralFor`). */
  messages(channelId: string): StoredMessage[] {
    const ch = this.state.channels.get(channelId);
    return ch ? [...ch.messages.values()] : [];
  }

  publicMessages(channelId: string): StoredMessage[] {
    return this.messages(channelId).filter((m) => !m.ephemeralFor);
  }

  /** Messages in the bot<->user DM channel. */
  dms(userId: string): StoredMessage[] {
    const id = this.state.users.get(userId)?.dmChannelId;
    return id ? this.messages(id) : [];
  }

  /** Ephemeral messages shown to a user (all channels, incl. DMs), in creation order. */
  ephemeralsFor(userId: string): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (const m of this.state.messages.values()) if (m.ephemeralFor === userId) out.push(m);
    return out;
  }

  message(messageId: string): StoredMessage | undefined {
    return this.state.messages.get(messageId);
  }

  /** Every version of a message (create, each edit, delete). Empty if recordHistory is off. */
  history(messageId: string): MessageVersion[] {
    return this.state.histories.get(messageId)?.slice() ?? [];
  }

  /** REST calls (newest last), capped by `logLimit`. */
  get log(): RestLogEntry[] {
    return this.logRing.toArray();
  }

  clearLog(): void {
    this.logRing.clear();
  }

  /**
   * Gateway counters plus REST request counters (`RequestStats`: total, byRoute, globalCounted,
   * rateLimited429, ...; those since start or the last `resetStats()`). `requests` never resets.
   */
  get stats(): RequestStats & {
    requests: number;
    sessions: number;
    connected: number;
    identifies: number;
    resumes: number;
    interactions: Interactions['stats'];
  } {
    const r = this.reqStats;
    return {
      ...r,
      byRoute: { ...r.byRoute },
      rateLimitedByRoute: { ...r.rateLimitedByRoute },
      rateLimitedByScope: { ...r.rateLimitedByScope },
      nonceHits: this.state.nonceHits,
      requests: this.requestCount,
      sessions: this.gateway.sessions.size,
      connected: this.gateway.connectedCount,
      identifies: this.gateway.identifyCount,
      resumes: this.gateway.resumeCount,
      interactions: { ...this.ix.stats },
    };
  }

  /** Zero the REST request counters of `stats` (not `stats.requests`, not the rate limit buckets). */
  resetStats(): void {
    this.reqStats = emptyStats();
    this.globalTimes = [];
    this.state.nonceHits = 0;
  }

  overwrites(channelId: string): OverwriteInfo[] {
    const ch = this.state.requireChannel(channelId);
    return [...ch.overwrites.values()].map((o) => ({ ...o }));
  }

  threads(channelId: string): ThreadInfo[] {
    const ch = this.state.channels.get(channelId);
    if (!ch) return [];
    const out: ThreadInfo[] = [];
    for (const id of ch.threadIds) {
      const info = this.thread(id);
      if (info) out.push(info);
    }
    return out;
  }

  thread(threadId: string): ThreadInfo | undefined {
    const th = this.state.channels.get(threadId);
    if (!th?.thread) return undefined;
    return {
      id: th.id,
      name: th.name,
      type: th.type,
      parentId: th.parentId!,
      ownerId: th.thread.ownerId,
      locked: th.thread.locked,
      archived: th.thread.archived,
      invitable: th.thread.invitable,
      autoArchiveDuration: th.thread.autoArchiveDuration,
      members: [...th.thread.members.keys()],
    };
  }

  /** Who is in a thread now (the bot too, as on Discord), in the order they joined. */
  threadMembers(threadId: string): string[] {
    return this.thread(threadId)?.members ?? [];
  }

  /** Whether a user can read a channel or thread (a private thread: its members, or Manage Threads). */
  canRead(channelId: string, userId: string): boolean {
    return (this.permissionsIn(channelId, userId) & Perm.ViewChannel) !== 0n;
  }

  channel(channelId: string): FakeChannelInfo | undefined {
    const ch = this.state.channels.get(channelId);
    return ch ? this.channelInfo(ch) : undefined;
  }

  /** Channels of a guild (no threads), incl. those the bot created. */
  channels(guildId: string): FakeChannelInfo[] {
    const g = this.state.requireGuild(guildId);
    const out: FakeChannelInfo[] = [];
    for (const id of g.channelIds) {
      const ch = this.state.channels.get(id);
      if (ch && !ch.thread) out.push(this.channelInfo(ch));
    }
    return out;
  }

  guild(guildId: string): FakeGuildInfo | undefined {
    const g = this.state.guilds.get(guildId);
    return g ? this.guildInfo(g) : undefined;
  }

  user(userId: string): FakeUserInfo {
    const u = this.state.requireUser(userId);
    return {
      id: u.api.id,
      username: u.api.username,
      globalName: u.api.global_name,
      locale: u.locale,
      dmsOpen: u.dmsOpen,
      bot: Boolean(u.api.bot),
    };
  }

  roles(guildId: string): FakeRoleInfo[] {
    return [...this.state.requireGuild(guildId).roles.values()].map((r) => ({
      id: r.id,
      guildId,
      name: r.name,
      permissions: r.permissions,
    }));
  }

  memberRoles(guildId: string, userId: string): string[] {
    return this.state.requireGuild(guildId).members.get(userId)?.roles.slice() ?? [];
  }

  /** Effective permissions of a user (default: the bot) in a channel. */
  permissionsIn(channelId: string, userId = this.state.botUser.id): bigint {
    return this.state.channelPermissions(this.state.requireChannel(channelId), userId);
  }

  /** Registered application commands: global (no arg) or for a guild. */
  commands(guildId?: string): RegisteredCommand[] {
    const map = guildId ? this.state.guildCommands.get(guildId) : this.state.globalCommands;
    return map ? [...map.values()] : [];
  }

  /** Find a component (button/select/...) anywhere in a message (action rows, containers, sections). */
  findComponent(
    message: Pick<StoredMessage, 'components'>,
    predicate: (c: FakeComponent) => boolean,
  ): FakeComponent | undefined {
    return findComponent(message, predicate);
  }

  /** Flat list of all components of a message. */
  components(message: Pick<StoredMessage, 'components'>): FakeComponent[] {
    return allComponents(message);
  }

  // =============================================================================================
  // waiting
  // =============================================================================================

  /**
   * Resolve with the predicate's first truthy result, re-evaluated after every state change
   * (messages, edits, overwrites, threads, interaction callbacks, gateway sessions) — no polling.
   * A predicate that reads the bot's storage answers with a promise: see waitForAsync.
   */
  waitFor<T>(
    predicate: () => T | undefined | null | false | PromiseLike<T | undefined | null | false>,
    opts: WaitOptions = {},
  ): Promise<T> {
    const first = predicate();
    if (isThenable(first))
      return this.waitForAsync(first, predicate, opts.timeout ?? DEFAULT_WAIT, callerOf(new Error()), opts.message);
    if (first) return Promise.resolve(first);
    const timeout = opts.timeout ?? DEFAULT_WAIT;
    const caller = callerOf(new Error());
    return new Promise<T>((resolve, reject) => {
      const remove = this.state.addWaiter(() => {
        let v: T | undefined | null | false;
        try {
          v = predicate() as T | undefined | null | false;
        } catch (e) {
          clearTimeout(timer);
          reject(e);
          return true;
        }
        if (!v) return false;
        clearTimeout(timer);
        resolve(v);
        return true;
      });
      const timer = setTimeout(() => {
        remove();
        reject(
          new Error(`fake.waitFor timed out after ${timeout}ms${opts.message ? `: ${opts.message}` : ''}${caller}`),
        );
      }, timeout);
    });
  }

  /**
   * waitFor with a predicate that answers with a promise (it reads the bot's storage): evaluated
   * again after every state change as well, one evaluation at a time (a change during one has it
   * evaluated once more when it ends).
   */
  private waitForAsync<T>(
    first: PromiseLike<T | undefined | null | false>,
    predicate: () => T | undefined | null | false | PromiseLike<T | undefined | null | false>,
    timeout: number,
    caller: string,
    message: string | undefined,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false;
      let running = false;
      let again = false;
      const finish = (end: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        remove();
        end();
      };
      const settle = (p: PromiseLike<T | undefined | null | false>) => {
        running = true;
        p.then(
          (v) => {
            running = false;
            if (v) finish(() => resolve(v));
            else if (again) check();
          },
          (e: unknown) => {
            running = false;
            finish(() => reject(e));
          },
        );
      };
      const check = () => {
        if (done) return;
        if (running) {
          again = true;
          return;
        }
        again = false;
        try {
          settle(Promise.resolve(predicate()));
        } catch (e) {
          finish(() => reject(e));
        }
      };
      const remove = this.state.addWaiter(() => {
        check();
        return done;
      });
      const timer = setTimeout(() => {
        finish(() =>
          reject(new Error(`fake.waitFor timed out after ${timeout}ms${message ? `: ${message}` : ''}${caller}`)),
        );
      }, timeout);
      settle(first);
    });
  }

  /**
   * Resolve with the first message in `channelId` (or 'dm:<userId>') matching `predicate`:
   * an existing one (newest first) or one created/edited later. Event-driven.
   */
  waitForMessage(
    channelId: string,
    predicate: (m: StoredMessage) => boolean = () => true,
    opts: WaitOptions = {},
  ): Promise<StoredMessage> {
    const resolveChannel = (): string | undefined =>
      channelId.startsWith('dm:') ? this.state.users.get(channelId.slice(3))?.dmChannelId : channelId;
    const existingId = resolveChannel();
    if (existingId) {
      const list = this.messages(existingId);
      for (let i = list.length - 1; i >= 0; i--) if (predicate(list[i]!)) return Promise.resolve(list[i]!);
    }
    const timeout = opts.timeout ?? DEFAULT_WAIT;
    const caller = callerOf(new Error());
    return new Promise((resolve, reject) => {
      const onMsg = (m: StoredMessage): void => {
        if (m.channel_id !== resolveChannel() || m.deleted) return;
        let ok: boolean;
        try {
          ok = predicate(m);
        } catch (e) {
          cleanup();
          reject(e);
          return;
        }
        if (!ok) return;
        cleanup();
        resolve(m);
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        this.state.events.off('messageCreate', onMsg);
        this.state.events.off('messageUpdate', onMsg);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `fake.waitForMessage(${channelId}) timed out after ${timeout}ms${opts.message ? `: ${opts.message}` : ''}${caller}`,
          ),
        );
      }, timeout);
      this.state.events.on('messageCreate', onMsg);
      this.state.events.on('messageUpdate', onMsg);
    });
  }

  /** Subscribe to message events; returns an unsubscribe function. */
  onMessage(event: 'create' | 'update' | 'delete', listener: (m: StoredMessage) => void): () => void {
    const name = event === 'create' ? 'messageCreate' : event === 'update' ? 'messageUpdate' : 'messageDelete';
    this.state.events.on(name, listener);
    return () => this.state.events.off(name, listener);
  }

  /** Resolves once at least `count` bot gateway sessions are connected and READY/RESUMED. */
  waitForBot(opts: WaitOptions & { count?: number } = {}): Promise<void> {
    const count = opts.count ?? 1;
    return this.waitFor(() => this.gateway.connectedCount >= count, {
      message: `${count} bot session(s)`,
      ...opts,
    }).then(() => undefined);
  }

  // =============================================================================================
  // failure injection / connection control
  // =============================================================================================

  /**
   * Make the next matching REST request(s) fail. `route` is compared with the route pattern
   * (param names don't matter, e.g. '/channels/:id/messages') and the concrete path.
   */
  failNext(rule: FailRule): void {
    this.addFailRule(rule);
  }

  /**
   * An outage: every matching request fails for `ms` milliseconds from now (at most `times`
   * requests, if given). Returns a function that ends the outage early. Injected replies do not
   * use up rate limit buckets.
   *   fake.failFor({ method: 'POST', route: '/channels/:id/messages', status: 500, ms: 30_000 })
   */
  failFor(rule: FailRule & { ms: number }): () => void {
    return this.addFailRule(rule);
  }

  clearFailures(): void {
    this.failRules.length = 0;
  }

  /**
   * Change the rate limits at run time (`true` = Discord's defaults, `false` = off, object =
   * defaults with these overrides). Every bucket starts full again.
   */
  setRateLimits(o: boolean | RateLimitOptions): void {
    this.limiter.set(resolveRateLimits(o));
  }

  /** The rate limits in force. */
  get rateLimits(): ResolvedRateLimits {
    const c = this.limiter.config;
    return {
      ...c,
      messageCreate: c.messageCreate && { ...c.messageCreate },
      messageEdit: c.messageEdit && { ...c.messageEdit },
    };
  }

  /** Refill every rate limit bucket (global and per route) without changing the limits. */
  resetRateLimits(): void {
    this.limiter.reset();
  }

  /** Honour `enforce_nonce` (and for how long a nonce is remembered, default unchanged). */
  setEnforceNonce(on: boolean, windowMs?: number): void {
    this.state.nonceConfig = { enforce: on, windowMs: windowMs ?? this.state.nonceConfig.windowMs };
  }

  /**
   * Close every bot gateway socket. Default code 4000: discord.js reconnects and RESUMEs
   * (missed events are replayed). Code 1000/4009 invalidates the sessions (client re-IDENTIFYs;
   * discord.js then waits ~5 s because of its identify throttle). With `shard`: only the sessions
   * of that shard id (the other shards stay connected).
   */
  disconnectBot(opts: { code?: number; shard?: number } = {}): void {
    this.gateway.disconnectAll(opts.code ?? 4000, 'fake: disconnect', opts.shard);
  }

  // =============================================================================================
  // sharding: introspection
  // =============================================================================================

  /** The bot's gateway sessions (connected or resumable) with their shard and the guilds it owns. */
  gatewaySessions(): GatewaySessionInfo[] {
    const bot = this.state.botUser.id;
    const inGuilds = [...this.state.guilds.values()].filter((g) => g.members.has(bot)).map((g) => g.id);
    return [...this.gateway.sessions.values()].map((s) => ({
      sessionId: s.id,
      shard: [s.shardId, s.shardCount],
      connected: s.ws !== null && s.ws.readyState === 1,
      intents: s.intents,
      identifiedAt: s.identifiedAt,
      guildIds: inGuilds.filter((id) => shardOf(id, s.shardCount) === s.shardId),
    }));
  }

  /** Every IDENTIFY the gateway received, in order, with its shard and outcome ('ready', 'invalid-session', or a close code). */
  get identifies(): IdentifyRecord[] {
    return this.gateway.identifies.map((r) => ({ ...r, shard: [...r.shard] }));
  }

  /** Every gateway socket close the fake initiated (4010, 4011, 4004, disconnectBot's codes, ...), in order. */
  get gatewayClosures(): GatewayClose[] {
    return this.gateway.closes.map((c) => ({ ...c, shard: c.shard && [...c.shard] }));
  }

  /** What GET /gateway/bot answers now: the recommended shard count and the session start limit. */
  get gatewayBot(): { shards: number; session_start_limit: ReturnType<Gateway['sessionStartLimit']> } {
    return { shards: this.gateway.recommendedShards(), session_start_limit: this.gateway.sessionStartLimit() };
  }

  /**
   * The gateway goes down and stays down (the bot's reconnects are accepted but never greeted)
   * until `gatewayDown(false)`, when the bot reconnects and RESUMEs.
   */
  gatewayDown(on: boolean): void {
    this.gateway.setDown(on);
  }

  /** Send op 7 RECONNECT to every session (discord.js closes and RESUMEs). */
  requestReconnect(): void {
    this.gateway.requestReconnect();
  }

  // =============================================================================================
  // internals
  // =============================================================================================

  private guildInfo(g: GuildRec): FakeGuildInfo {
    return {
      id: g.id,
      name: g.name,
      locale: g.locale,
      ownerId: g.ownerId,
      everyoneRoleId: g.id,
      botRoleId: g.botRoleId,
    };
  }

  private channelInfo(ch: ChannelRec): FakeChannelInfo {
    return { id: ch.id, guildId: ch.guildId, name: ch.name, type: ch.type, parentId: ch.parentId };
  }

  private addFailRule(rule: FailRule): () => void {
    const active: ActiveFailRule = {
      ...rule,
      remaining: rule.times ?? (rule.ms !== undefined ? Number.POSITIVE_INFINITY : 1),
    };
    if (rule.ms !== undefined) active.until = Date.now() + rule.ms;
    this.failRules.push(active);
    return () => {
      const i = this.failRules.indexOf(active);
      if (i >= 0) this.failRules.splice(i, 1);
    };
  }

  private matchFailRule(method: string, pattern: string, path: string): ActiveFailRule | undefined {
    const now = Date.now();
    for (let i = 0; i < this.failRules.length; i++) {
      const rule = this.failRules[i]!;
      if (rule.until !== undefined && now >= rule.until) {
        this.failRules.splice(i--, 1);
        continue;
      }
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.route !== undefined) {
        if (typeof rule.route === 'string') {
          const want = normRoute(rule.route);
          if (want !== normRoute(pattern) && want !== normRoute(path)) continue;
        } else {
          rule.route.lastIndex = 0;
          const a = rule.route.test(path);
          rule.route.lastIndex = 0;
          if (!a && !rule.route.test(pattern)) continue;
        }
      }
      if (--rule.remaining <= 0) this.failRules.splice(i, 1);
      return rule;
    }
    return undefined;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    this.requestCount++;
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const qIdx = rawUrl.indexOf('?');
    const rawPath = qIdx >= 0 ? rawUrl.slice(0, qIdx) : rawUrl;
    const queryStr = qIdx >= 0 ? rawUrl.slice(qIdx + 1) : '';
    let path = rawPath.startsWith('/api') ? rawPath.slice(4) : rawPath;
    const vm = /^\/v\d+(?=\/|$)/.exec(path);
    if (vm) path = path.slice(vm[0].length);

    let body: unknown;
    let files: FakeAttachment[] = [];
    let status = 500;
    let code: number | undefined;
    let pattern = path;
    let injected = false;
    let rateLimit: RateLimitScope | undefined;
    let rlHeaders: Record<string, string> | undefined;
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const ct = req.headers['content-type'] ?? '';
      if (buf.length) {
        if (ct.startsWith('multipart/form-data')) ({ body, files } = await this.parseMultipart(buf, ct));
        else if (ct.includes('json')) body = JSON.parse(buf.toString('utf8'));
        else body = buf.toString('utf8');
      }

      let segs: string[];
      try {
        segs = path
          .split('/')
          .filter(Boolean)
          .map((x) => decodeURIComponent(x));
      } catch {
        segs = path.split('/').filter(Boolean);
      }
      const match = this.router.match(method, segs);
      if (!match) {
        this.unhandled.push({ method, path, query: queryStr, body, at });
        status = 404;
        code = 0;
        this.send(res, 404, { message: 'Unknown route (fake)', code: 0 });
        return;
      }
      pattern = match.route.pattern;

      const rule = this.matchFailRule(method, pattern, path);
      if (rule) {
        injected = true;
        status = rule.status;
        const { body: errBody, headers } = this.injectedReply(rule);
        code = typeof errBody.code === 'number' ? errBody.code : undefined;
        if (status === 429) rateLimit = rule.scope ?? 'user';
        this.send(res, status, errBody, headers);
        return;
      }

      const auth = req.headers.authorization;
      const verdict = this.limiter.check(method, pattern, match.params, typeof auth === 'string' ? auth : '', at);
      if (verdict.limited) {
        status = 429;
        rateLimit = verdict.limited.scope;
        this.send(res, 429, verdict.limited.body, verdict.limited.headers);
        return;
      }
      rlHeaders = verdict.headers;

      const ctx: RestContext = {
        method,
        path,
        params: match.params,
        query: new URLSearchParams(queryStr),
        body,
        files,
      };
      // handlers are synchronous: keep handler -> reply -> log synchronous so that a test resumed by
      // a handler side effect (e.g. an interaction callback) already sees the log entry
      let result = match.route.handler(ctx);
      if (result instanceof Promise) result = await result;
      if (result instanceof Reply) {
        status = result.status;
        this.send(
          res,
          status,
          result.body,
          result.headers || rlHeaders ? { ...rlHeaders, ...result.headers } : undefined,
        );
      } else if (result === undefined) {
        status = 204;
        this.send(res, 204, undefined, rlHeaders);
      } else {
        status = 200;
        this.send(res, 200, result, rlHeaders);
      }
    } catch (e) {
      if (e instanceof ApiError) {
        status = e.status;
        code = e.code;
        this.send(res, e.status, e.toBody(), rlHeaders);
      } else {
        status = 500;
        code = 0;
        this.internalErrors.push(e as Error);
        this.send(res, 500, { message: `fake internal error: ${(e as Error)?.message}`, code: 0 });
      }
    } finally {
      const entry: RestLogEntry = { method, route: pattern, path, query: queryStr, body, status, at };
      if (code !== undefined) entry.code = code;
      if (injected) entry.injected = true;
      if (rateLimit) entry.rateLimit = rateLimit;
      this.logRing.push(entry);
      if (status >= 400 && this.errors.length < 1000) this.errors.push(entry);
      this.count(method, pattern, status, at, injected, rateLimit);
    }
  }

  private count(
    method: string,
    pattern: string,
    status: number,
    at: number,
    injected: boolean,
    rateLimit: RateLimitScope | undefined,
  ): void {
    const r = this.reqStats;
    const key = statsRouteKey(method, pattern);
    r.total++;
    r.byRoute[key] = (r.byRoute[key] ?? 0) + 1;
    if (!isInteractionRoute(pattern)) {
      r.globalCounted++;
      const times = this.globalTimes;
      times.push(at);
      let drop = 0;
      while (drop < times.length && times[drop]! <= at - 1000) drop++;
      if (drop) times.splice(0, drop);
      if (times.length > r.peakGlobalPerSecond) r.peakGlobalPerSecond = times.length;
    }
    if (status === 429) r.rateLimited429++;
    if (status === 429 && rateLimit) r.rateLimitedByScope[rateLimit]++;
    // The limiter's own only (an injected 429 counts in rateLimited429 and by its scope).
    if (rateLimit === 'global' && !injected) r.rateLimitedGlobal++;
    if (rateLimit === 'user' && !injected) r.rateLimitedByRoute[key] = (r.rateLimitedByRoute[key] ?? 0) + 1;
    if (injected) r.injected++;
  }

  private injectedReply(rule: FailRule): { body: Record<string, unknown>; headers?: Record<string, string> } {
    if (rule.status === 429) {
      const retryAfter = rule.retryAfter ?? 0.05;
      const scope = rule.scope ?? 'user';
      const global = scope === 'global';
      return {
        body: rule.body ?? { message: 'You are being rate limited.', retry_after: retryAfter, global },
        headers: global
          ? { 'retry-after': String(retryAfter), 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' }
          : {
              'retry-after': String(retryAfter),
              'x-ratelimit-limit': '5',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': String((Date.now() / 1000 + retryAfter).toFixed(3)),
              'x-ratelimit-reset-after': String(retryAfter),
              'x-ratelimit-scope': scope,
            },
      };
    }
    if (rule.body) return { body: rule.body };
    if (rule.status === 403) return { body: { message: 'Missing Permissions', code: 50013 } };
    if (rule.status === 404) return { body: { message: 'Unknown Message', code: 10008 } };
    if (rule.status >= 500) return { body: { message: `${rule.status}: Internal Server Error (injected)`, code: 0 } };
    return { body: { message: 'Injected error', code: 0 } };
  }

  private send(res: ServerResponse, status: number, body?: unknown, headers?: Record<string, string>): void {
    if (res.headersSent) return;
    if (body === undefined) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    const json = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(json),
      ...headers,
    });
    res.end(json);
  }

  /** Bytes of uploaded attachments by attachment id (what Discord's CDN would serve). */
  private readonly attachmentData = new Map<string, Buffer>();

  /** The bytes of an attachment the bot uploaded (undefined when unknown). */
  attachmentBytes(id: string): Buffer | undefined {
    return this.attachmentData.get(id);
  }

  private async parseMultipart(buf: Buffer, contentType: string): Promise<{ body: unknown; files: FakeAttachment[] }> {
    const form = await new Response(buf, { headers: { 'content-type': contentType } }).formData();
    let body: unknown;
    const files: FakeAttachment[] = [];
    for (const [key, value] of form.entries()) {
      if (key === 'payload_json' && typeof value === 'string') {
        body = JSON.parse(value);
      } else if (typeof value !== 'string') {
        const id = this.state.ids.next();
        const file = value as File;
        // Discord's limits on uploads: at most 10 files, each within the attachment size limit.
        if (files.length >= 10)
          throw Errors.invalidForm('files', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
        if (file.size > 10 * 1024 * 1024) throw new ApiError(413, 40005, 'Request entity too large');
        const bytes = Buffer.from(await file.arrayBuffer());
        this.attachmentData.set(id, bytes);
        // Discord reports an image's size; a PNG's is in its IHDR chunk.
        const png =
          bytes.length >= 24 &&
          bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        files.push({
          id,
          filename: file.name || key,
          size: file.size,
          ...(png ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : {}),
          content_type: file.type || (png ? 'image/png' : undefined),
          url: `${this.apiBase}/attachments/${id}/${encodeURIComponent(file.name || key)}`,
          proxy_url: `${this.apiBase}/attachments/${id}/${encodeURIComponent(file.name || key)}`,
        });
      }
    }
    return { body, files };
  }
}
