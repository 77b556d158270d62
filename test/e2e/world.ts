// End-to-end world: the fake Discord, a guild with a game channel, a host and players, and the
// real bot (discord.js client, game service, SQLite) connected to it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBot, type RunningBot } from '../../src/discord/bot';
import type { Dealer } from '../../src/discord/interactions';
import { FakeDiscord, type FakeChannelInfo, type FakeGuildInfo, type FakeUserInfo } from '../support/fake-discord';

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
}

export async function makeWorld(o: WorldOptions): Promise<World> {
  // Discord's own rule: an interaction not answered within 3 seconds has failed.
  const fake = o.fake ?? (await FakeDiscord.start({ interactionTimeout: 10_000, interactionDeadlineMs: 3_000 }));
  const guild = fake.addGuild({ name: 'Club', locale: o.guildLocale ?? 'en-US', ...(o.botPermissions !== undefined ? { botPermissions: o.botPermissions } : {}) });
  const channel = fake.addChannel(guild.id, { name: 'mafia' });
  const host = fake.addUser({ username: 'host', guilds: [guild.id], locale: o.userLocale ?? 'en-US' });
  const users = Array.from({ length: o.players }, (_, i) => fake.addUser({ username: `p${i + 1}`, guilds: [guild.id], locale: o.userLocale ?? 'en-US' }));
  const dbPath = o.dbPath ?? join(mkdtempSync(join(tmpdir(), 'mafia-e2e-')), 'mafia.sqlite');
  const bot = await startBot({
    token: 'test-token',
    databasePath: dbPath,
    apiBase: fake.apiBase,
    defaultLocale: 'en',
    lobbyTtlHours: 24,
    logger: quietLogger,
    requestsPerSecond: 1000, // the fake Discord has no global rate limit
    ...(o.dealer ? { dealer: o.dealer } : {}),
  });
  return {
    fake,
    guild,
    channel,
    host,
    users,
    bot,
    dbPath,
    async stop() {
      await bot.stop();
      if (!o.fake) await fake.stop();
    },
  };
}

/** A dealer that seats players in join order with the given roles (tests only). */
export const fixedDealer =
  (roles: readonly string[]): Dealer =>
  (members) => ({ seats: [...members], roles: roles as never });
