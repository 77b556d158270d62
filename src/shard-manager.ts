// npm run start:shards — one process per gateway shard, under discord.js's own ShardingManager
// (issue 22). Each process is `src/index.ts` with SHARDS and SHARD_COUNT set by the manager, so it
// owns the guilds of its shard (src/db/ownership.ts): their interactions, timers, outbox rows and
// recovery. Discord sends every DM click to shard 0; a click of a game another shard owns is
// relayed here and on to that shard's process (src/discord/shard-relay.ts). A process that dies is
// spawned again by the manager and recovers its guilds as after a restart.
//
// SHARD_COUNT: a number, or `auto` (what Discord recommends for the bot's guilds, read from
// GET /gateway/bot through DISCORD_API_BASE when it is set). All processes share the database
// (DATABASE_PATH: one SQLite file in WAL mode on this machine).
import { fileURLToPath } from 'node:url';
import { REST } from '@discordjs/rest';
import { Routes, ShardingManager, type Shard } from 'discord.js';
import { ConfigError, loadDotEnv, parseConfig, type Config } from './config';
import { shardOf } from './db/ownership';
import { isRelayMessage } from './discord/shard-relay';

function die(message: string): never {
  process.stderr.write(`mafia-bot: ${message}\n`);
  process.exit(1);
}

loadDotEnv();
let config: Config;
try {
  config = parseConfig(process.env, ['DISCORD_TOKEN', 'DISCORD_API_BASE', 'SHARD_COUNT']);
} catch (e) {
  die(e instanceof ConfigError ? e.message : String(e));
}

/** The shard count: as configured, or Discord's recommendation (through the configured API base). */
async function shardCount(): Promise<number> {
  if (typeof config.SHARD_COUNT === 'number') return config.SHARD_COUNT;
  const rest = new REST(config.DISCORD_API_BASE ? { api: config.DISCORD_API_BASE } : {}).setToken(config.DISCORD_TOKEN);
  const info = (await rest.get(Routes.gatewayBot())) as { shards: number };
  return Math.max(1, info.shards);
}

const total = await shardCount().catch((e: unknown) => die(`could not read the shard count: ${(e as Error).message}`));
const manager = new ShardingManager(fileURLToPath(new URL('./index.ts', import.meta.url)), {
  token: config.DISCORD_TOKEN,
  totalShards: total,
  mode: 'process',
  respawn: true,
  // The loader this manager runs under (tsx: `npm run start:shards`, or the image's own), for each process.
  execArgv: process.execArgv,
});

manager.on('shardCreate', (shard: Shard) => {
  process.stderr.write(`mafia-bot: shard ${shard.id} of ${total} starting\n`);
  // A DM click of a game another shard owns: on to that shard's process.
  shard.on('message', (m: unknown) => {
    if (!isRelayMessage(m)) return;
    const owner = manager.shards.get(shardOf(m.guildId, total));
    if (owner) void owner.send(m).catch(() => undefined);
  });
});

// Each process is told to stop on SIGINT/SIGTERM (it drains its own work), then the manager exits.
let stopping = false;
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`mafia-bot: ${signal}, stopping ${manager.shards.size} shard processes\n`);
  for (const shard of manager.shards.values()) {
    shard.removeAllListeners('death');
    (shard as unknown as { process: { kill(s: string): void } | null }).process?.kill(signal);
  }
  setTimeout(() => process.exit(0), 11_000).unref();
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await manager.spawn({ timeout: -1 }).catch((e: unknown) => die(`could not start the shards: ${(e as Error).message}`));
