// Issue 22: a guild is owned by one process, the one holding its shard ((guild_id >> 22) % count);
// every query that picks work (due timers, reminders, suspended games, outbox rows, slots to
// repair, lobbies to expire) returns only the owned guilds' games. Two processes sharing one
// SQLite file, each with its own ownership, never pick the same work.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shardPlan, parseConfig, ConfigError } from '../../src/config';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { AsyncStore } from '../../src/db/async-store';
import { LifecycleStore } from '../../src/db/lifecycle-store';
import { OutboxStore } from '../../src/db/outbox-store';
import { OWNS_ALL, ShardOwnership, shardOf } from '../../src/db/ownership';
import { Store } from '../../src/db/store';
import { shardOf as fakeShardOf, snowflakeOnShard } from '../../testkit/fake-discord';

const opened: OpenDb[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

describe('which guilds a process owns', () => {
  it("Discord's rule: (guild_id >> 22) % shard_count, as the fake Discord routes events", () => {
    for (const count of [1, 2, 3, 7, 16])
      for (const shard of [0, count - 1]) {
        const id = snowflakeOnShard(shard, count);
        expect(shardOf(id, count)).toBe(shard);
        expect(shardOf(id, count)).toBe(fakeShardOf(id, count));
      }
    // A known id worked by hand: 41771983423143937 >> 22 = 9959216934; % 16 = 6, % 3 = 0.
    expect(shardOf('41771983423143937', 16)).toBe(6);
    expect(shardOf('41771983423143937', 3)).toBe(0);
  });

  it('a process owns the guilds of its shards; DMs (no guild) belong to shard 0’s holder; one process owns all', () => {
    const g0 = snowflakeOnShard(0, 2);
    const g1 = snowflakeOnShard(1, 2);
    const a = new ShardOwnership([0], 2);
    const b = new ShardOwnership([1], 2);
    expect([a.owns(g0), a.owns(g1), b.owns(g0), b.owns(g1)]).toEqual([true, false, false, true]);
    expect([a.owns(null), b.owns(null)]).toEqual([true, false]);
    expect(new ShardOwnership([1, 0], 2).all).toBe(true);
    expect(OWNS_ALL.owns(g1) && OWNS_ALL.owns(null) && OWNS_ALL.all).toBe(true);
    expect(() => new ShardOwnership([2], 2)).toThrow(/invalid shard 2 of 2/);
    expect(() => new ShardOwnership([0], 0)).toThrow(/invalid shard count/);
  });

  it('SHARD_COUNT, SHARD_IDS and the ShardingManager’s SHARDS: the shards this process holds; bad values are one clear line', () => {
    const env = (e: Record<string, string>) => parseConfig({ DISCORD_TOKEN: 'test-token', ...e });
    expect(shardPlan(env({}))).toEqual({ auto: true });
    expect(shardPlan(env({ SHARD_COUNT: 'auto' }))).toEqual({ auto: true });
    expect(shardPlan(env({ SHARD_COUNT: '3' }))).toEqual({ auto: false, ids: [0, 1, 2], count: 3 });
    expect(shardPlan(env({ SHARD_COUNT: '8', SHARD_IDS: '4-6, 1' }))).toEqual({
      auto: false,
      ids: [1, 4, 5, 6],
      count: 8,
    });
    expect(shardPlan(env({ SHARD_COUNT: '4', SHARDS: '[2]' }))).toEqual({ auto: false, ids: [2], count: 4 });
    expect(() => shardPlan(env({ SHARD_IDS: '1' }))).toThrow(/SHARD_IDS needs SHARD_COUNT/);
    expect(() => shardPlan(env({ SHARD_COUNT: '2', SHARD_IDS: '2' }))).toThrow(/shards are 0 to 1/);
    expect(() => env({ SHARD_IDS: 'one' })).toThrow(ConfigError);
    expect(() => env({ SHARD_COUNT: '0' })).toThrow(/SHARD_COUNT/);
  });
});

describe('two processes on one SQLite file pick only their own guilds’ work', () => {
  function twoProcesses() {
    const path = join(mkdtempSync(join(tmpdir(), 'mafia-own-')), 'db.sqlite');
    const open = (shard: number) => {
      const db = openDatabase(path);
      opened.push(db);
      db.ownership.set(new ShardOwnership([shard], 2));
      return {
        db,
        store: new Store(db.connection),
        outbox: new OutboxStore(db.connection),
        lstore: new LifecycleStore(db.connection),
        astore: new AsyncStore(db.connection),
      };
    };
    return [open(0), open(1)] as const;
  }

  it('deadlines, reminders, suspensions, outbox heads (a shared DM channel too), slots to repair, lobbies to expire', async () => {
    const [a, b] = twoProcesses();
    const now = 1_000_000;
    const guilds = [snowflakeOnShard(0, 2), snowflakeOnShard(1, 2)];
    const games: number[] = [];
    for (const [i, guildId] of guilds.entries()) {
      const lobby = await a.store.createLobby({
        guildId,
        channelId: `10000000000000000${i}`,
        hostId: 'h',
        ruleset: 'classic-10',
        pace: 'live',
        options: {},
        now,
      });
      games.push(lobby.id);
    }
    const [ga, gb] = games as [number, number];
    const raw = a.db.sqlite;
    for (const g of games) {
      raw.prepare('INSERT INTO deadlines (game_id, stage_seq, due_at) VALUES (?, 1, ?)').run(g, now + g);
      raw.prepare("INSERT INTO reminders (game_id, stage_seq, kind, due_at) VALUES (?, 1, 'half', ?)").run(g, now);
      await a.lstore.add({
        gameId: g,
        reason: 'channel-deleted',
        since: now,
        voidAt: now + 1000,
        stageSeq: null,
        extraMs: 0,
        clockStopped: false,
      });
    }
    expect((await a.store.pendingDeadlines()).map((d) => d.gameId)).toEqual([ga]);
    expect((await b.store.pendingDeadlines()).map((d) => d.gameId)).toEqual([gb]);
    expect((await b.store.dueDeadlines(now + 1e9)).map((d) => d.gameId)).toEqual([gb]);
    expect(await a.astore.gamesWithReminders()).toEqual([ga]);
    expect(await b.astore.gamesWithReminders()).toEqual([gb]);
    expect((await a.lstore.all()).map((s) => s.gameId)).toEqual([ga]);
    expect((await b.lstore.activeGames()).map((g) => g.id)).toEqual([gb]);
    for (const g of games) {
      await a.lstore.remove(g);
    }

    // Outbox: each game's channel row, and a DM channel both games write to (B's row first).
    await b.outbox.add(gb, 'dm:42', 'post', { content: 'from game B' }, now);
    await a.outbox.add(ga, 'dm:42', 'post', { content: 'from game A' }, now);
    await a.outbox.add(ga, `ch:${'10000000000000000'}0`, 'post', { content: 'A' }, now);
    await b.outbox.add(gb, `ch:${'10000000000000000'}1`, 'post', { content: 'B' }, now);
    const contents = (rows: { payload: string }[]) =>
      rows.map((r) => (JSON.parse(r.payload) as { content: string }).content);
    expect(contents(await a.outbox.heads(now, 10, 'channels'))).toEqual(['A']);
    expect(contents(await b.outbox.heads(now, 10, 'channels'))).toEqual(['B']);
    // A's DM row is A's head for that DM channel even though B's older row waits there (B sends it).
    expect(contents(await a.outbox.heads(now, 10, 'dms'))).toEqual(['from game A']);
    expect(contents(await b.outbox.heads(now, 10, 'dms'))).toEqual(['from game B']);
    expect([await a.outbox.pendingCount(), await b.outbox.pendingCount()]).toEqual([2, 2]);

    // Slots to repair: only the owner edits them.
    for (const [p, g] of [
      [a, ga],
      [b, gb],
    ] as const) {
      await p.outbox.setSlot(g, 'table', 'message', `ch:10000000000000000${g === ga ? 0 : 1}`, { content: 'v1' }, now);
      raw.prepare("UPDATE slots SET message_id = '1', sent_version = 1 WHERE game_id = ?").run(g);
      await p.outbox.setSlot(g, 'table', 'message', `ch:10000000000000000${g === ga ? 0 : 1}`, { content: 'v2' }, now);
    }
    expect((await a.outbox.dirty(now + 1, 10)).map((s) => s.gameId)).toEqual([ga]);
    expect((await b.outbox.dirty(now + 1, 10)).map((s) => s.gameId)).toEqual([gb]);

    // Housekeeping: each expires only its own stale lobbies.
    expect(await a.store.expireLobbies(now + 1, now + 2)).toEqual([ga]);
    expect((await a.store.getGame(gb))!.status).toBe('lobby');
    expect(await b.store.expireLobbies(now + 1, now + 2)).toEqual([gb]);
  });
});

describe('one request budget for all processes', () => {
  it('a process spends its share of the shards of the budget, so the processes together stay within 50/s', async () => {
    const { budgetShare } = await import('../../src/discord/bot');
    expect(budgetShare({ auto: true })).toBe(1);
    expect(budgetShare({ auto: false, ids: [0, 1], count: 2 })).toBe(1);
    const parts = [[0], [1, 2], [3]].map((ids) => budgetShare({ auto: false, ids, count: 4 }));
    expect(parts).toEqual([0.25, 0.5, 0.25]);
    expect(parts.reduce((a, b) => a + b)).toBe(1);
  });

  it("the processes' deliverers together never make more than 50 calls in a second, however the shards are split", async () => {
    const { deliveryRate } = await import('../../src/discord/bot');
    const { worstSecond } = await import('../../src/delivery/deliverer');
    // One process: 45 a second, as before (45 and a burst of 5 = 50).
    expect(deliveryRate(50, { auto: true })).toBe(45);
    expect(worstSecond(45)).toBe(50);
    // One process per shard, 1 to 16 shards; and uneven splits by hand.
    const splits: number[][][] = Array.from({ length: 16 }, (_, n) => Array.from({ length: n + 1 }, (_, k) => [k]));
    splits.push([[0, 1], [2]], [[0], [1, 2, 3]], [[0, 1, 2], [3, 4], [5]]);
    for (const split of splits) {
      const count = split.flat().length;
      const rates = split.map((ids) => deliveryRate(50, { auto: false, ids, count }));
      expect(
        rates.reduce((a, r) => a + worstSecond(r), 0),
        JSON.stringify(split),
      ).toBeLessThanOrEqual(50);
      for (const r of rates) expect(r).toBeGreaterThanOrEqual(1);
    }
    // Two processes: 22 each (as before: 0.9 × 25, and 22 + 3 = 25); three: 14 (15 + 2 was 17, over 50/3).
    expect(deliveryRate(50, { auto: false, ids: [0], count: 2 })).toBe(22);
    expect(deliveryRate(50, { auto: false, ids: [0], count: 3 })).toBe(14);
  });
});
