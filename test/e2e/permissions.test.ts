// Who may write (M-1, M-3) on a server with its own rules: a moderator's per-member denies and
// allows, a mute role, other bits on a player's overwrite. The bot only adds and takes back its own
// Send Messages deny (issue 20): it never allows, never removes what someone else set, and after a
// game every overwrite is as it was before. It reads the channel from Discord right before each
// write (never from its gateway cache, which may not have heard of a moderator's change yet), then
// writes one member's merged overwrite, or the channel's whole list with the members merged in.
import type { TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/engine/types';
import { Perm } from '../../testkit/fake-discord';
import type { OverwriteInfo } from '../../testkit/fake-discord/types';
import { Driver } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

const chnu: Role[] = [
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
const SEND = Perm.SendMessages;
const VIEW = Perm.ViewChannel;
const ATTACH = Perm.AttachFiles;
const EMBED = Perm.EmbedLinks;

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
const all = () => w!.fake.overwrites(w!.channel.id).sort(byId);
const of = (i: number) => w!.fake.overwrites(w!.channel.id).find((o) => o.id === w!.users[i]!.id);
const can = (i: number) => (w!.fake.permissionsIn(w!.channel.id, w!.users[i]!.id) & SEND) === SEND;

/** Until the bot's gateway cache shows the overwrite as the fake has it (a moderator's change reached it). */
async function cached(o: OverwriteInfo): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const ch = w!.bot.client.channels.cache.get(w!.channel.id) as TextChannel | undefined;
    const c = ch?.permissionOverwrites.cache.get(o.id);
    if (c && c.allow.bitfield === o.allow && c.deny.bitfield === o.deny) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the bot's cache never saw the overwrite of ${o.id}`);
}

/** A moderator sets an overwrite by hand (the bot hears of it through the gateway). */
async function moderator(o: OverwriteInfo): Promise<void> {
  w!.fake.setOverwrite(w!.channel.id, o);
  await cached(o);
}

/**
 * The bot's calls on the channel's overwrites since `mark`: every write (a PATCH of the channel, a
 * PUT or DELETE of one overwrite) comes right after a read of the channel (GET), never without one.
 */
function readBeforeEachWrite(mark: number): { reads: number; writes: number } {
  const path = `/channels/${w!.channel.id}`;
  const calls = w!.fake.log
    .slice(mark)
    .filter((e) => (e.path === path && e.method !== 'POST') || e.path.startsWith(`${path}/permissions/`));
  let reads = 0;
  let writes = 0;
  calls.forEach((e, i) => {
    if (e.method === 'GET') reads++;
    else {
      writes++;
      expect(calls[i - 1], `${e.method} ${e.path} at ${i} follows a read`).toMatchObject({ method: 'GET', path });
    }
  });
  return { reads, writes };
}

/**
 * The server's own rules before the game: a mute role (denied Send Messages in the channel) on
 * seat 1, a moderator's Send Messages deny on seat 2, a moderator's allow of it on seat 5, and
 * other bits (an attach deny, an embed allow) on seat 4.
 */
async function serverRules(): Promise<OverwriteInfo[]> {
  const muted = w!.fake.addRole(w!.guild.id, { name: 'muted' });
  w!.fake.setMemberRoles(w!.guild.id, w!.users[0]!.id, [muted.id]);
  await moderator({ id: muted.id, type: 0, allow: 0n, deny: SEND });
  await moderator({ id: w!.users[1]!.id, type: 1, allow: 0n, deny: SEND });
  await moderator({ id: w!.users[3]!.id, type: 1, allow: EMBED, deny: ATTACH });
  await moderator({ id: w!.users[4]!.id, type: 1, allow: SEND, deny: 0n });
  return all();
}

/** Day 1 to night 1: nominations of 3 and 5, seat 3 voted out, his last words. */
async function dayOne(d: Driver, during: (speaker: number) => void): Promise<void> {
  during(1);
  await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 3 });
  await d.step({ type: 'player', seat: 1, verb: 'pass' });
  during(2);
  await d.step({ type: 'player', seat: 2, verb: 'nominate', target: 5 });
  for (let seat = 2; seat <= 10; seat++) {
    if (seat > 2) during(seat);
    await d.step({ type: 'player', seat, verb: 'pass' });
  }
  for (let seat = 1; seat <= 10; seat++)
    await d.step({ type: 'player', seat, verb: 'vote', target: seat === 3 ? 5 : 3 });
  expect((await w!.bot.store.getState(d.gameId))!.stage.kind).toBe('lastWords');
  await d.step({ type: 'player', seat: 3, verb: 'pass' });
}

describe('M-1, M-3: the bot only takes away, and gives back exactly', () => {
  it("enforced speaking order: a muted speaker stays muted, a moderator's denies (Send Messages, View Channel) and other bits survive the game, and every overwrite is as before", async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w.fake.setMemberRoles(w.guild.id, w.host.id, [admin.id]);
    await d.slash(w.host.id, 'mafia', 'speaking_order', { speaking_order: 'enforced' }, 'settings');
    const before = await serverRules();
    const mark = w.fake.log.length;
    await d.createAndStart('chnu-2016');
    // Night 0: every player denied; the moderator's deny and the other bits are where they were.
    expect(w.users.map((_, i) => can(i))).toEqual(new Array(10).fill(false));
    expect(of(1)).toEqual({ id: w.users[1]!.id, type: 1, allow: 0n, deny: SEND });
    expect(of(3)).toEqual({ id: w.users[3]!.id, type: 1, allow: EMBED, deny: ATTACH | SEND });
    // The moderator's allow on seat 5 would beat a deny beside it: it is off while the bot denies.
    expect(of(4)).toEqual({ id: w.users[4]!.id, type: 1, allow: 0n, deny: SEND });
    await d.host('skip', {});
    // Day 1, speaker by speaker: he alone is not denied, and writes only if the server lets him.
    await dayOne(d, (speaker) => {
      const writers = w!.users.map((_, i) => can(i));
      // Seat 1 is muted (his role's deny is not beaten by an allow from the bot), seat 2 denied by a
      // moderator: neither writes in his own turn. Seat 5 writes by the moderator's allow, given back.
      expect(writers).toEqual(w!.users.map((_, i) => i + 1 === speaker && speaker !== 1 && speaker !== 2));
      expect(of(1)).toEqual({ id: w!.users[1]!.id, type: 1, allow: 0n, deny: SEND });
      if (speaker === 4) expect(of(3)).toEqual({ id: w!.users[3]!.id, type: 1, allow: EMBED, deny: ATTACH });
      if (speaker === 5) expect(of(4)).toEqual({ id: w!.users[4]!.id, type: 1, allow: SEND, deny: 0n });
    });
    expect(() => w!.fake.postAsUser(w!.users[0]!.id, w!.channel.id, 'may I?')).toThrow(/Missing Permissions/);
    // Night 1: a moderator hides the channel from seat 3, who has left the game.
    const out = of(2)!;
    expect(out).toEqual({ id: w.users[2]!.id, type: 1, allow: 0n, deny: SEND });
    await moderator({ ...out, deny: out.deny | VIEW });
    await d.host('end', { winner: 'draw' });
    await d.host('skip', {});
    await w.bot.idle();
    // After the game: every overwrite as before it, and the moderator's View Channel deny of seat 3
    // (on the overwrite the bot had made for its deny: it stays, with the bot's bit taken out).
    const seat3 = { id: w.users[2]!.id, type: 1 as const, allow: 0n, deny: VIEW };
    expect(all()).toEqual([...before, seat3].sort(byId));
    expect(await w.bot.outbox.permHolds(w.channel.id)).toEqual([]);
    // Each write was made from a fresh read of the channel.
    expect(readBeforeEachWrite(mark).writes).toBeGreaterThan(10);
  });

  it("a moderator's change the bot's gateway cache has not heard of yet (a role's overwrite, bits on a player's own) survives the bot's next change: it reads the channel first", async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    await d.createAndStart('chnu-2016');
    expect(w.users.map((_, i) => can(i))).toEqual(new Array(10).fill(false));
    // Night 0. A moderator mutes a role in the channel and denies seat 4 attachments; neither
    // change's CHANNEL_UPDATE has reached the bot.
    const muted = w.fake.addRole(w.guild.id, { name: 'muted' });
    const role: OverwriteInfo = { id: muted.id, type: 0, allow: 0n, deny: SEND | ATTACH };
    w.fake.setOverwriteQuietly(w.channel.id, role);
    const seat4 = of(3)!;
    expect(seat4).toEqual({ id: w.users[3]!.id, type: 1, allow: 0n, deny: SEND });
    w.fake.setOverwriteQuietly(w.channel.id, { ...seat4, deny: SEND | ATTACH });
    const ch = w.bot.client.channels.cache.get(w.channel.id) as TextChannel;
    expect(ch.permissionOverwrites.cache.has(muted.id)).toBe(false);
    expect(ch.permissionOverwrites.cache.get(w.users[3]!.id)?.deny.bitfield).toBe(SEND);
    const mark = w.fake.log.length;
    // The day opens: the bot takes back its denies of the ten players (the channel's whole list).
    await d.host('skip', {});
    await w.bot.idle();
    expect(w.users.map((_, i) => can(i))).toEqual(new Array(10).fill(true));
    // The moderator's overwrites are as he left them, the bot's own bit alone taken out.
    expect(all().find((o) => o.id === muted.id)).toEqual(role);
    expect(of(3)).toEqual({ id: w.users[3]!.id, type: 1, allow: 0n, deny: ATTACH });
    expect(await w.bot.outbox.permHolds(w.channel.id)).toEqual([]);
    // One read of the channel, then one write of its whole list.
    expect(readBeforeEachWrite(mark)).toEqual({ reads: 1, writes: 1 });
  });

  it('by default (coarse): a member denied before the game stays denied when the day opens, and every overwrite is as before after it', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    const before = await serverRules();
    await d.createAndStart('chnu-2016');
    expect(w.users.map((_, i) => can(i))).toEqual(new Array(10).fill(false));
    await d.host('skip', {});
    // Day 1: the living write, but not the muted seat 1 nor seat 2 whom a moderator denied.
    expect(w.users.map((_, i) => can(i))).toEqual(w.users.map((_, i) => i > 1));
    expect(of(1)).toEqual({ id: w.users[1]!.id, type: 1, allow: 0n, deny: SEND });
    expect(of(3)).toEqual({ id: w.users[3]!.id, type: 1, allow: EMBED, deny: ATTACH });
    expect(of(4)).toEqual({ id: w.users[4]!.id, type: 1, allow: SEND, deny: 0n });
    expect(w.fake.postAsUser(w.users[5]!.id, w.channel.id, 'good morning').content).toBe('good morning');
    expect(() => w!.fake.postAsUser(w!.users[1]!.id, w!.channel.id, 'me too')).toThrow(/Missing Permissions/);
    // The host cancels the game at once: everything the bot changed is given back.
    await d.slash(w.host.id, 'host', 'cancel');
    await w.bot.idle();
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('cancelled');
    expect(all()).toEqual(before);
    expect(await w.bot.outbox.permHolds(w.channel.id)).toEqual([]);
  });
});
