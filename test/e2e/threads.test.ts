// Issue 20, "Threads follow the seats": who may read a game's private threads when a seat changes
// hands (a substitute), when a player leaves the table or is brought back, and when a member
// watches. The mafia's thread (M-2) holds the living holders of the mafia's seats; the spectators'
// thread (M-3) holds who left the table and who watches, never a living player. After every step
// the fake Discord's membership is checked against the rules (testkit/threads.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/engine/types';
import type { InteractionResult } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { gameThreads, threadMembershipViolations, threadUsers } from '../../testkit/threads';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

/** Seats 3 and 8 mafia, 6 the Don, 4 the Sheriff. */
const TEN: Role[] = [
  'civilian',
  'civilian',
  'mafia',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'mafia',
  'civilian',
  'civilian',
];

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = (r: InteractionResult) => r.content ?? r.message?.content ?? '';

async function host(world: World, sub: string, options: Record<string, unknown> = {}): Promise<void> {
  const r = await world.fake.slash(world.host.id, world.channel.id, 'host', { sub, options: options as never });
  await r.settled();
  await world.bot.idle();
  expect(text(r).trim(), `/host ${sub}: ${text(r)}`).toBe('Done.');
}

/** `/host substitute`: a member takes over the seat. */
const substitute = (world: World, seat: number, userId: string) =>
  host(world, 'substitute', { seat, user: { type: 6, value: userId } });

async function start(): Promise<{ d: Driver; world: World; mafia: string; spectators: string }> {
  const world = (w = await makeWorld({ players: 10, dealer: fixedDealer(TEN) }));
  const d = new Driver(world);
  await d.createAndStart('chnu-2016');
  const th = await gameThreads(world, d.gameId);
  expect(th.mafia).not.toBeNull();
  expect(th.spectators).not.toBeNull();
  return { d, world, mafia: th.mafia!, spectators: th.spectators! };
}

const sorted = (xs: string[]) => [...xs].sort();

/** No violation of the rules of both threads now (the bot idle). */
async function consistent(world: World, gameId: number, where: string): Promise<void> {
  await world.bot.idle();
  expect(await threadMembershipViolations(world, gameId), where).toEqual([]);
}

describe('the private threads follow the seats (M-2, M-3)', () => {
  it('M-2: a black seat taken over: the newcomer is in the mafia thread, the one replaced out; a red seat: neither', async () => {
    const { d, world, mafia } = await start();
    const u = (seat: number) => world.users[seat - 1]!.id;
    const g = d.gameId;
    await consistent(world, g, 'the deal');
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(3), u(6), u(8)]));

    // Night 0, the thread open: seat 3 (mafia) changes hands.
    const nova = world.fake.addUser({ username: 'nova', guilds: [world.guild.id] });
    await substitute(world, 3, nova.id);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([nova.id, u(6), u(8)]));
    expect(world.fake.canRead(mafia, u(3))).toBe(false);
    expect(world.fake.canRead(mafia, nova.id)).toBe(true);
    await consistent(world, g, 'seat 3 taken over');

    // A red seat changes hands: neither its old nor its new holder is in the mafia thread.
    const olena = world.fake.addUser({ username: 'olena', guilds: [world.guild.id] });
    const before = world.fake.log.length;
    await substitute(world, 1, olena.id);
    expect(threadUsers(world, mafia)).not.toContain(olena.id);
    expect(threadUsers(world, mafia)).not.toContain(u(1));
    expect(world.fake.canRead(mafia, olena.id)).toBe(false);
    // Nothing changed in the thread, so nothing was asked of Discord about it.
    expect(world.fake.log.slice(before).filter((e) => e.path.includes(`/channels/${mafia}`))).toEqual([]);
    await consistent(world, g, 'seat 1 taken over');

    // Day 1: the thread is locked (and archived); seat 8 (mafia) changes hands all the same.
    await host(world, 'skip');
    expect(world.fake.thread(mafia)!.locked).toBe(true);
    const taras = world.fake.addUser({ username: 'taras', guilds: [world.guild.id] });
    const from = world.fake.log.length;
    await substitute(world, 8, taras.id);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([nova.id, u(6), taras.id]));
    expect(world.fake.thread(mafia)!.locked).toBe(true);
    expect(world.fake.thread(mafia)!.archived).toBe(true);
    // Only the difference: one out, one in (the thread opened for it and locked again).
    const calls = world.fake.log
      .slice(from)
      .filter((e) => e.path.startsWith(`/channels/${mafia}`))
      .map((e) => `${e.method} ${e.path.replace(mafia, 'T')}`);
    expect(calls).toEqual([
      'PATCH /channels/T',
      `DELETE /channels/T/thread-members/${u(8)}`,
      `PUT /channels/T/thread-members/${taras.id}`,
      'PATCH /channels/T',
    ]);
    await consistent(world, g, 'seat 8 taken over while locked');
  });

  it('M-2, M-3, G-5, G-7: a black player who leaves the table leaves the mafia thread for the spectators; revived, he is back', async () => {
    const { d, world, mafia, spectators } = await start();
    const u = (seat: number) => world.users[seat - 1]!.id;
    const g = d.gameId;
    await host(world, 'skip'); // day 1
    await consistent(world, g, 'day 1');
    // The host takes the Don out of the game (G-5).
    await host(world, 'kill', { seat: 6, reason: 'left the room' });
    expect(threadUsers(world, mafia)).not.toContain(u(6));
    expect(world.fake.canRead(mafia, u(6))).toBe(false);
    expect(threadUsers(world, spectators)).toEqual([u(6)]);
    await consistent(world, g, 'seat 6 killed');
    // Brought back (G-7): in the mafia thread again, out of the spectators'.
    await host(world, 'revive', { seat: 6, reason: 'my mistake' });
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(3), u(6), u(8)]));
    expect(threadUsers(world, spectators)).toEqual([]);
    expect(world.fake.canRead(spectators, u(6))).toBe(false);
    await consistent(world, g, 'seat 6 revived');
    // A red player removed: the spectators only.
    await host(world, 'kill', { seat: 1 });
    expect(threadUsers(world, spectators)).toEqual([u(1)]);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(3), u(6), u(8)]));
    await consistent(world, g, 'seat 1 killed');
  });

  it('M-3: a watcher may not take a seat (N-13); a newcomer in a black seat joins the mafia thread; the one replaced may watch', async () => {
    const { d, world, mafia, spectators } = await start();
    const u = (seat: number) => world.users[seat - 1]!.id;
    const g = d.gameId;
    await host(world, 'skip'); // day 1
    const watch = async (userId: string) => {
      const r = await world.fake.click(userId, d.tableMessage(), `v1:y:${g}:watch`);
      await r.settled();
      await world.bot.idle();
      return text(r);
    };
    const ira = world.fake.addUser({ username: 'ira', guilds: [world.guild.id] });
    expect(await watch(ira.id)).toMatch(/^✅/);
    expect(threadUsers(world, spectators)).toEqual([ira.id]);
    await consistent(world, g, 'ira watches');
    // She watched: she may not take a seat (N-13: the players who left talk there); nothing changes.
    const refused = await world.fake.slash(world.host.id, world.channel.id, 'host', {
      sub: 'substitute',
      options: { seat: 8, user: { type: 6, value: ira.id } } as never,
    });
    await refused.settled();
    await world.bot.idle();
    expect(text(refused)).toMatch(/^⛔ .*spectators’ thread/);
    expect((await world.bot.store.players(g)).find((p) => p.seat === 8)!.userId).toBe(u(8));
    // A newcomer takes over seat 8 (mafia): into the mafia's thread, never the spectators'.
    const ola = world.fake.addUser({ username: 'ola', guilds: [world.guild.id] });
    await substitute(world, 8, ola.id);
    expect(threadUsers(world, spectators)).toEqual([ira.id]);
    expect(world.fake.canRead(spectators, ola.id)).toBe(false);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(3), u(6), ola.id]));
    await consistent(world, g, 'ola takes seat 8');
    // The one she replaced is no longer at the table: out of the mafia thread; he may watch.
    expect(world.fake.canRead(mafia, u(8))).toBe(false);
    expect(await watch(u(8))).toMatch(/^✅/);
    expect(sorted(threadUsers(world, spectators))).toEqual(sorted([ira.id, u(8)]));
    await consistent(world, g, 'the old holder of seat 8 watches');
    // A living player may not watch.
    expect(await watch(u(2))).toMatch(/^⛔/);
    // Seat 8 leaves the table: ola joins the spectators (and leaves the mafia thread).
    await host(world, 'kill', { seat: 8 });
    expect(sorted(threadUsers(world, spectators))).toEqual(sorted([u(8), ira.id, ola.id]));
    expect(threadUsers(world, mafia)).not.toContain(ola.id);
    await consistent(world, g, 'seat 8 killed');
  });

  it('M-2: membership survives a failing Discord: the change is made once it answers again', async () => {
    const { d, world, mafia } = await start();
    const u = (seat: number) => world.users[seat - 1]!.id;
    const g = d.gameId;
    // More failures than discord.js retries by itself: the deliverer sees the call fail and tries later.
    world.fake.failNext({ method: 'PUT', route: /thread-members/, status: 500, times: 6 });
    const nova = world.fake.addUser({ username: 'nova', guilds: [world.guild.id] });
    await substitute(world, 6, nova.id);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(3), nova.id, u(8)]));
    await consistent(world, g, 'seat 6 taken over');
    // The Don's old holder was removed once: what is applied is remembered, not asked again.
    const deletes = world.fake.log.filter((e) => e.method === 'DELETE' && e.path.includes('/thread-members/'));
    expect(deletes.map((e) => e.path)).toEqual([`/channels/${mafia}/thread-members/${u(6)}`]);
    const puts = world.fake.log.filter((e) => e.method === 'PUT' && e.path.endsWith(`/thread-members/${nova.id}`));
    expect(puts.length).toBeGreaterThan(6);
  });

  it('M-2, G-4: kiev-12: the prostitute is not in the mafia thread, nor her substitute; a mafia substitute is', async () => {
    const KIEV: Role[] = ['civilian', 'mafia', 'commissioner', 'civilian', 'doctor', 'don', 'civilian'];
    KIEV.push('prostitute', 'maniac', 'civilian', 'mafia', 'civilian');
    const world = (w = await makeWorld({ players: 12, dealer: fixedDealer(KIEV) }));
    const u = (seat: number) => world.users[seat - 1]!.id;
    const d = new Driver(world);
    await d.createAndStart('kiev-12');
    const g = d.gameId;
    const mafia = (await gameThreads(world, g)).mafia!;
    await consistent(world, g, 'the deal');
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(2), u(6), u(11)]));
    const nova = world.fake.addUser({ username: 'nova', guilds: [world.guild.id] });
    await substitute(world, 8, nova.id);
    expect(threadUsers(world, mafia)).not.toContain(nova.id);
    const olena = world.fake.addUser({ username: 'olena', guilds: [world.guild.id] });
    await substitute(world, 11, olena.id);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(2), u(6), olena.id]));
    await consistent(world, g, 'seats 8 and 11 taken over');
  });

  it('M-2: the game ends: the mafia thread is locked and keeps who it holds; the spectators too', async () => {
    const { d, world, mafia, spectators } = await start();
    const u = (seat: number) => world.users[seat - 1]!.id;
    const g = d.gameId;
    await host(world, 'skip');
    await host(world, 'kill', { seat: 3 });
    await host(world, 'cancel', { reason: 'fire alarm' });
    expect(world.fake.thread(mafia)!.locked).toBe(true);
    expect(sorted(threadUsers(world, mafia))).toEqual(sorted([u(6), u(8)]));
    expect(threadUsers(world, spectators)).toEqual([u(3)]);
    await consistent(world, g, 'cancelled');
  });
});
