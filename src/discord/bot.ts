// Start-up and shutdown of the whole bot: database, game service, Discord client, recovery.
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import { GameService, type GameEffect } from '../app/game-service';
import { openDatabase, type OpenDb } from '../db/client';
import { Store } from '../db/store';
import type { Locale } from '../i18n';
import { Contexts } from './context';
import { Deliver, type Logger } from './deliver';
import { Effects } from './effects';
import { Interactions, type Dealer } from './interactions';

export interface BotConfig {
  token: string;
  databasePath: string;
  /** REST base URL (a rate-limit proxy, or the fake Discord in tests); the gateway URL comes from its /gateway/bot. */
  apiBase?: string;
  defaultLocale: Locale;
  lobbyTtlHours: number;
  logger?: Logger & { info(msg: string): void };
  /** Clock for the game service (tests); defaults to Date.now. */
  now?: () => number;
  /** How seats and roles are dealt (tests fix it; the default is crypto-random, G-1). */
  dealer?: Dealer;
  /** REST calls per second (Discord's global limit is 50; a local fake allows more). */
  requestsPerSecond?: number;
}

export interface RunningBot {
  client: Client;
  service: GameService;
  store: Store;
  db: OpenDb;
  /** Resolves when every queued action and message has been handled. */
  idle(): Promise<void>;
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
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: {
      ...(config.apiBase ? { api: config.apiBase } : {}),
      // Interaction replies are not limited; other calls share Discord's global 50/s.
      globalRequestsPerSecond: config.requestsPerSecond ?? 50,
    },
    makeCache: Options.cacheWithLimits({ MessageManager: 0, ReactionManager: 0, GuildMessageManager: 0 }),
  });
  const deliver = new Deliver(client.rest, log);
  let effects: Effects | null = null;
  const pending: GameEffect[] = [];
  const service = new GameService(store, {
    ...(config.now ? { now: config.now } : {}),
    lobbyTtlMs: config.lobbyTtlHours * 3_600_000,
    logger: log,
    onEffect: async (e) => {
      if (effects) await effects.handle(e);
      else pending.push(e);
    },
  });
  const contexts = new Contexts(store, service, config.defaultLocale);
  effects = new Effects(client, deliver, contexts);
  const interactions = new Interactions(service, store, contexts, effects, deliver, log, config.dealer);
  client.on(Events.InteractionCreate, (i) => void interactions.handle(i));
  client.on(Events.Error, (e) => log.error('discord client error', e));

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(config.token);
  await ready;
  for (const e of pending.splice(0)) await effects.handle(e);

  // Recovery: overdue deadlines fire in order, pending ones are re-armed, and every running game's
  // table and current stage are put right (a crash may have come between a commit and its messages).
  const recovered = await service.recover();
  await service.idle();
  for (const g of store.gamesWithStatus(['running', 'post-game'])) await effects.recover(g.id);
  service.startCron();
  log.info(`mafia-bot: ready as ${client.user?.tag ?? '?'}; ${recovered.fired} overdue timers fired, ${recovered.rearmed} re-armed`);

  let stopped = false;
  return {
    client,
    service,
    store,
    db,
    idle: () => service.idle(),
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.close();
      await client.destroy();
      db.close();
    },
  };
}
