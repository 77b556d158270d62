/**
 * Fake Discord gateway (JSON encoding, no compression) on top of `ws`.
 * Supports HELLO/HEARTBEAT/IDENTIFY/RESUME/REQUEST_GUILD_MEMBERS, shard routing of guild events,
 * intent filtering, and replay of missed events on RESUME.
 *
 * Sharding as Discord does it:
 * - IDENTIFY carries `shard: [shard_id, shard_count]` (absent = [0, 1]). A shard_id outside
 *   0..shard_count-1 (or a count < 1, or non-integers) is closed with 4010 Invalid shard. A session
 *   that would hold more than `guildsPerShard` guilds (its own shard's share of the bot's guilds)
 *   is closed with 4011 Sharding required — as Discord closes a one-shard bot in over 2,500 guilds.
 * - Every event goes through `dispatch` -> `matches`: a guild's event only to the sessions whose
 *   shard owns it (`(guild_id >> 22) % shard_count`), an event without a guild (DMs) to shard 0.
 *   READY lists, and GUILD_CREATE is sent for, only the session's own guilds; a member request
 *   (op 8) is answered only for them.
 * - Several sessions (one per shard, or the same shard twice, as Discord allows) may be connected.
 * - `session_start_limit`: `remaining` drops by one for each IDENTIFY that starts a session (READY);
 *   with none left an IDENTIFY is closed with 4004 (Discord resets the token then). The window is
 *   24 h from the fake's start.
 * - `max_concurrency`: with `identifyIntervalMs` > 0 (Discord: 5000) two IDENTIFYs of one bucket
 *   (`shard_id % max_concurrency`) closer than that get op 9 Invalid Session (d: false) instead of
 *   READY, as Discord answers. Off by default (0): a restarted test bot identifies again at once.
 *
 * Simplified: the shard count is not checked against other sessions (Discord neither requires all
 * shards nor one count for all of them); the recommended count is ceil(guilds / guildsPerShard);
 * no zlib, no ETF, no gateway send rate limit (120 per 60 s), no heartbeat timeout.
 */
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { RingBuffer, shardOf } from './util.js';
import type { DispatchTarget, GatewaySink, State } from './state.js';

interface Frame {
  s: number;
  frame: string;
}

export interface Session {
  id: string;
  ws: WebSocket | null;
  seq: number;
  intents: number;
  shardId: number;
  shardCount: number;
  /** recent frames (for RESUME replay) */
  ring: RingBuffer<Frame>;
  identifiedAt: number;
}

export interface GatewayOptions {
  url: string;
  heartbeatInterval: number;
  replayBuffer: number;
  /** most guilds one session may hold before 4011 (Discord: 2500) */
  guildsPerShard: number;
  /** session_start_limit.max_concurrency (Discord: 1 for most bots) */
  maxConcurrency: number;
  /** session_start_limit.total per 24 h (Discord: 1000) */
  sessionStartTotal: number;
  /** min ms between IDENTIFYs of one max_concurrency bucket (Discord: 5000); 0 = not enforced */
  identifyIntervalMs: number;
}

/** A close of a gateway socket by the fake (what discord.js saw as the close code). */
export interface GatewayClose {
  code: number;
  reason: string;
  /** the shard the socket identified (or tried to identify) as; null if it never sent IDENTIFY */
  shard: [number, number] | null;
  at: number;
}

/** One IDENTIFY the fake received and how it answered. */
export interface IdentifyRecord {
  shard: [number, number];
  at: number;
  /** 'ready', 'invalid-session' (op 9: max_concurrency), or the close code (4004, 4010, 4011) */
  outcome: 'ready' | 'invalid-session' | number;
}

const DAY_MS = 24 * 60 * 60_000;

const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

export class Gateway implements GatewaySink {
  readonly sessions = new Map<string, Session>();
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<WebSocket>();
  private readyListeners = new Set<(s: Session) => void>();
  identifyCount = 0;
  resumeCount = 0;
  readonly closes: GatewayClose[] = [];
  readonly identifies: IdentifyRecord[] = [];
  private sessionStartsUsed = 0;
  private readonly windowStart = Date.now();
  /** last accepted IDENTIFY per max_concurrency bucket */
  private readonly lastIdentifyByBucket = new Map<number, number>();

  constructor(
    private readonly state: State,
    server: Server,
    private readonly opts: GatewayOptions,
  ) {
    this.wss = new WebSocketServer({ server, perMessageDeflate: false });
    this.wss.on('connection', (ws) => this.onConnection(ws));
  }

  /** Number of sessions with an open socket. */
  get connectedCount(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.ws && s.ws.readyState === WebSocket.OPEN) n++;
    return n;
  }

  onReady(listener: (s: Session) => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /** Whether an event for `target` goes to session `s`: its intents, and its shard owns the guild (no guild: shard 0). */
  private matches(s: Session, target: DispatchTarget): boolean {
    if (target.intent !== undefined && (s.intents & target.intent) === 0) return false;
    if (target.withoutIntent !== undefined && (s.intents & target.withoutIntent) !== 0) return false;
    return shardOf(target.guildId, s.shardCount) === s.shardId;
  }

  /** The guilds the bot is in. */
  private botGuilds(): string[] {
    const bot = this.state.botUser.id;
    const out: string[] = [];
    for (const g of this.state.guilds.values()) if (g.members.has(bot)) out.push(g.id);
    return out;
  }

  /** `shards` of GET /gateway/bot: ceil(guilds / guildsPerShard), at least 1. */
  recommendedShards(): number {
    return Math.max(1, Math.ceil(this.botGuilds().length / this.opts.guildsPerShard));
  }

  /** `session_start_limit` of GET /gateway/bot. */
  sessionStartLimit(): { total: number; remaining: number; reset_after: number; max_concurrency: number } {
    this.rollWindow();
    const elapsed = (Date.now() - this.windowStart) % DAY_MS;
    return {
      total: this.opts.sessionStartTotal,
      remaining: Math.max(0, this.opts.sessionStartTotal - this.sessionStartsUsed),
      reset_after: DAY_MS - elapsed,
      max_concurrency: this.opts.maxConcurrency,
    };
  }

  private windowIndex = 0;
  private rollWindow(): void {
    const i = Math.floor((Date.now() - this.windowStart) / DAY_MS);
    if (i !== this.windowIndex) {
      this.windowIndex = i;
      this.sessionStartsUsed = 0;
    }
  }

  /** Close a socket and record the close code (for `fake.gatewayClosures`). */
  private closeSocket(ws: WebSocket, code: number, reason: string, shard: [number, number] | null): void {
    this.closes.push({ code, reason, shard, at: Date.now() });
    ws.close(code, reason);
  }

  wants(target: DispatchTarget): boolean {
    for (const s of this.sessions.values()) if (this.matches(s, target)) return true;
    return false;
  }

  /** Send a dispatch to every matching session (buffered for disconnected, resumable sessions). */
  dispatch(t: string, d: unknown, target: DispatchTarget): number {
    if (this.sessions.size === 0) return 0;
    // A server the bot is not in (it was removed) sends it nothing.
    const g = target.guildId ? this.state.guilds.get(target.guildId) : undefined;
    if (g && !g.members.has(this.state.botUser.id)) return 0;
    let dJson: string | undefined;
    let n = 0;
    for (const s of this.sessions.values()) {
      if (!this.matches(s, target)) continue;
      dJson ??= JSON.stringify(d);
      this.sendDispatch(s, t, dJson);
      n++;
    }
    return n;
  }

  private sendDispatch(s: Session, t: string, dJson: string): void {
    const seq = ++s.seq;
    const frame = `{"op":0,"t":"${t}","s":${seq},"d":${dJson}}`;
    s.ring.push({ s: seq, frame });
    if (s.ws && s.ws.readyState === WebSocket.OPEN) s.ws.send(frame);
  }

  /**
   * Close every gateway socket (with `shardId`: only the sockets of sessions of that shard). Code
   * 4000 (default) lets discord.js RESUME; the session stays.
   */
  disconnectAll(code = 4000, reason = 'fake: disconnect', shardId?: number): void {
    if (shardId !== undefined) {
      for (const s of [...this.sessions.values()]) {
        if (s.shardId !== shardId) continue;
        if (s.ws && (s.ws.readyState === WebSocket.OPEN || s.ws.readyState === WebSocket.CONNECTING))
          this.closeSocket(s.ws, code, reason, [s.shardId, s.shardCount]);
        if (code === 1000 || code === 1001 || code === 4009) this.sessions.delete(s.id);
      }
      return;
    }
    const shardOfSocket = new Map<WebSocket, [number, number]>();
    for (const s of this.sessions.values()) if (s.ws) shardOfSocket.set(s.ws, [s.shardId, s.shardCount]);
    for (const ws of this.sockets) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        this.closeSocket(ws, code, reason, shardOfSocket.get(ws) ?? null);
    }
    if (code === 1000 || code === 1001 || code === 4009) {
      // non-resumable: forget sessions (discord.js will RESUME-fail then re-IDENTIFY)
      this.sessions.clear();
    }
  }

  /** Ask clients to reconnect+resume (op 7). */
  requestReconnect(): void {
    for (const s of this.sessions.values()) {
      if (s.ws && s.ws.readyState === WebSocket.OPEN) s.ws.send(JSON.stringify({ op: Op.Reconnect, d: null }));
    }
  }

  close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    this.sessions.clear();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }

  // ---- connection handling ------------------------------------------------------------------

  /** Connections accepted while the gateway is down: no HELLO, nothing answered (see setDown). */
  private down: Set<WebSocket> | null = null;

  /**
   * The gateway goes down (every socket closed with 4000; a reconnect gets no HELLO and waits) or
   * comes back (the waiting sockets are closed with 4000: the client reconnects and RESUMEs).
   */
  setDown(on: boolean): void {
    if (on) {
      this.down ??= new Set();
      this.disconnectAll(4000, 'fake: gateway down');
      return;
    }
    const held = this.down;
    this.down = null;
    for (const ws of held ?? []) if (ws.readyState === WebSocket.OPEN) ws.close(4000, 'fake: gateway back');
  }

  private onConnection(ws: WebSocket): void {
    this.sockets.add(ws);
    if (this.down) {
      this.down.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      ws.on('error', () => {});
      return;
    }
    let session: Session | null = null;
    ws.send(
      JSON.stringify({
        op: Op.Hello,
        d: { heartbeat_interval: this.opts.heartbeatInterval, _trace: ['fake-gateway'] },
      }),
    );

    ws.on('message', (raw) => {
      let payload: { op: number; d: any };
      try {
        payload = JSON.parse(raw.toString());
      } catch {
        this.closeSocket(
          ws,
          4002,
          'Error while decoding payload.',
          session ? [session.shardId, session.shardCount] : null,
        );
        return;
      }
      switch (payload.op) {
        case Op.Heartbeat:
          ws.send(`{"op":${Op.HeartbeatAck}}`);
          break;
        case Op.Identify: {
          if (session) {
            this.closeSocket(ws, 4005, 'Already authenticated.', [session.shardId, session.shardCount]);
            return;
          }
          session = this.identify(ws, payload.d);
          break;
        }
        case Op.Resume: {
          if (session) {
            this.closeSocket(ws, 4005, 'Already authenticated.', [session.shardId, session.shardCount]);
            return;
          }
          session = this.resume(ws, payload.d);
          break;
        }
        case Op.RequestGuildMembers:
          if (session) this.requestGuildMembers(session, payload.d);
          break;
        default:
          // presence / voice state updates etc. are accepted and ignored
          break;
      }
    });

    ws.on('close', (code) => {
      this.sockets.delete(ws);
      if (!session || session.ws !== ws) return;
      session.ws = null;
      // A client-initiated normal close invalidates the session (as on Discord).
      if (code === 1000 || code === 1001) this.sessions.delete(session.id);
      this.state.notify();
    });
    ws.on('error', () => {
      /* ignore socket errors (client went away) */
    });
  }

  /**
   * IDENTIFY: validate the shard (4010), the guilds it would hold (4011), max_concurrency (op 9) and
   * the session start limit (4004); then READY with the shard's guilds and a GUILD_CREATE for each.
   */
  private identify(ws: WebSocket, d: { intents?: number; shard?: unknown }): Session | null {
    const [shardId, shardCount] = shardOfIdentify(d);
    const at = Date.now();
    const refuse = (code: number, reason: string): null => {
      this.identifies.push({ shard: [shardId, shardCount], at, outcome: code });
      this.closeSocket(ws, code, reason, [shardId, shardCount]);
      return null;
    };
    if (
      !Number.isInteger(shardId) ||
      !Number.isInteger(shardCount) ||
      shardCount < 1 ||
      shardId < 0 ||
      shardId >= shardCount
    )
      return refuse(4010, 'Invalid shard.');
    const owned = this.botGuilds().filter((id) => shardOf(id, shardCount) === shardId);
    if (owned.length > this.opts.guildsPerShard) return refuse(4011, 'Sharding required.');
    if (this.opts.identifyIntervalMs > 0) {
      const bucket = shardId % this.opts.maxConcurrency;
      const last = this.lastIdentifyByBucket.get(bucket);
      if (last !== undefined && at - last < this.opts.identifyIntervalMs) {
        this.identifies.push({ shard: [shardId, shardCount], at, outcome: 'invalid-session' });
        ws.send(JSON.stringify({ op: Op.InvalidSession, d: false }));
        return null;
      }
      this.lastIdentifyByBucket.set(bucket, at);
    }
    this.rollWindow();
    if (this.sessionStartsUsed >= this.opts.sessionStartTotal) return refuse(4004, 'Authentication failed.');
    this.sessionStartsUsed++;
    this.identifies.push({ shard: [shardId, shardCount], at, outcome: 'ready' });
    const session: Session = {
      id: randomUUID().replaceAll('-', ''),
      ws,
      seq: 0,
      intents: Number(d?.intents ?? 0),
      shardId,
      shardCount,
      ring: new RingBuffer<Frame>(this.opts.replayBuffer),
      identifiedAt: at,
    };
    this.identifyCount++;
    const guilds = owned.map((id) => this.state.guilds.get(id)!);
    const ready = {
      v: 10,
      user: this.state.botUser,
      user_settings: {},
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.opts.url,
      shard: [session.shardId, session.shardCount],
      application: { id: this.state.applicationId, flags: 0 },
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth: {},
      _trace: ['fake-gateway'],
    };
    this.sessions.set(session.id, session);
    this.sendDispatch(session, 'READY', JSON.stringify(ready));
    for (const g of guilds) {
      this.sendDispatch(session, 'GUILD_CREATE', JSON.stringify(this.state.guildCreatePayload(g)));
    }
    for (const l of this.readyListeners) l(session);
    this.state.notify();
    return session;
  }

  private resume(ws: WebSocket, d: { session_id?: string; seq?: number }): Session | null {
    const session = d?.session_id ? this.sessions.get(d.session_id) : undefined;
    const seq = Number(d?.seq ?? 0);
    const frames = session?.ring.toArray() ?? [];
    const oldest = frames[0]?.s ?? (session ? session.seq + 1 : 0);
    if (!session || seq > session.seq || (seq < session.seq && oldest > seq + 1)) {
      ws.send(JSON.stringify({ op: Op.InvalidSession, d: false }));
      return null;
    }
    if (session.ws && session.ws !== ws && session.ws.readyState === WebSocket.OPEN)
      this.closeSocket(session.ws, 4000, 'resumed elsewhere', [session.shardId, session.shardCount]);
    session.ws = ws;
    this.resumeCount++;
    for (const f of frames) if (f.s > seq) ws.send(f.frame);
    this.sendDispatch(session, 'RESUMED', '{"_trace":["fake-gateway"]}');
    for (const l of this.readyListeners) l(session);
    this.state.notify();
    return session;
  }

  private requestGuildMembers(
    s: Session,
    d: { guild_id: string | string[]; query?: string; limit?: number; user_ids?: string | string[]; nonce?: string },
  ): void {
    const guildIds = Array.isArray(d.guild_id) ? d.guild_id : [d.guild_id];
    for (const gid of guildIds) {
      const g = this.state.guilds.get(gid);
      // a shard is answered only for its own guilds
      if (!g || shardOf(gid, s.shardCount) !== s.shardId) continue;
      let members = [...g.members.values()];
      if (d.user_ids) {
        const ids = new Set(Array.isArray(d.user_ids) ? d.user_ids : [d.user_ids]);
        members = members.filter((m) => ids.has(m.userId));
      } else if (d.query) {
        const q = d.query.toLowerCase();
        members = members.filter((m) => this.state.users.get(m.userId)?.api.username.toLowerCase().startsWith(q));
      }
      if (d.limit) members = members.slice(0, d.limit);
      const chunk = {
        guild_id: gid,
        members: members.map((m) => this.state.memberToApi(g, m)),
        chunk_index: 0,
        chunk_count: 1,
        not_found: [],
        ...(d.nonce ? { nonce: d.nonce } : {}),
      };
      this.sendDispatch(s, 'GUILD_MEMBERS_CHUNK', JSON.stringify(chunk));
    }
  }
}

/** `shard` of an IDENTIFY payload as numbers ([0, 1] when absent). */
function shardOfIdentify(d: { shard?: unknown } | undefined): [number, number] {
  const sh = d?.shard;
  if (!Array.isArray(sh)) return [0, 1];
  return [Number(sh[0]), Number(sh[1])];
}
