/**
 * Fake Discord gateway (JSON encoding, no compression) on top of `ws`.
 * Supports HELLO/HEARTBEAT/IDENTIFY/RESUME/REQUEST_GUILD_MEMBERS, shard routing of guild events,
 * intent filtering, and replay of missed events on RESUME.
 */
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { RingBuffer } from './util.js';
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
}

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

  private matches(s: Session, target: DispatchTarget): boolean {
    if (target.intent !== undefined && (s.intents & target.intent) === 0) return false;
    if (target.withoutIntent !== undefined && (s.intents & target.withoutIntent) !== 0) return false;
    if (s.shardCount > 1) {
      const shard = target.guildId ? Number((BigInt(target.guildId) >> 22n) % BigInt(s.shardCount)) : 0;
      if (shard !== s.shardId) return false;
    }
    return true;
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

  /** Close every gateway socket. Code 4000 (default) lets discord.js RESUME; the session stays. */
  disconnectAll(code = 4000, reason = 'fake: disconnect'): void {
    for (const ws of this.sockets) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
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
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      switch (payload.op) {
        case Op.Heartbeat:
          ws.send(`{"op":${Op.HeartbeatAck}}`);
          break;
        case Op.Identify: {
          if (session) {
            ws.close(4005, 'Already authenticated.');
            return;
          }
          session = this.identify(ws, payload.d);
          break;
        }
        case Op.Resume: {
          if (session) {
            ws.close(4005, 'Already authenticated.');
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

  private identify(ws: WebSocket, d: { intents?: number; shard?: [number, number] }): Session {
    const [shardId, shardCount] = Array.isArray(d?.shard) ? d.shard : [0, 1];
    const session: Session = {
      id: randomUUID().replaceAll('-', ''),
      ws,
      seq: 0,
      intents: Number(d?.intents ?? 0),
      shardId: Number(shardId),
      shardCount: Math.max(1, Number(shardCount)),
      ring: new RingBuffer<Frame>(this.opts.replayBuffer),
      identifiedAt: Date.now(),
    };
    this.identifyCount++;
    const guilds = [...this.state.guilds.values()].filter(
      (g) => g.members.has(this.state.botUser.id) && this.matches(session, { guildId: g.id }),
    );
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
      session.ws.close(4000, 'resumed elsewhere');
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
      if (!g) continue;
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
