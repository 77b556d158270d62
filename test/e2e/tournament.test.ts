// A whole tournament through the fake Discord (RULES T-1..T-3): 20 registered players, the
// qualifying draw, three rounds of two tables in channels the bot creates, a missing player and
// his substitute, a restart of the bot between rounds, the final of the ten best, and the
// standings with a tie on points settled by best-player titles (S-5); the CSV export.
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { startBot } from '../../src/discord/bot';
import type { Dealer } from '../../src/app/dealer';
import { rolePool } from '../../src/engine/rulesets';
import type { Role } from '../../src/engine/types';
import { t } from '../../src/i18n';
import { DEFAULT_BOT_PERMISSIONS, Perm, allComponents, type StoredMessage } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { botConfig, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

/**
 * Seats in the draw's order; roles planned for two players (by how many games each has played),
 * everybody else's dealt so that the black roles go to those who have had them least (so nobody
 * else can catch up with the two).
 */
function plannedDealer(plan: Record<string, Role[]>): Dealer {
  const played = new Map<string, number>();
  const blacks = new Map<string, number>();
  const sheriffs = new Map<string, number>();
  return (members) => {
    const pool = [...rolePool('chnu-2016')];
    const roles: (Role | undefined)[] = members.map(() => undefined);
    const take = (r: Role): Role => {
      pool.splice(pool.indexOf(r), 1);
      return r;
    };
    members.forEach((u, i) => {
      const k = played.get(u) ?? 0;
      played.set(u, k + 1);
      const want = plan[u]?.[k];
      if (want) roles[i] = take(want);
    });
    const free = () => members.map((_, i) => i).filter((i) => roles[i] === undefined);
    const fewest = (m: Map<string, number>) =>
      free().sort((a, b) => (m.get(members[a]!) ?? 0) - (m.get(members[b]!) ?? 0) || a - b);
    for (const r of pool.filter((x) => x === 'mafia' || x === 'don')) {
      const i = fewest(blacks)[0]!;
      roles[i] = take(r);
      blacks.set(members[i]!, (blacks.get(members[i]!) ?? 0) + 1);
    }
    if (pool.includes('sheriff')) {
      const i = fewest(sheriffs)[0]!;
      roles[i] = take('sheriff');
      sheriffs.set(members[i]!, (sheriffs.get(members[i]!) ?? 0) + 1);
    }
    for (const i of free()) roles[i] = take('civilian');
    return { seats: [...members], roles: roles as Role[] };
  };
}

const has = (m: StoredMessage, id: string, enabled = true) =>
  allComponents(m).some((c) => c.custom_id === id && (!enabled || !c.disabled));

describe('a tournament on Discord (T-1, T-2, T-3, S-5)', () => {
  it('registration, the draw, three qualifying rounds, a substitute, a restart, the final, the standings with a tie settled by titles, CSV', async () => {
    // 20 registered players, one more member who will substitute, and the head host.
    const players = 20;
    const holder: { dealer: Dealer | null } = { dealer: null };
    const dealer: Dealer = (m, r) => holder.dealer!(m, r);
    w = await makeWorld({ players: players + 1, dealer });
    const world = w;
    const users = world.users.slice(0, players);
    const sub = world.users[players]!;
    const [P, Q] = [users[0]!, users[1]!];
    // Q: Sheriff and best player in his first two games, mafia (a loss) in the third, a civilian in
    // the final: 9 + 9 + 0 + 5 = 23, two titles. P: a civilian everywhere, best player in the final:
    // 5 + 5 + 5 + 8 = 23, one title. Every game is won by the red team in full strength.
    holder.dealer = plannedDealer({
      [P.id]: ['civilian', 'civilian', 'civilian', 'civilian'],
      [Q.id]: ['sheriff', 'sheriff', 'mafia', 'civilian'],
    });
    const best = (round: number): string | null => (round <= 2 ? Q.id : round === 4 ? P.id : null);
    const admin = world.fake.addRole(world.guild.id, { name: 'judges', permissions: Perm.ManageGuild });
    world.fake.setMemberRoles(world.guild.id, world.host.id, [admin.id]);
    const slash = async (
      userId: string,
      sub: string,
      options: Record<string, string | number | boolean | { type: number; value: string }> = {},
    ) => {
      const r = await world.fake.slash(userId, world.channel.id, 'tournament', { sub, options });
      await r.settled();
      await world.bot.idle();
      return r;
    };

    // Only a server manager (or the host role) creates a tournament; bad input changes nothing.
    expect((await slash(users[3]!.id, 'create', { name: 'Spring Cup', ruleset: 'chnu-2016' })).content).toMatch(
      /^⛔ Only members with Manage Server/,
    );
    expect((await slash(world.host.id, 'create', { name: 'Spring Cup', ruleset: 'kiev-12' })).content).toMatch(
      /^⛔ Tournament tables have 10/,
    );
    expect(
      (await slash(world.host.id, 'create', { name: 'Spring Cup', ruleset: 'chnu-2016', night: 'soon' })).content,
    ).toMatch(/^⛔/);
    const created = await slash(world.host.id, 'create', {
      name: 'Spring Cup',
      ruleset: 'chnu-2016',
      night: '5s',
      vote: '20s',
    });
    const tid = Number(/Tournament #(\d+)/.exec(created.content ?? '')![1]);
    const board = () => world.fake.publicMessages(world.channel.id).find((m) => has(m, `v1:t:${tid}:join`, false))!;
    expect(board().embeds[0]!.title).toBe(`🏆 Spring Cup (tournament #${tid})`);

    // Registration: Join / Leave update the board itself; it says how many are missing for the draw.
    for (const u of users.slice(0, 19)) {
      const r = await world.fake.click(u.id, board(), `v1:t:${tid}:join`);
      expect(r.type).toBe(7);
    }
    expect((await world.fake.click(users[0]!.id, board(), `v1:t:${tid}:join`)).content).toBe(
      '⛔ You are already registered.',
    );
    await world.bot.idle();
    expect(board().embeds[0]!.description).toContain('Registered: 19 players');
    const last9 = users
      .slice(10, 19)
      .map((u) => `<@${u.id}>`)
      .join(', ');
    expect(board().embeds[0]!.description).toContain(
      `with 19 registered, add 1 more or remove 9 (the last to register: ${last9}).`,
    );
    const early = await world.fake.click(world.host.id, board(), `v1:t:${tid}:draw`);
    await early.settled();
    expect(early.content).toBe(
      `⛔ The draw needs tables of 10: with 19 registered, add 1 more or remove 9 (the last to register: ${last9}).`,
    );
    expect((await world.fake.click(users[2]!.id, board(), `v1:t:${tid}:draw`)).content).toMatch(
      /^⛔ Only the head host/,
    );
    expect((await world.fake.click(users[19]!.id, board(), `v1:t:${tid}:leave`)).content).toBe(
      '⛔ You are not registered.',
    );
    expect((await world.fake.click(users[19]!.id, board(), `v1:t:${tid}:join`)).type).toBe(7);
    // One too many: the head host takes the last to register off the list.
    expect((await world.fake.click(sub.id, board(), `v1:t:${tid}:join`)).type).toBe(7);
    await world.bot.idle();
    expect(board().embeds[0]!.description).toContain(
      `with 21 registered, add 9 more or remove 1 (the last to register: <@${sub.id}>).`,
    );
    expect((await slash(users[2]!.id, 'remove', { player: { type: 6, value: sub.id } })).content).toMatch(
      /^⛔ Only the head host/,
    );
    expect((await slash(world.host.id, 'remove', { player: { type: 6, value: sub.id } })).content).toBe(
      `<@${sub.id}> is off the list; players registered: 20.`,
    );
    expect((await slash(world.host.id, 'remove', { player: { type: 6, value: sub.id } })).content).toBe(
      `⛔ <@${sub.id}> is not registered.`,
    );
    expect(board().embeds[0]!.description).toContain('Ready for the draw: 2 tables per round.');

    // The board is a slot: deleted, it comes back (with everything on it).
    const oldBoard = board().id;
    world.fake.deleteMessage(world.channel.id, oldBoard);
    await world.fake.waitForMessage(world.channel.id, (m) => m.id !== oldBoard && has(m, `v1:t:${tid}:join`, false), {
      timeout: 10_000,
    });
    await world.bot.idle();
    expect(board().embeds[0]!.description).toContain('Registered: 20 players');

    // T-1: the draw, one message per round (round, table, seats), stored.
    const drawn = await world.fake.click(world.host.id, board(), `v1:t:${tid}:draw`);
    await drawn.settled();
    await world.bot.idle();
    expect(drawn.content).toBe('The draw is done: 2 tables per round, posted in the channel.');
    expect((await world.fake.click(users[5]!.id, board(), `v1:t:${tid}:leave`, { forge: true })).content).toBe(
      '⛔ Registration is closed: the draw has been made.',
    );
    // Read through the bot's connection: the same SQL on SQLite and PostgreSQL.
    const tables = () =>
      world.bot.db.connection.rows<{
        round: number;
        t: number;
        seats: string;
        game: number | null;
        channel: string | null;
        subs: string;
      }>(
        sql`SELECT round, table_no AS t, seats, game_id AS game, channel_id AS channel, subs FROM tournament_tables WHERE tournament_id = ${tid} ORDER BY round, table_no`,
      );
    expect((await tables()).map((x) => [x.round, x.t])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
      [2, 2],
      [3, 1],
      [3, 2],
    ]);
    for (const round of [1, 2, 3]) {
      const seats = (await tables()).filter((x) => x.round === round).flatMap((x) => JSON.parse(x.seats) as string[]);
      expect([...seats].sort()).toEqual(users.map((u) => u.id).sort());
    }
    const roundMessage = (round: number) =>
      world.fake.publicMessages(world.channel.id).find((m) => has(m, `v1:t:${tid}:start:${round}:1`, false))!;
    for (const round of [1, 2, 3]) {
      const m = roundMessage(round);
      expect(m.embeds[0]!.title).toBe(`🏆 Spring Cup (tournament #${tid}) · Round ${round}`);
      expect(m.embeds[0]!.fields!.map((f) => f.name)).toEqual(['Table 1 — waiting', 'Table 2 — waiting']);
      const listed = m.embeds[0]!.fields![0]!.value.split('\n');
      expect(listed).toEqual(
        (JSON.parse((await tables()).find((x) => x.round === round && x.t === 1)!.seats) as string[]).map(
          (u, i) => `${i + 1}. <@${u}>`,
        ),
      );
      // Only the round being played can start.
      expect(has(m, `v1:t:${tid}:start:${round}:1`)).toBe(round === 1);
    }
    expect((await slash(world.host.id, 'start', { round: 2, table: 1 })).content).toBe(
      '⛔ That table cannot start yet: round 1 is being played first.',
    );
    expect((await slash(world.host.id, 'final')).content).toBe(
      '⛔ The qualifiers are not over yet (round 1 is still being played).',
    );

    /** Starts a table (button, or the command with options), plays its game to the end as its players and host would. */
    const playTable = async (
      round: number,
      table: number,
      options?: Record<string, string | number | { type: number; value: string }>,
      waitNight0 = false,
    ) => {
      let r;
      if (options) r = await slash(world.host.id, 'start', { round, table, ...options });
      else {
        r = await world.fake.click(world.host.id, roundMessage(round), `v1:t:${tid}:start:${round}:${table}`);
        await r.settled();
        await world.bot.idle();
      }
      const m = /game #(\d+) has started in <#(\d+)>/.exec(r.content ?? '');
      if (!m) throw new Error(`start failed: ${r.content}`);
      const gameId = Number(m[1]);
      const channelId = m[2]!;
      const game = (await world.bot.store.getGame(gameId))!;
      // The tournament's timers; the game carries the tournament's id.
      expect(game.options.timers).toMatchObject({ night0: 5, night: 5, vote: 20 });
      expect(
        (
          await world.bot.db.connection.rows<{ t: number }>(
            sql`SELECT tournament_id AS t FROM games WHERE id = ${gameId}`,
          )
        )[0]!.t,
      ).toBe(tid);
      const d = new Driver({ ...world, channel: { ...world.channel, id: channelId } } as World);
      d.gameId = gameId;
      for (const p of await world.bot.store.players(gameId)) d.seats.set(p.seat, p.userId);
      const seatOf = (u: string) => [...d.seats.entries()].find(([, id]) => id === u)![0];
      if (waitNight0) {
        // The tournament's 5-second night 0 ends on its own timer; day 1 begins.
        const until = Date.now() + 30_000;
        while ((await world.bot.service.state(gameId))?.stage.kind === 'night0' && Date.now() < until)
          await new Promise((r) => setTimeout(r, 100));
        expect((await world.bot.service.state(gameId))?.clock).toMatchObject({ phase: 'day', n: 1 });
        await world.bot.idle();
      }
      expect(await d.host('end', { winner: 'red' })).toBe('ok');
      const who = best(round);
      if (who && [...d.seats.values()].includes(who)) {
        // S-4: the host's vote and four players' make the best player.
        expect(await d.host('best', { seat: seatOf(who) })).toBe('ok');
        const voters = [...d.seats.keys()].filter((s) => s !== seatOf(who)).slice(0, 4);
        for (const s of voters)
          expect(await d.step({ type: 'player', seat: s, verb: 'best', target: seatOf(who) })).toBe('ok');
      }
      expect(await d.host('skip', {})).toBe('ok');
      await world.bot.idle();
      expect((await world.bot.store.getGame(gameId))!.status).toBe('over');
      return { gameId, channelId };
    };

    // Round 1: each table in a channel of its own, under the tournament's category.
    const r11 = await playTable(1, 1);
    const r12 = await playTable(1, 2);
    const channels = world.fake.channels(world.guild.id);
    const category = channels.find((c) => c.type === 4)!;
    expect(category.name).toBe('Tournament: Spring Cup');
    expect(channels.filter((c) => c.parentId === category.id).map((c) => [c.id, c.name])).toEqual([
      [r11.channelId, 'round-1-table-1'],
      [r12.channelId, 'round-1-table-2'],
    ]);
    expect(roundMessage(1).embeds[0]!.fields!.map((f) => f.name)).toEqual([
      `Table 1 — game #${r11.gameId} over`,
      `Table 2 — game #${r12.gameId} over`,
    ]);
    expect(has(roundMessage(2), `v1:t:${tid}:start:2:1`)).toBe(true);

    // The standings are live: the two games of round 1 are counted.
    const live = await slash(users[4]!.id, 'standings');
    expect(live.message!.embeds[0]!.description!.split('\n')[0]).toBe('Games counted: 2 of 7.');

    // A restart between rounds: the buttons posted before it keep working.
    // The board is deleted while the bot is down: it is posted again at start-up.
    await world.bot.stop();
    const before = board().id;
    world.fake.deleteMessage(world.channel.id, before);
    world.bot = await startBot(botConfig(world.fake, world.dbPath, { dealer }));
    await world.bot.idle();
    expect(board().id).not.toBe(before);
    expect(board().embeds[0]!.description).toContain('Qualifying round 2 is on.');

    // Round 2, table 1: a drawn player left the server: the start says so; a substitute plays his seat.
    const t21 = JSON.parse((await tables()).find((x) => x.round === 2 && x.t === 1)!.seats) as string[];
    const gone = t21.find((u) => u !== P.id && u !== Q.id)!;
    world.fake.removeMember(world.guild.id, gone);
    const refused = await world.fake.click(world.host.id, roundMessage(2), `v1:t:${tid}:start:2:1`);
    await refused.settled();
    expect(refused.content).toBe(
      `⛔ Round 2, table 1 cannot start: <@${gone}> left the server. Start it with a substitute: /tournament start \`round:2 table:1 missing:@… substitute:@…\`.`,
    );
    expect(
      (
        await slash(world.host.id, 'start', {
          round: 2,
          table: 1,
          missing: { type: 6, value: gone },
          substitute: { type: 6, value: t21.find((u) => u !== gone)! },
        })
      ).content,
    ).toMatch(/^⛔ .* already plays at that table\.$/);
    await playTable(2, 1, { missing: { type: 6, value: gone }, substitute: { type: 6, value: sub.id } });
    expect(roundMessage(2).embeds[0]!.fields![0]!.value).toContain(`<@${gone}> → <@${sub.id}>`);
    world.fake.addMember(world.guild.id, gone);
    await playTable(2, 2);
    await playTable(3, 1);
    await playTable(3, 2);

    // T-2: the final: the ten best after the qualifiers (P 15, Q 18 points are among them).
    const final = await slash(world.host.id, 'final');
    expect(final.content).toBe('The finalists are announced: start the final with its button.');
    const finalists = JSON.parse((await tables()).find((x) => x.round === 4)!.seats) as string[];
    expect(finalists).toHaveLength(10);
    expect(finalists).toEqual(expect.arrayContaining([P.id, Q.id]));
    const announced = world.fake
      .publicMessages(world.channel.id)
      .find((m) => (m.content ?? '').startsWith('**Spring Cup: the final.**'))!;
    expect(announced.content).toContain(`<@${Q.id}> — points: 18, best player ×2`);
    expect(announced.content).toContain(`<@${P.id}> — points: 15, best player ×0`);
    expect((await slash(world.host.id, 'final')).content).toBe('⛔ The final has already been announced.');
    const finalMsg = world.fake.publicMessages(world.channel.id).find((m) => has(m, `v1:t:${tid}:start:4:1`, false))!;
    expect(finalMsg.embeds[0]!.title).toContain('· Final');
    await playTable(4, 1, undefined, true);
    expect(world.fake.channels(world.guild.id).find((c) => c.name === 'final')?.parentId).toBe(category.id);

    // T-3: the result with the winner: Q and P are level on 23 points; Q has more best-player titles.
    const result = world.fake
      .publicMessages(world.channel.id)
      .find((m) => (m.content ?? '').startsWith('🏆 **Spring Cup is over.'))!;
    expect(result.content).toContain(`The winner is <@${Q.id}>**: 23 points over all games, best player ×2.`);
    expect(result.content).toContain(`1. <@${Q.id}> — points: 23 · games: 4 · best player ×2`);
    expect(result.content).toContain(`2. <@${P.id}> — points: 23 · games: 4 · best player ×1`);
    expect(board().embeds[0]!.description).toContain(`🏆 Winner: <@${Q.id}>`);
    expect(board().embeds[0]!.description).toContain('The tournament is over.');

    // Standings: live over every game, paginated; the substitute is not in them, the player he replaced scored nothing there.
    const st = await slash(users[7]!.id, 'standings');
    const page1 = st.message!;
    expect(st.ephemeral).toBe(false);
    const lines = page1.embeds[0]!.description!.split('\n');
    expect(lines[0]).toBe('Games counted: 7 of 7.');
    expect(lines).toContain(`1. <@${Q.id}> — points: 23 · games: 4 · best player ×2`);
    expect(lines).toContain(`2. <@${P.id}> — points: 23 · games: 4 · best player ×1`);
    expect(page1.embeds[0]!.footer?.text).toBe('Page 1 of 2');
    const next = allComponents(page1).find((c) => c.label === '▶')!;
    const p2 = await world.fake.click(users[7]!.id, page1, next.custom_id!);
    expect(p2.type).toBe(7);
    expect(page1.embeds[0]!.footer?.text).toBe('Page 2 of 2');
    const all = [...lines, ...page1.embeds[0]!.description!.split('\n')].join('\n');
    expect(all).not.toContain(`<@${sub.id}>`);
    const goneLine = all.split('\n').find((l) => l.includes(`<@${gone}>`))!;
    expect(goneLine).toMatch(/games: [23] ·/);

    // CSV: every game's points, one line per player and game; the substitute's line is not counted.
    const csvClick = await world.fake.click(users[7]!.id, page1, `v1:t:${tid}:csv`);
    await csvClick.settled();
    const file = csvClick.message!.attachments[0]!;
    expect(file.filename).toBe(`tournament-${tid}.csv`);
    const csv = world.fake.attachmentText(file.id)!.trimEnd().split('\r\n');
    expect(csv[0]).toBe('round,table,game,seat,user_id,name,role,won,points,best_player,counted');
    expect(csv).toHaveLength(1 + 7 * 10);
    expect(csv.filter((l) => l.includes(`,${sub.id},`))).toHaveLength(1);
    expect(csv.find((l) => l.includes(`,${sub.id},`))!.endsWith(',false')).toBe(true);
    const qLines = csv.filter((l) => l.includes(`,${Q.id},`)).map((l) => l.split(','));
    expect(qLines.map((c) => [c[0], c[6], c[8], c[9]])).toEqual([
      ['1', 'sheriff', '9', 'true'],
      ['2', 'sheriff', '9', 'true'],
      ['3', 'mafia', '0', 'false'],
      ['final', 'civilian', '5', 'false'],
    ]);
    // The command's own export is the same file.
    const exp = await slash(world.host.id, 'standings', { csv: true, page: 2 });
    expect(world.fake.attachmentText(exp.message!.attachments[0]!.id)).toBe(world.fake.attachmentText(file.id));

    // The Standings button: the same, only to the one who asks.
    const mine = await world.fake.click(users[3]!.id, board(), `v1:t:${tid}:mine`);
    expect(mine.ephemeral).toBe(true);
    expect(mine.message!.embeds[0]!.title).toBe('Standings: Spring Cup');
    expect(mine.message!.embeds[0]!.description).toContain(`1. <@${Q.id}> — points: 23`);

    // The tournament's games count in /stats too (there, the substitute's game is his own).
    // Its games are in /stats too. (These were ended by a host ruling before any day vote, so under
    // the ratings' rule they are on record but do not count for points or Elo.)
    const statsText = (r: {
      content?: string;
      message?: { embeds: { title?: string; description?: string; fields?: { name: string; value: string }[] }[] };
    }) =>
      [
        r.content ?? '',
        ...(r.message?.embeds ?? []).flatMap((e) => [
          e.title ?? '',
          e.description ?? '',
          ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
        ]),
      ].join('\n');
    const [oneGame] = await world.bot.db.connection.rows<{ id: number }>(
      sql`SELECT id FROM games WHERE tournament_id = ${tid} AND status = 'over' ORDER BY id LIMIT 1`,
    );
    const record = await world.fake.slash(users[3]!.id, world.channel.id, 'stats', {
      sub: 'game',
      options: { id: oneGame!.id },
    });
    await record.settled();
    expect(statsText(record as never)).toContain(`Game #${oneGame!.id}`);
    const inTour = await world.fake.slash(users[3]!.id, world.channel.id, 'stats', {
      sub: 'top',
      options: { ruleset: 'chnu-2016', tournament: tid },
    });
    await inTour.settled();
    expect(inTour.ephemeral).toBe(true);

    // Every game of the tournament carries its id (for /stats).
    const [ids] = await world.bot.db.connection.rows<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM games WHERE tournament_id = ${tid} AND status = 'over'`,
    );
    expect(Number(ids!.n)).toBe(7); // PostgreSQL's count is a bigint (a string)

    // An annulled game no longer counts (issue 11's /host annul sets annulled_at and tells the
    // tournament): the final annulled, the tournament is back to its final, ready to play again.
    const finalGame = (await tables()).find((x) => x.round === 4)!.game!;
    await world.bot.db.connection.exec(sql`UPDATE games SET annulled_at = ${Date.now()} WHERE id = ${finalGame}`);
    await world.bot.tournaments.gameChanged(finalGame);
    await world.bot.idle();
    expect(board().embeds[0]!.description).toContain('The final is on.');
    expect(board().embeds[0]!.description).not.toContain('Winner');
    expect(has(finalMsg, `v1:t:${tid}:start:4:1`)).toBe(true);
    const after = await slash(users[7]!.id, 'standings');
    expect(after.message!.embeds[0]!.description!.split('\n')[0]).toBe('Games counted: 6 of 7.');
  }, 240_000);

  it('without Manage Channels the host names the channel; two starts at once give one game; a cancelled table starts again; refusals change nothing', async () => {
    w = await makeWorld({ players: 10, botPermissions: DEFAULT_BOT_PERMISSIONS & ~Perm.ManageChannels });
    const world = w;
    const admin = world.fake.addRole(world.guild.id, { name: 'judges', permissions: Perm.ManageGuild });
    world.fake.setMemberRoles(world.guild.id, world.host.id, [admin.id]);
    const slash = async (
      sub: string,
      options: Record<string, string | number | { type: number; value: string }> = {},
    ) => {
      const r = await world.fake.slash(world.host.id, world.channel.id, 'tournament', { sub, options });
      await r.settled();
      await world.bot.idle();
      return r;
    };
    expect((await slash('standings')).content).toBe(
      '⛔ There is no tournament on this server (or none with that number).',
    );
    const created = await slash('create', { name: 'Club night', ruleset: 'classic-10' });
    const tid = Number(/#(\d+)/.exec(created.content ?? '')![1]);
    const board = () => world.fake.publicMessages(world.channel.id).find((m) => has(m, `v1:t:${tid}:join`, false))!;
    for (const u of world.users) await world.fake.click(u.id, board(), `v1:t:${tid}:join`);
    await world.bot.idle();
    // A refusal speaks the clicker's language.
    const ru = await world.fake.click(world.users[1]!.id, board(), `v1:t:${tid}:draw`, { locale: 'ru' });
    expect(ru.content).toBe('⛔ Это может сделать только главный ведущий (или администратор сервера).');
    expect((await slash('draw')).content).toBe('The draw is done: 1 table per round, posted in the channel.');
    expect((await slash('draw')).content).toBe('⛔ The draw has already been made.');
    // A forged id, another server's tournament number: nothing happens.
    expect((await world.fake.click(world.users[0]!.id, board(), `v1:t:${tid + 5}:join`, { forge: true })).content).toBe(
      `⛔ ${t('en', 'refusal.input/forged')}`,
    );
    const roundMsg = world.fake.publicMessages(world.channel.id).find((m) => has(m, `v1:t:${tid}:start:1:1`))!;
    const r = await world.fake.click(world.host.id, roundMsg, `v1:t:${tid}:start:1:1`);
    await r.settled();
    expect(r.content).toBe(
      '⛔ I may not create channels here. Name a channel for this table: /tournament start `round:1 table:1 channel:#…`.',
    );
    expect(world.fake.channels(world.guild.id).some((c) => c.type === 4)).toBe(false);
    // A channel the bot may not write in is refused with the fix.
    const closed = world.fake.addChannel(world.guild.id, { name: 'read-only' });
    world.fake.setOverwrite(closed.id, { id: world.fake.botUser.id, type: 1, allow: 0n, deny: Perm.SendMessages });
    await world.bot.idle();
    expect((await slash('start', { round: 1, table: 1, channel: { type: 7, value: closed.id } })).content).toBe(
      `⛔ I cannot post in <#${closed.id}>: give me View Channel and Send Messages there, or name another channel.`,
    );
    const named = world.fake.addChannel(world.guild.id, { name: 'table-one' });
    // Two starts at once (a double click, two judges): one game.
    const both = await Promise.all(
      [0, 1].map(() =>
        world.fake.slash(world.host.id, world.channel.id, 'tournament', {
          sub: 'start',
          options: { round: 1, table: 1, channel: { type: 7, value: named.id } },
        }),
      ),
    );
    await Promise.all(both.map((r) => r.settled()));
    await world.bot.idle();
    const started = both.find((r) => /has started/.test(r.content ?? ''))!;
    expect(started.content).toMatch(new RegExp(`^Round 1, table 1: game #\\d+ has started in <#${named.id}>\\.$`));
    const gameId = Number(/game #(\d+)/.exec(started.content!)![1]);
    expect(
      both.map((r) => r.content).filter((c) => c === `⛔ That table is already playing (game #${gameId}).`),
    ).toHaveLength(1);
    expect((await world.bot.store.getGame(gameId))!.channelId).toBe(named.id);
    // The table's host cancels its game: the table waits again, and its button starts a new game in the same channel.
    const cancel = await world.fake.slash(world.host.id, named.id, 'host', { sub: 'cancel', options: {} });
    await cancel.settled();
    await world.bot.idle();
    expect(roundMsg.embeds[0]!.fields![0]!.name).toBe('Table 1 — waiting');
    const again = await world.fake.click(world.host.id, roundMsg, `v1:t:${tid}:start:1:1`);
    await again.settled();
    await world.bot.idle();
    expect(again.content).toMatch(
      new RegExp(`^Round 1, table 1: game #${gameId + 1} has started in <#${named.id}>\\.$`),
    );
    expect(roundMsg.embeds[0]!.fields![0]!.name).toBe(`Table 1 — game #${gameId + 1} in <#${named.id}>`);
  }, 120_000);
});
