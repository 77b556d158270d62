/**
 * Fake Discord REST API: a tiny segment router plus the route handlers.
 * Handlers return a JSON-able value (200), `undefined` (204) or a `Reply` (custom status),
 * and throw `ApiError` for Discord-style errors.
 */
import { ALL_PERMISSIONS, ApiError, Errors, Perm, isoNow, toBigInt } from './util.js';
import {
  ChannelTypes,
  Intent,
  isThreadType,
  type ChannelRec,
  type GuildRec,
  type MessageBody,
  type OverwriteRec,
  type State,
} from './state.js';
import type { Interactions } from './interactions.js';
import type { CommandOptionDef, FakeAttachment, RegisteredCommand, StoredMessage } from './types.js';

export interface RestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  files: FakeAttachment[];
}

export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers?: Record<string, string>,
  ) {}
}

export type Handler = (ctx: RestContext) => unknown;

interface Route {
  method: string;
  pattern: string;
  segs: string[];
  handler: Handler;
}

export class Router {
  private readonly table = new Map<string, Route[]>();
  add(method: string, pattern: string, handler: Handler): void {
    const segs = pattern.split('/').filter(Boolean);
    const key = `${method} ${segs.length}`;
    let list = this.table.get(key);
    if (!list) {
      list = [];
      this.table.set(key, list);
    }
    list.push({ method, pattern, segs, handler });
  }
  match(method: string, segs: string[]): { route: Route; params: Record<string, string> } | null {
    const list = this.table.get(`${method} ${segs.length}`);
    if (!list) return null;
    outer: for (const route of list) {
      const params: Record<string, string> = {};
      for (let i = 0; i < segs.length; i++) {
        const rs = route.segs[i]!;
        const s = segs[i]!;
        if (rs.charCodeAt(0) === 58 /* : */) params[rs.slice(1)] = s;
        else if (rs !== s) continue outer;
      }
      return { route, params };
    }
    return null;
  }
}

const TEXTLIKE = new Set([
  ChannelTypes.GuildText,
  ChannelTypes.GuildAnnouncement,
  ChannelTypes.GuildVoice,
  ChannelTypes.DM,
  10,
  11,
  12,
]);

export function normalizeChannelName(type: number, name: unknown): string {
  const n = typeof name === 'string' ? name : '';
  if (n.length < 1 || n.length > 100)
    throw Errors.invalidForm('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  // Discord lowercases text channel names and replaces spaces with dashes
  if (type === ChannelTypes.GuildText || type === ChannelTypes.GuildAnnouncement)
    return n.toLowerCase().replace(/\s+/g, '-');
  return n;
}

/** Discord's rule for `nonce`: an integer or a string of at most 25 characters. Returns its key form. */
function checkNonce(nonce: unknown): string | undefined {
  if (nonce === undefined || nonce === null) return undefined;
  if (typeof nonce === 'string') {
    if (nonce.length > 25) throw Errors.invalidForm('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    return nonce;
  }
  if (typeof nonce === 'number' && Number.isInteger(nonce)) return String(nonce);
  throw Errors.invalidForm('nonce', 'NONCE_TYPE_INVALID', 'Nonce must be an integer or a string.');
}

/** What GET /gateway/bot answers besides the url (the gateway decides: shards, session start limit). */
export interface GatewayBotInfo {
  shards: number;
  session_start_limit: { total: number; remaining: number; reset_after: number; max_concurrency: number };
}

export function registerRoutes(
  r: Router,
  s: State,
  ix: Interactions,
  gatewayUrl: () => string,
  gatewayBot: () => GatewayBotInfo,
): void {
  const bot = () => s.botUser.id;

  // ---- gateway / app / users ----------------------------------------------------------------
  r.add('GET', '/gateway/bot', () => ({ url: gatewayUrl(), ...gatewayBot() }));
  r.add('GET', '/gateway', () => ({ url: gatewayUrl() }));
  const appObject = () => ({
    id: s.applicationId,
    name: s.botUser.username,
    icon: null,
    description: '',
    summary: '',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    owner: { id: '0', username: 'owner', discriminator: '0', global_name: null, avatar: null },
    team: null,
    bot: s.botUser,
    approximate_guild_count: s.guilds.size,
    tags: [],
    integration_types_config: { '0': {} },
  });
  r.add('GET', '/applications/@me', appObject);
  r.add('GET', '/oauth2/applications/@me', appObject);
  r.add('GET', '/users/@me', () => s.botUser);
  r.add('GET', '/users/@me/guilds', () =>
    [...s.guilds.values()].map((g) => ({
      id: g.id,
      name: g.name,
      icon: null,
      banner: null,
      owner: g.ownerId === bot(),
      permissions: s.basePermissions(g, bot()).toString(),
      features: [],
    })),
  );
  r.add('GET', '/users/:user', ({ params }) => s.requireUser(params.user!).api);
  r.add('POST', '/users/@me/channels', ({ body }) => {
    const id = String(body?.recipient_id ?? '');
    if (!s.users.has(id)) throw Errors.invalidForm('recipient_id', 'BASE_TYPE_REQUIRED', 'Unknown user');
    return s.channelToApi(s.dmChannelFor(id));
  });

  // ---- commands -----------------------------------------------------------------------------
  const assertApp = (app: string) => {
    if (app !== s.applicationId) throw Errors.missingAccess();
  };
  const guildCmds = (guildId: string): Map<string, RegisteredCommand> => {
    if (!s.guilds.has(guildId)) throw Errors.missingAccess();
    let m = s.guildCommands.get(guildId);
    if (!m) {
      m = new Map();
      s.guildCommands.set(guildId, m);
    }
    return m;
  };
  const upsert = (
    map: Map<string, RegisteredCommand>,
    body: any,
    guildId?: string,
  ): { cmd: RegisteredCommand; created: boolean } => {
    const type = Number(body?.type ?? 1);
    const existing = [...map.values()].find((c) => c.name === body?.name && c.type === type);
    const cmd = normalizeCommand(s, body, guildId, existing);
    map.set(cmd.id, cmd);
    return { cmd, created: !existing };
  };
  const putAll = (map: Map<string, RegisteredCommand>, body: any, guildId?: string) => {
    if (!Array.isArray(body)) throw Errors.invalidForm('_root', 'BASE_TYPE_ARRAY', 'Must be an array');
    if (body.length > 110) throw Errors.invalidForm('_root', 'BASE_TYPE_MAX_LENGTH', 'Too many commands');
    const seen = new Set<string>();
    const next = new Map<string, RegisteredCommand>();
    body.forEach((b: any, i: number) => {
      const key = `${Number(b?.type ?? 1)}:${b?.name}`;
      if (seen.has(key))
        throw Errors.invalidForm(
          `${i}.name`,
          'APPLICATION_COMMANDS_DUPLICATE_NAME',
          `Application command names must be unique: ${b?.name}`,
        );
      seen.add(key);
      const existing = [...map.values()].find((c) => c.name === b?.name && c.type === Number(b?.type ?? 1));
      const cmd = normalizeCommand(s, b, guildId, existing, String(i));
      next.set(cmd.id, cmd);
    });
    map.clear();
    for (const [k, v] of next) map.set(k, v);
    s.notify();
    return [...map.values()];
  };
  const byId = (map: Map<string, RegisteredCommand>, id: string) => {
    const c = map.get(id);
    if (!c) throw Errors.unknownCommand();
    return c;
  };
  r.add('GET', '/applications/:app/commands', ({ params }) => (assertApp(params.app!), [...s.globalCommands.values()]));
  r.add(
    'PUT',
    '/applications/:app/commands',
    ({ params, body }) => (assertApp(params.app!), putAll(s.globalCommands, body)),
  );
  r.add('POST', '/applications/:app/commands', ({ params, body }) => {
    assertApp(params.app!);
    const { cmd, created } = upsert(s.globalCommands, body);
    s.notify();
    return new Reply(created ? 201 : 200, cmd);
  });
  r.add(
    'GET',
    '/applications/:app/commands/:cmd',
    ({ params }) => (assertApp(params.app!), byId(s.globalCommands, params.cmd!)),
  );
  r.add('PATCH', '/applications/:app/commands/:cmd', ({ params, body }) => {
    assertApp(params.app!);
    const old = byId(s.globalCommands, params.cmd!);
    const cmd = normalizeCommand(s, { ...old, ...body }, undefined, old);
    s.globalCommands.set(cmd.id, cmd);
    return cmd;
  });
  r.add('DELETE', '/applications/:app/commands/:cmd', ({ params }) => {
    assertApp(params.app!);
    byId(s.globalCommands, params.cmd!);
    s.globalCommands.delete(params.cmd!);
  });
  r.add(
    'GET',
    '/applications/:app/guilds/:guild/commands',
    ({ params }) => (assertApp(params.app!), [...guildCmds(params.guild!).values()]),
  );
  r.add(
    'PUT',
    '/applications/:app/guilds/:guild/commands',
    ({ params, body }) => (assertApp(params.app!), putAll(guildCmds(params.guild!), body, params.guild)),
  );
  r.add('POST', '/applications/:app/guilds/:guild/commands', ({ params, body }) => {
    assertApp(params.app!);
    const { cmd, created } = upsert(guildCmds(params.guild!), body, params.guild);
    s.notify();
    return new Reply(created ? 201 : 200, cmd);
  });
  r.add(
    'GET',
    '/applications/:app/guilds/:guild/commands/:cmd',
    ({ params }) => (assertApp(params.app!), byId(guildCmds(params.guild!), params.cmd!)),
  );
  r.add('PATCH', '/applications/:app/guilds/:guild/commands/:cmd', ({ params, body }) => {
    assertApp(params.app!);
    const map = guildCmds(params.guild!);
    const old = byId(map, params.cmd!);
    const cmd = normalizeCommand(s, { ...old, ...body }, params.guild, old);
    map.set(cmd.id, cmd);
    return cmd;
  });
  r.add('DELETE', '/applications/:app/guilds/:guild/commands/:cmd', ({ params }) => {
    assertApp(params.app!);
    const map = guildCmds(params.guild!);
    byId(map, params.cmd!);
    map.delete(params.cmd!);
  });

  // ---- interactions / webhooks --------------------------------------------------------------
  r.add('POST', '/interactions/:id/:token/callback', ({ params, body, query, files }) =>
    ix.callback(params.id!, params.token!, body, query.get('with_response') === 'true', files),
  );
  r.add('POST', '/webhooks/:app/:token', ({ params, body, query, files }) => {
    const msg = ix.followup(params.app!, params.token!, body ?? {}, files);
    return query.get('wait') === 'true' ? msg : undefined;
  });
  r.add('GET', '/webhooks/:app/:token/messages/:message', ({ params }) =>
    ix.getMessage(params.app!, params.token!, params.message!),
  );
  r.add('PATCH', '/webhooks/:app/:token/messages/:message', ({ params, body, files }) =>
    ix.editMessage(params.app!, params.token!, params.message!, body ?? {}, files),
  );
  r.add('DELETE', '/webhooks/:app/:token/messages/:message', ({ params }) => {
    ix.deleteMessage(params.app!, params.token!, params.message!);
  });

  // ---- channels: messages -------------------------------------------------------------------
  const channelMessage = (ch: ChannelRec, id: string): StoredMessage => {
    const m = ch.messages.get(id);
    if (!m || m.ephemeralFor) throw Errors.unknownMessage();
    return m;
  };
  const unarchive = (ch: ChannelRec) => {
    if (ch.thread?.archived) {
      ch.thread.archived = false;
      ch.thread.archiveTimestamp = isoNow();
      s.emitChannelUpdate(ch);
    }
  };

  r.add('POST', '/channels/:channel/messages', ({ params, body, files }) => {
    const ch = s.requireChannel(params.channel!);
    const nonce = checkNonce(body?.nonce);
    if (ch.type === ChannelTypes.DM) {
      const u = ch.recipientId ? s.users.get(ch.recipientId) : undefined;
      // closed DMs, bots, and users who share no server with the bot cannot be messaged
      if (!u || !u.dmsOpen || u.api.bot || !s.sharesGuildWithBot(u.api.id)) throw Errors.cannotDm();
    } else {
      if (!TEXTLIKE.has(ch.type)) throw new ApiError(400, 50008, 'Cannot send messages in a non-text channel');
      if (ch.thread) {
        const p = s.assertBotCan(ch, Perm.SendMessagesInThreads);
        const manage = (p & Perm.ManageThreads) !== 0n;
        if (ch.thread.locked && !manage)
          throw ch.thread.archived ? new ApiError(400, 50083, 'Thread is archived') : Errors.threadLocked();
        unarchive(ch);
      } else {
        s.assertBotCan(ch, Perm.SendMessages);
      }
    }
    // enforce_nonce: the same author + channel + nonce within the window gets the first message back
    const nonceKey =
      nonce !== undefined && body?.enforce_nonce === true && s.nonceConfig.enforce
        ? `${ch.id}\u0000${bot()}\u0000${nonce}`
        : undefined;
    if (nonceKey) {
      const seen = s.nonces.get(nonceKey);
      const first = seen && Date.now() - seen.at < s.nonceConfig.windowMs ? ch.messages.get(seen.messageId) : undefined;
      if (first) {
        s.nonceHits++;
        return first;
      }
    }
    const msg = s.createMessage(ch, (body ?? {}) as MessageBody, { files });
    // Discord adds a user a message pings in a private thread to it, if he can see its channel.
    if (ch.type === ChannelTypes.PrivateThread && ch.thread && ch.guildId) {
      const parent = ch.parentId ? s.channels.get(ch.parentId) : undefined;
      const g = s.guilds.get(ch.guildId);
      const added = (msg.pinged ?? []).filter(
        (u) =>
          !ch.thread!.members.has(u) &&
          g?.members.has(u) &&
          parent &&
          (s.channelPermissions(parent, u) & Perm.ViewChannel) !== 0n,
      );
      for (const u of added) ch.thread.members.set(u, isoNow());
      if (added.length > 0) emitThreadMembers(ch, added, []);
    }
    if (nonceKey) {
      const now = Date.now();
      if (s.nonces.size > 5000)
        for (const [k, v] of s.nonces) if (now - v.at >= s.nonceConfig.windowMs) s.nonces.delete(k);
      s.nonces.set(nonceKey, { messageId: msg.id, at: now });
    }
    return msg;
  });

  r.add('GET', '/channels/:channel/messages', ({ params, query }) => {
    const ch = s.requireChannel(params.channel!);
    const p = s.assertBotCan(ch, 0n);
    if (!(p & Perm.ReadMessageHistory)) return [];
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
    const before = query.get('before');
    const after = query.get('after');
    const around = query.get('around');
    const all = [...ch.messages.values()].filter((m) => !m.ephemeralFor);
    let out: StoredMessage[];
    if (after) {
      const a = BigInt(after);
      out = all.filter((m) => BigInt(m.id) > a).slice(0, limit);
    } else if (before) {
      const b = BigInt(before);
      const older = all.filter((m) => BigInt(m.id) < b);
      out = older.slice(Math.max(0, older.length - limit));
    } else if (around) {
      const idx = all.findIndex((m) => m.id === around);
      const start = Math.max(0, (idx < 0 ? all.length : idx) - Math.floor(limit / 2));
      out = all.slice(start, start + limit);
    } else {
      out = all.slice(Math.max(0, all.length - limit));
    }
    return out.reverse();
  });

  // pins (new + legacy routes) — registered before /messages/:message so "pins" isn't taken as an id
  const pinsNew = ({ params }: RestContext) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, Perm.ReadMessageHistory);
    const items = [...ch.pins.entries()]
      .map(([id, at]) => ({ pinned_at: at, message: ch.messages.get(id) }))
      .filter((x) => x.message)
      .reverse();
    return { items, has_more: false };
  };
  const pinsLegacy = ({ params }: RestContext) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, Perm.ReadMessageHistory);
    return [...ch.pins.keys()]
      .map((id) => ch.messages.get(id))
      .filter(Boolean)
      .reverse();
  };
  const pin = ({ params }: RestContext) => {
    const ch = s.requireChannel(params.channel!);
    const p = s.assertBotCan(ch, 0n);
    if (ch.guildId && !(p & (Perm.ManageMessages | Perm.PinMessages))) throw Errors.missingPermissions();
    const msg = channelMessage(ch, params.message!);
    if (msg.pinned) return undefined;
    if (ch.pins.size >= 250) throw new ApiError(400, 30003, 'Maximum number of pins reached (250)');
    const at = isoNow();
    msg.pinned = true;
    ch.pins.set(msg.id, at);
    ch.lastPinTimestamp = at;
    s.gateway.dispatch(
      'CHANNEL_PINS_UPDATE',
      { channel_id: ch.id, last_pin_timestamp: at, ...(ch.guildId ? { guild_id: ch.guildId } : {}) },
      { guildId: ch.guildId, intent: ch.guildId ? Intent.Guilds : Intent.DirectMessages },
    );
    // Discord posts a "pinned a message" system message (type 6)
    s.createMessage(
      ch,
      { content: '' },
      {
        type: 6,
        skipValidation: true,
        extra: {
          message_reference: {
            message_id: msg.id,
            channel_id: ch.id,
            ...(ch.guildId ? { guild_id: ch.guildId } : {}),
            type: 0,
          },
        },
      },
    );
    s.events.emit('messageUpdate', msg);
    s.notify();
    return undefined;
  };
  const unpin = ({ params }: RestContext) => {
    const ch = s.requireChannel(params.channel!);
    const p = s.assertBotCan(ch, 0n);
    if (ch.guildId && !(p & (Perm.ManageMessages | Perm.PinMessages))) throw Errors.missingPermissions();
    const msg = channelMessage(ch, params.message!);
    if (!msg.pinned) return undefined;
    msg.pinned = false;
    ch.pins.delete(msg.id);
    s.gateway.dispatch(
      'CHANNEL_PINS_UPDATE',
      { channel_id: ch.id, last_pin_timestamp: ch.lastPinTimestamp, ...(ch.guildId ? { guild_id: ch.guildId } : {}) },
      { guildId: ch.guildId, intent: ch.guildId ? Intent.Guilds : Intent.DirectMessages },
    );
    s.events.emit('messageUpdate', msg);
    s.notify();
    return undefined;
  };
  r.add('GET', '/channels/:channel/messages/pins', pinsNew);
  r.add('PUT', '/channels/:channel/messages/pins/:message', pin);
  r.add('DELETE', '/channels/:channel/messages/pins/:message', unpin);
  r.add('GET', '/channels/:channel/pins', pinsLegacy);
  r.add('PUT', '/channels/:channel/pins/:message', pin);
  r.add('DELETE', '/channels/:channel/pins/:message', unpin);

  r.add('POST', '/channels/:channel/messages/bulk-delete', ({ params, body }) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, Perm.ManageMessages);
    const ids: string[] = Array.isArray(body?.messages) ? body.messages : [];
    if (ids.length < 2 || ids.length > 100)
      throw Errors.invalidForm('messages', 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.');
    for (const id of ids) {
      const m = ch.messages.get(id);
      if (m && !m.ephemeralFor) s.deleteMessage(m);
    }
  });

  r.add('GET', '/channels/:channel/messages/:message', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, Perm.ReadMessageHistory);
    return channelMessage(ch, params.message!);
  });
  r.add('PATCH', '/channels/:channel/messages/:message', ({ params, body, files }) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, 0n);
    const msg = channelMessage(ch, params.message!);
    if (msg.author.id !== bot()) throw Errors.editOthers();
    return s.editMessage(msg, (body ?? {}) as MessageBody, files);
  });
  r.add('DELETE', '/channels/:channel/messages/:message', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    const msg = channelMessage(ch, params.message!);
    if (msg.author.id !== bot()) s.assertBotCan(ch, Perm.ManageMessages);
    s.deleteMessage(msg);
  });

  // reactions (stored on the message as `reactions`, no gateway events)
  const reactionKey = (raw: string) => {
    const [name, id] = raw.split(':');
    return { name: name ?? raw, id: id ?? null };
  };
  r.add('PUT', '/channels/:channel/messages/:message/reactions/:emoji/:user', ({ params }) => {
    if (params.user !== '@me') throw Errors.invalidForm('user', 'BASE_TYPE_CHOICES', 'Only @me');
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, Perm.AddReactions | Perm.ReadMessageHistory);
    const msg = channelMessage(ch, params.message!) as StoredMessage & { reactions?: any[] };
    const emoji = reactionKey(params.emoji!);
    const list = (msg.reactions ??= []);
    const existing = list.find((x) => x.emoji.name === emoji.name && x.emoji.id === emoji.id);
    if (existing) {
      if (!existing.me) {
        existing.me = true;
        existing.count++;
        existing.count_details.normal++;
      }
    } else {
      list.push({
        emoji,
        count: 1,
        me: true,
        me_burst: false,
        burst_count: 0,
        burst_colors: [],
        count_details: { burst: 0, normal: 1 },
      });
    }
    s.notify();
  });
  r.add('DELETE', '/channels/:channel/messages/:message/reactions/:emoji/:user', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    if (params.user !== '@me') s.assertBotCan(ch, Perm.ManageMessages);
    const msg = channelMessage(ch, params.message!) as StoredMessage & { reactions?: any[] };
    const emoji = reactionKey(params.emoji!);
    const list = msg.reactions ?? [];
    const idx = list.findIndex((x) => x.emoji.name === emoji.name && x.emoji.id === emoji.id);
    if (idx >= 0 && params.user === '@me' && list[idx].me) {
      list[idx].me = false;
      list[idx].count--;
      list[idx].count_details.normal--;
      if (list[idx].count <= 0) list.splice(idx, 1);
    }
    s.notify();
  });
  r.add('DELETE', '/channels/:channel/messages/:message/reactions', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, Perm.ManageMessages);
    const msg = channelMessage(ch, params.message!) as StoredMessage & { reactions?: any[] };
    msg.reactions = [];
    s.notify();
  });

  r.add('POST', '/channels/:channel/typing', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    if (ch.guildId) s.assertBotCan(ch, ch.thread ? Perm.SendMessagesInThreads : Perm.SendMessages);
  });

  // ---- channels: channel objects ------------------------------------------------------------
  r.add('GET', '/channels/:channel', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    s.assertBotCan(ch, 0n);
    return s.channelToApi(ch);
  });

  r.add('PATCH', '/channels/:channel', ({ params, body }) => {
    const ch = s.requireChannel(params.channel!);
    const b = body ?? {};
    if (ch.type === ChannelTypes.DM) throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    if (ch.thread) {
      const t = ch.thread;
      const p = s.assertBotCan(ch, 0n);
      const manage = (p & Perm.ManageThreads) !== 0n;
      const owner = t.ownerId === bot();
      if (('locked' in b || 'invitable' in b) && !manage) throw Errors.missingPermissions();
      if (
        ('name' in b || 'archived' in b || 'auto_archive_duration' in b || 'rate_limit_per_user' in b) &&
        !manage &&
        !owner
      ) {
        throw Errors.missingPermissions();
      }
      if (t.locked && !manage && b.archived === false) throw Errors.missingPermissions();
      if ('name' in b) ch.name = normalizeChannelName(ch.type, b.name);
      if ('archived' in b && Boolean(b.archived) !== t.archived) {
        t.archived = Boolean(b.archived);
        t.archiveTimestamp = isoNow();
      }
      if ('locked' in b) t.locked = Boolean(b.locked);
      if ('invitable' in b) t.invitable = Boolean(b.invitable);
      if ('auto_archive_duration' in b) t.autoArchiveDuration = Number(b.auto_archive_duration);
      if ('rate_limit_per_user' in b) ch.rateLimitPerUser = Number(b.rate_limit_per_user ?? 0);
    } else {
      s.assertBotCan(ch, Perm.ManageChannels);
      let newOverwrites: Map<string, OverwriteRec> | undefined;
      if ('permission_overwrites' in b) {
        newOverwrites = s.parseOverwrites(b.permission_overwrites);
        let changed = 0n;
        for (const o of newOverwrites.values()) {
          const old = ch.overwrites.get(o.id);
          changed |= (o.allow ^ (old?.allow ?? 0n)) | (o.deny ^ (old?.deny ?? 0n));
        }
        for (const old of ch.overwrites.values()) if (!newOverwrites.has(old.id)) changed |= old.allow | old.deny;
        if (changed) s.assertCanWriteOverwrite(ch, changed);
      }
      if ('name' in b) ch.name = normalizeChannelName(ch.type, b.name);
      if ('topic' in b) ch.topic = b.topic ?? null;
      if ('position' in b && b.position != null) ch.position = Number(b.position);
      if ('parent_id' in b) ch.parentId = b.parent_id ?? null;
      if ('nsfw' in b) ch.nsfw = Boolean(b.nsfw);
      if ('rate_limit_per_user' in b) ch.rateLimitPerUser = Number(b.rate_limit_per_user ?? 0);
      if (newOverwrites) ch.overwrites = newOverwrites;
    }
    s.emitChannelUpdate(ch);
    s.notify();
    return s.channelToApi(ch);
  });

  r.add('DELETE', '/channels/:channel', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    if (ch.type === ChannelTypes.DM) return s.channelToApi(ch);
    s.assertBotCan(ch, ch.thread ? Perm.ManageThreads : Perm.ManageChannels);
    const api = s.channelToApi(ch);
    removeChannel(s, ch);
    return api;
  });

  r.add('PUT', '/channels/:channel/permissions/:overwrite', ({ params, body }) => {
    const ch = s.requireChannel(params.channel!);
    if (!ch.guildId || ch.thread) throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    const guild = s.requireGuild(ch.guildId);
    const id = params.overwrite!;
    if (body?.type === undefined || body?.type === null)
      throw Errors.invalidForm('type', 'BASE_TYPE_REQUIRED', 'This field is required');
    const type: 0 | 1 = Number(body?.type) === 1 || body?.type === 'member' ? 1 : 0;
    if (type === 0 && !guild.roles.has(id)) throw Errors.unknownRole();
    if (type === 1 && !s.users.has(id)) throw Errors.unknownUser();
    const allow = toBigInt(body?.allow);
    const deny = toBigInt(body?.deny);
    const old = ch.overwrites.get(id);
    const changed = (allow ^ (old?.allow ?? 0n)) | (deny ^ (old?.deny ?? 0n));
    s.assertCanWriteOverwrite(ch, changed);
    ch.overwrites.set(id, { id, type, allow, deny });
    s.emitChannelUpdate(ch);
    s.notify();
  });
  r.add('DELETE', '/channels/:channel/permissions/:overwrite', ({ params }) => {
    const ch = s.requireChannel(params.channel!);
    if (!ch.guildId || ch.thread) throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    const old = ch.overwrites.get(params.overwrite!);
    s.assertCanWriteOverwrite(ch, old ? old.allow | old.deny : 0n);
    if (old) {
      ch.overwrites.delete(old.id);
      s.emitChannelUpdate(ch);
      s.notify();
    }
  });

  // ---- threads ------------------------------------------------------------------------------
  const createThread = (parent: ChannelRec, b: any, fromMessage?: StoredMessage) => {
    if (
      !parent.guildId ||
      parent.thread ||
      (parent.type !== ChannelTypes.GuildText && parent.type !== ChannelTypes.GuildAnnouncement)
    ) {
      throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    }
    const type = fromMessage
      ? parent.type === ChannelTypes.GuildAnnouncement
        ? 10
        : 11
      : Number(b?.type ?? ChannelTypes.PrivateThread);
    if (!isThreadType(type))
      throw Errors.invalidForm('type', 'BASE_TYPE_CHOICES', 'Value must be one of (10, 11, 12).');
    s.assertBotCan(parent, type === ChannelTypes.PrivateThread ? Perm.CreatePrivateThreads : Perm.CreatePublicThreads);
    const name = normalizeChannelName(type, b?.name);
    const th = s.newChannelRec({ type, guildId: parent.guildId, name, parentId: parent.id });
    if (fromMessage) th.id = fromMessage.id;
    const now = isoNow();
    th.rateLimitPerUser = Number(b?.rate_limit_per_user ?? 0);
    th.thread = {
      ownerId: bot(),
      archived: false,
      locked: false,
      invitable: type === ChannelTypes.PrivateThread ? b?.invitable !== false : true,
      autoArchiveDuration: Number(b?.auto_archive_duration ?? 1440),
      archiveTimestamp: now,
      createTimestamp: now,
      members: new Map([[bot(), now]]),
      messageCount: 0,
    };
    s.channels.set(th.id, th);
    s.guilds.get(parent.guildId)!.channelIds.add(th.id);
    parent.threadIds.add(th.id);
    const api = s.channelToApi(th, true);
    s.emitGuild('THREAD_CREATE', parent.guildId, {
      ...api,
      newly_created: true,
      member: s.threadMemberToApi(th.id, bot(), now),
    });
    s.notify();
    return api;
  };
  r.add('POST', '/channels/:channel/threads', ({ params, body }) =>
    createThread(s.requireChannel(params.channel!), body),
  );
  r.add('POST', '/channels/:channel/messages/:message/threads', ({ params, body }) => {
    const parent = s.requireChannel(params.channel!);
    const msg = channelMessage(parent, params.message!);
    if (s.channels.has(msg.id)) throw new ApiError(400, 160004, 'A thread has already been created for this message');
    return createThread(parent, body, msg);
  });

  const threadOf = (id: string): ChannelRec & { thread: NonNullable<ChannelRec['thread']> } => {
    const th = s.requireChannel(id);
    if (!th.thread) throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    return th as ChannelRec & { thread: NonNullable<ChannelRec['thread']> };
  };
  const emitThreadMembers = (th: ChannelRec, added: string[], removed: string[]) => {
    const g = s.guilds.get(th.guildId!)!;
    const payload = (forBotOnly: boolean) => ({
      id: th.id,
      guild_id: th.guildId,
      member_count: Math.min(th.thread!.members.size, 50),
      added_members: added
        .filter((u) => !forBotOnly || u === bot())
        .map((u) => {
          const m = g.members.get(u);
          return {
            ...s.threadMemberToApi(th.id, u, th.thread!.members.get(u) ?? isoNow()),
            ...(m ? { member: s.memberToApi(g, m) } : {}),
          };
        }),
      removed_member_ids: removed.filter((u) => !forBotOnly || u === bot()),
    });
    // with GuildMembers intent: every change; without it: only changes involving the bot
    s.gateway.dispatch('THREAD_MEMBERS_UPDATE', payload(false), { guildId: th.guildId, intent: Intent.GuildMembers });
    if (added.includes(bot()) || removed.includes(bot())) {
      s.gateway.dispatch('THREAD_MEMBERS_UPDATE', payload(true), {
        guildId: th.guildId,
        withoutIntent: Intent.GuildMembers,
      });
    }
  };
  r.add('PUT', '/channels/:channel/thread-members/:user', ({ params }) => {
    const th = threadOf(params.channel!);
    const uid = params.user === '@me' ? bot() : params.user!;
    const g = s.requireGuild(th.guildId!);
    if (uid !== bot()) {
      const p = s.assertBotCan(th, Perm.SendMessagesInThreads);
      if (th.thread.locked && !(p & Perm.ManageThreads)) throw Errors.threadLocked();
    } else if (th.type === ChannelTypes.PrivateThread && !(s.botPermissions(th) & Perm.ViewChannel)) {
      throw Errors.missingAccess();
    }
    if (th.thread.archived) throw new ApiError(400, 50083, 'Thread is archived');
    if (!g.members.has(uid)) throw Errors.unknownMember();
    if (th.thread.members.has(uid)) return undefined;
    th.thread.members.set(uid, isoNow());
    emitThreadMembers(th, [uid], []);
    s.notify();
    return undefined;
  });
  r.add('DELETE', '/channels/:channel/thread-members/:user', ({ params }) => {
    const th = threadOf(params.channel!);
    const uid = params.user === '@me' ? bot() : params.user!;
    if (uid !== bot()) {
      const p = s.assertBotCan(th, 0n);
      const owner = th.thread.ownerId === bot() && th.type === ChannelTypes.PrivateThread;
      if (!(p & Perm.ManageThreads) && !owner) throw Errors.missingPermissions();
    }
    if (th.thread.archived) throw new ApiError(400, 50083, 'Thread is archived');
    if (!th.thread.members.delete(uid)) return undefined;
    emitThreadMembers(th, [], [uid]);
    s.notify();
    return undefined;
  });
  r.add('GET', '/channels/:channel/thread-members/:user', ({ params }) => {
    const th = threadOf(params.channel!);
    s.assertBotCan(th, 0n);
    const uid = params.user === '@me' ? bot() : params.user!;
    const at = th.thread.members.get(uid);
    if (!at) throw Errors.unknownMember();
    return s.threadMemberToApi(th.id, uid, at);
  });
  r.add('GET', '/channels/:channel/thread-members', ({ params }) => {
    const th = threadOf(params.channel!);
    s.assertBotCan(th, 0n);
    return [...th.thread.members].map(([u, at]) => s.threadMemberToApi(th.id, u, at));
  });

  // ---- guilds -------------------------------------------------------------------------------
  r.add('GET', '/guilds/:guild', ({ params, query }) => {
    const g = s.requireGuild(params.guild!);
    const out = s.guildToApi(g);
    if (query.get('with_counts') === 'true') {
      out.approximate_member_count = g.members.size;
      out.approximate_presence_count = 0;
    }
    return out;
  });
  r.add('GET', '/guilds/:guild/channels', ({ params }) => {
    const g = s.requireGuild(params.guild!);
    const out: unknown[] = [];
    for (const id of g.channelIds) {
      const ch = s.channels.get(id);
      if (ch && !ch.thread) out.push(s.channelToApi(ch));
    }
    return out;
  });
  r.add('POST', '/guilds/:guild/channels', ({ params, body }) => {
    const g = s.requireGuild(params.guild!);
    s.assertBotGuildCan(g, Perm.ManageChannels);
    const type = Number(body?.type ?? 0);
    if (isThreadType(type) || type === ChannelTypes.DM)
      throw Errors.invalidForm('type', 'BASE_TYPE_CHOICES', 'Invalid channel type');
    const ch = s.newChannelRec({
      type,
      guildId: g.id,
      name: normalizeChannelName(type, body?.name),
      parentId: body?.parent_id ?? null,
      position: Number(body?.position ?? g.channelIds.size),
      topic: body?.topic ?? null,
    });
    if (body?.permission_overwrites) {
      const ow = s.parseOverwrites(body.permission_overwrites);
      let bits = 0n;
      for (const o of ow.values()) bits |= o.allow | o.deny;
      const base = s.basePermissions(g, bot());
      if (bits && base !== ALL_PERMISSIONS && (!(base & Perm.ManageRoles) || bits & ~base))
        throw Errors.missingPermissions();
      ch.overwrites = ow;
    } else if (ch.parentId) {
      // new channels in a category inherit (sync) its overwrites
      const parent = s.channels.get(ch.parentId);
      if (parent) for (const [k, v] of parent.overwrites) ch.overwrites.set(k, { ...v });
    }
    if ('nsfw' in (body ?? {})) ch.nsfw = Boolean(body.nsfw);
    s.channels.set(ch.id, ch);
    g.channelIds.add(ch.id);
    s.emitGuild('CHANNEL_CREATE', g.id, s.channelToApi(ch, true));
    s.notify();
    return new Reply(201, s.channelToApi(ch));
  });
  r.add('GET', '/guilds/:guild/threads/active', ({ params }) => {
    const g = s.requireGuild(params.guild!);
    const threads: unknown[] = [];
    const members: unknown[] = [];
    for (const id of g.channelIds) {
      const ch = s.channels.get(id);
      if (!ch?.thread || ch.thread.archived) continue;
      if (!(s.botPermissions(ch) & Perm.ViewChannel)) continue;
      threads.push(s.channelToApi(ch));
      const at = ch.thread.members.get(bot());
      if (at) members.push(s.threadMemberToApi(ch.id, bot(), at));
    }
    return { threads, members };
  });
  r.add('GET', '/guilds/:guild/roles', ({ params }) =>
    [...s.requireGuild(params.guild!).roles.values()].map((x) => s.roleToApi(x)),
  );
  r.add('POST', '/guilds/:guild/roles', ({ params, body }) => {
    const g = s.requireGuild(params.guild!);
    const base = s.assertBotGuildCan(g, Perm.ManageRoles);
    const permissions =
      body?.permissions != null ? toBigInt(body.permissions) : s.guilds.get(g.id)!.roles.get(g.id)!.permissions;
    if (permissions & ~base) throw Errors.missingPermissions();
    // new roles go right above @everyone; everything else shifts up
    for (const role of g.roles.values()) if (role.id !== g.id) role.position++;
    const role = {
      id: s.ids.next(),
      guildId: g.id,
      name: typeof body?.name === 'string' ? body.name : 'new role',
      permissions,
      position: 1,
      managed: false,
      color: Number(body?.color ?? 0),
      hoist: Boolean(body?.hoist),
      mentionable: Boolean(body?.mentionable),
    };
    g.roles.set(role.id, role);
    s.emitGuild('GUILD_ROLE_CREATE', g.id, { guild_id: g.id, role: s.roleToApi(role) });
    s.notify();
    return s.roleToApi(role);
  });
  const manageableRole = (g: GuildRec, roleId: string) => {
    const role = g.roles.get(roleId);
    if (!role) throw Errors.unknownRole();
    s.assertBotGuildCan(g, Perm.ManageRoles);
    if (role.position >= s.topRolePosition(g, bot())) throw Errors.missingPermissions();
    return role;
  };
  r.add('PATCH', '/guilds/:guild/roles/:role', ({ params, body }) => {
    const g = s.requireGuild(params.guild!);
    const role = manageableRole(g, params.role!);
    if ('permissions' in (body ?? {})) {
      const p = toBigInt(body.permissions);
      if (p & ~s.basePermissions(g, bot())) throw Errors.missingPermissions();
      role.permissions = p;
    }
    if ('name' in (body ?? {})) role.name = String(body.name);
    if ('color' in (body ?? {})) role.color = Number(body.color ?? 0);
    if ('hoist' in (body ?? {})) role.hoist = Boolean(body.hoist);
    if ('mentionable' in (body ?? {})) role.mentionable = Boolean(body.mentionable);
    s.emitGuild('GUILD_ROLE_UPDATE', g.id, { guild_id: g.id, role: s.roleToApi(role) });
    s.notify();
    return s.roleToApi(role);
  });
  r.add('DELETE', '/guilds/:guild/roles/:role', ({ params }) => {
    const g = s.requireGuild(params.guild!);
    const role = manageableRole(g, params.role!);
    if (role.managed || role.id === g.id) throw new ApiError(400, 50028, 'Invalid Role');
    g.roles.delete(role.id);
    for (const m of g.members.values()) m.roles = m.roles.filter((x) => x !== role.id);
    s.emitGuild('GUILD_ROLE_DELETE', g.id, { guild_id: g.id, role_id: role.id });
    s.notify();
  });
  r.add('GET', '/guilds/:guild/members', ({ params, query }) => {
    const g = s.requireGuild(params.guild!);
    const limit = Math.min(1000, Math.max(1, Number(query.get('limit') ?? 1)));
    const after = BigInt(query.get('after') ?? '0');
    return [...g.members.values()]
      .filter((m) => BigInt(m.userId) > after)
      .sort((a, b) => (BigInt(a.userId) < BigInt(b.userId) ? -1 : 1))
      .slice(0, limit)
      .map((m) => s.memberToApi(g, m));
  });
  r.add('GET', '/guilds/:guild/members/:user', ({ params }) => {
    const g = s.requireGuild(params.guild!);
    const uid = params.user === '@me' ? bot() : params.user!;
    const m = g.members.get(uid);
    if (!m) throw Errors.unknownMember();
    return s.memberToApi(g, m);
  });
  r.add('PATCH', '/guilds/:guild/members/:user', ({ params, body }) => {
    const g = s.requireGuild(params.guild!);
    const uid = params.user === '@me' ? bot() : params.user!;
    const m = g.members.get(uid);
    if (!m) throw Errors.unknownMember();
    const b = body ?? {};
    if ('nick' in b) {
      s.assertBotGuildCan(g, uid === bot() ? Perm.ChangeNickname : Perm.ManageNicknames);
      if (uid !== bot() && s.topRolePosition(g, uid) >= s.topRolePosition(g, bot())) throw Errors.missingPermissions();
      m.nick = b.nick ?? null;
    }
    if ('roles' in b) {
      s.assertBotGuildCan(g, Perm.ManageRoles);
      const next: string[] = (b.roles ?? []).map(String);
      const top = s.topRolePosition(g, bot());
      const changed = next.filter((x) => !m.roles.includes(x)).concat(m.roles.filter((x) => !next.includes(x)));
      for (const rid of changed) {
        const role = g.roles.get(rid);
        if (!role) throw Errors.unknownRole();
        if (role.position >= top || role.managed) throw Errors.missingPermissions();
      }
      m.roles = next;
    }
    if ('communication_disabled_until' in b) {
      s.assertBotGuildCan(g, Perm.ModerateMembers);
      m.communicationDisabledUntil = b.communication_disabled_until ?? null;
    }
    s.emitMemberUpdate(g, m);
    s.notify();
    return s.memberToApi(g, m);
  });
  const memberRole =
    (add: boolean) =>
    ({ params }: RestContext) => {
      const g = s.requireGuild(params.guild!);
      const m = g.members.get(params.user!);
      if (!m) throw Errors.unknownMember();
      const role = g.roles.get(params.role!);
      if (!role) throw Errors.unknownRole();
      s.assertBotGuildCan(g, Perm.ManageRoles);
      if (role.position >= s.topRolePosition(g, bot()) || role.managed || role.id === g.id)
        throw Errors.missingPermissions();
      const has = m.roles.includes(role.id);
      if (add === has) return undefined;
      m.roles = add ? [...m.roles, role.id] : m.roles.filter((x) => x !== role.id);
      s.emitMemberUpdate(g, m);
      s.notify();
      return undefined;
    };
  r.add('PUT', '/guilds/:guild/members/:user/roles/:role', memberRole(true));
  r.add('DELETE', '/guilds/:guild/members/:user/roles/:role', memberRole(false));
}

/** Remove a channel/thread (and its threads/messages) from the state and emit the delete event. */
export function removeChannel(s: State, ch: ChannelRec): void {
  for (const tid of ch.threadIds) {
    const th = s.channels.get(tid);
    if (th) removeChannel(s, th);
  }
  for (const id of ch.messages.keys()) s.messages.delete(id);
  s.channels.delete(ch.id);
  if (ch.guildId) {
    s.guilds.get(ch.guildId)?.channelIds.delete(ch.id);
    if (ch.thread && ch.parentId) s.channels.get(ch.parentId)?.threadIds.delete(ch.id);
    s.emitGuild(
      ch.thread ? 'THREAD_DELETE' : 'CHANNEL_DELETE',
      ch.guildId,
      ch.thread ? { id: ch.id, guild_id: ch.guildId, parent_id: ch.parentId, type: ch.type } : s.channelToApi(ch, true),
    );
  }
  s.notify();
}

// ---- application command normalization/validation -------------------------------------------

const NAME_RE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function validateOptions(opts: CommandOptionDef[] | undefined, path: string, depth: number): void {
  if (!opts) return;
  if (opts.length > 25)
    throw Errors.invalidForm(`${path}options`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  let sawOptional = false;
  const names = new Set<string>();
  opts.forEach((o, i) => {
    const p = `${path}options.${i}.`;
    if (!NAME_RE.test(o.name ?? '') || o.name !== o.name.toLowerCase())
      throw Errors.invalidForm(`${p}name`, 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid: ${o.name}`);
    if (names.has(o.name))
      throw Errors.invalidForm(
        `${p}name`,
        'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
        'Option names must be unique',
      );
    names.add(o.name);
    if (!o.description || o.description.length > 100)
      throw Errors.invalidForm(`${p}description`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if ((o.choices?.length ?? 0) > 25)
      throw Errors.invalidForm(`${p}choices`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    if (o.type === 1 || o.type === 2) {
      if (depth >= 2 || (o.type === 2 && depth >= 1))
        throw Errors.invalidForm(
          `${p}type`,
          'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
          'Sub-command nesting too deep',
        );
      validateOptions(o.options, p, depth + 1);
    } else {
      if (o.required) {
        if (sawOptional)
          throw Errors.invalidForm(
            `${p}required`,
            'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
            'Required options must be placed before non-required options',
          );
      } else sawOptional = true;
    }
  });
}

function normalizeCommand(
  s: State,
  body: any,
  guildId: string | undefined,
  existing: RegisteredCommand | undefined,
  path = '',
): RegisteredCommand {
  const p = path ? `${path}.` : '';
  const type = Number(body?.type ?? 1);
  const name = String(body?.name ?? '');
  if (!NAME_RE.test(name) || (type === 1 && name !== name.toLowerCase())) {
    throw Errors.invalidForm(`${p}name`, 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid: ${name}`);
  }
  const description = String(body?.description ?? '');
  if (type === 1 && (description.length < 1 || description.length > 100)) {
    throw Errors.invalidForm(`${p}description`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
  validateOptions(body?.options, p, 0);
  const cmd: RegisteredCommand = {
    ...body,
    id: existing?.id ?? s.ids.next(),
    application_id: s.applicationId,
    name,
    description,
    type,
    default_member_permissions: body?.default_member_permissions ?? null,
    version: s.ids.next(),
    nsfw: Boolean(body?.nsfw),
    contexts: body?.contexts ?? null,
    integration_types: body?.integration_types ?? [0],
    dm_permission: body?.dm_permission ?? true,
  };
  if (guildId) cmd.guild_id = guildId;
  else delete cmd.guild_id;
  return cmd;
}
