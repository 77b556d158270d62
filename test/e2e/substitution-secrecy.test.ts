// Issue 20: a seat that changes hands at night. What the seat does from then on (a check and its
// answer) is the newcomer's alone: the old holder's night panel is closed for good and never shows
// it, and the audience check refuses any write to a DM of someone who no longer holds the seat.
import { afterEach, describe, expect, it } from 'vitest';
import { Driver } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';
import { TEN } from '../engine/drive';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

describe('a seat taken over at night (issue 20)', () => {
  it("the replaced Sheriff's panel is closed at once and never shows the newcomer's check", async () => {
    const world = (w = await makeWorld({ players: 10, dealer: fixedDealer(TEN) }));
    const d = new Driver(world);
    await d.createAndStart('chnu-2016');
    expect(await d.host('skip', {})).toBe('ok');
    for (let seat = 1; seat <= 10; seat++) expect(await d.step({ type: 'player', seat, verb: 'pass' })).toBe('ok');
    expect((await world.bot.store.getState(d.gameId))!.stage.kind).toBe('night');
    // TEN: the Sheriff sits at 4. His night panel is in his DMs.
    const old = world.users[3]!;
    const panel = d.dmWith(old.id, (id) => id.includes(':check'));
    expect(panel).not.toBeNull();
    const nova = world.fake.addUser({ username: 'nova', guilds: [world.guild.id] });
    const r = await world.fake.slash(world.host.id, world.channel.id, 'host', {
      sub: 'substitute',
      options: { seat: 4, user: { type: 6, value: nova.id } } as never,
    });
    await r.settled();
    await world.bot.idle();
    expect((r.content ?? '').trim()).toBe('Done.');
    // The old panel says the seat was handed over and offers nothing more.
    const closed = world.fake.message(panel!.message.id)!;
    expect(closed.content).toMatch(/has gone to a substitute/);
    expect(closed.components).toEqual([]);
    const before = world.fake.history(panel!.message.id).length;
    const oldDms = world.fake.dms(old.id).length;
    // The newcomer checks from "My actions"; the answer is his alone.
    d.seats.set(4, nova.id);
    d.panelUsers.add(nova.id);
    expect(await d.step({ type: 'player', seat: 4, verb: 'check', target: 3 })).toBe('ok');
    await world.bot.idle();
    expect(world.fake.history(panel!.message.id)).toHaveLength(before);
    expect(world.fake.dms(old.id)).toHaveLength(oldDms);
    expect(JSON.stringify(world.fake.dms(old.id))).not.toMatch(/🔎/);
    // The night ends; the old panel is not touched again.
    for (const [seat, verb, target] of [
      [3, 'shoot', 1],
      [6, 'shoot', 1],
      [8, 'shoot', 1],
    ] as const)
      expect(await d.step({ type: 'player', seat, verb, target })).toBe('ok');
    if ((await world.bot.store.getState(d.gameId))!.stage.kind === 'night') expect(await d.host('skip', {})).toBe('ok');
    await world.bot.idle();
    expect((await world.bot.store.getState(d.gameId))!.clock.phase).toBe('day');
    expect(world.fake.history(panel!.message.id)).toHaveLength(before);
  });
});
