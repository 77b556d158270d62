// The lobby's DM check and the no-DM fallback, who may write (M-1, M-3), the mafia's private
// thread (M-2), Discord failures, languages, timers that fire by themselves.
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/engine/types';
import { allComponents, DEFAULT_BOT_PERMISSIONS, Perm } from '../../testkit/fake-discord';
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
const kiev: Role[] = [
  'civilian',
  'mafia',
  'commissioner',
  'civilian',
  'doctor',
  'don',
  'civilian',
  'prostitute',
  'maniac',
  'civilian',
  'mafia',
  'civilian',
];
const SEND = Perm.SendMessages;

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

describe('lobby', () => {
  it('DMs are checked as players join; a start right after the last join sends no second check', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content!)![1]);
    for (const u of w.users.slice(0, 9)) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await w.bot.idle();
    // The last player joins and the host presses Start in the same moment (his check is on its way).
    const last = w.users[9]!;
    const join = await w.fake.click(last.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    const start = await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`);
    await join.settled();
    await start.settled();
    await w.bot.idle();
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('running');
    for (const u of w.users) {
      const checks = w.fake.dms(u.id).filter((m) => /role card will arrive here/.test(m.content));
      expect(checks, u.username).toHaveLength(1);
    }
  });

  it('a player the bot cannot DM is named with the fix; the host may start anyway and he plays from the channel', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content!)![1]);
    const sheriff = w.users[3]!;
    w.fake.setDmsOpen(sheriff.id, false);
    for (const u of w.users) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await w.bot.idle();
    // Each player's DMs are checked when he joins: the lobby names the one it cannot reach at once.
    expect(d.lobbyMessage().embeds[0]!.description).toMatch(
      new RegExp(`cannot send direct messages to: <@${sheriff.id}>`),
    );
    expect(w.fake.dms(w.users[0]!.id).some((m) => /role card will arrive here/.test(m.content))).toBe(true);
    // Only the host may start.
    const notHost = await w.fake.click(w.users[0]!.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`);
    expect(notHost.type).toBe(4);
    expect(notHost.ephemeral).toBe(true);
    expect(notHost.content).toMatch(/Only the host/);
    // Start: the bot defers the update, checks the DMs, and shows who it cannot reach in the lobby
    // itself; the host alone is told in private what to do.
    const start = await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`);
    expect(start.type).toBe(6);
    await start.settled();
    const hostNote = await start.followup(0);
    await w.bot.idle();
    expect(hostNote.flags & 64).toBe(64);
    expect(hostNote.content).toMatch(new RegExp(`I cannot DM <@${sheriff.id}>`));
    expect(hostNote.content).toMatch(/start anyway/);
    const lobby = d.lobbyMessage();
    expect(start.message?.id).toBe(lobby.id);
    expect(lobby.embeds[0]!.description).toMatch(new RegExp(`cannot send direct messages to: <@${sheriff.id}>`));
    expect(lobby.embeds[0]!.description).toMatch(/Privacy Settings/);
    expect(allComponents(lobby).find((c) => c.custom_id === `v1:l:${d.gameId}:fallback`)?.label).toBe(
      'Start anyway (without DMs)',
    );
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('lobby');
    const anyway = await w.fake.click(w.host.id, lobby, `v1:l:${d.gameId}:fallback`);
    await anyway.settled();
    await w.bot.idle();
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('running');
    // The lobby is closed: it says so, shows who plays without DMs, and offers nothing more.
    const closed = w.fake.message(lobby.id)!;
    expect(closed.embeds[0]!.description).toMatch(new RegExp(`<@${sheriff.id}> \\(plays without DMs\\)`));
    expect(closed.embeds[0]!.description).toMatch(/The game has started/);
    expect(
      allComponents(closed)
        .filter((c) => c.custom_id)
        .every((c) => c.disabled),
    ).toBe(true);
    // He gets no role card by DM; the others do.
    expect(w.fake.dms(sheriff.id).filter((m) => m.embeds.length > 0)).toEqual([]);
    expect(w.fake.dms(w.users[0]!.id).some((m) => m.embeds[0]?.title === 'Civilian — seat 1')).toBe(true);
    // His card comes by the channel button, ephemeral.
    const card = await w.fake.click(sheriff.id, d.tableMessage(), `v1:p:${d.gameId}:role`);
    expect(card.ephemeral).toBe(true);
    expect(card.message!.embeds[0]!.title).toBe('Sheriff — seat 4');
    // At night he acts from the channel, and gets his answer there.
    await d.host('skip', {});
    for (let seat = 1; seat <= 10; seat++) await d.step({ type: 'player', seat, verb: 'pass' });
    expect(await d.step({ type: 'player', seat: 4, verb: 'check', target: 6 })).toBe('ok');
    const panel = w.fake.ephemeralsFor(sheriff.id).at(-1)!;
    expect(panel.content).toMatch(/black/);
    expect(allComponents(panel).some((c) => c.custom_id?.endsWith(':askDon'))).toBe(true);
  });

  it('two joins whose answers reach Discord in the wrong order: the lobby is put right, once, and a second Join shows it', async () => {
    w = await makeWorld({ players: 10 });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content!)![1]);
    const [a, b] = [w.users[0]!, w.users[1]!];
    const listed = (u: { id: string }) => d.lobbyMessage().embeds[0]!.description!.includes(`<@${u.id}>`);
    expect((await w.fake.click(a.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`)).type).toBe(7);
    await w.bot.idle();
    const afterA = (await w.bot.outbox.slot(d.gameId, 'lobby'))!;
    const shownA = structuredClone({ embeds: d.lobbyMessage().embeds, components: d.lobbyMessage().components });
    expect((await w.fake.click(b.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`)).type).toBe(7);
    await w.bot.idle();
    // (The bot notes B's answer as shown once Discord confirmed it.)
    for (
      let k = 0;
      k < 100 &&
      (await w.bot.outbox.slot(d.gameId, 'lobby'))!.sentVersion < (await w.bot.outbox.slot(d.gameId, 'lobby'))!.version;
      k++
    )
      await new Promise((r) => setTimeout(r, 10));
    // A's answer (the older version) was applied after B's: the message shows A alone, and the bot
    // learns it when A's answer is the last to finish.
    Object.assign(w.fake.message(d.lobbyMessage().id)!, shownA);
    await w.bot.outbox.shownSlot(d.gameId, 'lobby', afterA.version, d.lobbyMessage().id);
    expect(listed(b)).toBe(false);
    // B, not listed, presses Join again: he is told he is in, and the lobby in the same answer shows him.
    const again = await w.fake.click(b.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    expect(again.type).toBe(7);
    expect((await again.followup(0)).content).toMatch(/already joined/);
    expect(listed(a) && listed(b)).toBe(true);
    // Without a click, the deliverer puts it right by itself (one edit).
    Object.assign(w.fake.message(d.lobbyMessage().id)!, shownA);
    await w.bot.outbox.shownSlot(d.gameId, 'lobby', afterA.version, d.lobbyMessage().id);
    const edits = () =>
      w!.fake.log.filter((e) => e.method === 'PATCH' && e.path.endsWith(`/messages/${d.lobbyMessage().id}`)).length;
    const before = edits();
    w.bot.deliverer.kick();
    await w.bot.idle();
    expect(listed(a) && listed(b)).toBe(true);
    expect(edits()).toBe(before + 1);
  });

  it("a lobby fills to the rule set's count: join twice, leave, full", async () => {
    w = await makeWorld({ players: 11 });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'classic-10', pace: 'async' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content!)![1]);
    const join = (i: number) => w!.fake.click(w!.users[i]!.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    const listed = (m: { embeds: { description?: string }[] }, i: number) =>
      m.embeds[0]!.description!.includes(`<@${w!.users[i]!.id}>`);
    // Join and Leave are answered by the lobby itself, updated; a refusal is a private reply.
    const joined = await join(0);
    expect(joined.type).toBe(7);
    expect(joined.message?.id).toBe(d.lobbyMessage().id);
    expect(joined.message!.embeds[0]!.description).toMatch(/Players: 1\/10/);
    expect(listed(joined.message!, 0)).toBe(true);
    // The bot records that the lobby was shown after it answers: a second click before that gets the
    // lobby brought up to date and the refusal as a follow-up (as in the test of two joins answered in the wrong order); here, after.
    await w.bot.idle();
    const twice = await join(0);
    expect(twice.type).toBe(4);
    expect(twice.ephemeral).toBe(true);
    expect(twice.content).toMatch(/already joined/);
    const left = await w.fake.click(w.users[0]!.id, d.lobbyMessage(), `v1:l:${d.gameId}:leave`);
    expect(left.type).toBe(7);
    expect(left.message!.embeds[0]!.description).toMatch(/Players: 0\/10/);
    expect(listed(left.message!, 0)).toBe(false);
    await w.bot.idle();
    const notIn = await w.fake.click(w.users[0]!.id, d.lobbyMessage(), `v1:l:${d.gameId}:leave`);
    expect(notIn.type).toBe(4);
    expect(notIn.ephemeral).toBe(true);
    expect(notIn.content).toMatch(/not in this lobby/);
    for (let i = 0; i < 10; i++) expect((await join(i)).type).toBe(7);
    await w.bot.idle();
    expect(d.lobbyMessage().embeds[0]!.description).toMatch(/Players: 10\/10/);
    expect((await w.bot.store.getGame(d.gameId))!.lobby.members).toEqual(w.users.slice(0, 10).map((u) => u.id));
    // Full: Join is disabled, and a click all the same (a stale client) is refused.
    expect(allComponents(d.lobbyMessage()).find((c) => c.custom_id === `v1:l:${d.gameId}:join`)?.disabled).toBe(true);
    const full = await w.fake.click(w.users[10]!.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`, { forge: true });
    expect(full.type).toBe(4);
    expect(full.ephemeral).toBe(true);
    expect(full.content).toMatch(/full/);
    expect((await w.bot.store.getGame(d.gameId))!.lobby.members).toHaveLength(10);
  });
});

describe('who may write (M-1, M-3) and the mafia thread (M-2)', () => {
  /** The channel-permission requests since `from` (the overwrites are set with one PATCH of the channel). */
  const permRequests = (from: number) =>
    w!.fake.log
      .slice(from)
      .filter(
        (e) =>
          (e.method === 'PATCH' && e.path === `/channels/${w!.channel.id}`) ||
          e.path.startsWith(`/channels/${w!.channel.id}/permissions/`),
      );

  it('the speaker only by day, nobody at night, the dead never; a private thread for the mafia on night 0', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    // A server manager enforces the speaking order; games created after it keep it.
    const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w.fake.setMemberRoles(w.guild.id, w.host.id, [admin.id]);
    const set = await w.fake.slash(w.host.id, w.channel.id, 'mafia', {
      group: 'settings',
      sub: 'speaking_order',
      options: { speaking_order: 'enforced' },
    });
    await w.bot.idle();
    expect(set.message?.embeds[0]?.fields?.find((f) => f.name === 'Speaking order')?.value).toMatch(/enforced/);
    await d.createAndStart('chnu-2016');
    const can = (i: number) => (w!.fake.permissionsIn(w!.channel.id, w!.users[i]!.id) & SEND) === SEND;
    const mode = (i: number) => {
      const o = w!.fake.overwrites(w!.channel.id).find((x) => x.type === 1 && x.id === w!.users[i]!.id);
      return !o ? 'none' : o.allow & SEND ? 'allow' : o.deny & SEND ? 'deny' : 'none';
    };
    // Night 0: nobody writes; the mafia have their thread.
    expect(w.users.map((_, i) => can(i))).toEqual(new Array(10).fill(false));
    // The mafia's thread, and (issue 10) the spectators' thread, empty until someone leaves the table.
    const threads = w.fake.threads(w.channel.id);
    expect(threads.map((x) => x.name).sort()).toEqual(
      [`Game #${d.gameId} — spectators`, `Night talk #${d.gameId}`].sort(),
    );
    expect(threads.find((x) => x.name.startsWith('Game #'))!.members).toEqual([w.fake.botUser.id]);
    const thread = threads.find((x) => x.name.startsWith('Night talk'))!;
    expect(thread.type).toBe(12);
    expect([...thread.members].sort()).toEqual(
      [w.users[2]!.id, w.users[5]!.id, w.users[7]!.id, w.fake.botUser.id].sort(),
    );
    expect(thread.locked).toBe(false);
    await d.host('skip', {});
    expect(w.fake.thread(thread.id)!.locked).toBe(true);
    // Day 1: seat 1 speaks: everyone else is denied; he is not (the bot never allows: he writes by
    // the channel's own settings).
    expect(w.users.map((_, i) => can(i))).toEqual([true, ...new Array(9).fill(false)]);
    expect(w.users.map((_, i) => mode(i))).toEqual(['none', ...new Array(9).fill('deny')]);
    await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 3 });
    const mark = w.fake.log.length;
    await d.step({ type: 'player', seat: 1, verb: 'pass' });
    expect(can(0)).toBe(false);
    expect(can(1)).toBe(true);
    expect(w.users.map((_, i) => mode(i))).toEqual(['deny', 'none', ...new Array(8).fill('deny')]);
    // The turn's change is one request carrying the channel's whole list of overwrites.
    const reqs = permRequests(mark);
    expect(reqs.map((e) => `${e.method} ${e.route}`)).toHaveLength(1);
    expect(reqs[0]!.method).toBe('PATCH');
    const sent = (reqs[0]!.body as { permission_overwrites: { id: string }[] }).permission_overwrites.map((o) => o.id);
    // Every player's but the new speaker's: the overwrite the bot made for him held only its deny.
    expect(w.users.filter((u) => sent.includes(u.id))).toEqual(w.users.filter((_, i) => i !== 1));
    await d.step({ type: 'player', seat: 2, verb: 'nominate', target: 5 });
    for (let seat = 2; seat <= 10; seat++) await d.step({ type: 'player', seat, verb: 'pass' });
    for (let seat = 1; seat <= 10; seat++)
      await d.step({ type: 'player', seat, verb: 'vote', target: seat === 3 ? 5 : 3 });
    // Seat 3 leaves: his last words, then silence for him.
    expect(w.users.map((_, i) => can(i))).toEqual([false, false, true, ...new Array(7).fill(false)]);
    await d.step({ type: 'player', seat: 3, verb: 'pass' });
    expect(w.users.map((_, i) => can(i))).toEqual(new Array(10).fill(false)); // night
    // Day 2: the first speaker alone; seat 3 never again.
    await d.host('skip', {});
    const s = (await w.bot.store.getState(d.gameId))!;
    expect(s.stage.kind).toBe('turns');
    const speaker = s.stage.kind === 'turns' ? s.stage.order[s.stage.index]! : 0;
    expect(speaker).not.toBe(3);
    expect(w.users.map((_, i) => can(i))).toEqual(w.users.map((_, i) => i + 1 === speaker));
    await d.host('end', { winner: 'draw' });
    await d.host('skip', {});
    expect(w.fake.overwrites(w.channel.id).filter((o) => o.type === 1 && w!.users.some((u) => u.id === o.id))).toEqual(
      [],
    );
  });

  it('by default coarse: by day every living player writes, at night nobody, the dead only in their last words', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    await d.createAndStart('chnu-2016');
    const can = (i: number) => (w!.fake.permissionsIn(w!.channel.id, w!.users[i]!.id) & SEND) === SEND;
    const all = (v: boolean) => new Array(10).fill(v);
    expect(w.users.map((_, i) => can(i))).toEqual(all(false)); // night 0
    await d.host('skip', {});
    // Day 1: no deny on any living player (and no per-speaker allow).
    expect(w.users.map((_, i) => can(i))).toEqual(all(true));
    expect(
      w.fake
        .overwrites(w.channel.id)
        .filter((o) => o.type === 1 && w!.users.some((u) => u.id === o.id) && (o.allow | o.deny) & SEND),
    ).toEqual([]);
    await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 3 });
    // A new speaker changes nothing in the channel's permissions: no request at all.
    const mark = w.fake.log.length;
    await d.step({ type: 'player', seat: 1, verb: 'pass' });
    expect(permRequests(mark)).toEqual([]);
    expect(w.users.map((_, i) => can(i))).toEqual(all(true));
    await d.step({ type: 'player', seat: 2, verb: 'nominate', target: 5 });
    for (let seat = 2; seat <= 10; seat++) await d.step({ type: 'player', seat, verb: 'pass' });
    for (let seat = 1; seat <= 10; seat++)
      await d.step({ type: 'player', seat, verb: 'vote', target: seat === 3 ? 5 : 3 });
    // Seat 3 has left, but these are his last words: he may write.
    expect((await w.bot.store.getState(d.gameId))!.stage.kind).toBe('lastWords');
    expect(w.users.map((_, i) => can(i))).toEqual(all(true));
    await d.step({ type: 'player', seat: 3, verb: 'pass' });
    expect(w.users.map((_, i) => can(i))).toEqual(all(false)); // night 1
    // The night passes (the host skips it); day 2: every living player writes, seat 3 never again.
    await d.host('skip', {});
    const s = (await w.bot.store.getState(d.gameId))!;
    expect(s.clock).toEqual({ phase: 'day', n: 2 });
    expect(s.stage.kind).toBe('turns');
    expect(w.users.map((_, i) => can(i))).toEqual(s.players.map((p) => p.alive));
    expect(can(2)).toBe(false);
    await d.host('end', { winner: 'draw' });
    await d.host('skip', {});
    expect(w.fake.overwrites(w.channel.id).filter((o) => o.type === 1 && w!.users.some((u) => u.id === o.id))).toEqual(
      [],
    );
  });

  it('without Manage Permissions the game runs and the host is told once', async () => {
    w = await makeWorld({
      players: 10,
      dealer: fixedDealer(chnu),
      botPermissions: DEFAULT_BOT_PERMISSIONS & ~Perm.ManageRoles,
    });
    const d = new Driver(w);
    await d.createAndStart('chnu-2016');
    await d.host('skip', {});
    await d.step({ type: 'player', seat: 1, verb: 'pass' });
    const warnings = w.fake.publicMessages(w.channel.id).filter((m) => /cannot manage who may write/.test(m.content));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.content).toContain(`<@${w.host.id}>`);
    expect((await w.bot.store.getState(d.gameId))!.stage.kind).toBe('turns');
  });
});

describe('Discord failures never stop a game', () => {
  it('429 and 500 on the way, DMs refused at night: the game goes on and nothing leaks', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    await d.createAndStart('chnu-2016');
    w.fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 429, times: 2, retryAfter: 0.05 });
    w.fake.failNext({ method: 'PATCH', route: '/channels/:id/messages/:id', status: 500, times: 1 });
    await d.host('skip', {});
    for (let seat = 1; seat <= 10; seat++) expect(await d.step({ type: 'player', seat, verb: 'pass' })).toBe('ok');
    expect((await w.bot.store.getState(d.gameId))!.stage.kind).toBe('night');
    // The Sheriff closes his DMs: his answer still reaches him through the channel panel.
    w.fake.setDmsOpen(w.users[3]!.id, false);
    w.fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 500, times: 8 });
    for (const [seat, target] of [
      [3, 5],
      [6, 5],
      [8, 5],
    ] as const)
      expect(await d.step({ type: 'player', seat, verb: 'shoot', target })).toBe('ok');
    expect(await d.step({ type: 'player', seat: 6, verb: 'skip' })).toBe('ok');
    expect(await d.step({ type: 'player', seat: 4, verb: 'check', target: 2 })).toBe('ok');
    expect((await w.bot.store.getState(d.gameId))!.clock).toEqual({ phase: 'day', n: 2 });
    // His check ended the night: the answer (in the prompt he used) names the night it belongs to.
    const answer = w.fake
      .dms(w.users[3]!.id)
      .map((m) => m.content)
      .find((c) => c.includes('🔎'));
    expect(answer ?? '').toMatch(/Night 1: #2 <@\d+> — red/);
    expect((await w.bot.store.getState(d.gameId))!.out.map((o) => o.seat)).toEqual([5]);
    await d.step({ type: 'player', seat: 5, verb: 'pass' });
    expect(
      w.fake
        .publicMessages(w.channel.id)
        .some((m) => /Morning after night 1/.test(m.content) || /Day \d+: #2 .* speaks/.test(m.content)),
    ).toBe(true);
    expect(w.fake.internalErrors).toEqual([]);
  });
});

describe('languages', () => {
  it('public messages in the server’s language, private ones in each player’s', async () => {
    w = await makeWorld({ players: 12, dealer: fixedDealer(kiev), guildLocale: 'uk', userLocale: 'ru' });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'kiev-12' });
    expect(r.content).toMatch(/Игра #\d+/); // the host's own (Russian) client
    d.gameId = Number(/#(\d+)/.exec(r.content!)![1]);
    for (const u of w.users) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await w.bot.idle();
    await (await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`)).settled();
    await w.bot.idle();
    const table = d.tableMessage();
    expect(table.embeds[0]!.title).toMatch(/Гра #\d+/); // Ukrainian in the channel
    expect(table.embeds[0]!.description).toMatch(/^\*\*[^*\n]*[Нн]іч[^*\n]*\*\*\n/); // night 0, in Ukrainian ("ніч"; Russian says "ночь")
    const card = w.fake.dms(w.users[4]!.id).find((m) => m.embeds.length > 0)!;
    expect(card.embeds[0]!.title).toMatch(/Доктор/); // Russian by DM
  });
});

describe('timers', () => {
  it('a stage ends by itself when its timer runs out', async () => {
    w = await makeWorld({ players: 12, dealer: fixedDealer(kiev) });
    const d = new Driver(w);
    await d.createAndStart('kiev-12', 'live', { night: '5s' });
    expect((await w.bot.store.getState(d.gameId))!.stage.kind).toBe('night0');
    await w.fake.waitForMessage(w.channel.id, (m) => /free discussion/.test(m.content), { timeout: 15_000 });
    expect((await w.bot.store.log(d.gameId)).map((e) => e.actor)).toEqual(['timer']);
  }, 30_000);
});
