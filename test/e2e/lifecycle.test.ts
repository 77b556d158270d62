// Issue 20 through the fake Discord, with a fake clock: a game's lifecycle follows its channel and
// server. A deleted channel, a channel the bot may no longer see, the bot removed from the server,
// or a channel call that fails as if it were gone, suspend the game: no DM, no reminder, no timer,
// nothing sent (held, not dropped), also across a restart; the host is told by DM, once, in his
// language. Access back before the period: the game goes on where it stopped (the stage's clock
// gets back the time it had) and finishes normally. Not back: the game is voided (cancelled, never
// rated) and the host is told. A server outage (GUILD_DELETE with unavailable) suspends nothing.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VOID_AFTER_MS } from '../../src/app/lifecycle';
import { startBot } from '../../src/discord/bot';
import { LifecycleStore } from '../../src/db/lifecycle-store';
import { t } from '../../src/i18n';
import { parseScenario } from '../../src/scenario/parse';
import { resultOf } from '../../src/scenario/run';
import { DEFAULT_BOT_PERMISSIONS, Perm } from '../../testkit/fake-discord';
import type { OverwriteInfo } from '../../testkit/fake-discord/types';
import { Driver } from '../../testkit/driver';
import { compareExpect, OWN_DIR, readJson } from '../../testkit/scenario-files';
import { botConfig, FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

const MIN = 60_000;
const H = 60 * MIN;
const FILE = join(OWN_DIR, 'classic-all-leave-ends-game.json');
const raw = readJson(FILE) as { expect: Record<string, unknown> };
const sc = parseScenario(raw);

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

async function setup(
  userLocale = 'en-US',
  prepare: (world: World) => void = () => {},
): Promise<{ world: World; d: Driver; clock: FakeClock }> {
  const clock = new FakeClock(Date.parse('2027-03-01T10:00:00Z'));
  w = await makeWorld({
    players: sc.roles.length,
    dealer: fixedDealer(sc.roles),
    userLocale,
    clock: { now: clock.now, timers: clock },
  });
  prepare(w);
  const d = new Driver(w);
  await d.createAndStart(sc.ruleset, sc.pace);
  return { world: w, d, clock };
}

/** Plays the scenario's steps from `from` to `to`; the refused ones are added to `refused` (the file lists them). */
async function play(d: Driver, from: number, to: number, refused: number[] = []): Promise<number[]> {
  for (let i = from; i < to; i++) if ((await d.step(sc.steps[i]!)) === 'refused') refused.push(i);
  return refused;
}

/** The game ended exactly as the scenario file says (its result, and which steps were refused). */
async function asTheFileSays(world: World, g: number, refused: number[]): Promise<void> {
  const state = (await world.bot.store.getState(g))!;
  expect(
    compareExpect(resultOf(state, refused) as never, raw.expect),
    JSON.stringify(resultOf(state, refused)),
  ).toEqual([]);
}

/** Waits until the bot's own state says so (the fake's waitFor looks only at the fake's state). */
async function until(pred: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
const dmCount = (world: World) => world.users.map((u) => world.fake.dms(u.id).length);
const hostDms = (world: World) => world.fake.dms(world.host.id).map((m) => m.content);

describe('a game follows its channel and server (issue 20)', () => {
  it('channel deleted mid-game: suspended, the host told once, nothing sent or timed (also after a restart), voided after the period and not rated', async () => {
    const { world, d, clock } = await setup();
    const g = d.gameId;
    const idle = () => world.bot.idle();
    expect(await play(d, 0, 3)).toEqual([]);
    const before = (await world.bot.store.getState(g))!;
    expect(before.deadline).not.toBeNull();
    const dms = dmCount(world);
    world.fake.deleteChannel(world.channel.id);
    await until(async () => await world.bot.lifecycle.isSuspended(g));
    await idle();
    const s = (await new LifecycleStore(world.bot.db.connection).get(g))!;
    expect(s.reason).toBe('channel-deleted');
    expect(s.voidAt - s.since).toBe(VOID_AFTER_MS.live);
    // The host, by DM, once: why, and when the game is voided.
    const paused = hostDms(world).filter((c) => c.startsWith('⏸️'));
    expect(paused).toEqual([
      `${t('en', 'life.paused.channel-deleted', { id: g, channel: world.channel.id })}\n${t('en', 'life.paused.tail', { when: `<t:${Math.floor(s.voidAt / 1000)}:R>` })}`,
    ]);
    // The clock stands (the host's pause, by the system): no timer is armed, none stored.
    const st = (await world.bot.store.getState(g))!;
    expect(st.paused).toBeDefined();
    expect(st.seq).toBe(before.seq);
    expect(await world.bot.store.deadlineOf(g)).toBeNull();
    expect(world.bot.service.scheduler.armed(g)).toBeNull();
    // Hours pass: nothing happens; no DM to anyone, the host's one notice stays one.
    await clock.advanceTo(clock.now() + 3 * H, idle);
    expect((await world.bot.store.getState(g))!.seq).toBe(before.seq);
    expect(dmCount(world)).toEqual(dms);
    // A restart while suspended re-arms nothing and says nothing again.
    await world.bot.stop();
    world.bot = await startBot(
      botConfig(world.fake, world.dbPath, { dealer: fixedDealer(sc.roles), clock: { now: clock.now, timers: clock } }),
    );
    await idle();
    expect(await world.bot.lifecycle.isSuspended(g)).toBe(true);
    expect(world.bot.service.scheduler.armed(g)).toBeNull();
    expect(world.bot.lifecycle.scheduler.armed(g)?.dueAt).toBe(s.voidAt);
    await clock.advanceTo(clock.now() + 2 * H, idle);
    expect((await world.bot.store.getState(g))!.seq).toBe(before.seq);
    expect(dmCount(world)).toEqual(dms);
    expect(hostDms(world).filter((c) => c.startsWith('⏸️'))).toHaveLength(1);
    // The period passes: the game is voided, the host told; nothing it held is sent, nothing rated.
    await clock.advanceTo(s.voidAt + MIN, idle);
    expect((await world.bot.store.getGame(g))!.status).toBe('cancelled');
    expect(await world.bot.lifecycle.isSuspended(g)).toBe(false);
    expect(hostDms(world).filter((c) => c.startsWith('🚫'))).toEqual([
      t('en', 'life.voided', { id: g, channel: world.channel.id, period: '1 d' }),
    ]);
    expect(await world.bot.store.resultsFor({ guildId: world.guild.id })).toEqual([]);
    expect((await world.bot.outbox.rows(g)).filter((r) => r.status === 'pending' || r.status === 'held')).toEqual([]);
    expect((await world.bot.store.auditLog(g)).some((a) => a.action === 'cancel' && a.actorId === 'system')).toBe(true);
    expect(dmCount(world)).toEqual(dms);
    // The channel took its overwrites with it: nothing is held there any more.
    expect(await world.bot.outbox.permHolds(world.channel.id)).toEqual([]);
  }, 120_000);

  it("voided while out of reach: once access is back, every player's Send Messages deny is given back and every overwrite is as before the game (M-1, M-3)", async () => {
    const SEND = Perm.SendMessages;
    let before: OverwriteInfo[] = [];
    const { world, d, clock } = await setup('en-US', (wd) => {
      // A moderator's own overwrite on seat 2 (other bits) and a Send Messages deny on seat 3.
      wd.fake.setOverwrite(wd.channel.id, {
        id: wd.users[1]!.id,
        type: 1,
        allow: Perm.EmbedLinks,
        deny: Perm.AttachFiles,
      });
      wd.fake.setOverwrite(wd.channel.id, { id: wd.users[2]!.id, type: 1, allow: 0n, deny: SEND });
      before = wd.fake.overwrites(wd.channel.id);
    });
    const g = d.gameId;
    const ch = world.channel.id;
    const idle = () => world.bot.idle();
    const bot = world.fake.botUser.id;
    const others = () =>
      world.fake
        .overwrites(ch)
        .filter((o) => o.id !== bot)
        .sort(byId);
    const can = (i: number) => (world.fake.permissionsIn(ch, world.users[i]!.id) & SEND) === SEND;
    await idle();
    // Night 0: the bot denies every player.
    expect(world.users.map((_, i) => can(i))).toEqual(world.users.map(() => false));
    expect((await world.bot.outbox.permHolds(ch)).length).toBe(world.users.length);
    // A moderator takes View Channel from the bot: suspended; the period passes: voided.
    world.fake.setOverwrite(ch, { id: bot, type: 1, allow: 0n, deny: Perm.ViewChannel });
    await until(async () => await world.bot.lifecycle.isSuspended(g));
    await idle();
    const s = (await new LifecycleStore(world.bot.db.connection).get(g))!;
    expect(s.reason).toBe('no-access');
    await clock.advanceTo(s.voidAt + MIN, idle);
    expect((await world.bot.store.getGame(g))!.status).toBe('cancelled');
    // The channel is out of reach: the denies stay, and so does what the bot holds.
    expect(world.users.map((_, i) => can(i))).toEqual(world.users.map(() => false));
    expect((await world.bot.outbox.permHolds(ch)).length).toBe(world.users.length);
    // Hours later the access is back: the bot gives back exactly what it took.
    await clock.advanceTo(clock.now() + 5 * H, idle);
    world.fake.setOverwrite(ch, { id: bot, type: 1, allow: Perm.ViewChannel, deny: 0n });
    await until(async () => (await world.bot.outbox.permHolds(ch)).length === 0, 'the holds given back');
    await idle();
    expect(others()).toEqual(before.filter((o) => o.id !== bot).sort(byId));
    expect(world.users.map((_, i) => can(i))).toEqual(world.users.map((_, i) => i !== 2));
    // Nothing else of the voided game is posted.
    expect(world.fake.publicMessages(ch).some((m) => m.content.includes(t('en', 'life.resumed', { id: g })))).toBe(
      false,
    );
  }, 120_000);

  it('a game that ended while the bot could not manage permissions: its denies are given back at the next start once it may again (M-1, M-3)', async () => {
    const SEND = Perm.SendMessages;
    let before: OverwriteInfo[] = [];
    const { world, d, clock } = await setup('en-US', (wd) => {
      wd.fake.setOverwrite(wd.channel.id, { id: wd.users[4]!.id, type: 1, allow: SEND, deny: Perm.AttachFiles });
      before = wd.fake.overwrites(wd.channel.id);
    });
    const g = d.gameId;
    const ch = world.channel.id;
    const idle = () => world.bot.idle();
    await idle();
    expect((await world.bot.outbox.permHolds(ch)).length).toBe(world.users.length);
    // A moderator takes Manage Roles from the bot; then the host cancels the game.
    world.fake.setBotPermissions(world.guild.id, DEFAULT_BOT_PERMISSIONS & ~Perm.ManageRoles);
    await until(() => {
      const me = world.bot.client.guilds.cache.get(world.guild.id)?.members.me;
      return me !== undefined && me !== null && !me.permissions.has(Perm.ManageRoles);
    }, 'the cache to see the role change');
    await d.slash(world.host.id, 'host', 'cancel');
    await idle();
    expect((await world.bot.store.getGame(g))!.status).toBe('cancelled');
    expect((await world.bot.outbox.permHolds(ch)).length).toBe(world.users.length);
    // The bot is down while Manage Roles is given back; at its start it gives back what it took.
    await world.bot.stop();
    world.fake.setBotPermissions(world.guild.id, DEFAULT_BOT_PERMISSIONS);
    world.bot = await startBot(
      botConfig(world.fake, world.dbPath, { dealer: fixedDealer(sc.roles), clock: { now: clock.now, timers: clock } }),
    );
    await until(async () => (await world.bot.outbox.permHolds(ch)).length === 0, 'the holds given back');
    await idle();
    expect(world.fake.overwrites(ch).sort(byId)).toEqual(before.sort(byId));
  }, 120_000);

  it('access taken away and given back before the period: the game goes on where it stopped, nobody lost time, and finishes normally (G-7 clock, uk host)', async () => {
    const { world, d, clock } = await setup('uk');
    const g = d.gameId;
    const idle = () => world.bot.idle();
    const refused = await play(d, 0, 4);
    const before = (await world.bot.store.getState(g))!;
    const left = before.deadline! - clock.now();
    const channelPosts = world.fake.publicMessages(world.channel.id).length;
    // A moderator takes View Channel from the bot.
    const bot = world.fake.botUser.id;
    world.fake.setOverwrite(world.channel.id, { id: bot, type: 1, allow: 0n, deny: Perm.ViewChannel });
    await until(async () => await world.bot.lifecycle.isSuspended(g));
    await idle();
    expect(hostDms(world).filter((c) => c.startsWith('⏸️'))).toHaveLength(1);
    expect(hostDms(world).find((c) => c.startsWith('⏸️'))).toContain(
      t('uk', 'life.paused.no-access', { id: g, channel: world.channel.id }),
    );
    // A player's click is refused and changes nothing.
    expect(await d.step(sc.steps[4]!)).toBe('refused');
    expect((await world.bot.store.getState(g))!.moves).toBe(before.moves + 1); // the system's pause only
    // An hour later, the access is back.
    await clock.advanceTo(clock.now() + H, idle);
    expect((await world.bot.store.getState(g))!.seq).toBe(before.seq);
    const resumedAt = clock.now();
    world.fake.setOverwrite(world.channel.id, { id: bot, type: 1, allow: Perm.ViewChannel, deny: 0n });
    await until(async () => !(await world.bot.lifecycle.isSuspended(g)));
    await idle();
    const after = (await world.bot.store.getState(g))!;
    expect(after.paused).toBeUndefined();
    expect(after.seq).toBe(before.seq);
    // The stage ends as much later as it was suspended (a second of slack for the test's own pace).
    expect(after.deadline! - resumedAt).toBeGreaterThan(left - 5000);
    expect(after.deadline! - resumedAt).toBeLessThanOrEqual(left + 1000);
    // The table is told in the channel (the game's language: the guild's, en), the host by DM.
    const posts = world.fake
      .publicMessages(world.channel.id)
      .slice(channelPosts)
      .map((m) => m.content);
    expect(posts).toContain(t('en', 'life.resumed', { id: g }));
    expect(posts.some((c) => c.includes('⏸️') || c.includes('▶️ The game goes on'))).toBe(false);
    expect(hostDms(world)).toContain(t('uk', 'life.resumedHost', { id: g, channel: world.channel.id }));
    // The rest of the game as the file says: the same result.
    await play(d, 4, sc.steps.length, refused);
    await asTheFileSays(world, g, refused);
    expect((await world.bot.store.getGame(g))!.status).toBe('over');
    expect((await world.bot.store.resultsFor({ guildId: world.guild.id })).length).toBe(sc.roles.length);
  }, 120_000);

  it('the bot removed from the server: suspended and the host told where he can be reached; invited back, the game goes on', async () => {
    const { world, d, clock } = await setup();
    const g = d.gameId;
    const idle = () => world.bot.idle();
    // The host shares another server with the bot, so its DMs still reach him.
    const other = world.fake.addGuild({ name: 'Other' });
    world.fake.addMember(other.id, world.host.id);
    const refused = await play(d, 0, 2);
    const seq = (await world.bot.store.getState(g))!.seq;
    const dms = dmCount(world);
    world.fake.removeBot(world.guild.id);
    await until(async () => await world.bot.lifecycle.isSuspended(g));
    await idle();
    expect((await new LifecycleStore(world.bot.db.connection).get(g))!.reason).toBe('bot-removed');
    expect(hostDms(world).filter((c) => c.startsWith('⏸️'))).toHaveLength(1);
    expect(hostDms(world).find((c) => c.startsWith('⏸️'))).toContain(
      t('en', 'life.paused.bot-removed', { id: g, channel: world.channel.id }),
    );
    await clock.advanceTo(clock.now() + 2 * H, idle);
    expect((await world.bot.store.getState(g))!.seq).toBe(seq);
    expect(dmCount(world)).toEqual(dms);
    world.fake.addBotBack(world.guild.id);
    await until(async () => !(await world.bot.lifecycle.isSuspended(g)));
    await idle();
    expect(world.fake.publicMessages(world.channel.id).map((m) => m.content)).toContain(
      t('en', 'life.resumed', { id: g }),
    );
    await play(d, 2, sc.steps.length, refused);
    await asTheFileSays(world, g, refused);
  }, 120_000);

  it('a failed call that says the channel is out of reach (50001) suspends the game; its held message goes out once access is seen again', async () => {
    const { world, d } = await setup();
    const g = d.gameId;
    const idle = () => world.bot.idle();
    world.fake.failNext({
      method: 'POST',
      route: `/channels/${world.channel.id}/messages`,
      status: 403,
      body: { code: 50001, message: 'Missing Access' },
    });
    const count = world.fake.publicMessages(world.channel.id).length;
    await play(d, 0, 1); // night 0 ends: the day's first message is posted, and refused
    await until(async () => await world.bot.lifecycle.isSuspended(g));
    await idle();
    expect((await world.bot.outbox.rows(g)).some((r) => r.status === 'held')).toBe(true);
    expect(hostDms(world).filter((c) => c.startsWith('⏸️'))).toHaveLength(1);
    // The gateway says the channel is fine after all (any change of it): the game goes on.
    world.fake.setOverwrite(world.channel.id, { id: world.guild.id, type: 0, allow: 0n, deny: 0n });
    await until(async () => !(await world.bot.lifecycle.isSuspended(g)));
    await idle();
    expect((await world.bot.outbox.rows(g)).filter((r) => r.status === 'held' || r.status === 'failed')).toEqual([]);
    expect(world.fake.publicMessages(world.channel.id).length).toBeGreaterThan(count);
    expect(await play(d, 1, 3)).toEqual([]);
  }, 120_000);

  it('a server outage (GUILD_DELETE with unavailable) suspends nothing', async () => {
    const { world, d } = await setup();
    const g = d.gameId;
    const refused = await play(d, 0, 2);
    world.fake.guildOutage(world.guild.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(world.bot.client.guilds.cache.get(world.guild.id)?.available).toBe(false);
    expect(await world.bot.lifecycle.isSuspended(g)).toBe(false);
    world.fake.guildOutage(world.guild.id, true);
    await until(() => world.bot.client.guilds.cache.get(world.guild.id)?.available === true);
    await world.bot.idle();
    expect(await world.bot.lifecycle.isSuspended(g)).toBe(false);
    expect(hostDms(world).filter((c) => c.startsWith('⏸️'))).toEqual([]);
    await play(d, 2, sc.steps.length, refused);
    await asTheFileSays(world, g, refused);
  }, 120_000);
});
