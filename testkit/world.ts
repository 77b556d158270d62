// End-to-end world: the fake Discord, a guild with a game channel, a host and players, and the
// real bot (discord.js client, game service, SQLite) connected to it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBot, type BotConfig, type RunningBot } from '../src/discord/bot';
import { testPostgres } from './postgres';
import { openConnection, type OpenedDatabase } from '../src/db/open';
import type { Dealer } from '../src/app/dealer';
import { crashAt, type CrashPoint } from './crash';
import type { TimerHost } from '../src/app/scheduler';
import { FakeDiscord, type FakeChannelInfo, type FakeGuildInfo, type FakeUserInfo } from './fake-discord';
import type { RateLimitOptions } from './fake-discord/ratelimit';

export const quietLogger = {
  info: () => {},
  warn: () => {},
  error: (m: string, e?: unknown) => {
    if (process.env.E2E_VERBOSE) console.error(m, e);
  },
};

export interface World {
  fake: FakeDiscord;
  guild: FakeGuildInfo;
  channel: FakeChannelInfo;
  host: FakeUserInfo;
  users: FakeUserInfo[];
  /** The running bot (a restart test puts a new one here). */
  bot: RunningBot;
  dbPath: string;
  stop(): Promise<void>;
}

export interface WorldOptions {
  players: number;
  guildLocale?: string;
  userLocale?: string;
  dealer?: Dealer;
  botPermissions?: bigint;
  fake?: FakeDiscord;
  dbPath?: string;
  requestsPerSecond?: number;
  deliveryDebounceMs?: number;
  /** Fault injection: the bot dies right after these commit points (see testkit/crash.ts). */
  crashAt?: readonly CrashPoint[];
  crashAfterSends?: number;
  /**
   * Discord's rate limits in the fake: `real` (5 posts and 5 edits per 5 s per channel, 50/s),
   * `fast` (the same counts per 0.5 s, the default: same behaviour, tests ten times quicker), `off`.
   */
  limits?: 'real' | 'fast' | 'off';
  /** A fake clock: the bot's time and its stage and reminder timers (issue 10's days in seconds). */
  clock?: { now: () => number; timers: TimerHost };
  /** The operators' endpoint (port 0: a free one, read from `world.bot.ops.port`). */
  http?: BotConfig['http'];
  /** Every click acknowledged on arrival, before its work (0), as in a burst after a restart (issue 22). */
  acknowledgeClicksAfterMs?: number;
}

/** The fake's rate limits for a test world. */
export function limitsOf(kind: WorldOptions['limits'] = 'fast'): RateLimitOptions | boolean {
  if (kind === 'off') return false;
  if (kind === 'real') return true;
  return { globalPerSecond: 500, messageCreate: { limit: 5, windowMs: 500 }, messageEdit: { limit: 5, windowMs: 500 } };
}

/** The bot's settings in a test world (a restart uses the same). */
export function botConfig(
  fake: FakeDiscord,
  dbPath: string,
  o: Pick<
    WorldOptions,
    'dealer' | 'requestsPerSecond' | 'deliveryDebounceMs' | 'crashAt' | 'crashAfterSends' | 'limits' | 'clock'
  > = {},
): BotConfig {
  return {
    token: 'test-token',
    // Under TEST_DB=postgres a world's "path" is its PostgreSQL database's URL (testDatabase).
    ...(isPostgresUrl(dbPath)
      ? { databaseUrl: dbPath, databasePath: join(tmpdir(), 'mafia-e2e-unused.sqlite') }
      : { databasePath: dbPath }),
    apiBase: fake.apiBase,
    defaultLocale: 'en',
    lobbyTtlHours: 24,
    logger: quietLogger,
    requestsPerSecond: o.requestsPerSecond ?? (o.limits === 'real' ? 50 : 500),
    deliveryDebounceMs: o.deliveryDebounceMs ?? 100,
    deliveryMaxBackoffMs: 2000,
    deliveryPostWindowMs: o.limits === 'real' ? 5000 : o.limits === 'off' ? 1 : 500,
    storageRetryMs: 1000,
    strictAudience: true,
    ...(o.crashAt ? { instrument: crashAt(o.crashAt, o.crashAfterSends ?? 1) } : {}),
    ...(o.dealer ? { dealer: o.dealer } : {}),
    ...(o.clock ? { now: o.clock.now, timers: o.clock.timers } : {}),
  };
}

export async function makeWorld(o: WorldOptions): Promise<World> {
  // Discord's own rule: an interaction not answered within 3 seconds has failed.
  const fake =
    o.fake ??
    (await FakeDiscord.start({
      interactionTimeout: 10_000,
      interactionDeadlineMs: 3_000,
      rateLimits: limitsOf(o.limits),
    }));
  const guild = fake.addGuild({
    name: 'Club',
    locale: o.guildLocale ?? 'en-US',
    ...(o.botPermissions !== undefined ? { botPermissions: o.botPermissions } : {}),
  });
  const channel = fake.addChannel(guild.id, { name: 'mafia' });
  const host = fake.addUser({ username: 'host', guilds: [guild.id], locale: o.userLocale ?? 'en-US' });
  const users = Array.from({ length: o.players }, (_, i) =>
    fake.addUser({ username: `p${i + 1}`, guilds: [guild.id], locale: o.userLocale ?? 'en-US' }),
  );
  const own = o.dbPath ? null : await testDatabase();
  const dbPath = o.dbPath ?? own!.path;
  const bot = await startBot({
    ...botConfig(fake, dbPath, o),
    ...(o.http ? { http: o.http } : {}),
    ...(o.acknowledgeClicksAfterMs !== undefined ? { acknowledgeClicksAfterMs: o.acknowledgeClicksAfterMs } : {}),
  });
  const world: World = {
    fake,
    guild,
    channel,
    host,
    users,
    bot,
    dbPath,
    async stop() {
      await world.bot.stop();
      if (!o.fake) await fake.stop();
      await own?.drop();
    },
  };
  return world;
}

/** Opens a test database by its path (a SQLite file, or testDatabase's PostgreSQL URL) as npm start does. */
export function openTestDatabase(path: string): Promise<OpenedDatabase> {
  return openConnection(
    isPostgresUrl(path)
      ? { DATABASE_URL: path, DATABASE_PATH: join(tmpdir(), 'mafia-test-unused.sqlite') }
      : { DATABASE_PATH: path },
  );
}

/**
 * The databases a test file opens, closed (and PostgreSQL's dropped) after each test:
 * `const dbs = testDatabases(); afterEach(() => dbs.closeAll());`.
 */
export function testDatabases() {
  const opened: OpenedDatabase[] = [];
  const drops: (() => Promise<void>)[] = [];
  return {
    /** A fresh database's path (testDatabase). */
    async fresh(): Promise<string> {
      const db = await testDatabase();
      drops.push(db.drop);
      return db.path;
    },
    async open(path: string): Promise<OpenedDatabase> {
      const o = await openTestDatabase(path);
      opened.push(o);
      return o;
    },
    /** Closes one before the others (a restart), so closeAll does not close it twice. */
    async close(o: OpenedDatabase): Promise<void> {
      opened.splice(opened.indexOf(o), 1);
      await o.close();
    },
    async closeAll(): Promise<void> {
      for (const o of opened.splice(0)) await o.close();
      for (const d of drops.splice(0)) await d();
    },
  };
}

export const isPostgresUrl = (p: string): boolean => /^postgres(ql)?:\/\//.test(p);

/** Which database the suites run on: SQLite, or PostgreSQL under TEST_DB=postgres (vitest's second project). */
export const testDb = (): 'sqlite' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

/**
 * A fresh database for a bot under test: a SQLite file in a new temporary folder, or under
 * TEST_DB=postgres a fresh PostgreSQL database (its URL as the "path"; `drop` removes it).
 */
export async function testDatabase(): Promise<{ path: string; drop(): Promise<void> }> {
  if (testDb() === 'postgres') {
    const d = await testPostgres();
    if (!d) throw new Error('TEST_DB=postgres but there is no PostgreSQL (TEST_DATABASE_URL or its binaries)');
    return { path: d.url, drop: () => d.drop() };
  }
  return { path: join(mkdtempSync(join(tmpdir(), 'mafia-e2e-')), 'mafia.sqlite'), drop: async () => {} };
}

/** A dealer that seats players in join order with the given roles (tests only). */
export const fixedDealer =
  (roles: readonly string[]): Dealer =>
  (members) => ({ seats: [...members], roles: roles as never });

/**
 * A fake clock for games over days: time flows as in reality (so the deliverer's pacing works) plus
 * the jumps a test makes; the bot's stage and reminder timers are held here and fire, in order,
 * only when the test moves the clock past them.
 */
export class FakeClock implements TimerHost {
  private jumped = 0;
  private readonly realStart = Date.now();
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  constructor(private readonly base: number) {}

  readonly now = (): number => this.base + this.jumped + (Date.now() - this.realStart);

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    if (ms <= 0) {
      const t = setTimeout(() => {
        if (this.pending.delete(id)) fn();
      }, 0);
      t.unref?.();
    }
    this.pending.set(id, { at: this.now() + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  private jumpTo(t: number): void {
    const d = t - this.now();
    if (d > 0) this.jumped += d;
  }

  /** The earliest timer still waiting (tests read it). */
  next(): number | null {
    let best: number | null = null;
    for (const p of this.pending.values()) if (best === null || p.at < best) best = p.at;
    return best;
  }

  /** Moves the clock to `t`, firing every timer due by then in order, each after the last has settled. */
  async advanceTo(t: number, settle: () => Promise<void>, onFire?: (at: number) => void): Promise<void> {
    for (;;) {
      let id: number | null = null;
      let at = Infinity;
      for (const [k, p] of this.pending) if (p.at < at) [id, at] = [k, p.at];
      if (id === null || at > t) break;
      const p = this.pending.get(id)!;
      this.pending.delete(id);
      this.jumpTo(at);
      p.fn();
      await settle();
      onFire?.(at);
    }
    this.jumpTo(t);
    await settle();
  }
}
