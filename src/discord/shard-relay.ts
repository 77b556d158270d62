// DM clicks across processes (issue 22). Discord sends every event without a guild, so every click
// in a DM, to shard 0. A game belongs to the process that holds its guild's shard (its timers, its
// cached state, its outbox): a DM click of a game another process owns is handed to that process
// as the raw gateway packet, and that process handles it as if its own gateway had received it.
// Two ways: over the ShardingManager's IPC (src/shard-manager.ts relays it), or, for processes
// without a manager between them (several machines on one PostgreSQL, SHARD_IDS by hand), through
// the database (issue 23: src/db/relay-store.ts, taken by the owner's RelayPoller below). The click is not acknowledged
// here: the owner answers it with the interaction's token (any process may), within Discord's
// window as usual, so nothing shows that it travelled.
import type { Client } from 'discord.js';
import type { Ownership } from '../db/ownership';
import { decodeId } from './custom-id';
import type { RelayStore } from '../db/relay-store';

/** The message a process sends its manager, and the manager to the owner. */
export interface RelayMessage {
  t: 'mafia:interaction';
  /** The guild whose owner must handle it. */
  guildId: string;
  /** The raw INTERACTION_CREATE payload (`d`). */
  d: { id: string; guild_id?: string; data?: { custom_id?: string } };
}

export function isRelayMessage(m: unknown): m is RelayMessage {
  return (
    typeof m === 'object' &&
    m !== null &&
    (m as RelayMessage).t === 'mafia:interaction' &&
    typeof (m as RelayMessage).guildId === 'string' &&
    typeof (m as RelayMessage).d?.id === 'string'
  );
}

export class ShardRelay {
  /**
   * DM clicks of a game whose guild is looked up (storage is asynchronous): whether each was handed
   * to another process, kept until the router asks (handedAway).
   */
  private readonly deciding = new Map<string, Promise<boolean>>();

  constructor(
    private readonly client: Client,
    private readonly ownership: Ownership,
    /** The guild of a game (or of a tournament's game), from storage. */
    private readonly guildOfGame: (gameId: number) => Promise<string | null>,
    /** Hands a message to the owner (IPC, or a row in the database). */
    private readonly send: ((m: RelayMessage) => void | Promise<void>) | null,
    private readonly log: { warn(m: string): void; debug?(m: string, fields?: Record<string, unknown>): void },
  ) {}

  /**
   * A raw gateway packet, before discord.js handles it (`Events.Raw` comes first): a DM click of
   * a game whose guild this process does not own is sent to its owner. False when it is surely
   * this process's; else whether it was sent away, once its game's guild is known.
   */
  intercept(packet: { t?: string | null; d?: unknown }): false | Promise<boolean> {
    if (packet.t !== 'INTERACTION_CREATE' || this.ownership.all || !this.send) return false;
    const d = packet.d as RelayMessage['d'];
    if (d.guild_id) return false; // a guild's events reach only its owner's shard
    const id = decodeId(d.data?.custom_id);
    const gameId = id && 'game' in id ? id.game : null;
    if (gameId === null) return false;
    const decided = this.handOver(d, gameId);
    this.deciding.set(d.id, decided);
    // One the router never asks about (let go unanswered) is forgotten a while later.
    void decided.then(() => setTimeout(() => this.deciding.delete(d.id), 60_000).unref());
    return decided;
  }

  private async handOver(d: RelayMessage['d'], gameId: number): Promise<boolean> {
    let guildId: string | null;
    try {
      guildId = await this.guildOfGame(gameId);
    } catch (e) {
      this.log.warn(`shards: could not look up the guild of game ${gameId}: ${(e as Error).message}`);
      return false;
    }
    if (!guildId || this.ownership.owns(guildId)) return false;
    try {
      // Over IPC, or written to the database (awaited: a click that could not be written stays here).
      await this.send!({ t: 'mafia:interaction', guildId, d });
    } catch (e) {
      this.log.warn(`shards: could not hand a DM click to the owner of guild ${guildId}: ${(e as Error).message}`);
      return false;
    }
    return true;
  }

  /**
   * Whether an interaction was handed to another process (the router skips it): false at once
   * for one that surely is this process's, else once its game's guild is known.
   */
  handedAway(interactionId: string): boolean | Promise<boolean> {
    const decided = this.deciding.get(interactionId);
    if (!decided) return false;
    this.deciding.delete(interactionId);
    return decided;
  }

  /** Whether an interaction may yet be handed away (its game's guild is being looked up). */
  mayBeAway(interactionId: string): boolean {
    return this.deciding.has(interactionId);
  }

  /** A click another process handed over: handled as if this process's gateway had received it. */
  receive(m: RelayMessage): void {
    if (!this.ownership.owns(m.guildId)) {
      this.log.warn(`shards: got a DM click for guild ${m.guildId}, which this process does not own; dropped`);
      return;
    }
    this.log.debug?.('shards: a DM click handed over by shard 0', { guildId: m.guildId, interactionId: m.d.id });
    // discord.js's own handler for the gateway's INTERACTION_CREATE: builds the interaction and
    // emits Events.InteractionCreate (internal, but stable across discord.js 14).
    (
      this.client as unknown as { actions: { InteractionCreate: { handle(d: unknown): void } } }
    ).actions.InteractionCreate.handle(m.d);
  }
}

/** Discord's window for answering a click: a relayed click older than this is let go. */
const ANSWER_WINDOW_MS = 3_000;

/**
 * The owner's side of the relay through the database (issue 23): every `pollMs` it takes the clicks
 * written for the guilds it owns and hands them to discord.js as if its own gateway had received
 * them. A poll that finds nothing is one indexed read. Clicks older than Discord's 3 s are not taken,
 * and rows older than a minute are deleted.
 */
export class RelayPoller {
  private timer: ReturnType<typeof setInterval> | null = null;
  private polling: Promise<void> | null = null;
  private prunedAt = 0;

  constructor(
    private readonly store: RelayStore,
    private readonly relay: ShardRelay,
    private readonly opts: {
      pollMs: number;
      /** Whether to poll at all: only a process that does not hold every shard may get clicks. */
      active: () => boolean;
      log: { warn(m: string): void };
      now?: () => number;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.opts.pollMs);
    this.timer.unref?.();
  }

  /** One poll (at most one at a time). */
  poll(): Promise<void> {
    if (this.polling) return this.polling;
    if (!this.opts.active()) return Promise.resolve();
    this.polling = this.once().finally(() => (this.polling = null));
    return this.polling;
  }

  private async once(): Promise<void> {
    const now = (this.opts.now ?? Date.now)();
    try {
      for (const click of await this.store.take(now - ANSWER_WINDOW_MS, now)) {
        let d: RelayMessage['d'];
        try {
          d = JSON.parse(click.payload) as RelayMessage['d'];
        } catch {
          continue;
        }
        this.relay.receive({ t: 'mafia:interaction', guildId: click.guildId, d });
      }
      if (now - this.prunedAt > 60_000) {
        this.prunedAt = now;
        await this.store.prune(now - 60_000);
      }
    } catch (e) {
      this.opts.log.warn(`shards: reading the DM clicks handed over failed: ${(e as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }
}
