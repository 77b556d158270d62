// Environment, parsed with zod at the edge. A missing or invalid variable is one clear line.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { checkPostgresUrl, postgresUrlMessage, redactUrl } from './db/pg-url';

const snowflake = z.string().regex(/^\d{17,20}$/, 'must be a Discord id (17 to 20 digits)');
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const envSchema = z.object({
  DISCORD_TOKEN: z
    .string({ error: 'is not set' })
    .trim()
    .min(1, 'is empty')
    .regex(/^[\w-]+\.[\w-]+\.[\w-]+$|^test-[\w-]+$/, 'does not look like a bot token (three dot-separated parts)'),
  DISCORD_APP_ID: optional(snowflake),
  DEV_GUILD_ID: optional(snowflake),
  DATABASE_PATH: optional(z.string()).transform((v) => v ?? './data/mafia.sqlite'),
  /**
   * Issue 23: a PostgreSQL database (postgres://user:password@host:5432/database) instead of the
   * SQLite file; it wins over DATABASE_PATH (see databaseChoice).
   */
  DATABASE_URL: optional(
    z.string().superRefine((v, ctx) => {
      const url = checkPostgresUrl(v.trim());
      if (!(url instanceof URL)) ctx.addIssue({ code: 'custom', message: `is ${postgresUrlMessage(url.problem)}` });
    }),
  ).transform((v) => v?.trim()),
  /** PostgreSQL: connections this process opens at most (each open transaction holds one). */
  DATABASE_POOL_SIZE: optional(z.coerce.number().int().min(2).max(100)),
  DISCORD_API_BASE: optional(
    z
      .string()
      .url('must be a URL such as http://localhost:8080/api')
      .refine((u) => /^https?:/.test(u), 'must be an http(s) URL'),
  ),
  /** Language of public messages when a server has not chosen one and its locale is unknown. */
  DEFAULT_LOCALE: optional(z.enum(['en', 'uk', 'ru'])).transform((v) => v ?? 'en'),
  /** Lobbies nobody started expire after this many hours. */
  LOBBY_TTL_HOURS: optional(
    z.coerce
      .number()
      .positive()
      .max(24 * 365),
  ).transform((v) => v ?? 24),
  LOG_LEVEL: optional(z.enum(['error', 'warn', 'info', 'debug'])).transform((v) => v ?? 'info'),
  /** `json` (one object per line) or `pretty` (for a person); unset: pretty at a terminal, else json. */
  LOG_FORMAT: optional(z.enum(['json', 'pretty'])),
  /** The operators' endpoint (GET /healthz, GET /metrics): off unless a port is set. */
  HTTP_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  /** Where the endpoint listens; 0.0.0.0 to reach it from outside (the container image sets that). */
  HTTP_HOST: optional(z.string()).transform((v) => v ?? '127.0.0.1'),
  /** /healthz answers 503 when the oldest undelivered message has waited longer than this. */
  HEALTH_MAX_OUTBOX_LAG_SECONDS: optional(z.coerce.number().positive()).transform((v) => v ?? 300),
  /** SQLite durability: `full` fsyncs every transaction; the default survives a process crash. */
  DATABASE_SYNC: optional(z.enum(['full', 'normal'])),
  /** Where to write the process's health figures (event-loop delay, memory, CPU) every few seconds. */
  METRICS_FILE: optional(z.string()),
  /**
   * Issue 22: how many gateway shards the bot runs in all: `auto` (what Discord recommends) or a
   * number. Set by discord.js's ShardingManager for each process it spawns (with SHARDS).
   */
  SHARD_COUNT: optional(z.union([z.literal('auto'), z.coerce.number().int().min(1).max(4096)])),
  /** The shards this process holds, e.g. `0,1` or `0-3` (default: all of them); needs SHARD_COUNT. */
  SHARD_IDS: optional(
    z.string().regex(/^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/, 'must be a list such as 0,1 or 0-3'),
  ),
  /** Set by discord.js's ShardingManager for the processes it spawns: the shard ids, as JSON. */
  SHARDS: optional(z.string()),
});

/** The gateway shards of this process: all that Discord recommends, or a given list of a given count. */
export type ShardPlan = { auto: true } | { auto: false; ids: number[]; count: number };

/** SHARD_COUNT, SHARD_IDS (or the ShardingManager's SHARDS) as the shards this process holds. */
export function shardPlan(c: Pick<Config, 'SHARD_COUNT' | 'SHARD_IDS' | 'SHARDS'>): ShardPlan {
  const count = c.SHARD_COUNT;
  let ids: number[] | null = null;
  if (c.SHARDS !== undefined) {
    const parsed: unknown = JSON.parse(c.SHARDS);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    if (!list.every((x) => Number.isInteger(x) && (x as number) >= 0))
      throw new ConfigError('SHARDS must be a JSON list of shard ids (it is set by the ShardingManager)');
    ids = list as number[];
  } else if (c.SHARD_IDS !== undefined) {
    ids = [];
    for (const part of c.SHARD_IDS.split(',')) {
      const [a, b] = part.split('-').map((x) => Number(x.trim()));
      for (let i = a!; i <= (b ?? a!); i++) ids.push(i);
    }
  }
  if (ids === null)
    return count === undefined || count === 'auto' ? { auto: true } : { auto: false, ids: range(count), count };
  if (count === undefined || count === 'auto')
    throw new ConfigError('SHARD_IDS needs SHARD_COUNT: the number of shards of the whole bot (see docs/hosting.md)');
  const bad = ids.find((i) => i >= count);
  if (bad !== undefined)
    throw new ConfigError(`SHARD_IDS names shard ${bad}, but SHARD_COUNT is ${count} (shards are 0 to ${count - 1})`);
  return { auto: false, ids: [...new Set(ids)].sort((x, y) => x - y), count };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads `.env` (when present) into process.env without overriding what is already set. */
export function loadDotEnv(file = '.env'): void {
  const path = resolve(file);
  if (existsSync(path)) process.loadEnvFile(path);
}

/**
 * Which database the configuration names: PostgreSQL when DATABASE_URL is set, else the SQLite file.
 * DATABASE_URL wins over DATABASE_PATH: with both set, the bot runs on PostgreSQL and does not open
 * the file. Refusing the pair would trip everyone who runs the container image or the compose file,
 * which set DATABASE_PATH for the SQLite volume (they would have to unset it by hand). The risk of the pair, starting on
 * an empty PostgreSQL database while the games are in the file, is caught when the database is
 * opened: openConnection (src/db/open.ts) returns a warning to log when the file at DATABASE_PATH
 * holds games and the PostgreSQL database has none yet.
 */
export type DatabaseChoice = { kind: 'postgres'; url: URL; shown: string } | { kind: 'sqlite'; path: string };

export function databaseChoice(c: Pick<Config, 'DATABASE_URL' | 'DATABASE_PATH'>): DatabaseChoice {
  if (c.DATABASE_URL) {
    const url = checkPostgresUrl(c.DATABASE_URL);
    if (!(url instanceof URL)) throw new ConfigError(`DATABASE_URL is ${postgresUrlMessage(url.problem)}`);
    return { kind: 'postgres', url, shown: redactUrl(url) };
  }
  return { kind: 'sqlite', path: c.DATABASE_PATH };
}

/**
 * What the logs must never show (src/log.ts replaces it): the token, DATABASE_URL whole and its
 * password. Log the database as databaseChoice's `shown` (the password as ***).
 */
export function configSecrets(c: Pick<Config, 'DISCORD_TOKEN' | 'DATABASE_URL'>): string[] {
  const out = [c.DISCORD_TOKEN];
  if (c.DATABASE_URL) {
    out.push(c.DATABASE_URL);
    const url = checkPostgresUrl(c.DATABASE_URL);
    if (url instanceof URL && url.password) {
      out.push(url.password);
      try {
        out.push(decodeURIComponent(url.password));
      } catch {
        // not percent-encoding: the password as written is all there is
      }
    }
  }
  // Longest first: the whole URL is replaced before the password inside it.
  return [...new Set(out)].sort((a, b) => b.length - a.length);
}

/** Parses the environment; throws ConfigError with a one-line message naming the variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env, only?: (keyof Config)[]): Config {
  const schema = only ? envSchema.pick(Object.fromEntries(only.map((k) => [k, true])) as never) : envSchema;
  const r = schema.safeParse(env);
  if (r.success) return r.data as Config;
  const issue = r.error.issues[0]!;
  const name = String(issue.path[0] ?? 'environment');
  if (name === 'DISCORD_TOKEN' && env.DISCORD_TOKEN === undefined) {
    throw new ConfigError(
      'DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it (Discord Developer Portal → your application → Bot → Reset Token)',
    );
  }
  throw new ConfigError(`${name} ${issue.message} (see .env.example)`);
}
