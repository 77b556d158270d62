// Who may write (M-1, M-3) on a server with its own rules: a moderator's per-member denies and
// allows, a mute role, other bits on a player's overwrite. The bot only adds and takes back its own
// Send Messages deny (issue 20): it never allows, never removes what someone else set, and after a
// game every overwrite is as it was before. Each game runs twice: with the channel in the gateway
// cache (one call with the channel's merged list) and without it (the channel is read first, then
// each member's merged overwrite is written).
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

/** The bot without the channel in its gateway cache: the deliverer reads the channel before writing. */
function withoutCache(): void {
  (w!.bot.deliverer as unknown as { opts: { overwrites?: () => null } }).opts.overwrites = () => null;
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
  expect(w!.bot.store.getState(d.gameId)!.stage.kind).toBe('lastWords');
  await d.step({ type: 'player', seat: 3, verb: 'pass' });
}

describe.each([
  ['with the channel in the gateway cache', false],
  ['without the gateway cache (the channel is read first)', true],
])('M-1, M-3: the bot only takes away, and gives back exactly (%s)', (_name, noCache) => {
  it("enforced speaking order: a muted speaker stays muted, a moderator's denies (Send Messages, View Channel) and other bits survive the game, and every overwrite is as before", async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    if (noCache) withoutCache();
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
    expect(w.bot.outbox.permHolds(w.channel.id)).toEqual([]);
    const calls = w.fake.log.slice(mark).filter((e) => e.path.startsWith(`/channels/${w!.channel.id}`));
    if (noCache) {
      // Read before written, never the whole list.
      expect(calls.some((e) => e.method === 'GET' && e.path === `/channels/${w!.channel.id}`)).toBe(true);
      expect(calls.some((e) => e.method === 'PATCH' && e.path === `/channels/${w!.channel.id}`)).toBe(false);
    }
  });

  it('by default (coarse): a member denied before the game stays denied when the day opens, and every overwrite is as before after it', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    if (noCache) withoutCache();
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
    expect(w.bot.store.getGame(d.gameId)!.status).toBe('cancelled');
    expect(all()).toEqual(before);
    expect(w.bot.outbox.permHolds(w.channel.id)).toEqual([]);
  });
});
