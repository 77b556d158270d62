// Durations typed in the reader's letters, through the fake Discord (issue 21): a Ukrainian host
// creates a game with night:"15хв" and speech:"1 Хв", moves the clock with /host extend "+1хв" and
// "-30 сек"; a malformed timer is refused in Ukrainian with Ukrainian examples and opens nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { InteractionResult } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = (r: InteractionResult) => r.content ?? r.message?.content ?? '';

describe('durations in Cyrillic', () => {
  it('uk: /mafia create night:"15хв" speech:"1 Хв" is accepted; /host extend "+1хв" and "-30 сек" move the clock', async () => {
    w = await makeWorld({ players: 10, userLocale: 'uk' });
    const d = new Driver(w);

    // A malformed timer: refused to the sender alone, in Ukrainian, with Ukrainian forms; no game opened.
    const bad = await d.slash(w.host.id, 'mafia', 'create', {
      ruleset: 'chnu-2016',
      pace: 'live',
      night: '15 хвилинок',
    });
    expect(bad.ephemeral).toBe(true);
    expect(text(bad)).toMatch(/^⛔/);
    expect(text(bad)).toContain('«15 хвилинок»');
    expect(text(bad)).toMatch(/15хв, 12год, 2д/);
    expect(d.lobbyMessageOrNull()).toBeNull();

    await d.createAndStart('chnu-2016', 'live', { night: '15хв', speech: '1 Хв' });
    const store = w.bot.store;
    expect((await store.getState(d.gameId))!.options.timers).toMatchObject({ night0: 900, night: 900, speech: 60 });
    const before = (await store.getState(d.gameId))!.deadline!;
    expect(before).not.toBeNull();

    const longer = await d.slash(w.host.id, 'host', 'extend', { duration: '+1хв' });
    expect(text(longer)).not.toMatch(/^⛔/);
    expect((await store.getState(d.gameId))!.deadline).toBe(before + 60_000);

    const shorter = await d.slash(w.host.id, 'host', 'extend', { duration: '-30 сек' });
    expect(text(shorter)).not.toMatch(/^⛔/);
    expect((await store.getState(d.gameId))!.deadline).toBe(before + 30_000);

    // A malformed one: refused in Ukrainian, the clock unchanged.
    const wrong = await d.slash(w.host.id, 'host', 'extend', { duration: 'трохи' });
    expect(wrong.ephemeral).toBe(true);
    expect(text(wrong)).toMatch(/^⛔.*30с, 2хв, \+1год, -1хв/);
    expect((await store.getState(d.gameId))!.deadline).toBe(before + 30_000);
  });
});
