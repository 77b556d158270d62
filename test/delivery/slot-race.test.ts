// Two writes to one message in flight together (two clicks' answers, or a click's answer and the
// deliverer's edit) finish in the order Discord applied them: the message shows the last one to
// finish. When that is the older version, the slot must stay dirty so that it is edited again, and
// an edit that waited for the budget must not send a version older than one already shown.
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
const MESSAGE = '400000000000000001';

async function setUp(rate = 50) {
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
  const calls: { method: string; route: string; body?: { content?: string } }[] = [];
  let n = 0;
  const answer = (method: string) => async (route: string, opts?: { body?: { content?: string } }) => {
    calls.push({ method, route, body: opts?.body });
    await new Promise((r) => setTimeout(r, 2));
    return { id: `${500000000000000000n + BigInt(++n)}`, channel_id: route.split('/')[2] };
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
    requestsPerSecond: rate,
    debounceMs: 0,
    concurrency: 8,
    postWindowMs: 1,
  });
  // The lobby, posted and shown at version 1.
  const gameId = game.id;
  await outbox.setSlot(gameId, 'lobby', 'message', `ch:${CHANNEL}`, { content: 'v1' }, Date.now(), {
    messageId: MESSAGE,
  });
  await outbox.sentSlot(gameId, 'lobby', 1, MESSAGE, CHANNEL);
  const version = async (content: string) => {
    await outbox.setSlot(gameId, 'lobby', 'message', `ch:${CHANNEL}`, { content }, Date.now());
    return (await outbox.slot(gameId, 'lobby'))!.version;
  };
  return { outbox, deliverer, calls, gameId, version };
}

describe('writes to one message that race', () => {
  it('an older answer that finished last leaves the slot dirty, and the newest version is edited in once', async () => {
    const { outbox, deliverer, calls, gameId, version } = await setUp();
    const v2 = await version('v2 (A joined)');
    const v3 = await version('v3 (A and B joined)');
    // B's answer (v3) finishes first, A's (v2) last: Discord shows v2.
    expect(await outbox.shownSlot(gameId, 'lobby', v3, MESSAGE)).toBe(false);
    expect(await outbox.shownSlot(gameId, 'lobby', v2, MESSAGE)).toBe(true);
    deliverer.kick();
    await deliverer.idle();
    deliverer.stop();
    const edits = calls.filter((c) => c.method === 'PATCH');
    expect(edits).toHaveLength(1);
    expect(edits[0]!.body!.content).toBe('v3 (A and B joined)');
    expect((await outbox.slot(gameId, 'lobby'))!.sentVersion).toBe(v3);
  });

  it('a write to a message the slot no longer has does not lower what it knows', async () => {
    const { outbox, gameId, version } = await setUp();
    const v2 = await version('v2');
    await outbox.shownSlot(gameId, 'lobby', v2, MESSAGE);
    // An answer to the old message of a lobby that was posted again.
    expect(await outbox.shownSlot(gameId, 'lobby', 1, '400000000000000999')).toBe(false);
    expect((await outbox.slot(gameId, 'lobby'))!.sentVersion).toBe(v2);
  });

  it('an edit that waited for the budget sends the newest version, or nothing if a click already showed it', async () => {
    // One call a second: the posts ahead of the edit keep it waiting.
    const { outbox, deliverer, calls, gameId, version } = await setUp(1);
    for (let i = 0; i < 2; i++)
      await outbox.add(gameId, `ch:${600000000000000000n + BigInt(i)}`, 'post', { content: `post ${i}` }, Date.now());
    deliverer.kick();
    await new Promise((r) => setTimeout(r, 50));
    // The posts have the budget's first share and the next: the edit of v2 waits behind them.
    await version('v2');
    deliverer.kick();
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    // Meanwhile a click's answer shows v3 (free): the waiting edit of v2 must not undo it.
    const v3 = await version('v3');
    await outbox.shownSlot(gameId, 'lobby', v3, MESSAGE);
    await deliverer.idle();
    deliverer.stop();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
    expect((await outbox.slot(gameId, 'lobby'))!.sentVersion).toBe(v3);
  }, 15_000);
});
