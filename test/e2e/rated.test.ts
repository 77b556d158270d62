// Rated or casual (issue 24), through Discord: `/mafia create rated:false` makes a casual game,
// said in its lobby and its result; it stays in the archive and the players' histories but never
// moves the Elo or the standings, also after the ratings are rebuilt. A server chooses the default
// (`/mafia settings rated`), which `/mafia create rated:` overrides.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import type { SlashOptionValue } from '../../testkit/fake-discord/interactions';
import { Perm } from '../../testkit/fake-discord';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver, messageText } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = messageText;

describe('rated or casual games', () => {
  it('a casual game: said in the lobby and the result, in the histories, never in the Elo or the standings', async () => {
    const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
    w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles) });
    const d = new Driver(w);
    await d.createAndStart(sc.ruleset, sc.pace, { rated: false });
    expect(text(d.lobbyMessage())).toMatch(/🎲 Casual game: the result does not count for the rating or standings\./);
    expect(text(d.lobbyMessage())).not.toMatch(/Rated game/);
    for (const step of sc.steps) await d.step(step);
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('over');
    // The result says it where the points are given.
    const results = w.fake
      .publicMessages(w.channel.id)
      .filter((m) => /casual game: these points do not count/i.test(text(m)));
    expect(results.length).toBeGreaterThan(0);

    const u4 = w.users[3]!;
    // Never in the standings (points or Elo)...
    const top = await d.slash(u4.id, 'stats', 'top', { ruleset: 'chnu-2016' });
    expect(text(top.message)).toMatch(/No counted games in ChNU 2016 tournament \(10\)/);
    const elo = await d.slash(u4.id, 'stats', 'top', { ruleset: 'chnu-2016', by: 'elo' });
    expect(text(elo.message)).toMatch(/No counted games/);
    // ...but in the player's history, marked, and in the archive with the reason.
    const player = text((await d.slash(u4.id, 'stats', 'player')).message);
    expect(player).toMatch(new RegExp(`#${d.gameId} · <t:\\d+:d> · Sheriff · win · points: 9 · does not count`));
    expect(player).not.toMatch(/Elo: 1\d\d\d \(/);
    const game = text((await d.slash(u4.id, 'stats', 'game', { id: d.gameId })).message);
    expect(game).toMatch(/A casual game: it does not count for the rating or standings\./);

    // A rebuild of the ratings (new constants) counts it no more than the closing did.
    const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w.fake.setMemberRoles(w.guild.id, w.host.id, [admin.id]);
    const set = await d.slash(w.host.id, 'mafia', 'rating', { win_factor: { type: 10, value: 40 } }, 'settings');
    expect(set.content).toMatch(/recomputed/);
    expect(text((await d.slash(u4.id, 'stats', 'top', { ruleset: 'chnu-2016' })).message)).toMatch(/No counted games/);
    expect(w.fake.unhandled).toEqual([]);
  });

  it('the server’s default: /mafia settings rated, which /mafia create rated: overrides', async () => {
    w = await makeWorld({ players: 1 });
    const world = w;
    const d = new Driver(world);
    const boss = world.host;
    // Only members with Manage Server change the settings.
    const refused = await d.slash(world.users[0]!.id, 'mafia', 'rated', { rated: false }, 'settings');
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toMatch(/^⛔ Only members with Manage Server/);
    const admin = world.fake.addRole(world.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    world.fake.setMemberRoles(world.guild.id, boss.id, [admin.id]);
    const saved = await d.slash(boss.id, 'mafia', 'rated', { rated: false }, 'settings');
    expect(saved.ephemeral).toBe(true);
    expect(text(saved.message)).toMatch(/New games\ncasual \(do not count\)/);

    const lobbyOf = async (options: Record<string, SlashOptionValue>) => {
      const r = await d.slash(boss.id, 'mafia', 'create', { ruleset: 'classic-10', ...options });
      d.gameId = Number(/#(\d+)/.exec(r.content ?? '')![1]);
      await world.bot.idle();
      const lobby = text(d.lobbyMessage());
      const cancel = await world.fake.click(boss.id, d.lobbyMessage(), `v1:l:${d.gameId}:cancel`);
      await cancel.settled();
      await world.bot.idle();
      return { lobby, rated: (await world.bot.store.getGame(d.gameId))!.rated };
    };
    expect(await lobbyOf({})).toEqual({ lobby: expect.stringMatching(/🎲 Casual game/), rated: false });
    expect(await lobbyOf({ rated: true })).toEqual({ lobby: expect.stringMatching(/🏆 Rated game/), rated: true });
    await d.slash(boss.id, 'mafia', 'rated', { rated: true }, 'settings');
    expect(await lobbyOf({})).toEqual({ lobby: expect.stringMatching(/🏆 Rated game/), rated: true });
    expect(await lobbyOf({ rated: false })).toEqual({ lobby: expect.stringMatching(/🎲 Casual game/), rated: false });
  });
});
