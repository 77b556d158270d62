// Start-up and shutdown of the whole bot: database, game service, Discord client, recovery.
import { Client, Events, GatewayIntentBits, Options, PermissionFlagsBits, Routes, type GuildTextBasedChannel, type Interaction } from 'discord.js';
import { GameService, type CommitPoint } from '../app/game-service';
import type { TimerHost } from '../app/scheduler';
import { openDatabase, type OpenDb } from '../db/client';
import { interruptedRebuilds, onGameAnnulled, recomputeRatings, unbuilt } from '../stats/record';
import { Store } from '../db/store';
import { Deliverer, type DeliveryLogger } from '../delivery/deliverer';
import { OutboxStore } from '../db/outbox-store';
import { t, type Locale } from '../i18n';
import { Contexts, uiOf } from './context';
import { Interactions, randomDealer, type Dealer } from './interactions';
import { Notices } from './notices';
import { Planner, type ChannelCaps } from './planner';
import { Tournaments } from './tournament';
import { TournamentStore } from '../db/tournament-store';
import { AsyncStore } from '../db/async-store';
import { AsyncPlay } from './async-play';

export interface BotConfig {
  token: string;
  databasePath: string;
  /** REST base URL (a rate-limit proxy, or the fake Discord in tests); the gateway URL comes from its /gateway/bot. */
  apiBase?: string;
  defaultLocale: Locale;
  lobbyTtlHours: number;
  logger?: DeliveryLogger & { info(msg: string): void };
  /** Clock for the game service (tests); defaults to Date.now. */
  now?: () => number;
  /** Timers of the stage deadlines and reminders (tests drive a fake clock with them). */
  timers?: TimerHost;
  /** After a host annulled a finished game (issue 11; the ratings recompute is wired here). */
  onAnnulled?: (gameId: number) => void;
  /** How seats and roles are dealt (tests fix it; the default is crypto-random, G-1). */
  dealer?: Dealer;
  /** REST calls per second (Discord's global limit is 50; a local fake allows more). */
  requestsPerSecond?: number;
  /** Quiet time before a changed message is edited (tests shorten it). */
  deliveryDebounceMs?: number;
  /** The window of Discord's per-channel post limit the deliverer keeps to (default 5 s; tests). */
  deliveryPostWindowMs?: number;
  /** How soon a timed action that could not be saved is tried again (default 30 s). */
  storageRetryMs?: number;
  /** Longest wait between two tries of a failing delivery (tests shorten it). */
  deliveryMaxBackoffMs?: number;
  /**
   * Fault injection for tests: the bot "dies" right after a commit at one of these points (or
   * `sent`: right after Discord accepted a post, before it is recorded; `followup`: the same for
   * a post a click delivered as its interaction's follow-up) — nothing more is sent,
   * nothing more is written, exactly as if the process had been killed there.
   */
  crashAt?: readonly (CommitPoint | 'sent' | 'followup')[];
  /** With `sent` / `followup`: after how many accepted posts (default 1). */
  crashAfterSends?: number;
}

export interface RunningBot {
  client: Client;
  service: GameService;
  store: Store;
  outbox: OutboxStore;
  deliverer: Deliverer;
  /** Tournaments (their messages follow a game changed from outside, e.g. annulled). */
  tournaments: Tournaments;
  db: OpenDb;
  /** Resolves when every queued action has been handled and everything it sends is delivered. */
  idle(): Promise<void>;
  /** Fault injection (tests): whether the bot has "died" at a crash point. */
  readonly crashed: boolean;
  /** Dies at once, as with SIGKILL: nothing is drained (tests). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** Console logging at a level (LOG_LEVEL). */
export function consoleLogger(level: (typeof LEVELS)[number] = 'info') {
  const on = (l: (typeof LEVELS)[number]) => LEVELS.indexOf(l) <= LEVELS.indexOf(level);
  return {
    info: (m: string) => void (on('info') && console.log(m)),
    warn: (m: string) => void (on('warn') && console.warn(m)),
    error: (m: string, e?: unknown) => void (on('error') && console.error(m, e instanceof Error ? e.message : (e ?? ''))),
  };
}

export async function startBot(config: BotConfig): Promise<RunningBot> {
  const log = config.logger ?? consoleLogger();
  const db = openDatabase(config.databasePath);
  const store = new Store(db.db);
  // Ratings of results stored before the ratings existed (an upgrade): built once, before any game runs.
  // A rebuild a crash cut short is finished too.
  for (const u of [...interruptedRebuilds(store.stats), ...unbuilt(store.stats)]) {
    recomputeRatings(store.stats, u.guildId, u.ruleset);
  }
  const outbox = new OutboxStore(db.db);
  const client = new Client({
    // Guilds: channels and permissions in the cache; GuildMessages: a deleted table or lobby is
    // posted again at once (no message content is read: that intent is not needed).
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    rest: {
      ...(config.apiBase ? { api: config.apiBase } : {}),
      // discord.js counts every request against this, interaction responses too, which Discord
      // does not: so it is set high here, and the deliverer (all other calls go through it) keeps
      // to Discord's global budget itself. A click's answer never waits behind the game output.
      globalRequestsPerSecond: 10_000,
    },
    makeCache: Options.cacheWithLimits({ MessageManager: 0, ReactionManager: 0, GuildMessageManager: 0 }),
  });
  const now = config.now ?? Date.now;
  let planner: Planner | null = null;
  let deliverer: Deliverer | null = null;
  let contexts: Contexts | null = null;
  let tournaments: Tournaments | null = null;
  let asyncPlay: AsyncPlay | null = null;
  const service = new GameService(store, {
    now,
    lobbyTtlMs: config.lobbyTtlHours * 3_600_000,
    logger: log,
    ...(config.timers ? { timers: config.timers } : {}),
    plan: (e) => {
      asyncPlay!.before(e);
      planner!.plan(e);
      asyncPlay!.after(e);
      tournaments?.plan(e);
    },
    committed: (point, gameId) => {
      if (config.crashAt?.includes(point)) crash();
      else {
        asyncPlay?.arm(gameId);
        deliverer?.kick();
      }
    },
    onStorageError: (gameId, e) => void notifyStorage(gameId, e),
    holdTimeout: (gameId, seq) => asyncPlay?.holdTimeout(gameId, seq) ?? false,
    ...(config.storageRetryMs !== undefined ? { storageRetryMs: config.storageRetryMs } : {}),
    // An annulled game: a tournament it belonged to follows (it no longer counts there), and so do the ratings.
    onAnnulled: (gameId) => {
      try {
        tournaments?.gameChanged(gameId);
      } catch (e) {
        log.error(`tournament: could not follow annulled game ${gameId}`, e);
      }
      // Its points and ratings no longer count: the rule set's ratings are rebuilt in the background.
      try {
        onGameAnnulled(store.stats, gameId);
      } catch (e) {
        log.error(`stats: could not rebuild the ratings after annulling game ${gameId}`, e);
      }
      config.onAnnulled?.(gameId);
    },
  });
  contexts = new Contexts(store, service, config.defaultLocale);
  const caps = (channelId: string): ChannelCaps | null => {
    const ch = client.channels.cache.get(channelId);
    const me = client.user;
    if (!ch || !me || !('guild' in ch) || !('permissionsFor' in ch)) return null;
    const perms = (ch as GuildTextBasedChannel).permissionsFor(me);
    if (!perms) return null;
    return {
      manageRoles: perms.has(PermissionFlagsBits.ManageRoles),
      threads: 'threads' in ch && perms.has(PermissionFlagsBits.CreatePrivateThreads) && perms.has(PermissionFlagsBits.SendMessagesInThreads),
    };
  };
  planner = new Planner(outbox, contexts, caps, now);
  asyncPlay = new AsyncPlay(store, new AsyncStore(db.db), outbox, contexts, service, now, () => deliverer?.kick(), config.timers, (channelId) => caps(channelId)?.threads ?? null);
  const notices = new Notices(outbox, store, contexts, service, log);
  deliverer = new Deliverer(outbox, client.rest, {
    now,
    log,
    // Discord's global budget, less a margin for the few calls made elsewhere (commands, notices).
    requestsPerSecond: Math.max(1, Math.floor((config.requestsPerSecond ?? 50) * 0.9)),
    ...(config.deliveryDebounceMs !== undefined ? { debounceMs: config.deliveryDebounceMs } : {}),
    onVisible: (gameId, seq, dueAt) => void service.extendDeadline(gameId, seq, dueAt),
    onPermanent: (row, failure) => notices.permanent(row, failure),
    overwrites: (channelId) => {
      const ch = client.channels.cache.get(channelId);
      if (!ch || !('permissionOverwrites' in ch)) return null;
      return [...ch.permissionOverwrites.cache.values()].map((o) => ({ id: o.id, type: o.type as 0 | 1, allow: o.allow.bitfield.toString(), deny: o.deny.bitfield.toString() }));
    },
    threadOf: (gameId, slot = 'thread') => outbox.slot(gameId, slot)?.messageId ?? null,
    selfId: () => client.user?.id ?? null,
    ...(config.deliveryMaxBackoffMs !== undefined ? { maxBackoffMs: config.deliveryMaxBackoffMs } : {}),
    ...(config.deliveryPostWindowMs !== undefined ? { postWindowMs: config.deliveryPostWindowMs } : {}),
    afterSend: (how) => {
      if (config.crashAt?.includes('sent') && ++sends >= (config.crashAfterSends ?? 1)) crash();
      if (config.crashAt?.includes('followup') && how === 'followup' && ++followups >= (config.crashAfterSends ?? 1)) crash();
      return crashed;
    },
  });

  /** Fault injection: everything stops at once, as a killed process would (see crashAt). */
  let crashed = false;
  let sends = 0;
  let followups = 0;
  function crash(): void {
    if (crashed) return;
    crashed = true;
    deliverer?.stop();
    service.scheduler.stop();
    asyncPlay?.scheduler.stop();
    interactionsOff = true;
    db.close(); // whatever the dying process was still doing can write nothing more
  }
  let interactionsOff = false;
  notices.deliverer = deliverer;

  /** The database failed: tell the host directly (the outbox itself may not be writable). */
  async function notifyStorage(gameId: number, e: unknown): Promise<void> {
    const game = (() => {
      try {
        return store.getGame(gameId);
      } catch {
        return null;
      }
    })();
    if (!game) return;
    const loc = uiOf(game).locale ?? config.defaultLocale;
    const why = (e as { code?: string }).code ?? (e as Error).message ?? 'error';
    try {
      await client.rest.post(Routes.channelMessages(game.channelId), { body: { content: t(loc, 'delivery.storage', { id: gameId, why: String(why).slice(0, 80) }), allowed_mentions: { parse: [], users: [game.hostId] } } });
    } catch (err) {
      log.warn(`could not tell game ${gameId} about the storage error: ${(err as Error).message}`);
    }
  }

  const interactions = new Interactions(service, store, outbox, contexts, deliverer, log, config.dealer, () => !crashed);
  const tournamentStore = new TournamentStore(db.db);
  const tournamentsReady = new Tournaments({
    service,
    store,
    tstore: tournamentStore,
    outbox,
    contexts,
    deliverer,
    client,
    log,
    dealer: config.dealer ?? randomDealer,
    now,
  });
  tournaments = tournamentsReady;
  interactions.tournaments = tournamentsReady;
  interactions.asyncPlay = asyncPlay;
  // A burst of clicks (hundreds at once after a restart) is taken one click per turn of the
  // event loop: no other game's timer or answer waits behind the whole burst.
  const intake = new Intake<Interaction>((i) => {
    if (!interactionsOff) void interactions.handle(i);
  });
  client.on(Events.InteractionCreate, (i) => intake.push(i));
  client.on(Events.Error, (e) => log.error('discord client error', e));
  // A deleted table or lobby is posted again (and pinned); a deleted stage message is let go.
  const deleted = (messageId: string) => {
    try {
      const slot = outbox.slotByMessage(messageId);
      if (slot) {
        outbox.slotGone(slot, now());
        deliverer?.kick();
      }
    } catch (e) {
      log.error('delivery: could not handle a deleted message', e);
    }
  };
  // Read from the raw gateway events: the bot keeps no message cache, so discord.js would not
  // emit its MessageDelete for them.
  client.on(Events.Raw, (packet: { t?: string; d?: { id?: string; ids?: string[] } }) => {
    if (packet.t === 'MESSAGE_DELETE' && packet.d?.id) deleted(packet.d.id);
    else if (packet.t === 'MESSAGE_DELETE_BULK') for (const id of packet.d?.ids ?? []) deleted(id);
  });

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(config.token);
  await ready;

  // Recovery: overdue deadlines fire in order, pending ones are re-armed; whatever was committed
  // but not yet delivered (a crash between a commit and its messages) is in the outbox and goes
  // out now, exactly once (nonces), and every slot is brought to its newest version.
  // The repair after a gap, in the background: old stages' controls are turned off for real, and
  // every open table and lobby is refreshed (one deleted while the bot was down is posted again).
  outbox.wakeStale();
  outbox.touchKept(now());
  tournamentStore.touchMessages(now());
  deliverer.kick();
  const recovered = await service.recover();
  asyncPlay.recover();
  service.startCron();
  log.info(`mafia-bot: ready as ${client.user?.tag ?? '?'}; ${recovered.fired} overdue timers fired, ${recovered.rearmed} re-armed, ${outbox.pendingCount()} messages to deliver`);

  let stopped = false;
  return {
    get crashed() {
      return crashed;
    },
    /** The process dies: no draining, the database closed as it is (tests). */
    async kill() {
      if (stopped) return;
      stopped = true;
      crash();
      await client.destroy();
    },
    client,
    service,
    store,
    outbox,
    deliverer,
    tournaments: tournamentsReady,
    db,
    async idle() {
      for (let i = 0; i < 100 && !crashed; i++) {
        await service.idle();
        await deliverer!.idle();
        await service.idle();
        if (crashed || (outbox.nextDue() === null && outbox.nextDirty() === null)) return;
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (crashed) {
        await client.destroy();
        return;
      }
      asyncPlay?.scheduler.stop();
      await service.close();
      deliverer!.stop();
      await client.destroy();
      db.close();
    },
  };
}

/**
 * Runs queued work one item per turn of the event loop (setImmediate), in arrival order. An
 * item's work does not end with its synchronous part: a click's commit runs in a microtask of its
 * game's queue, and microtasks run only once the current callback returns. Taking several items in
 * one callback (a time slice) therefore stacked their commits back to back after it: a burst of
 * 1,000 clicks after a restart stalled the loop for over 100 ms. One item per turn bounds every
 * stall by one click's work, and timers and network reads get their turn between clicks.
 */
export class Intake<T> {
  private readonly queue: T[] = [];
  private head = 0;
  private scheduled = false;
  constructor(private readonly run: (item: T) => void) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.next());
    }
  }

  private next(): void {
    const item = this.queue[this.head]!;
    this.queue[this.head++] = undefined as T;
    try {
      this.run(item);
    } catch {
      // a handler's own errors are its own; the queue goes on
    }
    // What the item started (set for the next turn) goes before the next item.
    if (this.head >= this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
      this.scheduled = false;
    } else setImmediate(() => this.next());
  }
}
