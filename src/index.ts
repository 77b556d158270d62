// npm start: the bot. Reads .env, checks the configuration, opens the database, connects to
// Discord, and shuts down cleanly on SIGINT/SIGTERM. Problems at start-up are one clear line
// (on stderr, before logging is set up); from then on everything is logged (src/log.ts).
import { ConfigError, configSecrets, loadDotEnv, parseConfig, shardPlan } from './config';
import { StartupError } from './db/client';
import { startBot, type RunningBot } from './discord/bot';
import { createLog, defaultLogFormat, silentLog, type Log } from './log';
import { metricsFileOf, startMetrics } from './metrics';

function die(message: string): never {
  process.stderr.write(`mafia-bot: ${message}\n`);
  process.exit(1);
}

loadDotEnv();
let bot: RunningBot | null = null;
let log: Log = silentLog();
try {
  const config = parseConfig();
  log = createLog({
    level: config.LOG_LEVEL,
    format: config.LOG_FORMAT ?? defaultLogFormat(),
    secrets: configSecrets(config),
  });
  // With the deliverer's counts: calls by route, by purpose and by budget level. Under the
  // ShardingManager, one file per process (every process has the same environment).
  const managed = process.env.SHARDING_MANAGER ? config.SHARDS : undefined;
  const metrics = config.METRICS_FILE
    ? startMetrics(metricsFileOf(config.METRICS_FILE, managed), () =>
        bot ? { delivery: Object.fromEntries(bot.deliverer.counts), startup: bot.startup() } : {},
      )
    : null;
  bot = await startBot({
    token: config.DISCORD_TOKEN,
    databasePath: config.DATABASE_PATH,
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    ...(config.DATABASE_POOL_SIZE ? { databasePoolSize: config.DATABASE_POOL_SIZE } : {}),
    defaultLocale: config.DEFAULT_LOCALE,
    lobbyTtlHours: config.LOBBY_TTL_HOURS,
    logger: log,
    ...(config.HTTP_PORT !== undefined
      ? {
          http: {
            port: config.HTTP_PORT,
            host: config.HTTP_HOST,
            maxOutboxLagSeconds: config.HEALTH_MAX_OUTBOX_LAG_SECONDS,
          },
        }
      : {}),
    ...(config.DISCORD_API_BASE ? { apiBase: config.DISCORD_API_BASE } : {}),
    ...(config.DEV_GUILD_ID ? { commandGuildId: config.DEV_GUILD_ID } : {}),
    shards: shardPlan(config),
    // Spawned by the ShardingManager (npm run start:shards): DM clicks travel through it (issue 22).
    ...(process.env.SHARDING_MANAGER && process.send
      ? {
          relay: {
            send: (m: unknown) => void process.send!(m),
            onMessage: (listener: (m: unknown) => void) => void process.on('message', listener),
          },
        }
      : {}),
  });
  metrics?.ready();
} catch (e) {
  if (e instanceof ConfigError || e instanceof StartupError) die(e.message);
  const err = e as { code?: string; message?: string };
  if (err.code === 'TokenInvalid' || /invalid token|401/i.test(err.message ?? ''))
    die('Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal and update .env');
  if (err.code === 'DisallowedIntents')
    die('Discord refused the gateway intents; the bot needs only Guilds and Guild Messages, which are not privileged');
  die(`could not start: ${err.message ?? String(e)}`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`mafia-bot: ${signal}, finishing pending work and stopping`, { signal });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await bot?.stop();
  process.exit(0);
}
// One game's failure must never take the others down: log it and go on.
process.on('unhandledRejection', (e) => log.error('mafia-bot: unexpected error (the bot goes on)', e));
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
