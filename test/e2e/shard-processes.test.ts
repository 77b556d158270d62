// Issue 22, with real processes: `src/shard-manager.ts` (npm run start:shards) under discord.js's
// ShardingManager, one process per shard, against the fake Discord that shards as Discord does.
// Two servers on two shards play a game each (a random deal, as in production: the players'
// moves are chosen from the role cards they read). The night's DM clicks of the server on shard 1
// reach shard 0 (Discord sends every DM there) and are relayed to shard 1's process. Shard 1's
// process is SIGKILLed mid-game, while it delivers the night's posts: the manager spawns it again,
// the game goes on where it was, and nothing is sent twice. Both processes share the SQLite file, or under TEST_DB=postgres one
// PostgreSQL database (DATABASE_URL, issue 23).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/discord/bot';
import type { ScenarioStep } from '../../src/scenario/parse';
import { FakeDiscord } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { ROOT } from '../../testkit/scenario-files';
import { limitsOf, testDatabase, testDb, type World } from '../../testkit/world';

/** How many posts of the night shard 1's process gets out before it is killed (of about ten). */
const KILL_AFTER_POSTS = 3;

const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

/**
 * The bot runs in other processes: "idle" is when the fake Discord has had no request from it for
 * a while and every interaction is answered. (A heuristic with a wide margin: each step also checks
 * that it was accepted, so a step taken too early fails loudly rather than passing.)
 */
function quiet(fake: FakeDiscord, ms = 800): () => Promise<void> {
  return async () => {
    for (;;) {
      const last = fake.log.at(-1)?.at ?? 0;
      if (Date.now() - last >= ms) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
}

/** The pids of the manager's shard processes, by shard (read from each child's SHARDS variable). */
function shardPids(managerPid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== managerPid) continue;
      const env = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      const shards = env.find((e) => e.startsWith('SHARDS='));
      // The manager sets SHARDS to the shard's id (a JSON number, or a list).
      if (shards) out.set([JSON.parse(shards.slice(7)) as number | number[]].flat()[0]!, Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe(`one process per shard under the ShardingManager (issue 22), on ${testDb()}`, () => {
  it.skipIf(process.platform !== 'linux')(
    'two servers on two shards each play to the end; DM clicks of shard 1’s server are relayed from shard 0; shard 1’s process is killed mid-game and respawned',
    async () => {
      const fake = await FakeDiscord.start({
        interactionTimeout: 10_000,
        interactionDeadlineMs: 3_000,
        rateLimits: limitsOf('fast'),
        guildsPerShard: 1,
      });
      // The SQLite file both processes open, or under TEST_DB=postgres a fresh PostgreSQL database.
      const database =
        testDb() === 'postgres'
          ? await testDatabase()
          : { path: join(mkdtempSync(join(tmpdir(), 'mafia-shardproc-')), 'mafia.sqlite'), drop: async () => {} };
      const dbPath = database.path;
      const idle = quiet(fake);
      const worlds: World[] = [0, 1].map((shard) => {
        const guild = fake.addGuild({ name: `Club ${shard}`, locale: 'en-US', shard: [shard, 2] });
        const channel = fake.addChannel(guild.id, { name: 'mafia' });
        const host = fake.addUser({ username: `host${shard}`, guilds: [guild.id], locale: 'en-US' });
        const users = Array.from({ length: 10 }, (_, i) =>
          fake.addUser({ username: `s${shard}p${i + 1}`, guilds: [guild.id], locale: 'en-US' }),
        );
        return {
          fake,
          guild,
          channel,
          host,
          users,
          bot: { idle } as unknown as RunningBot,
          dbPath,
          stop: async () => {},
        };
      });
      const output: string[] = [];
      const manager: ChildProcess = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/shard-manager.ts')], {
        cwd: mkdtempSync(join(tmpdir(), 'mafia-shardproc-cwd-')),
        env: {
          PATH: process.env.PATH ?? '',
          DISCORD_TOKEN: 'test-token',
          DISCORD_API_BASE: fake.apiBase,
          ...(testDb() === 'postgres' ? { DATABASE_URL: dbPath } : { DATABASE_PATH: dbPath }),
          SHARD_COUNT: '2',
          LOG_LEVEL: 'debug', // the relay's hand-overs are logged at debug (nothing else is)
          LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      manager.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
      manager.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
      cleanup = async () => {
        manager.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 500));
        manager.kill('SIGKILL');
        for (const pid of shardPids(manager.pid!).values()) process.kill(pid, 'SIGKILL');
        await fake.stop();
        await database.drop();
      };
      // Both shard processes connected, each with its own shard.
      await fake.waitFor(() => fake.gatewaySessions().filter((s) => s.connected).length === 2 || null, {
        timeout: 60_000,
      });
      expect(
        fake
          .gatewaySessions()
          .filter((s) => s.connected)
          .map((s) => s.shard[0])
          .sort(),
      ).toEqual([0, 1]);
      await idle();

      const drivers = worlds.map((w) => new Driver(w));
      const ok = async (d: Driver, step: ScenarioStep) => expect(await d.step(step), JSON.stringify(step)).toBe('ok');
      for (const d of drivers) {
        await d.createAndStart('classic-10', 'live');
        d.learnSeats();
      }
      // Night 0 and day 1's speeches (nobody nominated: no vote) in both servers, but the last.
      for (const d of drivers) {
        await ok(d, { type: 'timeout' });
        for (let seat = 1; seat <= (d === drivers[1] ? 9 : 10); seat++)
          await ok(d, { type: 'player', seat, verb: 'pass' });
      }
      // Shard 1's process dies in the middle of the game, delivering: the last speaker of its
      // server passes (the click answered: the action is acknowledged), the night begins and its
      // posts go out (the night's message, the DMs); the process is SIGKILLed once the fake Discord
      // has created KILL_AFTER_POSTS of them (right at the answer if as many came before it; at
      // the first quiet if fewer come), before it can record the last as sent. The manager spawns
      // it again, and its successor delivers the rest.
      const before = shardPids(manager.pid!);
      expect([...before.keys()].sort()).toEqual([0, 1]);
      const w1 = worlds[1]!;
      const theirs = new Set([w1.channel.id, ...w1.users.map((u) => fake.dmChannelId(u.id))]);
      let posts = 0;
      let answered = false;
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        process.kill(before.get(1)!, 'SIGKILL');
      };
      const off = fake.onMessage('create', (m) => {
        if (theirs.has(m.channel_id) && ++posts >= KILL_AFTER_POSTS && answered) kill();
      });
      const bot1 = w1.bot as { idle: () => Promise<void> };
      bot1.idle = async () => {}; // the step returns at its answer, not once the bot is quiet
      await ok(drivers[1]!, { type: 'player', seat: 10, verb: 'pass' });
      bot1.idle = idle;
      answered = true;
      if (posts >= KILL_AFTER_POSTS) kill();
      else await Promise.race([fake.waitFor(() => killed || null, { timeout: 60_000 }), idle()]);
      kill();
      off();
      await fake.waitFor(
        () => {
          const now = shardPids(manager.pid!).get(1);
          return now !== undefined &&
            now !== before.get(1) &&
            fake.gatewaySessions().some((s) => s.connected && s.shard[0] === 1)
            ? true
            : null;
        },
        { timeout: 60_000 },
      );
      await idle();
      // Night 1 by DM: every black seat shoots the first civilian; the Sheriff and the Don check.
      for (const d of drivers) {
        const roles = d.learnSeats();
        const seatsOf = (role: string) => [...roles].filter(([, r]) => r.role === role).map(([s]) => s);
        const victim = seatsOf('civilian')[0]!;
        for (const s of [...seatsOf('mafia'), ...seatsOf('don')])
          await ok(d, { type: 'player', seat: s, verb: 'shoot', target: victim });
        await ok(d, { type: 'player', seat: seatsOf('don')[0]!, verb: 'check', target: seatsOf('sheriff')[0]! });
        await ok(d, { type: 'player', seat: seatsOf('sheriff')[0]!, verb: 'check', target: seatsOf('don')[0]! });
        // The morning names the victim; the host ends the game and closes it.
        const pub = () =>
          fake
            .publicMessages(d.w.channel.id)
            .map((m) => m.content)
            .join('\n');
        expect(pub()).toMatch(new RegExp(`Left the table last night: #${victim} <@${d.userOf(victim)}>`));
        await ok(d, { type: 'host', verb: 'end', winner: 'red' });
        await ok(d, { type: 'host', verb: 'skip' });
        expect(pub()).toMatch(/The town \(red\) wins/);
      }
      // Nothing was sent twice, though shard 1's process died between Discord taking a post and
      // its recording it: its successor sends that post again with the same nonce, and Discord
      // (enforce_nonce) answers with the first message. Each player got one role card, each channel
      // one morning and one result, and no two messages of a channel or a DM carry the same nonce
      // (one outbox row, one message; with the fake's enforceNonce off this fails).
      for (const [i, w] of worlds.entries()) {
        const contents = fake.publicMessages(w.channel.id).map((m) => m.content ?? '');
        expect(contents.filter((c) => c.includes('Left the table last night')).length, `server ${i}`).toBe(1);
        expect(contents.filter((c) => /The town \(red\) wins/.test(c)).length, `server ${i}`).toBe(1);
        for (const u of w.users)
          expect(
            fake.dms(u.id).filter((m) => / — seat \d+$/.test(m.embeds[0]?.title ?? '')).length,
            `${u.username}'s role cards`,
          ).toBe(1);
        let withNonce = 0;
        for (const messages of [fake.publicMessages(w.channel.id), ...w.users.map((u) => fake.dms(u.id))]) {
          const nonces = messages.map((m) => m.nonce).filter((n) => n !== undefined);
          withNonce += nonces.length;
          expect(nonces.length - new Set(nonces).size).toBe(0);
        }
        expect(withNonce).toBeGreaterThan(w.users.length); // the posts of the outbox carry one
      }
      expect(fake.unhandled).toEqual([]);
      const lines = output.join('').split('\n');
      // Every process (the two, and shard 1's again after the kill) opened the database of this run.
      const opened = lines.filter((l) => l.includes('"msg":"database: '));
      expect(opened.length).toBeGreaterThanOrEqual(3);
      for (const l of opened)
        expect(l).toContain(testDb() === 'postgres' ? 'database: PostgreSQL' : 'database: SQLite');
      // The night's DM clicks of shard 1's server (the mafia's shots, two checks) were handed over
      // from shard 0 to its owner; none of shard 0's server's.
      const handed = lines.filter((l) => l.includes('a DM click handed over'));
      expect(handed.length).toBeGreaterThanOrEqual(3);
      for (const l of handed) expect(l).toContain(`"guildId":"${worlds[1]!.guild.id}"`);
      // No process logged an error or a warning (a click it could not hand over, a delivery failure).
      expect(lines.filter((l) => /"level":"(warn|error|fatal)"/.test(l))).toEqual([]);
    },
    240_000,
  );
});
