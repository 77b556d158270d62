// The composition root: the whole bot built top to bottom (storage, the Discord client, the game
// service, delivery, the features, the hooks that tie them to the service, the shell), then the
// gateway, recovery and shutdown. Nothing is set after construction except the service's hooks.
import { loadCommandIds } from './command-ids';
import {
  Client,
  DefaultRestOptions,
  Events,
  GatewayIntentBits,
  Options,
  RESTEvents,
  Status,
  type Interaction,
} from 'discord.js';
import { WireGate, wireLimit } from '../delivery/wire-gate';
import { randomDealer, type Dealer } from '../app/dealer';
import { GameService } from '../app/game-service';
import { playsIn } from '../app/hosts';
import { Lifecycle } from '../app/lifecycle';
import type { TimerHost } from '../app/scheduler';
import { AsyncStore } from '../db/async-store';
import { LifecycleStore } from '../db/lifecycle-store';
import { openConnection, type OpenedDatabase } from '../db/open';
import { Store } from '../db/store';
import { TournamentStore } from '../db/tournament-store';
import { Deliverer, worstSecond, type DeliveryLogger } from '../delivery/deliverer';
import { OutboxStore } from '../db/outbox-store';
import { OpsStore } from '../db/ops-queries';
import { createLog, type GuildOf, type LogFields } from '../log';
import { OpsMetrics, type InteractionKind } from '../ops/metrics';
import { startOpsServer, type OpsServer } from '../ops/server';
import type { Locale } from '../i18n';
import { interruptedRebuilds, onGameAnnulled, recomputeRatings, unbuilt } from '../stats/record';
import { AsyncPlay } from './async-play';
import { channelCaps } from './channel-caps';
import { ClickAnswers } from './click-answers';
import { Contexts } from './context';
import { AudienceGate } from './audience';
import { Intake, type Samples } from './intake';
import { acknowledgeNow } from './reply';
import { LifecycleMessages, LifecycleWatch } from './lifecycle';
import { Notices } from './notices';
import { Planner } from './planner';
import { buildRouter } from './shell';
import { Tournaments } from './tournament';
import { ShardOwnership } from '../db/ownership';
import type { ShardPlan } from '../config';
import { isRelayMessage, RelayPoller, ShardRelay, type RelayMessage } from './shard-relay';
import { RelayStore } from '../db/relay-store';

export interface BotConfig {
  token: string;
  databasePath: string;
  /** PostgreSQL instead of the file (DATABASE_URL, issue 23): wins over databasePath. */
  databaseUrl?: string;
  /** PostgreSQL's pool: connections at most (DATABASE_POOL_SIZE; 10). */
  databasePoolSize?: number;
  /** REST base URL (a rate-limit proxy, or the fake Discord in tests); the gateway URL comes from its /gateway/bot. */
  apiBase?: string;
  defaultLocale: Locale;
  lobbyTtlHours: number;
  /** Where the bot logs (default: JSON lines on stdout at level info, src/log.ts). */
  logger?: BotLogger;
  /**
   * The operators' endpoint (GET /healthz, GET /metrics; src/ops): off unless set. Port 0 lets the
   * system choose (tests read `RunningBot.ops.port`).
   */
  http?: { port: number; host?: string; maxOutboxLagSeconds?: number };
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
   * Called once the parts are built, before the bot logs in, with the hooks a test needs (fault
   * injection: testkit/crash.ts registers its crash points here). Its hooks run first.
   */
  instrument?: (parts: BotParts) => void;
  /**
   * A write the audience check refuses (a bug: src/discord/audience.ts) throws and undoes its
   * change (tests), instead of being dropped and logged (production).
   */
  strictAudience?: boolean;
  /**
   * Issue 22: a click whose age plus its expected wait in the intake reaches this is acknowledged
   * on arrival, before its work (default 1,000 ms; tests set 0 to acknowledge every click first).
   */
  acknowledgeClicksAfterMs?: number;
  /** The server the slash commands are registered in (DEV_GUILD_ID), besides the global ones. */
  commandGuildId?: string;
  /**
   * Issue 22: the gateway shards this process holds (SHARD_COUNT, SHARD_IDS, or the
   * ShardingManager's SHARDS). Default: every shard Discord recommends, in this process.
   */
  shards?: ShardPlan;
  /**
   * Hands a DM click of a game another process owns to that process (the ShardingManager's IPC:
   * src/shard-manager.ts). Without it, such clicks are handled here (one process owns everything).
   */
  relay?: { send(m: RelayMessage): void; onMessage(listener: (m: unknown) => void): void };
  /** Without a relay: how often the database is read for DM clicks handed over by another process (ms; 100). */
  relayPollMs?: number;
}

/** What `instrument` may hook into. */
export interface BotParts {
  service: GameService;
  deliverer: Deliverer;
  /** Stops everything at once, as a killed process would: nothing more is sent or written. */
  halt(): void;
}

/** What the bot logs through: the parts' small interfaces, and a way to put each game's server on its lines. */
export type BotLogger = DeliveryLogger & {
  info(msg: string, fields?: LogFields): void;
  debug?(msg: string, fields?: LogFields): void;
  setGuildOf?(guildOf: GuildOf): void;
};

export interface RunningBot {
  client: Client;
  /** The operators' endpoint and its metrics, when `http` was set. */
  ops: { port: number; metrics: OpsMetrics } | null;
  service: GameService;
  store: Store;
  outbox: OutboxStore;
  deliverer: Deliverer;
  /** Tournaments (their messages follow a game changed from outside, e.g. annulled). */
  tournaments: Tournaments;
  /** Games suspended because their channel (or the bot's access to it) is lost (issue 20). */
  lifecycle: Lifecycle;
  db: OpenedDatabase;
  /** Resolves when every queued action has been handled and everything it sends is delivered. */
  idle(): Promise<void>;
  /** Whether the bot was halted (fault injection in tests). */
  readonly crashed: boolean;
  /** Dies at once, as with SIGKILL: nothing is drained (tests). */
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** Where the start-up's time went and how interactions waited (epoch ms; the metrics file, benchmarks). */
  startup(): StartupFigures;
}

export interface StartupFigures {
  /** When the gateway session was ready, the command ids loaded, and the recovery done (epoch ms). */
  marks: Record<string, number>;
  /** Interactions: how old when discord.js emitted them, how long they queued, how many were let go. */
  intake: {
    taken: number;
    expired: number;
    acknowledgedFirst: number;
    ageMs: ReturnType<Samples['summary']>;
    queuedMs: ReturnType<Samples['summary']>;
  };
}

/** What kind of interaction, as the latency histogram labels it. */
function interactionKind(i: Interaction): InteractionKind {
  if (i.isAutocomplete()) return 'autocomplete';
  if (i.isCommand()) return 'command';
  if (i.isMessageComponent()) return 'component';
  if (i.isModalSubmit()) return 'modal';
  return 'other';
}

/** null when every gateway shard is ready, else which are not and how they are. */
function gatewayProblem(client: Client): string | null {
  if (client.ws.shards.size === 0) return 'not connected';
  const bad = client.ws.shards
    .filter((s) => s.status !== Status.Ready)
    .map((s) => `shard ${s.id}: ${Status[s.status]}`);
  return bad.length > 0 ? bad.join(', ') : null;
}

/** The part of the bot's request budget this process may spend: its share of the shards. */
export function budgetShare(plan: ShardPlan): number {
  return plan.auto ? 1 : plan.ids.length / plan.count;
}

/**
 * The deliverer's pace: its share of 0.9 × the bot's limit (a margin for the few calls made
 * elsewhere), and no more than the share of the limit itself in its worst second (the rate and
 * the pacing's burst, src/delivery/deliverer.ts). Each process paces itself apart from the others,
 * so their worst seconds add up: with three or four processes the shares of 45 plus their bursts
 * came to 51 and 52 a second, over Discord's 50. One process: 45 (45 and a burst of 5 = 50).
 */
export function deliveryRate(limit: number, plan: ShardPlan): number {
  const share = budgetShare(plan);
  let rate = Math.max(1, Math.floor(limit * 0.9 * share));
  while (rate > 1 && worstSecond(rate) > Math.floor(limit * share)) rate--;
  return rate;
}

function discordClient(apiBase: string | undefined, plan: ShardPlan, gate: WireGate): Client {
  return new Client({
    // Issue 22: every shard Discord recommends in this process, or the given ones of a given count.
    ...(plan.auto ? { shards: 'auto' as const } : { shards: plan.ids, shardCount: plan.count }),
    // Guilds: channels and permissions in the cache; GuildMessages: a deleted table or lobby is
    // posted again at once (no message content is read: that intent is not needed).
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    rest: {
      ...(apiBase ? { api: apiBase } : {}),
      // discord.js counts every request against this, interaction responses too, which Discord
      // does not: so it is set high here, and the deliverer (all other calls go through it) keeps
      // to Discord's global budget itself. A click's answer never waits behind the game output.
      globalRequestsPerSecond: 10_000,
      // Issue 22: the hard cap at the wire, the process's share of Discord's 50 in any second
      // (src/delivery/wire-gate.ts), for calls the deliverer let through that left late, together.
      makeRequest: gate.wrap(DefaultRestOptions.makeRequest),
    },
    makeCache: Options.cacheWithLimits({ MessageManager: 0, ReactionManager: 0, GuildMessageManager: 0 }),
  });
}

export async function startBot(config: BotConfig): Promise<RunningBot> {
  const log =
    config.logger ?? createLog({ secrets: [config.token, ...(config.databaseUrl ? [config.databaseUrl] : [])] });
  const now = config.now ?? Date.now;
  const dealer = config.dealer ?? randomDealer;

  // Storage. Ratings of results stored before the ratings existed (an upgrade) are built once,
  // before any game runs; a rebuild a crash cut short is finished too.
  const db = await openConnection(
    { DATABASE_URL: config.databaseUrl, DATABASE_PATH: config.databasePath },
    config.databasePoolSize ? { postgres: { poolSize: config.databasePoolSize } } : {},
  );
  log.info(`database: ${db.shown}`);
  for (const w of db.warnings) log.warn(w);
  const checkpointer = db.checkpointer;
  checkpointer?.whenFailed((why) =>
    log.warn(
      `the SQLite checkpoint worker stopped (${why}); the bot's own connection checkpoints the WAL again, as SQLite does by default`,
    ),
  );
  // Issue 22: which guilds' games this process runs (every query that picks work filters by it).
  const plan = config.shards ?? { auto: true };
  if (!plan.auto) db.ownership.set(new ShardOwnership(plan.ids, plan.count));
  if (!db.ownership.all && !config.relay)
    log.info(
      `shards: this process holds shards ${plan.auto ? '' : plan.ids.join(',')} of ${db.ownership.shardCount} without the ShardingManager; DM clicks of other processes' games are handed over through the database`,
    );
  const store = new Store(db.connection);
  for (const u of [...(await interruptedRebuilds(store.stats)), ...(await unbuilt(store.stats))]) {
    await recomputeRatings(store.stats, u.guildId, u.ruleset);
  }
  const outbox = new OutboxStore(db.connection);
  // Each line about a game carries its server (src/log.ts): looked up once per game.
  const ops = new OpsStore(db.connection);
  log.setGuildOf?.((gameId) => ops.guildOf(gameId));
  const tournamentStore = new TournamentStore(db.connection);

  // Discord, the game service, delivery.
  const wire = new WireGate(wireLimit(config.requestsPerSecond ?? 50, budgetShare(plan)));
  const client = discordClient(config.apiBase, plan, wire);
  const service = new GameService(store, {
    now,
    lobbyTtlMs: config.lobbyTtlHours * 3_600_000,
    logger: log,
    ...(config.timers ? { timers: config.timers } : {}),
    ...(config.storageRetryMs !== undefined ? { storageRetryMs: config.storageRetryMs } : {}),
  });
  const contexts = new Contexts(store, service, config.defaultLocale);
  // Every write to the outbox passes the audience check first (issue 20).
  const audience = new AudienceGate(contexts, log, config.strictAudience ?? false, (c, userId) =>
    playsIn(store, c.game, userId),
  );
  outbox.setGuard(audience.guard);
  // Issue 20: a game whose channel, or the bot's access to it, is lost is suspended, then resumed
  // or voided (app/lifecycle.ts); the gateway and the deliverer's failures tell (discord/lifecycle.ts).
  const lstore = new LifecycleStore(db.connection);
  const notices = new Notices(
    client.rest,
    outbox,
    store,
    contexts,
    service,
    log,
    async (id) => (await lstore.get(id)) !== null,
  );
  const lifecycle = new Lifecycle({
    store,
    lstore,
    outbox,
    service,
    view: new LifecycleMessages(outbox, contexts),
    now,
    log,
    ...(config.timers ? { timers: config.timers } : {}),
  });
  const watch = new LifecycleWatch(client, lifecycle, lstore, log);
  const deliverer = new Deliverer(outbox, client.rest, {
    now,
    log,
    // Discord's global budget, less a margin for the few calls made elsewhere (commands, notices).
    // Issue 22: the budget is per bot, so a process holding some of the shards takes their share
    // of it, its worst second included (deliveryRate: together the processes stay within it).
    requestsPerSecond: deliveryRate(config.requestsPerSecond ?? 50, plan),
    ...(config.deliveryDebounceMs !== undefined ? { debounceMs: config.deliveryDebounceMs } : {}),
    onVisible: (gameId, seq, dueAt) => void service.extendDeadline(gameId, seq, dueAt),
    onPermanent: (row, failure) => notices.permanent(row, failure),
    lost: async (gameId, dest, how) => watch.lost(gameId, dest, how, await store.getGame(gameId)),
    threadOf: async (gameId, slot = 'thread') => (await outbox.slot(gameId, slot))?.messageId ?? null,
    selfId: () => client.user?.id ?? null,
    ...(config.deliveryMaxBackoffMs !== undefined ? { maxBackoffMs: config.deliveryMaxBackoffMs } : {}),
    ...(config.deliveryPostWindowMs !== undefined ? { postWindowMs: config.deliveryPostWindowMs } : {}),
  });

  // Answering a click with the newest version of the message it came from (every button's module).
  const answers = new ClickAnswers(outbox, deliverer);

  // The features: what players see of a change (the planner), asynchronous play, tournaments.
  const planner = new Planner(
    outbox,
    contexts,
    (channelId) => channelCaps(client, channelId),
    now,
    (gameId) => store.stats.achievementsOfGame(gameId),
  );
  const asyncStore = new AsyncStore(db.connection);
  const threads = (channelId: string) => channelCaps(client, channelId)?.threads ?? null;
  const kick = () => deliverer.kick();
  const asyncPlay = new AsyncPlay(
    store,
    asyncStore,
    outbox,
    contexts,
    service,
    answers,
    now,
    kick,
    config.timers,
    threads,
  );
  const tournaments = new Tournaments({
    service,
    store,
    tstore: tournamentStore,
    outbox,
    contexts,
    deliverer,
    answers,
    client,
    log,
    dealer,
    now,
  });

  // Halting (fault injection): everything stops at once, as a killed process would.
  let halted = false;
  // The relay's poller (below, once the client is there).
  let relayPoller: RelayPoller | null = null;
  // Settles when the bot halts: a dead process's work is not waited for (see idle()).
  let onHalt!: () => void;
  const haltedNow = new Promise<void>((r) => (onHalt = r));
  const halt = (): void => {
    if (halted) return;
    halted = true;
    onHalt();
    void relayPoller?.stop();
    deliverer.stop();
    service.scheduler.stop();
    asyncPlay.scheduler.stop();
    lifecycle.scheduler.stop();
    void db.close(); // whatever the dying process was still doing can write nothing more (it fails, as in a killed process)
  };
  config.instrument?.({ service, deliverer, halt });

  // The service's hooks: inside each change's transaction the outbox is written; after its commit
  // the timers are armed and the deliverer is cued.
  service.use({
    around: (e, plan) => audience.around(e, plan),
    prefetch: (gameId, e) => planner.prefetch(gameId, e),
    plan: async (e) => {
      await asyncPlay.before(e);
      await planner.plan(e);
      await asyncPlay.after(e);
      await tournaments.plan(e);
      await lifecycle.plan(e);
    },
    committed: (_point, gameId) => {
      if (halted) return;
      void asyncPlay.arm(gameId);
      deliverer.kick();
    },
    onStorageError: (gameId, e) => void notices.storageFailed(gameId, e, config.defaultLocale),
    holdTimeout: (gameId, seq) => asyncPlay.holdTimeout(gameId, seq),
    suspended: (gameId) => lifecycle.isSuspended(gameId),
    // An annulled game: a tournament it belonged to follows (it no longer counts there), and so do the ratings.
    onAnnulled: (gameId) => {
      tournaments
        .gameChanged(gameId)
        .catch((e: unknown) => log.error(`tournament: could not follow annulled game ${gameId}`, e));
      // Its points and ratings no longer count: the rule set's ratings are rebuilt in the background.
      onGameAnnulled(store.stats, gameId, {
        log: (msg, e) => log.error(msg, e),
        firstDelayMs: config.storageRetryMs ?? 30_000,
      }).catch((e: unknown) => log.error(`stats: could not rebuild the ratings after annulling game ${gameId}`, e));
      config.onAnnulled?.(gameId);
    },
  });

  // The shell: every interaction through one router, one click per turn of the event loop (a burst
  // of hundreds after a restart does not hold up other games' timers and answers).
  const router = buildRouter({
    service,
    store,
    outbox,
    contexts,
    deliverer,
    answers,
    asyncPlay,
    tournaments,
    log,
    dealer,
    alive: () => !halted,
  });
  // The operators' metrics: every REST response (the deliverer's calls, the shell's answers,
  // discord.js's own), and each interaction from the gateway to its first answer.
  const metrics = config.http
    ? new OpsMetrics({
        games: () => ops.gamesByStage(),
        backlog: () => outbox.backlog(),
        deliveryCounts: () => deliverer.counts,
        gatewayReady: () => gatewayProblem(client) === null,
        longestTransactionMs: () => db.connection.longestTransactionMs,
        ...(checkpointer ? { checkpoints: () => checkpointer.stats } : {}),
        now,
      })
    : null;
  if (metrics) {
    client.rest.on(RESTEvents.Response, (req, res) => {
      metrics.response(req.method, req.route, req.path, res.status, res.headers);
      // discord.js hands over a clone when it uses fetch: its body is not read here.
      if (res instanceof Response) void res.body?.cancel().catch(() => {});
    });
    client.on(Events.InteractionCreate, (i) => metrics.interactionReceived(i.id, interactionKind(i)));
  }
  // Issue 22: a DM click of a game another process owns goes to that process (src/discord/shard-relay.ts).
  const relayStore = new RelayStore(db.connection);
  const relay = new ShardRelay(
    client,
    db.ownership,
    async (gameId) => (await store.getGame(gameId))?.guildId ?? null,
    // The ShardingManager's IPC, or else the database (issue 23: several machines, SHARD_IDS by hand).
    config.relay
      ? (m) => config.relay!.send(m)
      : async (m) => {
          await relayStore.put({ interactionId: m.d.id, guildId: m.guildId, payload: JSON.stringify(m.d) }, Date.now());
        },
    log,
  );
  relayPoller = new RelayPoller(relayStore, relay, {
    pollMs: config.relayPollMs ?? 100,
    active: () => !config.relay && !db.ownership.all && !halted,
    log,
  });
  relayPoller.start();
  config.relay?.onMessage((m) => {
    if (isRelayMessage(m) && !halted) relay.receive(m);
  });
  client.on(Events.Raw, (packet: { t?: string | null; d?: unknown }) => void relay.intercept(packet));
  // An interaction that waited 3 s in the queue can no longer be answered: it is let go, so a
  // backlog (after a restart) is not made worse by work on clicks Discord has already failed.
  // The interactions being worked on (idle() waits for them).
  const handling = new Set<Promise<void>>();
  // Issue 22: a click that would not start inside Discord's 3 s (a burst after a restart) is
  // acknowledged on arrival and worked through afterwards; one that waited 3 s unacknowledged can
  // no longer be answered and is let go, so a backlog is not made worse by clicks Discord failed.
  const intake = new Intake<Interaction>(
    (i) => {
      if (halted) return;
      // A DM click of a game whose guild is being looked up waits for the answer (issue 22).
      const away = relay.handedAway(i.id);
      if (away === true) return;
      const work =
        away === false ? router.handle(i) : away.then((gone) => (gone || halted ? undefined : router.handle(i)));
      handling.add(work);
      void work.finally(() => handling.delete(work));
    },
    {
      maxWaitMs: 3_000,
      madeAt: (i) => i.createdTimestamp,
      acknowledge: (i) => !halted && !relay.mayBeAway(i.id) && acknowledgeNow(i),
      acknowledgeAfterMs: config.acknowledgeClicksAfterMs ?? 1_000,
      // A few milliseconds a click: behind a hundred, it would start half a second late or more.
      acknowledgeBehind: 100,
    },
  );
  client.on(Events.InteractionCreate, (i) => intake.push(i));
  client.on(Events.Error, (e) => log.error('discord client error', e));
  // A deleted table or lobby is posted again (and pinned); a deleted stage message is let go.
  const deleted = (messageId: string) => {
    void (async () => {
      const slot = await outbox.slotByMessage(messageId);
      if (slot) {
        await outbox.slotGone(slot, now());
        deliverer.kick();
      }
    })().catch((e: unknown) => log.error('delivery: could not handle a deleted message', e));
  };
  // Read from the raw gateway events: the bot keeps no message cache, so discord.js would not
  // emit its MessageDelete for them.
  client.on(Events.Raw, (packet: { t?: string; d?: { id?: string; ids?: string[] } }) => {
    if (packet.t === 'MESSAGE_DELETE' && packet.d?.id) deleted(packet.d.id);
    else if (packet.t === 'MESSAGE_DELETE_BULK') for (const id of packet.d?.ids ?? []) deleted(id);
  });

  watch.listen(() => !halted, kick);

  // The endpoint is up before the gateway, so a supervisor sees the start-up (503 until ready).
  let server: OpsServer | null = null;
  if (config.http && metrics) {
    const maxLag = config.http.maxOutboxLagSeconds ?? 300;
    server = await startOpsServer({
      port: config.http.port,
      host: config.http.host ?? '127.0.0.1',
      metrics,
      log,
      health: {
        gateway: () => (halted ? 'stopped' : gatewayProblem(client)),
        database: () => ops.probeWritable(),
        outboxOldestAt: async () => (await outbox.backlog()).oldestAt,
        now,
        maxOutboxLagSeconds: maxLag,
      },
    });
    log.info(`ops: /healthz and /metrics on http://${server.host}:${server.port}`, { port: server.port });
  }
  const marks: Record<string, number> = {};
  const mark = (k: string) => (marks[k] = Date.now());
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  client.once(Events.InteractionCreate, () => mark('firstInteraction'));
  try {
    mark('login');
    await client.login(config.token);
    await ready;
    mark('ready');
  } catch (e) {
    await server?.close();
    throw e;
  }
  // Before anything is rendered: the command ids, so texts name commands as clickable mentions.
  await loadCommandIds(client, config.commandGuildId, log);
  mark('commandIds');

  // Recovery: overdue deadlines fire in order, pending ones are re-armed; whatever was committed
  // but not yet delivered (a crash between a commit and its messages) is in the outbox and goes
  // out now, exactly once (nonces), and every slot is brought to its newest version.
  // The repair after a gap, in the background: old stages' controls are turned off for real, and
  // every open table and lobby is refreshed (one deleted while the bot was down is posted again).
  // First, what the gateway says of each game's channel now that the guilds are ready (one deleted
  // while the bot was down, the bot removed, the access back), so nothing runs for a game out of reach.
  await watch.reviewAll(kick);
  const suspended = await lifecycle.recover();
  await outbox.wakeStale();
  await outbox.touchKept(now());
  await tournamentStore.touchMessages(now());
  deliverer.kick();
  mark('repairQueued');
  const recovered = await service.recover();
  await asyncPlay.recover();
  service.startCron();
  mark('recovered');
  const pending = await outbox.pendingCount();
  const tag = client.user?.tag ?? '?';
  log.info(
    `mafia-bot: ready as ${tag}; ${recovered.fired} overdue timers fired, ${recovered.rearmed} re-armed, ${pending} messages to deliver, ${suspended} games suspended`,
    { fired: recovered.fired, rearmed: recovered.rearmed, pending, suspended },
  );

  let stopped = false;
  return {
    get crashed() {
      return halted;
    },
    /** The process dies: no draining, the database closed as it is (tests). */
    async kill() {
      if (stopped) return;
      stopped = true;
      halt();
      await server?.close();
      await client.destroy();
    },
    client,
    startup: () => ({
      marks: { ...marks },
      intake: {
        taken: intake.taken,
        expired: intake.expired,
        acknowledgedFirst: intake.acknowledged,
        ageMs: intake.ages.summary(),
        queuedMs: intake.waits.summary(),
      },
    }),
    ops: server && metrics ? { port: server.port, metrics } : null,
    service,
    store,
    outbox,
    deliverer,
    tournaments,
    lifecycle,
    db,
    async idle() {
      // Whatever a halted bot was doing may never end (its connection closed under it): stop waiting then.
      const unlessHalted = <T>(p: Promise<T>): Promise<T | void> => Promise.race([p, haltedNow]);
      for (let i = 0; i < 100 && !halted; i++) {
        // The interactions queued and in hand first: what they commit is the service's work.
        while (!halted && (intake.length > 0 || handling.size > 0)) {
          if (handling.size > 0) await unlessHalted(Promise.allSettled([...handling]));
          else await new Promise<void>((r) => setImmediate(r));
        }
        // Reminders and voids of suspended games that fired (their work reads first).
        await unlessHalted(asyncPlay.scheduler.idle());
        await unlessHalted(lifecycle.scheduler.idle());
        await unlessHalted(service.idle());
        await unlessHalted(deliverer.idle());
        await unlessHalted(service.idle());
        if (halted) return;
        if (
          (await outbox.nextDue()) === null &&
          (await outbox.nextDirty()) === null &&
          intake.length === 0 &&
          handling.size === 0
        )
          return;
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server?.close();
      if (halted) {
        await client.destroy();
        return;
      }
      asyncPlay.scheduler.stop();
      lifecycle.scheduler.stop();
      await relayPoller?.stop();
      await service.close();
      deliverer.stop();
      await client.destroy();
      await db.close();
    },
  };
}
