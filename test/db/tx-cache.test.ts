// A transaction's rows kept for the rest of it (Connection.txCache, issue 23): the slots a plan
// reads and the stage's end, on both databases. What a store answers from its copies is what a
// fresh read answers (after setSlot's inserts and bumps, a savepoint rolled back, another write to
// the slots), and the copies save the reads they are for (counted at the connection).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../src/db/connection';
import { LifecycleStore } from '../../src/db/lifecycle-store';
import { OutboxStore, type OutboxRow, type SlotRow } from '../../src/db/outbox-store';
import { Store } from '../../src/db/store';
import { createGame } from '../../src/engine/apply';
import type { GameState } from '../../src/engine/types';
import { postgresAvailable, postgresOrSkip } from '../../testkit/postgres';
import { connectionSubjects as subjects, type Opened } from '../../testkit/connections';

/** The roles of a classic-10 table, and a fresh game dealt them. */
const CLASSIC_ROLES = [
  'don',
  'mafia',
  'mafia',
  'sheriff',
  'civilian',
  'civilian',
  'civilian',
  'civilian',
  'civilian',
  'civilian',
] as const;
const classic = (): GameState => createGame('classic-10', { roles: [...CLASSIC_ROLES] }, {}, 'live', { now: 0 });

beforeAll(async () => {
  await (await postgresOrSkip('test/db/tx-cache.test.ts'))?.drop();
});

describe.each(subjects)('$name: a transaction keeps the rows it read and wrote', ({ name, open }) => {
  const skip = name === 'postgres' && !postgresAvailable();
  let o: Opened;
  let c: Connection;
  let store: Store;
  let outbox: OutboxStore;
  let gameId: number;
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    o = await open();
    c = o.c;
    store = new Store(c);
    outbox = new OutboxStore(c);
    const game = await store.createLobby({
      guildId: 'g',
      channelId: 'ch',
      hostId: 'h',
      ruleset: 'classic-10',
      pace: 'live',
      options: {},
      now: 1,
    });
    gameId = game.id;
  });
  afterEach(async () => {
    if (!skip) await o.close();
  });

  /** The slot as a fresh read outside any transaction sees it. */
  const stored = (key: string) => outbox.slot(gameId, key);
  const live = async () => (await outbox.liveSlots(gameId)).map((r) => [r.key, r.version, r.state, r.payload]);

  it('answers slot() from setSlot’s own writes, as a fresh read would', async () => {
    let inside: (SlotRow | null)[] = [];
    await c.transaction(async () => {
      await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'a' }, 10, { head: { n: 1 } });
      const first = await outbox.slot(gameId, 'stage:1');
      await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'b' }, 20);
      const second = await outbox.slot(gameId, 'stage:1');
      // Unchanged: no new version.
      await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'b' }, 30);
      await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'b' }, 40, { state: 'stale' });
      inside = [first, second, await outbox.slot(gameId, 'stage:1'), await outbox.slot(gameId, 'none')];
    });
    expect(inside[0]).toMatchObject({
      version: 1,
      sentVersion: 0,
      payload: '{"content":"a"}',
      state: 'live',
      head: '{"n":1}',
    });
    expect(inside[1]).toMatchObject({ version: 2, payload: '{"content":"b"}', updatedAt: 20 });
    expect(inside[2]).toEqual(await stored('stage:1'));
    expect(inside[2]).toMatchObject({ version: 3, state: 'stale', updatedAt: 40 });
    expect(inside[3]).toBeNull();
  });

  it('reads a slot once per transaction, and primes a plan’s slots in one query', async () => {
    await outbox.setSlot(gameId, 'thread', 'thread', 'ch:ch', { locked: true, members: [] }, 1);
    await outbox.setSlot(gameId, 'stage:3', 'message', 'ch:ch', { content: 'day' }, 1);
    await outbox.setSlot(gameId, 'panel:2:4', 'message', 'dm:u4', { content: 'p' }, 1);
    await outbox.setSlot(gameId, 'stage:2', 'message', 'ch:ch', { content: 'old' }, 1, {});
    await outbox.setSlot(gameId, 'stage:2', 'message', 'ch:ch', { content: 'old' }, 2, { state: 'stale' });
    const reads = vi.spyOn(c, 'get');
    const lists = vi.spyOn(c, 'all');
    await c.transaction(async () => {
      await outbox.slot(gameId, 'stage:2');
      await outbox.slot(gameId, 'stage:2');
      expect(reads).toHaveBeenCalledTimes(1);
      await outbox.primeSlots(gameId);
      expect(lists).toHaveBeenCalledTimes(1);
      expect((await outbox.slot(gameId, 'thread'))?.payload).toBe('{"locked":true,"members":[]}');
      expect(await outbox.slot(gameId, 'perms')).toBeNull();
      expect((await outbox.slot(gameId, 'panel:2:4'))?.dest).toBe('dm:u4');
      expect((await outbox.liveSlots(gameId)).map((r) => r.key)).toEqual(['panel:2:4', 'stage:3']);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(lists).toHaveBeenCalledTimes(1);
      // A stale stage is not among the primed rows: read (once) when asked.
      await outbox.slot(gameId, 'stage:1');
      expect(reads).toHaveBeenCalledTimes(2);
    });
    reads.mockRestore();
    lists.mockRestore();
  });

  it('primes two more slots the plan names, whatever their state, and knows an absent one is absent', async () => {
    await outbox.setSlot(gameId, 'panel:2:4', 'message', 'dm:u4', { content: 'p' }, 1);
    await outbox.setSlot(gameId, 'panel:2:4', 'message', 'dm:u4', { content: 'p' }, 2, { state: 'stale' });
    const reads = vi.spyOn(c, 'get');
    let panel: SlotRow | null = null;
    await c.transaction(async () => {
      await outbox.primeSlots(gameId, ['stage:3', 'panel:2:4']);
      expect(await outbox.slot(gameId, 'stage:3')).toBeNull();
      panel = await outbox.slot(gameId, 'panel:2:4');
      expect(await outbox.liveSlots(gameId)).toEqual([]); // a stale panel is not live
    });
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(panel).toEqual(await stored('panel:2:4'));
    expect(panel).toMatchObject({ state: 'stale' });
  });

  it('primes three named slots and every slot under a prefix (a new night’s panels), and knows the rest there are absent', async () => {
    await outbox.setSlot(gameId, 'table', 'message', 'ch:ch', { content: 'table' }, 1);
    await outbox.setSlot(gameId, 'panel:5:2', 'message', 'dm:u2', { content: 'old' }, 1);
    await outbox.setSlot(gameId, 'panel:5:2', 'message', 'dm:u2', { content: 'old' }, 2, { state: 'stale' });
    await outbox.setSlot(gameId, 'panel:50:1', 'message', 'dm:u1', { content: 'other night' }, 1);
    await outbox.setSlot(gameId, 'panel:50:1', 'message', 'dm:u1', { content: 'other night' }, 2, { state: 'stale' });
    const reads = vi.spyOn(c, 'get');
    const lists = vi.spyOn(c, 'all');
    const inside: (SlotRow | null)[] = [];
    await c.transaction(async () => {
      await outbox.primeSlots(gameId, ['stage:5', 'panel:4:3', 'table'], 'panel:5:');
      for (const key of ['table', 'stage:5', 'panel:4:3', 'panel:5:2', 'panel:5:7'])
        inside.push(await outbox.slot(gameId, key));
      expect(reads).not.toHaveBeenCalled();
      // A stale panel of another night (a key that starts alike, not under the prefix): read when asked.
      inside.push(await outbox.slot(gameId, 'panel:50:1'));
      expect(reads).toHaveBeenCalledTimes(1);
      // Written since: the copy follows (not known absent any more).
      await outbox.setSlot(gameId, 'panel:5:7', 'message', 'dm:u7', { content: 'shoot' }, 3);
      inside.push(await outbox.slot(gameId, 'panel:5:7'));
    });
    expect(lists).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    lists.mockRestore();
    const fresh = [];
    for (const key of ['table', 'stage:5', 'panel:4:3', 'panel:5:2']) fresh.push(await stored(key));
    expect(inside.slice(0, 4)).toEqual(fresh);
    expect(inside[0]).toMatchObject({ key: 'table' });
    expect(inside[3]).toMatchObject({ state: 'stale' });
    expect(inside[4]).toBeNull();
    expect(inside[5]).toEqual(await stored('panel:50:1'));
    expect(inside[6]).toEqual(await stored('panel:5:7'));
    await c.transaction(async () => {
      await expect(outbox.primeSlots(gameId, ['a', 'b', 'c', 'd'])).rejects.toThrow(/three/);
      await expect(outbox.primeSlots(gameId, [], "panel:%' or 1=1 --")).rejects.toThrow(/prefix/);
    });
  });

  it('posts a new message slot with one outbox row (PostgreSQL: one statement), held while the game is suspended', async () => {
    const fields = (r: OutboxRow) => [r.gameId, r.dest, r.op, r.slot, r.payload, r.meta, r.key, r.status, r.nextAt];
    await c.transaction(async () => {
      await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'day' }, 7, { meta: { what: 'stage' } });
      await outbox.setSlot(gameId, 'thread', 'thread', 'ch:ch', { locked: true, members: [] }, 7); // not a message: no post
    });
    await new LifecycleStore(c).add({
      gameId,
      reason: 'no-access',
      since: 8,
      voidAt: 100,
      stageSeq: null,
      extraMs: 0,
      clockStopped: false,
    });
    await c.transaction(() => outbox.setSlot(gameId, 'stage:2', 'message', 'ch:ch', { content: 'night' }, 9));
    const rows = await outbox.rows(gameId);
    expect(rows.map(fields)).toEqual([
      [gameId, 'ch:ch', 'post', 'stage:1', '{}', '{"what":"stage"}', null, 'pending', 7],
      [gameId, 'ch:ch', 'post', 'stage:2', '{}', '{}', null, 'held', 9],
    ]);
    expect(await stored('stage:1')).toMatchObject({
      kind: 'message',
      version: 1,
      sentVersion: 0,
      state: 'live',
      updatedAt: 7,
      payload: '{"content":"day"}',
    });
    expect(await stored('stage:2')).toMatchObject({ kind: 'message', version: 1, state: 'live', updatedAt: 9 });
    expect(await stored('thread')).toMatchObject({ kind: 'thread', version: 1 });
  });

  it('keeps liveSlots from the primed rows equal to a fresh read as stages close and open', async () => {
    await outbox.setSlot(gameId, 'stage:3', 'message', 'ch:ch', { content: 'day' }, 1);
    await outbox.setSlot(gameId, 'panel:2:4', 'message', 'dm:u4', { content: 'p' }, 1);
    let inside: unknown[] = [];
    await c.transaction(async () => {
      await outbox.primeSlots(gameId);
      await outbox.setSlot(gameId, 'stage:3', 'message', 'ch:ch', { content: 'day, closed' }, 5, { state: 'stale' });
      await outbox.setSlot(gameId, 'stage:4', 'message', 'ch:ch', { content: 'night' }, 5);
      await outbox.setSlot(gameId, 'panel:4:1', 'message', 'dm:u1', { content: 'shoot' }, 5);
      inside = await live();
    });
    expect(inside).toEqual(await live());
    expect(inside.map((r) => (r as string[])[0])).toEqual(['panel:2:4', 'panel:4:1', 'stage:4']);
  });

  it('forgets its copies when a savepoint inside rolls back', async () => {
    await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'a' }, 1);
    let after: SlotRow | null = null;
    await c.transaction(async () => {
      await outbox.primeSlots(gameId);
      await c
        .transaction(async () => {
          await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'undone' }, 2);
          await store.clearDeadline(gameId);
          throw new Error('rolled back');
        })
        .catch(() => {});
      after = await outbox.slot(gameId, 'stage:1');
    });
    expect(after).toMatchObject({ version: 1, payload: '{"content":"a"}' });
    expect(after).toEqual(await stored('stage:1'));
  });

  it('forgets its copies when the slots are written another way (a delivery, a tournament’s table)', async () => {
    await outbox.setSlot(gameId, 'stage:1', 'message', 'ch:ch', { content: 'a' }, 1);
    let after: SlotRow | null = null;
    await c.transaction(async () => {
      await outbox.slot(gameId, 'stage:1');
      await outbox.sentSlot(gameId, 'stage:1', 1, 'm1', 'ch');
      after = await outbox.slot(gameId, 'stage:1');
    });
    expect(after).toMatchObject({ sentVersion: 1, messageId: 'm1', channelId: 'ch' });
  });

  it('gives the stage’s end as stored: written once, read by nobody again in the transaction', async () => {
    let moves = 0;
    const state = (seq: number, deadline: number | null): GameState => ({
      ...classic(),
      seq,
      moves: ++moves,
      deadline,
    });
    const entry = (at: number) => ({ action: { kind: 'timeout', seq: at } as never, actor: 'system', at });
    let inTx: unknown = 'not asked';
    // A stage's end written with the action and asked again inside (the planner does): one query
    // that reads the deadlines' table, the write's own (RETURNING).
    const reads = vi.spyOn(c, 'get');
    const first = await store.commitAction(gameId, entry(1), state(1, 1_000), {
      inTx: async () => {
        inTx = await store.deadlineOf(gameId);
      },
    });
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    expect(first).toEqual({ stageSeq: 1, dueAt: 1_000 });
    expect(inTx).toEqual(first);
    expect(await store.deadlineOf(gameId)).toEqual(first);
    // The same stage's later end (its message was seen late) is kept, and is what is returned.
    await store.extendDeadline(gameId, 1, 1_500);
    const again = await store.commitAction(gameId, entry(2), state(1, 1_000));
    expect(again).toEqual({ stageSeq: 1, dueAt: 1_500 });
    // Moved inside the transaction (quiet hours): the later end is returned.
    const moved = await store.commitAction(gameId, entry(3), state(2, 2_000), {
      inTx: () => store.extendDeadline(gameId, 2, 2_600).then(() => {}),
    });
    expect(moved).toEqual({ stageSeq: 2, dueAt: 2_600 });
    // No deadline: none stored, none returned.
    expect(await store.commitAction(gameId, entry(4), state(3, null))).toBeNull();
    expect(await store.deadlineOf(gameId)).toBeNull();

    // The service's way (`game`): the game's row is read first with the stage's end it replaces,
    // and the new end is worked out from it, not read back; always what a fresh read gives.
    const held: (number | null)[] = [];
    const viaGame = (at: number, s: GameState, inTx?: () => Promise<void>) =>
      store.commitAction(gameId, entry(at), s, {
        game: (row) => void held.push(row?.id ?? null),
        ...(inTx ? { inTx } : {}),
      });
    const asked = vi.spyOn(c, 'get');
    const fresh = await viaGame(5, state(4, 4_000));
    expect(asked).toHaveBeenCalledTimes(1); // the game's row (with the end), nothing else
    asked.mockRestore();
    expect(fresh).toEqual({ stageSeq: 4, dueAt: 4_000 });
    expect(await store.deadlineOf(gameId)).toEqual(fresh);
    await store.extendDeadline(gameId, 4, 4_700); // seen late: the same stage keeps the later end
    expect(await viaGame(6, state(4, 4_000))).toEqual({ stageSeq: 4, dueAt: 4_700 });
    expect(await viaGame(7, state(4, 4_900))).toEqual({ stageSeq: 4, dueAt: 4_900 });
    expect(await store.deadlineOf(gameId)).toEqual({ stageSeq: 4, dueAt: 4_900 });
    expect(await viaGame(8, state(5, 3_000))).toEqual({ stageSeq: 5, dueAt: 3_000 }); // a new stage: its own
    expect(await store.deadlineOf(gameId)).toEqual({ stageSeq: 5, dueAt: 3_000 });
    const movedInside = await viaGame(9, state(6, 6_000), () => store.extendDeadline(gameId, 6, 6_600).then(() => {}));
    expect(movedInside).toEqual({ stageSeq: 6, dueAt: 6_600 });
    expect(await store.deadlineOf(gameId)).toEqual(movedInside);
    expect(await viaGame(10, state(7, null))).toBeNull(); // no end: none stored
    expect(await store.deadlineOf(gameId)).toBeNull();
    expect((await store.getGame(gameId))?.moves).toBe(moves);
    expect((await store.log(gameId)).map((e) => e.at)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(held).toEqual([gameId, gameId, gameId, gameId, gameId, gameId]);
  });

  it('refuses an action its game’s row refuses: nothing of it is written', async () => {
    const s = classic();
    const err = await store
      .commitAction(
        gameId,
        { action: { kind: 'timeout', seq: 0 } as never, actor: 'system', at: 1 },
        { ...s, moves: 1, deadline: 5_000 },
        {
          game: (row) => {
            if (row?.status === 'lobby') throw new Error('not played');
          },
        },
      )
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('not played');
    expect((await store.getGame(gameId))?.moves).toBe(0);
    expect(await store.log(gameId)).toEqual([]);
    expect(await store.deadlineOf(gameId)).toBeNull();
  });

  it('reads a game’s seats once per transaction; a substitute’s seat is read again', async () => {
    await store.startGame(
      gameId,
      CLASSIC_ROLES.map((role, i) => ({ seat: i + 1, userId: `u${i + 1}`, role })),
      classic(),
      1,
    );
    const lists = vi.spyOn(c, 'all');
    let seen: string[][] = [];
    await c.transaction(async () => {
      const a = await store.players(gameId);
      a[0]!.userId = 'changed by a caller'; // a copy: the kept seats stay as read
      const b = await store.players(gameId);
      expect(lists).toHaveBeenCalledTimes(1);
      await store.substitute(gameId, 3, 'sub');
      const after = await store.players(gameId);
      seen = [b, after].map((x) => x.map((p) => p.userId));
    });
    lists.mockRestore();
    expect(seen[0]![0]).toBe('u1');
    expect(seen[1]![2]).toBe('sub');
    expect((await store.players(gameId)).map((p) => p.userId)).toEqual(seen[1]);
  });
});
