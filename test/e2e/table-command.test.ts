// /mafia table (issue 20): each repost costs a delete, a post and a pin from the request budget
// every server shares, so only a host of the game (G-7: its creator, Manage Server, the host role)
// may post the table again, only when it is missing (a table in place is linked instead), and at
// most once a minute per game, hosts included. Anyone else is told where the table is.
import { afterEach, describe, expect, it } from 'vitest';
import { TABLE_COOLDOWN_MS } from '../../src/discord/commands/mafia';
import type { Role } from '../../src/engine/types';
import { Perm, type InteractionResult } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

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
const refused = (r: InteractionResult, why: RegExp) => {
  expect(r.ephemeral).toBe(true);
  expect(text(r).startsWith('⛔'), text(r)).toBe(true);
  expect(text(r)).toMatch(why);
};

async function setup(): Promise<{ d: Driver; clock: FakeClock }> {
  const clock = new FakeClock(Date.UTC(2030, 0, 7, 12));
  w = await makeWorld({ players: 10, dealer: fixedDealer(TEN), clock: { now: clock.now, timers: clock } });
  const d = new Driver(w);
  await d.createAndStart('chnu-2016', 'live', { night: '1h', day: '1h', speech: '1h' });
  return { d, clock };
}

/** The table's message as the bot knows it (its slot). */
const tableId = async (d: Driver) => (await w!.bot.outbox.slot(d.gameId, 'table'))?.messageId ?? null;
const linkOf = async (d: Driver) => `https://discord.com/channels/${w!.guild.id}/${w!.channel.id}/${await tableId(d)}`;

/** The bot lost its table's message (e.g. its post was refused while it lacked a permission). */
async function loseTable(d: Driver): Promise<void> {
  const slot = (await w!.bot.outbox.slot(d.gameId, 'table'))!;
  await w!.bot.outbox.slotGone({ ...slot, repost: false }, w!.bot.service.now());
}

const posts = () => w!.fake.publicMessages(w!.channel.id).length;

describe('/mafia table (issue 20)', () => {
  it('a player or a bystander is shown where the table is, and nothing is posted; without a table, only a host may post it', async () => {
    const { d } = await setup();
    const before = { id: await tableId(d), posts: posts() };
    expect(before.id).not.toBeNull();
    const bystander = w!.fake.addUser({ username: 'guest', guilds: [w!.guild.id] });
    for (const who of [w!.users[0]!.id, bystander.id]) {
      const r = await d.slash(who, 'mafia', 'table');
      expect(r.ephemeral).toBe(true);
      expect(text(r)).toBe(`The table is pinned in this channel: ${await linkOf(d)}`);
    }
    expect(await tableId(d)).toBe(before.id);
    expect(posts()).toBe(before.posts);
    await loseTable(d);
    refused(await d.slash(w!.users[0]!.id, 'mafia', 'table'), /^⛔ Only the host can post the table again\.$/);
    await w!.bot.idle();
    expect(await tableId(d)).toBeNull();
    expect(posts()).toBe(before.posts);
  });

  it('a host: a table in place is linked, not posted again; a missing one is posted again, at most once a minute per game', async () => {
    const { d, clock } = await setup();
    const boss = w!.fake.addUser({ username: 'boss', guilds: [w!.guild.id] });
    const admin = w!.fake.addRole(w!.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w!.fake.setMemberRoles(w!.guild.id, boss.id, [admin.id]);
    const first = await tableId(d);
    const before = posts();
    const inPlace = await d.slash(w!.host.id, 'mafia', 'table');
    expect(text(inPlace)).toBe(
      `The table is already here and up to date, so I did not post it again: ${await linkOf(d)}`,
    );
    expect(await tableId(d)).toBe(first);
    expect(posts()).toBe(before);

    // Missing: the host posts it again, pinned.
    await loseTable(d);
    expect(text(await d.slash(w!.host.id, 'mafia', 'table'))).toBe('The table is posted again.');
    await w!.fake.waitFor(async () => {
      const id = await tableId(d);
      return id !== null && w!.fake.message(id)?.pinned;
    });
    const second = (await tableId(d))!;
    expect(second).not.toBe(first);

    // Missing again within the minute: refused, to the host and to a member with Manage Server.
    await loseTable(d);
    for (const who of [w!.host.id, boss.id])
      refused(await d.slash(who, 'mafia', 'table'), /was just posted again\. You can repost it <t:\d+:R>\./);
    await w!.bot.idle();
    expect(await tableId(d)).toBeNull();

    // A minute later the host may again.
    await clock.advanceTo(clock.now() + TABLE_COOLDOWN_MS + 1000, () => w!.bot.idle());
    expect(text(await d.slash(boss.id, 'mafia', 'table'))).toBe('The table is posted again.');
    await w!.fake.waitFor(async () => {
      const id = await tableId(d);
      return id !== null && w!.fake.message(id)?.pinned;
    });
    expect(await tableId(d)).not.toBe(second);
  });
});
