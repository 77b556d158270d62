// M-2, M-3: a private thread's members are its slot's desired state; the deliverer sends only the
// difference from what it recorded as applied (thread_sync), opens a locked thread for the change
// and locks it again, and carries on after a crash from what it recorded.
import { afterEach, describe, expect, it } from 'vitest';
import type { REST } from 'discord.js';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { Store } from '../../src/db/store';
import { Deliverer } from '../../src/delivery/deliverer';
import { OutboxStore } from '../../src/db/outbox-store';

const opened: OpenDb[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const CHANNEL = '300000000000000001';
const THREAD = '700000000000000001';

async function setUp() {
  const db = openDatabase(':memory:');
  opened.push(db);
  const store = new Store(db.connection);
  const outbox = new OutboxStore(db.connection);
  const game = await store.createLobby({
    guildId: '100000000000000001',
    channelId: CHANNEL,
    hostId: '100000000000000003',
    ruleset: 'chnu-2016',
    pace: 'live',
    options: {},
    now: Date.now(),
  });
  const calls: string[] = [];
  const answer = (method: string) => async (route: string, opts?: { body?: unknown }) => {
    calls.push(`${method} ${route.replace(THREAD, 'T')}${opts?.body ? ` ${JSON.stringify(opts.body)}` : ''}`);
    return { id: THREAD };
  };
  const rest = {
    post: answer('POST'),
    patch: answer('PATCH'),
    put: answer('PUT'),
    delete: answer('DELETE'),
    get: answer('GET'),
  } as unknown as REST;
  const deliverer = new Deliverer(outbox, rest, {
    log: { warn: () => {}, error: () => {} },
    debounceMs: 0,
    postWindowMs: 1,
    threadOf: async (gameId, slot = 'thread') => (await outbox.slot(gameId, slot))?.messageId ?? null,
  });
  const gameId = game.id;
  const want = async (locked: boolean, members: string[]) =>
    await outbox.setSlot(gameId, 'thread', 'thread', `th:${gameId}`, { locked, members }, Date.now());
  const run = async () => {
    deliverer.kick();
    await deliverer.idle();
  };
  return { outbox, deliverer, calls, gameId, want, run };
}

describe('a private thread reconciled to its desired members', () => {
  it('M-2: only the difference is sent: out first, then in; a locked thread is opened for it and locked again', async () => {
    const { outbox, deliverer, calls, gameId, want, run } = await setUp();
    await want(true, ['a', 'b']);
    await outbox.sentSlot(gameId, 'thread', 1, THREAD, THREAD);
    await outbox.setThreadApplied(
      gameId,
      'thread',
      { threadId: THREAD, locked: true, members: ['a', 'b'] },
      Date.now(),
    );
    await want(true, ['b', 'c']);
    await run();
    expect(calls).toEqual([
      'PATCH /channels/T {"archived":false}',
      'DELETE /channels/T/thread-members/a',
      'PUT /channels/T/thread-members/c',
      'PATCH /channels/T {"locked":true,"archived":true}',
    ]);
    expect(await outbox.threadApplied(gameId, 'thread', THREAD)).toEqual({
      threadId: THREAD,
      locked: true,
      members: ['b', 'c'],
    });
    // The lock alone: one call; the same set again: none.
    calls.length = 0;
    await want(false, ['b', 'c']);
    await run();
    await want(false, ['c', 'b']);
    await run();
    deliverer.stop();
    expect(calls).toEqual(['PATCH /channels/T {"locked":false,"archived":false}']);
  });

  it('M-2: after a crash between a call and its record the call is made again (idempotent), nothing else', async () => {
    const { outbox, deliverer, calls, gameId, want, run } = await setUp();
    await want(false, ['a']);
    await outbox.sentSlot(gameId, 'thread', 1, THREAD, THREAD);
    // Applied: a in, b out; the crash came after Discord removed x but before it was recorded.
    await outbox.setThreadApplied(
      gameId,
      'thread',
      { threadId: THREAD, locked: false, members: ['a', 'x'] },
      Date.now(),
    );
    await want(false, ['a', 'b']);
    await run();
    deliverer.stop();
    expect(calls).toEqual(['DELETE /channels/T/thread-members/x', 'PUT /channels/T/thread-members/b']);
  });

  it('M-2: a new thread: made, its members in at once (not after the quiet time), then the welcome pinging only them', async () => {
    const { outbox, deliverer, calls, gameId, want, run } = await setUp();
    await want(false, ['a', 'b']);
    await outbox.sentSlot(gameId, 'thread', 1);
    const welcome = { content: 'hi', allowed_mentions: { parse: [], users: ['a', 'b', 'gone'] } };
    await outbox.add(gameId, `tm:${CHANNEL}:thread`, 'thread', { name: 'Night talk', welcome }, Date.now());
    await run();
    deliverer.stop();
    expect(calls.map((c) => c.replace(/,"nonce".*$/, ''))).toEqual([
      `POST /channels/${CHANNEL}/threads {"name":"Night talk","type":12,"invitable":false,"auto_archive_duration":10080}`,
      'PUT /channels/T/thread-members/a',
      'PUT /channels/T/thread-members/b',
      'POST /channels/T/messages {"content":"hi","allowed_mentions":{"parse":[],"users":["a","b"]}',
    ]);
    expect((await outbox.threadApplied(gameId, 'thread', THREAD))!.members).toEqual(['a', 'b']);
  });
});
