/**
 * In-memory Discord state for the fake: users, guilds, roles, members, channels, threads,
 * messages, commands. All lookups are O(1) by id. Mutations emit gateway events (through a
 * GatewaySink) and wake `waitFor` waiters (batched per microtask).
 */
import { EventEmitter } from 'node:events';
import type { APIEmbed } from 'discord.js';
import { ALL_PERMISSIONS, Errors, Perm, SnowflakeGen, isoNow, toBigInt } from './util.js';
import type {
  ApiUser,
  FakeAttachment,
  FakeComponent,
  MessageVersion,
  RegisteredCommand,
  StoredMessage,
} from './types.js';

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

export interface UserRec {
  api: ApiUser;
  locale: string;
  dmsOpen: boolean;
  dmChannelId?: string;
}

export interface RoleRec {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  managed: boolean;
  color: number;
  hoist: boolean;
  mentionable: boolean;
  botId?: string;
}

export interface MemberRec {
  userId: string;
  roles: string[];
  joinedAt: string;
  nick: string | null;
  communicationDisabledUntil: string | null;
}

export interface GuildRec {
  id: string;
  name: string;
  ownerId: string;
  locale: string;
  roles: Map<string, RoleRec>;
  members: Map<string, MemberRec>;
  channelIds: Set<string>;
  botRoleId: string;
  createdAt: string;
}

export interface OverwriteRec {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface ThreadRec {
  ownerId: string;
  archived: boolean;
  locked: boolean;
  invitable: boolean;
  autoArchiveDuration: number;
  archiveTimestamp: string;
  createTimestamp: string;
  /** userId -> join timestamp */
  members: Map<string, string>;
  messageCount: number;
}

export interface ChannelRec {
  id: string;
  type: number;
  guildId: string | null;
  name: string;
  parentId: string | null;
  position: number;
  topic: string | null;
  nsfw: boolean;
  rateLimitPerUser: number;
  overwrites: Map<string, OverwriteRec>;
  /** DM channels: the other user */
  recipientId?: string;
  thread?: ThreadRec;
  /** insertion (= id) ordered; ephemeral messages included */
  messages: Map<string, StoredMessage>;
  lastMessageId: string | null;
  lastPinTimestamp: string | null;
  /** messageId -> pinned_at */
  pins: Map<string, string>;
  /** thread ids whose parent is this channel */
  threadIds: Set<string>;
}

/** Message body as sent by discord.js (create or edit). */
export interface MessageBody {
  content?: string | null;
  embeds?: APIEmbed[] | null;
  components?: FakeComponent[] | null;
  flags?: number | null;
  tts?: boolean;
  nonce?: string | number;
  message_reference?: StoredMessage['message_reference'];
  attachments?: { id: string | number; filename?: string; description?: string }[] | null;
  poll?: unknown;
  sticker_ids?: string[];
  allowed_mentions?: unknown;
  [key: string]: unknown;
}

export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

export const ChannelTypes = {
  GuildText: 0,
  DM: 1,
  GuildVoice: 2,
  GuildCategory: 4,
  GuildAnnouncement: 5,
  AnnouncementThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
} as const;

export const MessageFlag = {
  SuppressEmbeds: 1 << 2,
  Ephemeral: 1 << 6,
  Loading: 1 << 7,
  SuppressNotifications: 1 << 12,
  IsComponentsV2: 1 << 15,
} as const;

export function isThreadType(type: number): boolean {
  return type === 10 || type === 11 || type === 12;
}

export interface DispatchTarget {
  /** guild the event belongs to (for shard routing); null/undefined = shard 0 (DMs etc.) */
  guildId?: string | null;
  /** the session must have this intent bit */
  intent?: number;
  /** the session must NOT have this intent bit */
  withoutIntent?: number;
}

export interface GatewaySink {
  wants(target: DispatchTarget): boolean;
  dispatch(t: string, d: unknown, target: DispatchTarget): number;
}

interface Waiter {
  check: () => boolean;
}

export interface StateOptions {
  /** default: a generated snowflake */
  applicationId?: string;
  botUsername: string;
  recordHistory: boolean;
  memberEvents: 'all' | 'intents';
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

export class State {
  readonly ids = new SnowflakeGen();
  readonly applicationId: string;
  readonly botUser: ApiUser;
  readonly users = new Map<string, UserRec>();
  readonly guilds = new Map<string, GuildRec>();
  readonly channels = new Map<string, ChannelRec>();
  readonly messages = new Map<string, StoredMessage>();
  readonly histories = new Map<string, MessageVersion[]>();
  readonly globalCommands = new Map<string, RegisteredCommand>();
  readonly guildCommands = new Map<string, Map<string, RegisteredCommand>>();
  /** message events: 'messageCreate' | 'messageUpdate' | 'messageDelete' (StoredMessage) */
  readonly events = new EventEmitter();
  gateway: GatewaySink = { wants: () => false, dispatch: () => 0 };
  readonly recordHistory: boolean;
  readonly memberEvents: 'all' | 'intents';
  /** `enforce_nonce` on message creates: honoured (as Discord does) and for how long a nonce is remembered */
  nonceConfig: { enforce: boolean; windowMs: number } = { enforce: true, windowMs: 5 * 60_000 };
  /** `${channelId}\0${authorId}\0${nonce}` -> the message created with it */
  readonly nonces = new Map<string, { messageId: string; at: number }>();
  /** message creates answered with an earlier message because of `enforce_nonce` */
  nonceHits = 0;

  private readonly waiters = new Set<Waiter>();
  private flushScheduled = false;

  constructor(opts: StateOptions) {
    this.applicationId = opts.applicationId ?? this.ids.next();
    this.recordHistory = opts.recordHistory;
    this.memberEvents = opts.memberEvents;
    this.events.setMaxListeners(0);
    this.botUser = {
      id: this.applicationId,
      username: opts.botUsername,
      discriminator: '0',
      global_name: null,
      avatar: null,
      bot: true,
      public_flags: 0,
    };
    this.users.set(this.botUser.id, { api: this.botUser, locale: 'en-US', dmsOpen: false });
  }

  // ---- change notification ------------------------------------------------------------------

  /** Call after every mutation: re-evaluates waiters once per microtask batch. */
  notify(): void {
    if (this.flushScheduled || this.waiters.size === 0) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      for (const w of this.waiters) {
        if (w.check()) this.waiters.delete(w);
      }
    });
  }

  addWaiter(check: () => boolean): () => void {
    const w: Waiter = { check };
    this.waiters.add(w);
    return () => this.waiters.delete(w);
  }

  // ---- lookups ------------------------------------------------------------------------------

  requireChannel(id: string): ChannelRec {
    const ch = this.channels.get(id);
    if (!ch) throw Errors.unknownChannel();
    return ch;
  }

  requireGuild(id: string): GuildRec {
    const g = this.guilds.get(id);
    if (!g) throw Errors.unknownGuild();
    return g;
  }

  requireUser(id: string): UserRec {
    const u = this.users.get(id);
    if (!u) throw Errors.unknownUser();
    return u;
  }

  /** The channel whose overwrites apply (parent for threads). */
  permissionChannel(ch: ChannelRec): ChannelRec {
    if (ch.thread && ch.parentId) return this.channels.get(ch.parentId) ?? ch;
    return ch;
  }

  /** True if the user is a member of at least one guild the bot is in (Discord: needed to DM them). */
  sharesGuildWithBot(userId: string): boolean {
    for (const g of this.guilds.values()) if (g.members.has(userId) && g.members.has(this.botUser.id)) return true;
    return false;
  }

  // ---- permissions --------------------------------------------------------------------------

  basePermissions(guild: GuildRec, userId: string): bigint {
    if (userId === guild.ownerId) return ALL_PERMISSIONS;
    let p = guild.roles.get(guild.id)?.permissions ?? 0n;
    const member = guild.members.get(userId);
    if (member) for (const r of member.roles) p |= guild.roles.get(r)?.permissions ?? 0n;
    if (p & Perm.Administrator) return ALL_PERMISSIONS;
    return p;
  }

  /** Effective permissions of a user in a channel (threads: parent overwrites + thread visibility). */
  channelPermissions(ch: ChannelRec, userId: string): bigint {
    if (!ch.guildId) return ALL_PERMISSIONS;
    const guild = this.guilds.get(ch.guildId);
    if (!guild) return 0n;
    const base = this.basePermissions(guild, userId);
    if (base === ALL_PERMISSIONS) return base;
    const target = this.permissionChannel(ch);
    let p = base;
    const ev = target.overwrites.get(guild.id);
    if (ev) p = (p & ~ev.deny) | ev.allow;
    const member = guild.members.get(userId);
    if (member && target.overwrites.size > 0) {
      let allow = 0n;
      let deny = 0n;
      for (const r of member.roles) {
        const o = target.overwrites.get(r);
        if (o && o.type === 0) {
          allow |= o.allow;
          deny |= o.deny;
        }
      }
      p = (p & ~deny) | allow;
    }
    // Discord's order: @everyone's overwrite, then the member's roles' overwrites together (all
    // their denies, then all their allows), then the member's own overwrite last: a member allow
    // beats a role's deny (a mute role), a member deny beats every allow.
    const mo = target.overwrites.get(userId);
    if (mo && mo.type === 1) p = (p & ~mo.deny) | mo.allow;
    // A member in time-out keeps only View Channel and Read Message History (not the owner or an admin).
    if (member?.communicationDisabledUntil && Date.parse(member.communicationDisabledUntil) > Date.now())
      p &= Perm.ViewChannel | Perm.ReadMessageHistory;
    if (!(p & Perm.ViewChannel)) return 0n;
    if (!(p & Perm.SendMessages)) {
      p &= ~(Perm.MentionEveryone | Perm.SendTTSMessages | Perm.AttachFiles | Perm.EmbedLinks);
    }
    // private threads are only visible to members (or with ManageThreads)
    if (
      ch.type === ChannelTypes.PrivateThread &&
      ch.thread &&
      !ch.thread.members.has(userId) &&
      !(p & Perm.ManageThreads)
    ) {
      return 0n;
    }
    return p;
  }

  botPermissions(ch: ChannelRec): bigint {
    // A bot removed from the server sees none of its channels (50001 Missing Access).
    if (ch.guildId && !this.guilds.get(ch.guildId)?.members.has(this.botUser.id)) return 0n;
    return this.channelPermissions(ch, this.botUser.id);
  }

  /** Throws 50001 Missing Access if the bot cannot see the channel, 50013 if any `needed` bit is missing. */
  assertBotCan(ch: ChannelRec, needed: bigint): bigint {
    if (!ch.guildId) return ALL_PERMISSIONS;
    const p = this.botPermissions(ch);
    if (!(p & Perm.ViewChannel)) throw Errors.missingAccess();
    if ((p & needed) !== needed) throw Errors.missingPermissions();
    return p;
  }

  assertBotGuildCan(guild: GuildRec, needed: bigint): bigint {
    const p = this.basePermissions(guild, this.botUser.id);
    if ((p & needed) !== needed) throw Errors.missingPermissions();
    return p;
  }

  /** Highest role position of a member (0 = only @everyone). Owner: Infinity. */
  topRolePosition(guild: GuildRec, userId: string): number {
    if (userId === guild.ownerId) return Number.POSITIVE_INFINITY;
    const m = guild.members.get(userId);
    let top = 0;
    if (m) for (const r of m.roles) top = Math.max(top, guild.roles.get(r)?.position ?? 0);
    return top;
  }

  /**
   * Discord rule for permission overwrites: unless the bot is admin or has ManageRoles granted by
   * an overwrite in that channel, it may only allow/deny permissions it has at guild level.
   */
  assertCanWriteOverwrite(ch: ChannelRec, bits: bigint): void {
    const guild = this.requireGuild(ch.guildId!);
    const chPerms = this.assertBotCan(ch, Perm.ManageRoles);
    if (chPerms === ALL_PERMISSIONS) return;
    const bot = guild.members.get(this.botUser.id);
    let overwriteGrantsManageRoles = (ch.overwrites.get(this.botUser.id)?.allow ?? 0n) & Perm.ManageRoles;
    if (bot)
      for (const r of bot.roles) overwriteGrantsManageRoles |= (ch.overwrites.get(r)?.allow ?? 0n) & Perm.ManageRoles;
    if (overwriteGrantsManageRoles) return;
    // "only permissions your bot has in the guild or parent channel (if applicable)"
    const guildPerms = this.basePermissions(guild, this.botUser.id);
    const parent = ch.parentId ? this.channels.get(ch.parentId) : undefined;
    const parentPerms = parent ? this.botPermissions(parent) : 0n;
    if (bits & ~(guildPerms | parentPerms)) throw Errors.missingPermissions();
  }

  // ---- serialization ------------------------------------------------------------------------

  roleToApi(r: RoleRec): Record<string, unknown> {
    return {
      id: r.id,
      name: r.name,
      color: r.color,
      colors: { primary_color: r.color, secondary_color: null, tertiary_color: null },
      hoist: r.hoist,
      icon: null,
      unicode_emoji: null,
      position: r.position,
      permissions: r.permissions.toString(),
      managed: r.managed,
      mentionable: r.mentionable,
      flags: 0,
      ...(r.botId ? { tags: { bot_id: r.botId } } : {}),
    };
  }

  memberToApi(_guild: GuildRec, m: MemberRec, withUser = true): Record<string, unknown> {
    const out: Record<string, unknown> = {
      nick: m.nick,
      avatar: null,
      banner: null,
      roles: m.roles,
      joined_at: m.joinedAt,
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: m.communicationDisabledUntil,
    };
    if (withUser) out.user = this.users.get(m.userId)?.api ?? { id: m.userId };
    return out;
  }

  overwritesToApi(ch: ChannelRec): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const o of ch.overwrites.values()) {
      out.push({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() });
    }
    return out;
  }

  channelToApi(ch: ChannelRec, withGuildId = true): Record<string, unknown> {
    if (ch.type === ChannelTypes.DM) {
      const u = ch.recipientId ? this.users.get(ch.recipientId)?.api : undefined;
      return { id: ch.id, type: 1, last_message_id: ch.lastMessageId, flags: 0, recipients: u ? [u] : [] };
    }
    const out: Record<string, unknown> = {
      id: ch.id,
      type: ch.type,
      name: ch.name,
      parent_id: ch.parentId,
      flags: 0,
      rate_limit_per_user: ch.rateLimitPerUser,
      last_message_id: ch.lastMessageId,
      nsfw: ch.nsfw,
    };
    if (withGuildId) out.guild_id = ch.guildId;
    if (ch.thread) {
      const t = ch.thread;
      out.owner_id = t.ownerId;
      out.message_count = t.messageCount;
      out.total_message_sent = t.messageCount;
      out.member_count = Math.min(t.members.size, 50);
      out.member_ids_preview = [];
      out.thread_metadata = {
        archived: t.archived,
        auto_archive_duration: t.autoArchiveDuration,
        archive_timestamp: t.archiveTimestamp,
        locked: t.locked,
        invitable: ch.type === ChannelTypes.PrivateThread ? t.invitable : undefined,
        create_timestamp: t.createTimestamp,
      };
    } else {
      out.position = ch.position;
      out.permission_overwrites = this.overwritesToApi(ch);
      out.topic = ch.topic;
      out.last_pin_timestamp = ch.lastPinTimestamp;
    }
    return out;
  }

  threadMemberToApi(threadId: string, userId: string, joinedAt: string): Record<string, unknown> {
    return { id: threadId, user_id: userId, join_timestamp: joinedAt, flags: 0 };
  }

  /** Guild object for REST (no channels/members). */
  guildToApi(g: GuildRec): Record<string, unknown> {
    return {
      id: g.id,
      name: g.name,
      icon: null,
      icon_hash: null,
      splash: null,
      discovery_splash: null,
      owner_id: g.ownerId,
      region: 'deprecated',
      afk_channel_id: null,
      afk_timeout: 300,
      widget_enabled: false,
      widget_channel_id: null,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: [...g.roles.values()].map((r) => this.roleToApi(r)),
      emojis: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      max_presences: null,
      max_members: 500000,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: g.locale,
      public_updates_channel_id: null,
      max_video_channel_users: 25,
      max_stage_video_channel_users: 50,
      nsfw_level: 0,
      stickers: [],
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
      incidents_data: null,
    };
  }

  /** Full GUILD_CREATE payload. */
  guildCreatePayload(g: GuildRec): Record<string, unknown> {
    const channels: unknown[] = [];
    const threads: unknown[] = [];
    for (const id of g.channelIds) {
      const ch = this.channels.get(id);
      if (!ch) continue;
      if (ch.thread) {
        if (!ch.thread.archived && this.botPermissions(ch) & Perm.ViewChannel)
          threads.push(this.channelToApi(ch, true));
      } else {
        channels.push(this.channelToApi(ch, false));
      }
    }
    return {
      ...this.guildToApi(g),
      joined_at: g.createdAt,
      large: false,
      unavailable: false,
      member_count: g.members.size,
      voice_states: [],
      members: [...g.members.values()].map((m) => this.memberToApi(g, m)),
      channels,
      threads,
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  // ---- gateway helpers ----------------------------------------------------------------------

  emitGuild(t: string, guildId: string, d: unknown, intent?: number): void {
    this.gateway.dispatch(t, d, { guildId, intent });
  }

  emitChannelUpdate(ch: ChannelRec): void {
    if (!ch.guildId) return;
    this.emitGuild(ch.thread ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', ch.guildId, this.channelToApi(ch, true));
  }

  emitMemberUpdate(guild: GuildRec, m: MemberRec): void {
    if (this.memberEvents === 'intents') {
      // Discord sends GUILD_MEMBER_UPDATE for other users only with the GuildMembers intent
      const intent = m.userId === this.botUser.id ? undefined : Intent.GuildMembers;
      this.emitGuild('GUILD_MEMBER_UPDATE', guild.id, { guild_id: guild.id, ...this.memberToApi(guild, m) }, intent);
    } else {
      this.emitGuild('GUILD_MEMBER_UPDATE', guild.id, { guild_id: guild.id, ...this.memberToApi(guild, m) });
    }
  }

  // ---- messages -----------------------------------------------------------------------------

  private messageIntent(ch: ChannelRec): number {
    return ch.type === ChannelTypes.DM ? Intent.DirectMessages : Intent.GuildMessages;
  }

  /** Validate + create + store + emit. */
  createMessage(
    ch: ChannelRec,
    body: MessageBody,
    opts: {
      author?: ApiUser;
      files?: FakeAttachment[];
      ephemeralFor?: string;
      interactionId?: string;
      type?: number;
      extra?: Partial<StoredMessage>;
      skipValidation?: boolean;
    } = {},
  ): StoredMessage {
    const author = opts.author ?? this.botUser;
    const content = typeof body.content === 'string' ? body.content : '';
    let flags =
      Number(body.flags ?? 0) &
      (MessageFlag.SuppressEmbeds |
        MessageFlag.SuppressNotifications |
        MessageFlag.IsComponentsV2 |
        MessageFlag.Ephemeral |
        MessageFlag.Loading);
    if (opts.ephemeralFor) flags |= MessageFlag.Ephemeral;
    else flags &= ~MessageFlag.Ephemeral;
    const msg: StoredMessage = {
      id: this.ids.next(),
      channel_id: ch.id,
      author,
      content,
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      components: Array.isArray(body.components) ? body.components : [],
      flags,
      timestamp: isoNow(),
      edited_timestamp: null,
      pinned: false,
      type: opts.type ?? (body.message_reference?.message_id ? 19 : 0),
      tts: Boolean(body.tts),
      mention_everyone: false,
      mentions: this.parseMentions(content),
      mention_roles: this.parseRoleMentions(ch, content),
      attachments: opts.files ?? [],
    };
    msg.pinged = pingedBy(
      msg.mentions.map((u) => u.id),
      body.allowed_mentions,
    );
    msg.pingedRoles = this.rolesPinged(ch, author.id, msg.mention_roles, body.allowed_mentions);
    if (body.nonce !== undefined) msg.nonce = body.nonce;
    if (body.message_reference)
      msg.message_reference = {
        ...body.message_reference,
        channel_id: ch.id,
        ...(ch.guildId ? { guild_id: ch.guildId } : {}),
      };
    if (body.poll) msg.poll = body.poll;
    if (opts.ephemeralFor) msg.ephemeralFor = opts.ephemeralFor;
    if (opts.interactionId) msg.interactionId = opts.interactionId;
    if (opts.extra) Object.assign(msg, opts.extra);
    if (!opts.skipValidation) validateMessage(msg);

    ch.messages.set(msg.id, msg);
    this.messages.set(msg.id, msg);
    ch.lastMessageId = msg.id;
    if (ch.thread) ch.thread.messageCount++;
    this.pushVersion(msg, 'create');
    this.events.emit('messageCreate', msg);
    if (!msg.ephemeralFor) {
      const target: DispatchTarget = { guildId: ch.guildId, intent: this.messageIntent(ch) };
      if (this.gateway.wants(target)) {
        this.gateway.dispatch('MESSAGE_CREATE', this.messageEventPayload(ch, msg), target);
      }
    }
    this.notify();
    return msg;
  }

  /** Apply an edit body to a message (fields present replace), validate, emit. */
  editMessage(msg: StoredMessage, body: MessageBody, files?: FakeAttachment[]): StoredMessage {
    const ch = this.channels.get(msg.channel_id);
    // validate on a shallow candidate first so a rejected edit leaves the message untouched
    const next: StoredMessage = { ...msg };
    if ('content' in body) {
      next.content = typeof body.content === 'string' ? body.content : '';
      next.mentions = this.parseMentions(next.content);
    }
    if ('embeds' in body) next.embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if ('components' in body) next.components = Array.isArray(body.components) ? body.components : [];
    if ('flags' in body && body.flags != null) {
      const mutable = MessageFlag.SuppressEmbeds | MessageFlag.IsComponentsV2;
      next.flags = (msg.flags & ~mutable) | (Number(body.flags) & mutable);
    }
    if ('attachments' in body || files?.length) {
      const keep = new Set((body.attachments ?? []).map((a) => String(a.id)));
      const kept = 'attachments' in body ? msg.attachments.filter((a) => keep.has(a.id)) : msg.attachments;
      next.attachments = files?.length ? kept.concat(files) : kept;
    }
    if (body.poll) next.poll = body.poll;
    const wasLoading = (msg.flags & MessageFlag.Loading) !== 0;
    next.flags &= ~MessageFlag.Loading;
    next.edited_timestamp = wasLoading ? null : isoNow();
    validateMessage(next);
    Object.assign(msg, next);
    this.pushVersion(msg, 'edit');
    this.events.emit('messageUpdate', msg);
    if (ch && !msg.ephemeralFor) {
      const target: DispatchTarget = { guildId: ch.guildId, intent: this.messageIntent(ch) };
      if (this.gateway.wants(target))
        this.gateway.dispatch('MESSAGE_UPDATE', this.messageEventPayload(ch, msg), target);
    }
    this.notify();
    return msg;
  }

  deleteMessage(msg: StoredMessage): void {
    const ch = this.channels.get(msg.channel_id);
    msg.deleted = true;
    this.messages.delete(msg.id);
    if (ch) {
      ch.messages.delete(msg.id);
      ch.pins.delete(msg.id);
    }
    this.pushVersion(msg, 'delete');
    this.events.emit('messageDelete', msg);
    if (ch && !msg.ephemeralFor) {
      const target: DispatchTarget = { guildId: ch.guildId, intent: this.messageIntent(ch) };
      if (this.gateway.wants(target)) {
        this.gateway.dispatch(
          'MESSAGE_DELETE',
          { id: msg.id, channel_id: ch.id, ...(ch.guildId ? { guild_id: ch.guildId } : {}) },
          target,
        );
      }
    }
    this.notify();
  }

  messageEventPayload(ch: ChannelRec, msg: StoredMessage): Record<string, unknown> {
    const out: Record<string, unknown> = { ...msg };
    delete out.interactionId;
    if (ch.guildId) {
      out.guild_id = ch.guildId;
      const g = this.guilds.get(ch.guildId);
      const m = g?.members.get(msg.author.id);
      if (g && m) out.member = this.memberToApi(g, m, false);
    }
    return out;
  }

  private pushVersion(msg: StoredMessage, kind: MessageVersion['kind']): void {
    if (!this.recordHistory) return;
    let list = this.histories.get(msg.id);
    if (!list) {
      list = [];
      this.histories.set(msg.id, list);
    }
    list.push({
      at: Date.now(),
      kind,
      content: msg.content,
      embeds: msg.embeds,
      components: msg.components,
      flags: msg.flags,
    });
  }

  /** The guild's roles a message's content mentions (`<@&id>`), once each. */
  private parseRoleMentions(ch: ChannelRec, content: string): string[] {
    const guild = ch.guildId ? this.guilds.get(ch.guildId) : undefined;
    if (!guild || !content.includes('<@&')) return [];
    const out = new Set<string>();
    for (const m of content.matchAll(/<@&(\d{15,21})>/g)) if (guild.roles.has(m[1]!)) out.add(m[1]!);
    return [...out];
  }

  /** Discord's rule for a role mention's notification (see StoredMessage.pingedRoles). */
  private rolesPinged(ch: ChannelRec, authorId: string, roles: string[], allowed: unknown): string[] {
    if (roles.length === 0) return [];
    const guild = this.guilds.get(ch.guildId!)!;
    const a = allowed as { parse?: string[]; roles?: string[] } | undefined | null;
    const allowedRoles = a === undefined || a === null || a.parse?.includes('roles') ? null : new Set(a.roles ?? []);
    const everyone = (this.channelPermissions(ch, authorId) & Perm.MentionEveryone) !== 0n;
    return roles.filter(
      (r) => (allowedRoles === null || allowedRoles.has(r)) && (everyone || guild.roles.get(r)!.mentionable),
    );
  }

  private parseMentions(content: string): ApiUser[] {
    if (!content.includes('<@')) return [];
    const out: ApiUser[] = [];
    const seen = new Set<string>();
    for (const m of content.matchAll(/<@!?(\d{15,21})>/g)) {
      const id = m[1]!;
      if (seen.has(id)) continue;
      seen.add(id);
      const u = this.users.get(id);
      if (u) out.push(u.api);
    }
    return out;
  }

  // ---- DM channels --------------------------------------------------------------------------

  dmChannelFor(userId: string): ChannelRec {
    const user = this.requireUser(userId);
    if (user.dmChannelId) return this.channels.get(user.dmChannelId)!;
    const ch = this.newChannelRec({ type: ChannelTypes.DM, guildId: null, name: '' });
    ch.recipientId = userId;
    user.dmChannelId = ch.id;
    this.channels.set(ch.id, ch);
    return ch;
  }

  newChannelRec(init: {
    type: number;
    guildId: string | null;
    name: string;
    parentId?: string | null;
    position?: number;
    topic?: string | null;
  }): ChannelRec {
    return {
      id: this.ids.next(),
      type: init.type,
      guildId: init.guildId,
      name: init.name,
      parentId: init.parentId ?? null,
      position: init.position ?? 0,
      topic: init.topic ?? null,
      nsfw: false,
      rateLimitPerUser: 0,
      overwrites: new Map(),
      messages: new Map(),
      lastMessageId: null,
      lastPinTimestamp: null,
      pins: new Map(),
      threadIds: new Set(),
    };
  }

  parseOverwrites(raw: unknown): Map<string, OverwriteRec> {
    const map = new Map<string, OverwriteRec>();
    if (!Array.isArray(raw)) return map;
    for (const o of raw as { id: string; type: number | string; allow?: unknown; deny?: unknown }[]) {
      const type = Number(o.type) === 1 || o.type === 'member' ? 1 : 0;
      map.set(String(o.id), { id: String(o.id), type, allow: toBigInt(o.allow), deny: toBigInt(o.deny) });
    }
    return map;
  }
}

// ---------------------------------------------------------------------------------------------
// Message validation (a light subset of Discord's real rules: catches the common bot bugs)
// ---------------------------------------------------------------------------------------------

const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

export function validateMessage(msg: StoredMessage): void {
  const v2 = (msg.flags & MessageFlag.IsComponentsV2) !== 0;
  if (msg.content.length > 2000) {
    throw Errors.invalidForm('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
  }
  if (
    !msg.content &&
    msg.embeds.length === 0 &&
    msg.components.length === 0 &&
    msg.attachments.length === 0 &&
    !msg.poll &&
    !(msg.flags & MessageFlag.Loading)
  ) {
    throw Errors.emptyMessage();
  }
  if (msg.embeds.length > 10)
    throw Errors.invalidForm('embeds', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  let embedChars = 0;
  msg.embeds.forEach((e, i) => {
    const title = e.title ?? '';
    const desc = e.description ?? '';
    if (title.length > 256)
      throw Errors.invalidForm(`embeds.${i}.title`, 'BASE_TYPE_MAX_LENGTH', 'Must be 256 or fewer in length.');
    if (desc.length > 4096)
      throw Errors.invalidForm(`embeds.${i}.description`, 'BASE_TYPE_MAX_LENGTH', 'Must be 4096 or fewer in length.');
    const fields = e.fields ?? [];
    if (fields.length > 25)
      throw Errors.invalidForm(`embeds.${i}.fields`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    embedChars += title.length + desc.length + (e.footer?.text?.length ?? 0) + (e.author?.name?.length ?? 0);
    fields.forEach((f, j) => {
      if (!f.name || f.name.length > 256)
        throw Errors.invalidForm(
          `embeds.${i}.fields.${j}.name`,
          'BASE_TYPE_BAD_LENGTH',
          'Must be between 1 and 256 in length.',
        );
      if (!f.value || f.value.length > 1024)
        throw Errors.invalidForm(
          `embeds.${i}.fields.${j}.value`,
          'BASE_TYPE_BAD_LENGTH',
          'Must be between 1 and 1024 in length.',
        );
      embedChars += f.name.length + f.value.length;
    });
  });
  if (embedChars > 6000)
    throw Errors.invalidForm('embeds', 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');

  if (v2) {
    if (msg.content || msg.embeds.length) {
      throw Errors.invalidForm(
        'content',
        'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
        "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
      );
    }
  } else if (msg.components.length > 5) {
    throw Errors.invalidForm('components', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
  }
  const ids = new Set<string>();
  const walk = (c: FakeComponent, path: string, inRow: boolean): void => {
    if (c.type === 1) {
      const children = c.components ?? [];
      if (children.length < 1 || children.length > 5)
        throw Errors.invalidForm(`${path}.components`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
      if (children.some((x) => SELECT_TYPES.has(x.type)) && children.length > 1) {
        throw Errors.invalidForm(
          `${path}.components`,
          'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
          'The specified component exceeds the maximum width',
        );
      }
      children.forEach((x, i) => walk(x, `${path}.components.${i}`, true));
      return;
    }
    if (c.type === 2) {
      if (!inRow && !v2)
        throw Errors.invalidForm(`${path}.type`, 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
      if (c.label && c.label.length > 80)
        throw Errors.invalidForm(`${path}.label`, 'BASE_TYPE_MAX_LENGTH', 'Must be 80 or fewer in length.');
      if (c.style === 5) {
        if (!c.url) throw Errors.invalidForm(`${path}.url`, 'BUTTON_COMPONENT_URL_REQUIRED', 'A url is required');
        if (c.custom_id)
          throw Errors.invalidForm(
            `${path}.custom_id`,
            'BUTTON_COMPONENT_CUSTOM_ID_INVALID',
            'A custom id is not allowed',
          );
        return;
      }
      if (c.style === 6) return;
      checkCustomId(c, path, ids);
      if (!c.label && !c.emoji)
        throw Errors.invalidForm(path, 'BUTTON_COMPONENT_INVALID', 'A label or emoji is required');
      return;
    }
    if (SELECT_TYPES.has(c.type)) {
      if (!inRow)
        throw Errors.invalidForm(`${path}.type`, 'UNION_TYPE_CHOICES', 'Select menus must be inside an action row.');
      checkCustomId(c, path, ids);
      const min = c.min_values ?? 1;
      const max = c.max_values ?? 1;
      if (min < 0 || min > 25)
        throw Errors.invalidForm(`${path}.min_values`, 'NUMBER_TYPE_MAX', 'int value should be between 0 and 25.');
      if (max < 1 || max > 25)
        throw Errors.invalidForm(`${path}.max_values`, 'NUMBER_TYPE_MAX', 'int value should be between 1 and 25.');
      if (c.placeholder && c.placeholder.length > 150)
        throw Errors.invalidForm(`${path}.placeholder`, 'BASE_TYPE_MAX_LENGTH', 'Must be 150 or fewer in length.');
      if (c.type === 3) {
        const options = c.options ?? [];
        if (options.length < 1 || options.length > 25)
          throw Errors.invalidForm(`${path}.options`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 25 in length.');
        if (max > options.length)
          throw Errors.invalidForm(
            `${path}.max_values`,
            'SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS',
            'max_values must be less than or equal to the number of options',
          );
        const values = new Set<string>();
        options.forEach((o, i) => {
          if (!o.label || o.label.length > 100)
            throw Errors.invalidForm(
              `${path}.options.${i}.label`,
              'BASE_TYPE_BAD_LENGTH',
              'Must be between 1 and 100 in length.',
            );
          if (!o.value || o.value.length > 100)
            throw Errors.invalidForm(
              `${path}.options.${i}.value`,
              'BASE_TYPE_BAD_LENGTH',
              'Must be between 1 and 100 in length.',
            );
          if (values.has(o.value))
            throw Errors.invalidForm(
              `${path}.options.${i}.value`,
              'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
              'Select component option values must be unique',
            );
          values.add(o.value);
        });
      }
      return;
    }
    if (!v2)
      throw Errors.invalidForm(`${path}.type`, 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
    // Components V2 containers: walk children/accessory
    (c.components ?? []).forEach((x, i) => walk(x, `${path}.components.${i}`, false));
    if (c.accessory) walk(c.accessory, `${path}.accessory`, true);
  };
  msg.components.forEach((c, i) => walk(c, `components.${i}`, false));
}

function checkCustomId(c: FakeComponent, path: string, ids: Set<string>): void {
  const id = c.custom_id;
  if (!id || id.length > 100) {
    throw Errors.invalidForm(`${path}.custom_id`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
  if (ids.has(id))
    throw Errors.invalidForm(
      `${path}.custom_id`,
      'COMPONENT_CUSTOM_ID_DUPLICATED',
      'Component custom id cannot be duplicated',
    );
  ids.add(id);
}

/** Discord's rule: without allowed_mentions every mention notifies; with it, only parsed kinds and listed users. */
function pingedBy(mentioned: string[], allowed: unknown): string[] {
  if (allowed === undefined || allowed === null) return mentioned;
  const a = allowed as { parse?: string[]; users?: string[] };
  if (a.parse?.includes('users')) return mentioned;
  const users = new Set(a.users ?? []);
  return mentioned.filter((u) => users.has(u));
}
