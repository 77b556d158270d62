// /stats through Discord (issue 12): a real game's results in /stats top, player and game; the
// Elo chart as a PNG attachment of the right size; pages that still turn after a restart; "show
// to the channel"; refusals; seasons and rating settings; Ukrainian and Russian answers.
import { sql } from 'drizzle-orm';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBot } from '../../src/discord/bot';
import { CHART_HEIGHT, CHART_WIDTH } from '../../src/stats/chart';
import { recordGame } from '../../src/stats/record';
import { parseScenario } from '../../src/scenario/parse';
import type { InteractionResult, StoredMessage } from '../../testkit/fake-discord';
import type { SlashOptionValue } from '../../testkit/fake-discord/interactions';
import { allComponents, Perm } from '../../testkit/fake-discord';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver, messageText } from '../../testkit/driver';
import { botConfig, fixedDealer, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = messageText;

async function playedWorld(): Promise<{ w: World; d: Driver }> {
  const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
  w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles) });
  const d = new Driver(w);
  await d.createAndStart(sc.ruleset, sc.pace);
  for (const step of sc.steps) await d.step(step);
  expect((await w.bot.store.getGame(d.gameId))!.status).toBe('over');
  return { w, d };
}

async function stats(
  d: Driver,
  userId: string,
  sub: string,
  options: Record<string, string | number> = {},
  locale?: string,
): Promise<InteractionResult> {
  const r = await d.w.fake.slash(userId, d.w.channel.id, 'stats', { sub, options, ...(locale ? { locale } : {}) });
  await r.settled();
  return r;
}

function button(m: StoredMessage, pred: (id: string) => boolean) {
  const c = allComponents(m).find((x) => x.custom_id && pred(x.custom_id));
  if (!c) throw new Error(`no such button in ${JSON.stringify(m.components)}`);
  return c;
}

describe('/stats through Discord', () => {
  it('top, player (with a PNG chart) and game after a real chnu-2016 game; show to the channel', async () => {
    const { w, d } = await playedWorld();
    const [u1, , , u4] = w.users;
    // Points of the scenario: seat 4 (the Sheriff, best player) 9, seats 1, 2, 5, 7, 9, 10 five each.
    const topR = await stats(d, u1!.id, 'top', { ruleset: 'chnu-2016' });
    expect(topR.ephemeral).toBe(true);
    const body = text(topR.message);
    expect(body).toMatch(/ChNU 2016 tournament \(10\) — standings, all time/);
    expect(topR.message!.embeds[0]!.description!.split('\n')[0]).toBe(
      `**1.** <@${u4!.id}> — points: 9 · games: 1 · wins: 1 · best player: 1`,
    );
    expect(body).toMatch(/Page 1 of 1 · 10 players/);
    // No pings from a standings list.
    expect(topR.message!.mentions?.length ?? 0).toBe(0);

    const pl = await stats(d, u4!.id, 'player');
    expect(pl.ephemeral).toBe(true);
    const pt = text(pl.message);
    expect(pt).toMatch(/Games: 1 · wins: 1 \(100%\)/);
    expect(pt).toMatch(/Points: 9 \(average 9\)/);
    expect(pt).toMatch(/Current streak: 1 win/);
    expect(pt).toMatch(/Elo: 10\d\d \(\+\d/);
    expect(pt).toMatch(new RegExp(`#${d.gameId} · <t:\\d+:d> · Sheriff · win · points: 9`));
    const att = pl.message!.attachments;
    expect(att).toHaveLength(1);
    expect(att[0]).toMatchObject({
      filename: 'elo.png',
      content_type: 'image/png',
      width: CHART_WIDTH,
      height: CHART_HEIGHT,
    });
    const png = w.fake.attachmentBytes(att[0]!.id)!;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(pl.message!.embeds[0]!.image?.url).toBe('attachment://elo.png');

    const game = await stats(d, u1!.id, 'game', { id: d.gameId });
    const gt = text(game.message);
    expect(gt).toMatch(new RegExp(`Game #${d.gameId} — ChNU 2016`));
    expect(gt).toMatch(new RegExp(`#4 <@${u4!.id}> — Sheriff`));
    expect(gt).toMatch(/\*\*Day 1\*\*/);
    expect(gt).toMatch(/Vote: .* → /);
    expect(gt).toMatch(/\*\*Points\*\*/);
    expect(gt).toMatch(new RegExp(`#4 <@${u4!.id}>: \\*\\*9\\*\\*`));

    // "Show to the channel": the same view, public, in the server's language, without buttons.
    const show = await w.fake.click(
      u4!.id,
      pl.message!,
      button(pl.message!, (id) => id.startsWith('v1:s:P:')).custom_id!,
    );
    await show.settled();
    expect(show.ephemeral).toBe(false);
    expect(text(show.message)).toMatch(/Games: 1 · wins: 1/);
    expect(text(show.message)).toMatch(new RegExp(`Shared by <@${u4!.id}>`));
    expect(show.message!.attachments).toHaveLength(1);
    expect(allComponents(show.message!)).toHaveLength(0);
    expect(w.fake.unhandled).toEqual([]);
  });

  it('pages of /stats top turn with buttons, also after a restart; the caller always sees his own row', async () => {
    w = await makeWorld({ players: 1 });
    const d = new Driver(w);
    const me = w.users[0]!;
    const store = w.bot.store;
    // 35 players' finished games, written as the game-closing transaction writes them.
    for (let g = 0; g < 35; g++) {
      const game = await store.createLobby({
        guildId: w.guild.id,
        channelId: w.channel.id,
        hostId: w.host.id,
        ruleset: 'classic-10',
        pace: 'live',
        options: {},
        now: Date.now(),
      });
      await store.c.exec(sql`UPDATE games SET status = 'over', finished_at = ${Date.now()} WHERE id = ${game.id}`);
      const user = g === 34 ? me.id : `10000000000000${String(g).padStart(4, '0')}`;
      await store.c.exec(
        sql`INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at, moves)
            VALUES (${game.id}, 1, ${w.guild.id}, ${user}, 'classic-10', 'civilian', 'red', 'win', ${40 - g}, '{}', FALSE, FALSE, ${Date.now()}, 100)`,
      );
      await recordGame(store.stats, game.id, game.guildId);
    }
    const r = await stats(d, me.id, 'top', { ruleset: 'classic-10' });
    const first = r.message!;
    expect(text(first)).toMatch(/Page 1 of 4 · 35 players/);
    expect(text(first)).toMatch(new RegExp(`You: \\*\\*35\\.\\*\\* <@${me.id}> — points: 6`));
    expect(button(first, (id) => id.startsWith('v1:s:t:') && id.endsWith(':0')).disabled).toBe(true); // Previous on page 1
    const next = await w.fake.click(
      me.id,
      first,
      button(first, (id) => id.startsWith('v1:s:t:') && id.endsWith(':1')).custom_id!,
    );
    await next.settled();
    expect(next.type).toBe(7); // the message itself turns its page
    expect(text(next.message)).toMatch(/Page 2 of 4/);
    expect(text(next.message)).toMatch(/\*\*11\.\*\*/);

    // The bot restarts; the old message's buttons still work.
    await w.bot.stop();
    w.bot = await startBot(botConfig(w.fake, w.dbPath));
    const again = await w.fake.click(
      me.id,
      next.message!,
      button(next.message!, (id) => id.startsWith('v1:s:t:') && id.endsWith(':2')).custom_id!,
    );
    await again.settled();
    expect(text(again.message)).toMatch(/Page 3 of 4/);
    const lastPage = await w.fake.click(
      me.id,
      again.message!,
      button(again.message!, (id) => id.startsWith('v1:s:t:') && id.endsWith(':3')).custom_id!,
    );
    await lastPage.settled();
    // On the last page his row is on the page itself, so it is not repeated.
    expect(text(lastPage.message)).not.toMatch(/You:/);
    expect(text(lastPage.message)).toMatch(new RegExp(`\\*\\*35\\.\\*\\* <@${me.id}>`));
    expect(
      button(lastPage.message!, (id) => id.startsWith('v1:s:t:') && id.endsWith(':3') && !id.startsWith('v1:s:T'))
        .disabled,
    ).toBe(true);
    // By Elo as well.
    const elo = await stats(d, me.id, 'top', { ruleset: 'classic-10', by: 'elo' });
    expect(text(elo.message)).toMatch(/Elo, all time/);
    expect(text(elo.message)).toMatch(/Elo 1010 · games: 1/);
  });

  it('refuses bad input with a private message and changes nothing; a running game has no record yet', async () => {
    w = await makeWorld({ players: 10 });
    const d = new Driver(w);
    const u = w.users[0]!.id;
    expect((await stats(d, u, 'top', { period: 'yesterday-ish' })).content).toMatch(
      /^⛔ This server has no season named “yesterday-ish”/,
    );
    expect((await stats(d, u, 'top', { period: '99999' })).content).toMatch(
      /^⛔ I do not understand the period “99999”/,
    );
    expect((await stats(d, u, 'game', { id: 424242 })).content).toMatch(/^⛔ There is no finished game #424242/);
    await d.createAndStart('chnu-2016');
    const running = await stats(d, u, 'game', { id: d.gameId });
    expect(running.ephemeral).toBe(true);
    expect(running.content).toMatch(/^⛔ There is no finished game/);
    expect(text((await stats(d, u, 'player')).message)).toMatch(/has not played on this server yet/);
    // Forged and stale ids.
    const top = await stats(d, u, 'top', { ruleset: 'kiev-12' });
    expect(text(top.message)).toMatch(/No counted games in Kyiv club/);
    const forged = await w.fake.click(u, top.message!, 'v1:s:t:kiev-12:s999:points:0:0', { forge: true });
    expect(forged.content).toMatch(/^⛔ This view is out of date/);
    const junk = await w.fake.click(u, top.message!, 'v1:s:t:nope:a:points:0:0', { forge: true });
    expect(junk.content).toMatch(/^⛔/);
  });

  it('seasons and rating settings need Manage Server; a season is a period of /stats', async () => {
    const { w, d } = await playedWorld();
    const u4 = w.users[3]!;
    const settings = async (user: string, sub: string, options: Record<string, SlashOptionValue>) => {
      const r = await w.fake.slash(user, w.channel.id, 'mafia', { group: 'settings', sub, options });
      await r.settled();
      return r;
    };
    expect((await settings(u4.id, 'season', { action: 'list' })).content).toMatch(
      /^⛔ Only members with Manage Server/,
    );
    const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w.fake.setMemberRoles(w.guild.id, w.host.id, [admin.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await settings(w.host.id, 'season', { action: 'define', name: 'Winter', start: '2026-13-01' })).content,
    ).toMatch(/^⛔ Dates are written YYYY-MM-DD/);
    expect(
      (await settings(w.host.id, 'season', { action: 'define', name: 'Winter', start: '2020-01-01' })).content,
    ).toMatch(/Season “Winter” defined/);
    expect((await settings(w.host.id, 'season', { action: 'define', name: 'winter' })).content).toMatch(
      /^⛔ There is already a season/,
    );
    expect(
      (
        await settings(w.host.id, 'season', {
          action: 'define',
          name: 'Future',
          start: '2099-01-01',
          end: '2099-02-01',
        })
      ).content,
    ).toMatch(/defined/);
    expect((await settings(w.host.id, 'season', { action: 'list' })).content).toMatch(/Winter: .* – open\nFuture: /);
    const inSeason = await stats(d, u4.id, 'top', { ruleset: 'chnu-2016', period: 'Winter' });
    expect(text(inSeason.message)).toMatch(/standings, season Winter/);
    expect(text(inSeason.message)).toMatch(/10 players/);
    expect(text((await stats(d, u4.id, 'top', { ruleset: 'chnu-2016', period: 'future' })).message)).toMatch(
      /No counted games/,
    );
    expect(text((await stats(d, u4.id, 'top', { ruleset: 'chnu-2016', period: '7d' })).message)).toMatch(/last 7 days/);
    // "All time" in the reader's own language (issue 21), not only the English word.
    for (const period of ['all', 'за всё время', 'Усі', 'весь час'])
      expect(text((await stats(d, u4.id, 'top', { ruleset: 'chnu-2016', period })).message), period).toMatch(
        /standings, all time/,
      );
    void today;
    // Rating constants: the ratings are recomputed at once.
    const before = text((await stats(d, u4.id, 'player')).message);
    const set = await settings(w.host.id, 'rating', { win_factor: { type: 10, value: 40 } });
    expect(set.content).toMatch(/Saved, and the ratings were recomputed\.\nElo: winners gain 40 ×/);
    const after = text((await stats(d, u4.id, 'player')).message);
    const eloOf = (s: string) => Number(/Elo: (\d+)/.exec(s)![1]);
    expect(eloOf(after) - 1000).toBe(2 * (eloOf(before) - 1000));
    expect((await settings(w.host.id, 'rating', { min_moves: 100000 })).content).toMatch(/^⛔/);
    // The minimum moves: the game no longer counts.
    await settings(w.host.id, 'rating', { min_moves: 10000 });
    expect(text((await stats(d, u4.id, 'top', { ruleset: 'chnu-2016' })).message)).toMatch(/No counted games/);
    const g = text((await stats(d, u4.id, 'game', { id: d.gameId })).message);
    expect(g).toMatch(/Fewer moves than the server requires: this game does not count/);
  });

  it('answers in Ukrainian and Russian', async () => {
    const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
    w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles) });
    const d = new Driver(w);
    await d.createAndStart(sc.ruleset, sc.pace);
    for (const step of sc.steps) await d.step(step);
    const u4 = w.users[3]!.id;
    const uk = await stats(d, u4, 'player', {}, 'uk');
    expect(text(uk.message)).toMatch(/Ігор: 1 · перемог: 1 \(100%\)/);
    expect(text(uk.message)).toMatch(/Поточна серія: 1 перемога/);
    expect(text(uk.message)).toMatch(/Шериф/);
    const ru = await stats(d, u4, 'top', { ruleset: 'chnu-2016', period: '30' }, 'ru');
    expect(text(ru.message)).toMatch(/турнирная таблица, за последние 30 дней/);
    expect(text(ru.message)).toMatch(/баллов: 9 · игр: 1 · побед: 1/);
    const game = await stats(d, u4, 'game', { id: d.gameId }, 'ru');
    expect(text(game.message)).toMatch(/\*\*День 1\*\*/);
    expect(text(game.message)).toMatch(/\*\*Баллы\*\*/);
  });
});
