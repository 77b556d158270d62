// Issue 10 through the fake Discord, with a fake clock: an async classic-10 game over simulated
// days. Pings at a stage's start, DM reminders at the right times and never in quiet hours
// (Europe/Kyiv, 00:00-08:00), a deadline moved out of quiet hours, two absent players flagged to
// the host and replaced by volunteers (the old users can no longer act, the seat's history is
// recorded), nothing public during the night (N-13), the "Game so far" summary.
import { afterEach, describe, expect, it } from 'vitest';
import { inQuietHours } from '../../src/app/quiet-hours';
import { AsyncStore } from '../../src/db/async-store';
import type { GameState, Role } from '../../src/engine/types';
import { allComponents, Perm, type InteractionResult, type StoredMessage } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { startBot } from '../../src/discord/bot';
import { botConfig, FakeClock, fixedDealer, makeWorld, type World } from '../../testkit/world';

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
const QUIET = { start: '00:00', end: '08:00', tz: 'Europe/Kyiv' };
const MIN = 60_000;
const H = 60 * MIN;

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = (r: InteractionResult) => r.content ?? r.message?.content ?? '';
const state = async (world: World, id: number): Promise<GameState> => (await world.bot.store.getState(id))!;

/** Everything a user can read in a message. */
function visible(m: Pick<StoredMessage, 'content' | 'embeds' | 'components'>): string {
  const parts = [m.content];
  for (const e of m.embeds)
    parts.push(e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value]));
  return parts.join('\n');
}

async function setup(
  base: number,
  settings: Record<string, Record<string, unknown>>,
  players = 10,
): Promise<{ d: Driver; clock: FakeClock }> {
  const clock = new FakeClock(base);
  w = await makeWorld({ players, dealer: fixedDealer(TEN), clock: { now: clock.now, timers: clock } });
  const boss = w.fake.addUser({ username: 'boss', guilds: [w.guild.id] });
  const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
  w.fake.setMemberRoles(w.guild.id, boss.id, [admin.id]);
  for (const [sub, options] of Object.entries(settings)) {
    const r = await w.fake.slash(boss.id, w.channel.id, 'mafia', { sub, options: options as never, group: 'settings' });
    await r.settled();
    expect(text(r), sub).toMatch(/^✅/);
  }
  return { d: new Driver(w), clock };
}

describe('asynchronous play over days', () => {
  it(
    'pings, reminders outside quiet hours, two absent players replaced by volunteers, a silent night, the game so far',
    { timeout: 240_000 },
    async () => {
      // 09:00 in Kyiv (UTC+2 in December).
      const { d, clock } = await setup(Date.parse('2026-12-01T07:00:00Z'), {
        quiet_hours: { start: '00:00', end: '08:00', time_zone: 'Europe/Kyiv' },
      });
      const world = w!;
      const idle = () => world.bot.idle();
      const astore = new AsyncStore(world.bot.db.connection);
      // Every reminder DM with the fake time its timer fired at.
      const reminders: { at: number; user: string; content: string; message: StoredMessage }[] = [];
      const seen = new Set<string>();
      const collect = (at: number) => {
        for (const u of [...world.users, ...extra]) {
          for (const m of world.fake.dms(u.id)) {
            if (seen.has(m.id) || !m.content.startsWith('⏰')) continue;
            seen.add(m.id);
            reminders.push({ at, user: u.id, content: m.content, message: m });
          }
        }
      };
      const extra: { id: string }[] = [];
      const advance = (t: number) => clock.advanceTo(t, idle, collect);

      await d.createAndStart('classic-10', 'async', { night: '12h', discussion: '10h', vote: '6h', last_words: '2h' });
      const g = d.gameId;
      // The lobby showed what players join: the roles and the timers.
      const lobby = visible(d.lobbyMessage());
      expect(lobby).toMatch(/Roles: Civilian ×6, Sheriff, Mafia ×2, Don|Roles: .*Civilian ×6/);
      expect(lobby).toMatch(/Timers: night 12 h · discussion 10 h · vote 6 h · last words 2 h/);
      const user = (seat: number) => world.users[seat - 1]!.id;

      // Night 0 ends at 19:00Z (21:00 Kyiv). Nothing is owed: no reminders.
      expect(await astore.allReminders(g)).toEqual([]);
      await advance(Date.parse('2026-12-01T19:00:30Z'));
      let s = await state(world, g);
      expect(s.stage.kind).toBe('window');
      // P-1: the open window's message pings every living player it waits for, once.
      const windowMsg = d.publicWith((id) => id === `v1:a:${g}:${s.seq}:pass`)!.message;
      expect(new Set(windowMsg.pinged)).toEqual(new Set(world.users.map((u) => u.id)));
      // 10 h would end at 05:00Z = 07:00 Kyiv, inside quiet hours: it moves to 08:00 Kyiv.
      const row = (await world.bot.store.deadlineOf(g))!;
      expect(row.dueAt).toBeGreaterThanOrEqual(Date.parse('2026-12-02T06:00:00Z'));
      expect(row.dueAt).toBeLessThan(Date.parse('2026-12-02T06:01:00Z'));
      expect(windowMsg.content).toContain(`<t:${Math.floor(row.dueAt / 1000)}:R>`);
      expect(windowMsg.content).toContain(`<t:${Math.floor(row.dueAt / 1000)}:f>`);
      // Halfway (02:30 Kyiv) and an hour before (07:00 Kyiv) are both quiet: no reminders.
      expect((await astore.allReminders(g)).filter((r) => r.stageSeq === s.seq)).toEqual([]);

      // Day 1: two nominations; seats 9 and 10 are away.
      expect(await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 5 })).toBe('ok');
      expect(await d.step({ type: 'player', seat: 2, verb: 'nominate', target: 7 })).toBe('ok');
      for (let seat = 1; seat <= 8; seat++)
        expect(await d.step({ type: 'player', seat, verb: 'pass' }), `pass ${seat}`).toBe('ok');
      expect((await state(world, g)).stage.kind).toBe('window');
      await advance(Date.parse('2026-12-02T06:01:00Z'));
      s = await state(world, g);
      expect(s.stage.kind).toBe('vote');
      const voteStart = (await world.bot.store.deadlineOf(g))!.dueAt - 6 * H;
      // The vote pings its voters; the table shows who has not voted, by name.
      const voteMsg = d.publicWith((id) => id.startsWith(`v1:a:${g}:${s.seq}:vote`))!.message;
      expect(new Set(voteMsg.pinged)).toEqual(new Set(world.users.map((u) => u.id)));
      for (const [seat, target] of [
        [1, 5],
        [2, 5],
        [3, 5],
        [4, 5],
        [6, 5],
        [8, 5],
        [5, 7],
        [7, 7],
      ] as const)
        expect(await d.step({ type: 'player', seat, verb: 'vote', target })).toBe('ok');
      const tally = d.publicWith((id) => id.startsWith(`v1:a:${g}:${s.seq}:vote`))!.message.content;
      expect(tally).toContain(`waiting for #9 <@${user(9)}>, #10 <@${user(10)}>`);
      // Reminders: halfway (09:00Z = 11:00 Kyiv) and one hour before (11:00Z), only to 9 and 10.
      await advance(voteStart + 3 * H + MIN);
      const first = reminders.filter((r) => r.at >= voteStart);
      expect(first.map((r) => r.user).sort()).toEqual([user(9), user(10)].sort());
      // The reminder's button goes straight to the action: the vote's buttons, privately.
      const panel = await world.fake.click(user(9), first[0]!.message, `v1:p:${g}:actions`);
      await panel.settled();
      expect(panel.ephemeral).toBe(true);
      expect(allComponents(panel.message!).some((c) => c.custom_id === `v1:a:${g}:${s.seq}:vote:5`)).toBe(true);
      await advance(voteStart + 6 * H + MIN);
      const voteReminders = reminders.filter((r) => r.at >= voteStart);
      expect(voteReminders.map((r) => r.user).sort()).toEqual([user(9), user(9), user(10), user(10)].sort());
      for (const r of voteReminders) {
        expect(r.content).toContain('You have not voted yet.');
        expect(r.content).toContain(`Game #${g}`);
        expect(allComponents(r.message).some((c) => c.custom_id === `v1:p:${g}:actions`)).toBe(true);
      }
      const times = [...new Set(voteReminders.map((r) => r.at))].sort();
      expect(times).toHaveLength(2);
      expect(Math.abs(times[0]! - (voteStart + 3 * H))).toBeLessThan(MIN);
      expect(Math.abs(times[1]! - (voteStart + 5 * H))).toBeLessThan(MIN);
      // Nobody else was reminded, and never in public.
      expect(world.fake.publicMessages(world.channel.id).some((m) => m.content.startsWith('⏰'))).toBe(false);
      s = await state(world, g);
      expect(s.stage.kind).toBe('lastWords');
      expect(s.players[4]!.alive).toBe(false);

      // M-3: the spectators' thread is private; the player who left is in it, the living are not.
      const spectators = () =>
        world.fake.threads(world.channel.id).find((th) => th.name === `Game #${g} — spectators`)!;
      expect(spectators().type).toBe(12);
      expect(spectators().members).toContain(user(5));
      for (const seat of [1, 2, 3, 4, 6, 7, 8, 9, 10]) expect(spectators().members).not.toContain(user(seat));
      const welcome = world.fake.publicMessages(spectators().id)[0]!;
      expect(welcome.content).toContain('Players still at the table cannot read it');
      expect(welcome.content).not.toMatch(/Sheriff|Don|Mafia/); // public facts only by default
      const tableNow = d.tableMessage();
      const livingWatch = await world.fake.click(user(2), tableNow, `v1:y:${g}:watch`);
      expect(text(livingWatch)).toMatch(/^⛔.*cannot watch/);

      // Two owed actions in a row (the window, the vote): the host is told privately, per seat.
      const flags = world.fake.dms(world.host.id).filter((m) => m.content.includes('actions in a row (votes'));
      expect(flags).toHaveLength(2);
      expect(flags.map((m) => m.content).join('\n')).toMatch(/#9 .*missed 2 actions/);
      expect(
        world.fake.publicMessages(world.channel.id).some((m) => m.content.includes('actions in a row (votes')),
      ).toBe(false);

      // The host calls a substitute for each; members not in the game volunteer, the host picks.
      const v1 = world.fake.addUser({ username: 'nova', guilds: [world.guild.id] });
      const v2 = world.fake.addUser({ username: 'olena', guilds: [world.guild.id] });
      extra.push(v1, v2);
      for (const seat of [9, 10]) {
        const flag = d.dmWith(world.host.id, (id) => id === `v1:y:${g}:call:${seat}`)!;
        const r = await world.fake.click(world.host.id, flag.message, flag.id);
        await r.settled();
        await idle();
        expect(text(r)).toMatch(/^✅/);
        // A second call for the same seat is refused.
        const again = await world.fake.click(world.host.id, flag.message, flag.id);
        expect(text(again)).toMatch(/^⛔.*already open/);
      }
      const calls = world.fake.publicMessages(world.channel.id).filter((m) => m.content.includes('needs a substitute'));
      expect(calls).toHaveLength(2);
      const volunteerId = (m: StoredMessage) =>
        allComponents(m).find((c) => c.custom_id?.includes(':vol:'))!.custom_id!;
      // A player (or the host) may not volunteer.
      const playerTries = await world.fake.click(user(1), calls[0]!, volunteerId(calls[0]!));
      expect(text(playerTries)).toMatch(/^⛔.*already in this game/);
      // A non-host may not pick.
      for (const [call, v] of [
        [calls[0]!, v1],
        [calls[1]!, v2],
      ] as const) {
        const vol = await world.fake.click(v.id, call, volunteerId(call));
        await vol.settled();
        await idle();
        const again = await world.fake.click(v.id, call, volunteerId(call));
        expect(text(again)).toMatch(/^⛔.*already volunteered/);
        const fresh = world.fake.publicMessages(world.channel.id).find((m) => m.id === call.id)!;
        expect(fresh.content).toContain(`Volunteers: <@${v.id}>`);
        const pickId = allComponents(fresh).find((c) => c.custom_id?.includes(':pick:'))!.custom_id!;
        const forged = await world.fake.select(v.id, fresh, pickId, [v.id]);
        expect(text(forged)).toMatch(/^⛔/);
        const pick = await world.fake.select(world.host.id, fresh, pickId, [v.id]);
        await pick.settled();
        await idle();
      }
      const players = await world.bot.store.players(g);
      expect(players.find((p) => p.seat === 9)!.userId).toBe(v1.id);
      expect(players.find((p) => p.seat === 10)!.userId).toBe(v2.id);
      expect((await world.bot.store.getGame(g))!.lobby.names?.[v1.id]).toBe('nova'); // menus label seat 9 by his name
      // The newcomer got the seat's role card and a welcome; the call says the seat is taken.
      expect(world.fake.dms(v1.id).some((m) => / — seat 9$/.test(m.embeds[0]?.title ?? ''))).toBe(true);
      expect(world.fake.dms(v1.id).some((m) => m.content.includes('You take over seat #9'))).toBe(true);
      expect(world.fake.dms(user(9)).some((m) => m.content.includes('no longer play it'))).toBe(true);
      expect(world.fake.publicMessages(world.channel.id).find((m) => m.id === calls[0]!.id)!.content).toContain(
        `<@${v1.id}> takes over seat #9`,
      );
      d.seats.set(9, v1.id);
      d.seats.set(10, v2.id);
      // The one who left the seat is no longer at the table: he may watch; the newcomer may not read it.
      const outWatch = await world.fake.click(user(9), d.tableMessage(), `v1:y:${g}:watch`);
      await outWatch.settled();
      await idle();
      expect(text(outWatch)).toMatch(/^✅/);
      expect(spectators().members).toContain(user(9));
      expect(spectators().members).not.toContain(v1.id);
      // Who held each seat from which move (the ratings credit each for his part).
      const holders = (await astore.holders(g)).filter((h) => h.seat === 9);
      expect(holders.map((h) => [h.userId, h.fromMove, h.toMove])).toEqual([
        [user(9), 0, s.moves],
        [v1.id, s.moves, null],
      ]);

      // Last words, then night 1.
      expect(await d.step({ type: 'player', seat: 5, verb: 'pass' })).toBe('ok');
      s = await state(world, g);
      expect(s.stage.kind).toBe('night');
      const nightStart = clock.now();
      const publicAtNight = JSON.stringify(
        world.fake
          .publicMessages(world.channel.id)
          .map((m) => [m.id, m.content, m.embeds, m.components, m.edited_timestamp]),
      );
      // The night message pings nobody (N-13).
      const nightMsg = world.fake.publicMessages(world.channel.id).at(-1)!;
      expect(nightMsg.pinged ?? []).toEqual([]);
      // 12 h from ~12:0x Z ends ~00:0x Z = 02:0x Kyiv: moved to 08:00 Kyiv (06:00Z).
      const nightEnd = (await world.bot.store.deadlineOf(g))!.dueAt;
      expect(inQuietHours(nightEnd, QUIET)).toBe(false);
      expect(Math.abs(nightEnd - Date.parse('2026-12-03T06:00:00Z'))).toBeLessThan(MIN);
      expect(await d.step({ type: 'player', seat: 4, verb: 'check', target: 3 })).toBe('ok');
      const halfway = nightStart + Math.floor((nightEnd - nightStart) / 2);
      await advance(halfway + MIN);
      const nightReminders = reminders.filter((r) => r.at >= nightStart);
      // Only those who still owe a night move, only by DM: the mafia and the Don, not the Sheriff.
      expect(nightReminders.map((r) => r.user).sort()).toEqual([user(3), user(6), user(8)].sort());
      expect(nightReminders.every((r) => r.content.includes('You have not made your night move yet.'))).toBe(true);
      for (const seat of [3, 6, 8])
        expect(await d.step({ type: 'player', seat, verb: 'shoot', target: 1 }), `shot ${seat}`).toBe('ok');
      // Nothing public during the night said anything (N-13): not a message, not an edit.
      expect(
        JSON.stringify(
          world.fake
            .publicMessages(world.channel.id)
            .map((m) => [m.id, m.content, m.embeds, m.components, m.edited_timestamp]),
        ),
      ).toBe(publicAtNight);
      expect(await d.step({ type: 'player', seat: 6, verb: 'check', target: 4 })).toBe('ok');
      s = await state(world, g);
      expect(s.clock).toEqual({ phase: 'day', n: 2 });
      expect(s.players[0]!.alive).toBe(false);
      // Killed at night: in the spectators' thread from the morning on.
      await idle();
      expect(spectators().members).toContain(user(1));
      for (const seat of [2, 3, 4, 6, 7, 8]) expect(spectators().members).not.toContain(user(seat));
      expect(spectators().members).not.toContain(v1.id);
      expect(spectators().members).not.toContain(v2.id);

      // Every reminder of the game came outside quiet hours.
      expect(reminders.length).toBeGreaterThan(0);
      for (const r of reminders) expect(inQuietHours(r.at, QUIET), new Date(r.at).toISOString()).toBe(false);

      // Day 2: seat 1's last words; then the window. The old holder of seat 9 can no longer act; the newcomer can.
      expect(await d.step({ type: 'player', seat: 1, verb: 'pass' })).toBe('ok');
      s = await state(world, g);
      expect(s.stage.kind).toBe('window');
      const pass = d.publicWith((id) => id === `v1:a:${g}:${s.seq}:pass`)!;
      const old = await world.fake.click(user(9), pass.message, pass.id);
      expect(text(old)).toMatch(/^⛔/);
      expect(await d.step({ type: 'player', seat: 9, verb: 'pass' })).toBe('ok');
      expect((await state(world, g)).stage.kind).toBe('window');

      // "Game so far": every public fact, privately, and no hidden role.
      const table = d.tableMessage();
      const sofar = await world.fake.click(user(2), table, `v1:y:${g}:sofar`);
      await sofar.settled();
      expect(sofar.ephemeral).toBe(true);
      const summary = visible(sofar.message!);
      if (process.env.SHOW) console.log(summary);
      expect(summary).toContain('Day 1');
      expect(summary).toContain(`#1 <@${user(1)}> nominates #5 <@${user(5)}>.`);
      expect(summary).toContain('#9→#7*');
      expect(summary).toContain(`**#5 <@${user(5)}> leaves the table.**`);
      expect(summary).toContain('Morning after night 1.');
      expect(summary).toContain(`Left the table last night: #1 <@${user(1)}>.`);
      expect(summary).toContain(`Seat #9: <@${user(9)}> → <@${v1.id}>`);
      expect(summary).toContain(`Seat #10: <@${user(10)}> → <@${v2.id}>`);
      expect(summary).not.toMatch(/Sheriff|Don\b|Mafia/);
    },
  );

  it(
    'N-13: a substitute call the host makes at night is posted at daybreak, not at night (issue 20)',
    { timeout: 120_000 },
    async () => {
      const { d, clock } = await setup(Date.parse('2026-12-01T07:00:00Z'), {
        reminders: { reminders: 'off' },
        pings: { pings: 'off' },
      });
      const world = w!;
      const idle = () => world.bot.idle();
      await d.createAndStart('classic-10', 'async', { night: '1h', discussion: '2h', vote: '2h' });
      const g = d.gameId;
      await clock.advanceTo(clock.now() + 1 * H + MIN, idle);
      expect(await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 2 })).toBe('ok');
      expect(await d.step({ type: 'player', seat: 3, verb: 'nominate', target: 4 })).toBe('ok');
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      const flag = d.dmWith(world.host.id, (id) => id === `v1:y:${g}:call:5`)!;
      expect(flag).not.toBeNull();
      for (let k = 0; k < 5 && (await state(world, g)).stage.kind !== 'night'; k++)
        await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      expect((await state(world, g)).stage.kind).toBe('night');
      const calls = () =>
        world.fake.publicMessages(world.channel.id).filter((m) => m.content.includes('Seat #5 needs a substitute'));
      const r = await world.fake.click(world.host.id, flag.message, flag.id);
      await r.settled();
      await idle();
      expect(text(r)).toMatch(/^✅ .*at daybreak/);
      expect(calls()).toEqual([]);
      for (let k = 0; k < 5 && (await state(world, g)).stage.kind === 'night'; k++)
        await clock.advanceTo(clock.now() + 1 * H + MIN, idle);
      expect((await state(world, g)).clock.phase).toBe('day');
      expect(calls()).toHaveLength(1);
      expect(allComponents(calls()[0]!).some((c) => c.custom_id?.includes(':vol:'))).toBe(true);
    },
  );

  it(
    'the first volunteer takes the seat when the server chose so; reminders are off when the server says so',
    { timeout: 120_000 },
    async () => {
      const { d, clock } = await setup(Date.parse('2026-12-01T07:00:00Z'), {
        auto_substitute: { auto_substitute: true },
        reminders: { reminders: 'off' },
        pings: { pings: 'off' },
        spectators: { roles: true },
      });
      const world = w!;
      const idle = () => world.bot.idle();
      await d.createAndStart('classic-10', 'async', { night: '1h', discussion: '2h', vote: '2h' });
      const g = d.gameId;
      const astore = new AsyncStore(world.bot.db.connection);
      // Night 0, then a window and no vote in which nobody acts: everybody misses twice? Only the window
      // owes; with no nominations there is no vote, so night 1 follows and its actors miss too.
      await clock.advanceTo(clock.now() + 1 * H + MIN, idle);
      const s1 = await state(world, g);
      expect(s1.stage.kind).toBe('window');
      expect(d.publicWith((id) => id === `v1:a:${g}:${s1.seq}:pass`)!.message.pinged ?? []).toEqual([]);
      expect(await astore.allReminders(g)).toEqual([]);
      expect(await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 2 })).toBe('ok');
      expect(await d.step({ type: 'player', seat: 3, verb: 'nominate', target: 4 })).toBe('ok');
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      expect((await state(world, g)).stage.kind).toBe('vote');
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      // Seat 5 let the window and the vote pass.
      const flag = d.dmWith(world.host.id, (id) => id === `v1:y:${g}:call:5`)!;
      expect(flag).not.toBeNull();
      await (await world.fake.click(world.host.id, flag.message, flag.id)).settled();
      await idle();
      const call = world.fake
        .publicMessages(world.channel.id)
        .find((m) => m.content.includes('Seat #5 needs a substitute'))!;
      expect(call.content).toContain('The first volunteer takes the seat.');
      // One who watched may not take a seat (whatever the spectators are shown).
      const onlooker = world.fake.addUser({ username: 'ira', guilds: [world.guild.id] });
      await (await world.fake.click(onlooker.id, d.tableMessage(), `v1:y:${g}:watch`)).settled();
      await idle();
      const th = world.fake.threads(world.channel.id).find((x) => x.name === `Game #${g} — spectators`)!;
      expect(th.members).toContain(onlooker.id);
      expect(world.fake.publicMessages(th.id)[0]!.content).toContain('#4 <@');
      expect(world.fake.publicMessages(th.id)[0]!.content).toContain('Sheriff');
      const refusedWatcher = await world.fake.click(
        onlooker.id,
        call,
        allComponents(call).find((c) => c.custom_id?.includes(':vol:'))!.custom_id!,
      );
      expect(text(refusedWatcher)).toMatch(/^⛔.*cannot take a seat/);
      const v = world.fake.addUser({ username: 'taras', guilds: [world.guild.id] });
      const r = await world.fake.click(
        v.id,
        call,
        allComponents(call).find((c) => c.custom_id?.includes(':vol:'))!.custom_id!,
      );
      await r.settled();
      await idle();
      expect((await world.bot.store.players(g)).find((p) => p.seat === 5)!.userId).toBe(v.id);
      expect(world.fake.publicMessages(world.channel.id).find((m) => m.id === call.id)!.components).toEqual([]);
      expect(world.fake.dms(v.id).some((m) => / — seat 5$/.test(m.embeds[0]?.title ?? ''))).toBe(true);
    },
  );

  it(
    'a server that does not auto-end turns: the time is up, the stage waits and the host is told who is missing',
    { timeout: 120_000 },
    async () => {
      const { d, clock } = await setup(Date.parse('2026-12-01T07:00:00Z'), { auto_end: { auto_end: false } });
      const world = w!;
      const idle = () => world.bot.idle();
      await d.createAndStart('classic-10', 'async', { night: '1h', discussion: '2h', vote: '2h' });
      const g = d.gameId;
      // Night 0 owes nothing: it ends on its timer as always.
      await clock.advanceTo(clock.now() + H + MIN, idle);
      const s = await state(world, g);
      expect(s.stage.kind).toBe('window');
      for (let seat = 1; seat <= 8; seat++) expect(await d.step({ type: 'player', seat, verb: 'pass' })).toBe('ok');
      await clock.advanceTo(clock.now() + 2 * H + MIN, idle);
      // Held open: the same stage; the host alone is told, once, with a button per missing seat.
      expect((await state(world, g)).seq).toBe(s.seq);
      await world.bot.service.sweep();
      await idle();
      const told = world.fake.dms(world.host.id).filter((m) => m.content.includes('time is up'));
      expect(told).toHaveLength(1);
      expect(told[0]!.content).toContain(`#9 <@${world.users[8]!.id}>, #10 <@${world.users[9]!.id}>`);
      expect(
        allComponents(told[0]!)
          .map((c) => c.custom_id)
          .filter(Boolean),
      ).toEqual([`v1:y:${g}:call:9`, `v1:y:${g}:call:10`]);
      expect(world.fake.publicMessages(world.channel.id).some((m) => m.content.includes('time is up'))).toBe(false);
      // The host ends it: the rule set's defaults apply.
      const skip = await world.fake.slash(world.host.id, world.channel.id, 'host', { sub: 'skip', options: {} });
      await skip.settled();
      await idle();
      expect((await state(world, g)).seq).not.toBe(s.seq);
    },
  );

  it(
    'reminders are durable: one due while the bot was down is sent at start-up, once; the rest on time',
    { timeout: 120_000 },
    async () => {
      const { d, clock } = await setup(Date.parse('2026-12-01T07:00:00Z'), {});
      const world = w!;
      const idle = () => world.bot.idle();
      await d.createAndStart('classic-10', 'async', { night: '1h', discussion: '2h', vote: '6h' });
      const g = d.gameId;
      await clock.advanceTo(clock.now() + H + MIN, idle);
      expect(await d.step({ type: 'player', seat: 1, verb: 'nominate', target: 5 })).toBe('ok');
      expect(await d.step({ type: 'player', seat: 2, verb: 'nominate', target: 7 })).toBe('ok');
      for (let seat = 1; seat <= 10; seat++) expect(await d.step({ type: 'player', seat, verb: 'pass' })).toBe('ok');
      const s = await state(world, g);
      expect(s.stage.kind).toBe('vote');
      for (let seat = 1; seat <= 8; seat++)
        expect(await d.step({ type: 'player', seat, verb: 'vote', target: 5 })).toBe('ok');
      const start = (await world.bot.store.deadlineOf(g))!.dueAt - 6 * H;
      const count = (seat: number) =>
        world.fake.dms(world.users[seat - 1]!.id).filter((m) => m.content.startsWith('⏰')).length;
      // Down from before halfway until after it.
      await world.bot.stop();
      await clock.advanceTo(start + 4 * H, async () => {});
      world.bot = await startBot(
        botConfig(world.fake, world.dbPath, { dealer: fixedDealer(TEN), clock: { now: clock.now, timers: clock } }),
      );
      await clock.advanceTo(clock.now() + 1000, idle);
      expect([count(9), count(10), count(1)]).toEqual([1, 1, 0]);
      await clock.advanceTo(start + 5 * H + MIN, idle);
      expect([count(9), count(10), count(1)]).toEqual([2, 2, 0]);
      await clock.advanceTo(start + 6 * H + MIN, idle);
      expect((await state(world, g)).seq).not.toBe(s.seq);
      expect([count(9), count(10)]).toEqual([2, 2]);
    },
  );
});
