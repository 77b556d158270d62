// Issue 22: a guild is owned by the process that holds its shard. Two bots ("processes") on one
// SQLite file and one fake Discord that shards as Discord does: guild A on shard 0, guild B on
// shard 1, a whole game in each at the same time. Every DM click goes to shard 0 (Discord sends
// what has no guild there): the clicks of guild B's players are handed to B's process, as the
// ShardingManager's IPC does (src/shard-manager.ts). Then B's process is killed mid-game and
// started again while A's game goes on; and the guilds move to one new process (a resharding),
// which finishes what was left.
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { startBot, type BotConfig, type RunningBot } from '../../src/discord/bot';
import { shardOf } from '../../src/db/ownership';
import { isRelayMessage, type RelayMessage } from '../../src/discord/shard-relay';
import { parseScenario } from '../../src/scenario/parse';
import { FakeDiscord } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { botConfig, fixedDealer, limitsOf, testDatabase, type World } from '../../testkit/world';

const SC = parseScenario(readJson(join(OWN_DIR, 'classic-all-leave-ends-game.json')));

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

/** The manager's relay between the processes: a message goes to the process holding the guild's shard. */
class Manager {
  private readonly listeners = new Map<number, (m: unknown) => void>();
  readonly relayed: RelayMessage[] = [];
  constructor(private readonly count: number) {}
  relayFor(shards: readonly number[]): NonNullable<BotConfig['relay']> {
    return {
      send: (m) => {
        if (!isRelayMessage(m)) return;
        this.relayed.push(m);
        const to = this.listeners.get(shardOf(m.guildId, this.count));
        if (to) queueMicrotask(() => to(m));
      },
      onMessage: (listener) => {
        for (const s of shards) this.listeners.set(s, listener);
      },
    };
  }
}

async function setUp(through: 'ipc' | 'database' = 'ipc') {
  const fake = await FakeDiscord.start({
    interactionTimeout: 10_000,
    interactionDeadlineMs: 3_000,
    rateLimits: limitsOf('fast'),
    guildsPerShard: 1,
  });
  // One database for both processes: the SQLite file, or under TEST_DB=postgres one PostgreSQL database.
  const db = await testDatabase();
  const dbPath = db.path;
  const manager = new Manager(2);
  const worlds: World[] = [];
  for (const shard of [0, 1]) {
    const guild = fake.addGuild({ name: `Club ${shard}`, locale: 'en-US', shard: [shard, 2] });
    const channel = fake.addChannel(guild.id, { name: 'mafia' });
    const host = fake.addUser({ username: `host${shard}`, guilds: [guild.id], locale: 'en-US' });
    const users = SC.roles.map((_, i) =>
      fake.addUser({ username: `g${shard}p${i + 1}`, guilds: [guild.id], locale: 'en-US' }),
    );
    worlds.push({
      fake,
      guild,
      channel,
      host,
      users,
      bot: null as unknown as RunningBot,
      dbPath,
      stop: async () => {},
    });
  }
  const config = (shards: number[]): BotConfig => ({
    ...botConfig(fake, dbPath, { dealer: fixedDealer(SC.roles) }),
    shards: { auto: false, ids: shards, count: 2 },
    ...(through === 'ipc' ? { relay: manager.relayFor(shards) } : { relayPollMs: 20 }),
  });
  const start = async (shard: number) => {
    worlds[shard]!.bot = await startBot(config([shard]));
  };
  await start(0);
  await start(1);
  cleanup = async () => {
    for (const w of worlds) await w.bot.stop().catch(() => undefined);
    await fake.stop();
    await db.drop();
  };
  return { fake, manager, worlds: worlds as [World, World], start, config };
}

describe('two processes, two shards (issue 22)', () => {
  it('each process runs only its guild’s game; DM clicks of the other shard’s guild are handed over; a process killed mid-game is restarted while the other goes on; a resharding hands the rest to one process', async () => {
    const { fake, manager, worlds, start, config } = await setUp();
    const [wa, wb] = worlds;
    // Each bot's gateway holds one shard, with one guild.
    const sessions = fake.gatewaySessions().filter((s) => s.connected);
    expect(sessions.map((s) => s.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    const da = new Driver(wa);
    const db = new Driver(wb);
    await Promise.all([da.createAndStart(SC.ruleset, SC.pace), db.createAndStart(SC.ruleset, SC.pace)]);
    expect(da.gameId).not.toBe(db.gameId);

    // Half of each game, both at once.
    const half = Math.floor(SC.steps.length / 2);
    await Promise.all([
      (async () => {
        for (const step of SC.steps.slice(0, half)) await da.step(step);
      })(),
      (async () => {
        for (const step of SC.steps.slice(0, half)) await db.step(step);
      })(),
    ]);
    // Guild B's night clicks came by DM to shard 0 and were handed to B's process.
    expect(manager.relayed.length).toBeGreaterThan(0);
    expect(manager.relayed.every((m) => m.guildId === wb.guild.id)).toBe(true);
    // Neither process touched the other's game: each holds one game's state and at most its timer.
    for (const w of [wa, wb]) {
      expect(w.bot.service.sizes().states).toBe(1);
      expect(w.bot.service.sizes().timers).toBeLessThanOrEqual(1);
    }

    // B's process dies mid-game (SIGKILL: nothing drained) and is started again; A goes on meanwhile.
    await wb.bot.kill();
    const aStep = da.step(SC.steps[half]!);
    await start(1);
    await aStep;
    expect(await db.step(SC.steps[half]!)).toBe('ok');
    for (const step of SC.steps.slice(half + 1, half + 3)) {
      await da.step(step);
      await db.step(step);
    }
    // A resharding: both stop, one process now holds both shards and finishes both games.
    await wa.bot.stop();
    await wb.bot.stop();
    const both = await startBot(config([0, 1]));
    wa.bot = both;
    wb.bot = both;
    for (const step of SC.steps.slice(half + 3)) {
      await da.step(step);
      await db.step(step);
    }
    await both.idle();
    for (const d of [da, db]) {
      const game = (await both.store.getGame(d.gameId))!;
      expect(['post-game', 'over']).toContain(game.status);
      expect((await both.service.state(d.gameId))!.result?.winner).toBe(SC.expect!.winner);
    }
    // Nothing was sent twice: every public message of each channel once (nonces), none failed.
    for (const w of worlds) {
      const contents = w.fake.publicMessages(w.channel.id).map((m) => m.content);
      expect(contents.filter((c) => c.startsWith('🏆')).length).toBe(1);
    }
    expect(fake.unhandled).toEqual([]);
  });

  it('without a ShardingManager between them (several machines, SHARD_IDS by hand), DM clicks reach the owner through the database (issue 23)', async () => {
    const { fake, manager, worlds } = await setUp('database');
    const [wa, wb] = worlds;
    const da = new Driver(wa);
    const db = new Driver(wb);
    await Promise.all([da.createAndStart(SC.ruleset, SC.pace), db.createAndStart(SC.ruleset, SC.pace)]);
    await Promise.all([
      (async () => {
        for (const step of SC.steps) await da.step(step);
      })(),
      (async () => {
        for (const step of SC.steps) await db.step(step);
      })(),
    ]);
    await wa.bot.idle();
    await wb.bot.idle();
    for (const [w, d] of [
      [wa, da],
      [wb, db],
    ] as const) {
      expect((await w.bot.service.state(d.gameId))!.result?.winner).toBe(SC.expect!.winner);
      expect(w.fake.publicMessages(w.channel.id).filter((m) => m.content.startsWith('🏆')).length).toBe(1);
    }
    // No IPC: guild B's night clicks came by DM to shard 0's process, which wrote them down; B's took them.
    expect(manager.relayed).toEqual([]);
    const rows = await wa.bot.db.connection.rows<{ guildId: string; takenAt: number | null }>(
      sql`select guild_id as "guildId", taken_at as "takenAt" from relayed_clicks`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.guildId === wb.guild.id && r.takenAt !== null)).toBe(true);
    expect(fake.unhandled).toEqual([]);
  });
});
