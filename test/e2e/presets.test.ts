// Presets (issue 24), through Discord: `/mafia settings preset` saves a server's house variant (a
// rule set, its pace, option changes, timers), shows it to anyone, refuses bad input with what it
// takes; `/mafia create preset:` plays it (the lobby and the result name it, the game keeps its own
// copy of the options); `/stats top preset:` ranks the preset's games alone.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { Perm } from '../../testkit/fake-discord';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver, messageText as text } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const preset = (d: Driver, user: string, options: Parameters<Driver['slash']>[3]) =>
  d.slash(user, 'mafia', 'preset', options, 'settings');

function admin(world: World): void {
  const role = world.fake.addRole(world.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
  world.fake.setMemberRoles(world.guild.id, world.host.id, [role.id]);
}

describe('presets', () => {
  it('a preset is saved, shown, played (lobby, result, the game’s own options) and its games ranked alone', async () => {
    const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
    w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles) });
    const world = w;
    const d = new Driver(world);
    const boss = world.host.id;
    const u1 = world.users[0]!.id;
    admin(world);

    // Saved by a member with Manage Server: E-3's quiet rounds 5 instead of 3, speeches of 45 s.
    const saved = await preset(d, boss, {
      name: 'Long Quiet',
      ruleset: 'chnu-2016',
      rules: 'empty_rounds_draw=5, tellFrozen=no',
      speech: '45s',
    });
    expect(saved.ephemeral).toBe(true);
    const savedText = text(saved.message);
    expect(savedText).toMatch(/✅ Preset \*\*long-quiet\*\* saved\./);
    expect(savedText).toMatch(/Preset “long-quiet”\*\* — ChNU 2016 tournament \(10\), live/);
    expect(savedText).toMatch(/Changed from the rule set: `tellFrozen=false`, `emptyRoundsDraw=5`/);
    expect(savedText).toMatch(/Timers: speech: 45 s/);
    // The rules it plays by, in words: five quiet rounds, 45 s speeches.
    expect(savedText).toMatch(/for 5 rounds in a row, the game is a draw/);
    expect(savedText).toMatch(/45 s/);

    // Anyone may look at it; only Manage Server changes it.
    const shown = await preset(d, u1, { name: 'long-quiet' });
    expect(shown.ephemeral).toBe(true);
    expect(text(shown.message)).toMatch(/Preset “long-quiet”/);
    const refused = await preset(d, u1, { name: 'long-quiet', rules: 'askDon=false' });
    expect(refused.content).toMatch(/^⛔ Only members with Manage Server/);
    expect(text((await d.slash(u1, 'mafia', 'show', {}, 'settings')).message)).toMatch(
      /Presets\n\*\*long-quiet\*\* \(ChNU 2016 tournament \(10\), live\)/,
    );

    // A game with it: the rule set and pace are the preset's, another one is refused.
    const other = await d.slash(boss, 'mafia', 'create', { ruleset: 'classic-10', preset: 'long-quiet' });
    expect(other.content).toMatch(/^⛔ Preset \*\*long-quiet\*\* plays ChNU 2016 tournament \(10\), live/);
    await d.createAndStart('chnu-2016', 'live', { preset: 'LONG-QUIET' });
    const game = (await world.bot.store.getGame(d.gameId))!;
    expect(game.preset).toBe('long-quiet');
    expect(game.options).toMatchObject({ emptyRoundsDraw: 5, tellFrozen: false, timers: { speech: 45 } });
    expect(world.fake.publicMessages(world.channel.id).some((m) => /🧩 Preset: \*\*long-quiet\*\*/.test(text(m)))).toBe(
      true,
    );

    // Changing the preset now changes no game: the game has its own copy.
    await preset(d, boss, { name: 'long-quiet', rules: 'emptyRoundsDraw=default', speech: 'default' });
    expect((await world.bot.store.getGame(d.gameId))!.options).toMatchObject({ emptyRoundsDraw: 5 });

    for (const step of sc.steps) await d.step(step);
    expect((await world.bot.store.getGame(d.gameId))!.status).toBe('over');
    expect(
      world.fake
        .publicMessages(world.channel.id)
        .some((m) => /🧩 Played with the server’s preset \*\*long-quiet\*\*\./.test(text(m))),
    ).toBe(true);
    expect(text((await d.slash(u1, 'stats', 'game', { id: d.gameId })).message)).toMatch(/Preset: long-quiet/);

    // Its standings: the same players as the rule set's, under the preset's name; another preset has none.
    const top = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016', preset: 'long-quiet' });
    expect(text(top.message)).toMatch(/preset long-quiet/);
    const places = (m: string) => m.split('\n').filter((l) => /^\*?\*?\d+\./.test(l.trim()));
    const all = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016' });
    expect(places(text(top.message))).toEqual(places(text(all.message)));
    expect(places(text(top.message)).length).toBeGreaterThan(0);
    const none = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016', preset: 'other' });
    expect(text(none.message)).toMatch(/No counted games/);
    const elo = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016', preset: 'long-quiet', by: 'elo' });
    expect(elo.content).toMatch(/^⛔ Elo is one per rule set/);
    // The same standings over a period (computed from the preset's games, not the maintained rows).
    const week = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016', preset: 'long-quiet', period: '7d' });
    expect(places(text(week.message))).toEqual(places(text(top.message)));

    // A rebuild of the ratings (new constants) rebuilds the preset's standings too.
    const rebuilt = await d.slash(boss, 'mafia', 'rating', { win_factor: { type: 10, value: 40 } }, 'settings');
    expect(rebuilt.content).toMatch(/recomputed/);
    const again = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016', preset: 'long-quiet' });
    expect(places(text(again.message))).toEqual(places(text(top.message)));

    // Deleted: games keep its name and its standings stay reachable.
    const del = await preset(d, boss, { name: 'long-quiet', delete: true });
    expect(del.content).toMatch(/Preset \*\*long-quiet\*\* deleted/);
    const gone = await d.slash(boss, 'mafia', 'create', { preset: 'long-quiet' });
    expect(gone.content).toMatch(/^⛔ This server has no presets yet/);
    const after = await d.slash(u1, 'stats', 'top', { ruleset: 'chnu-2016', preset: 'long-quiet' });
    expect(places(text(after.message))).toEqual(places(text(top.message)));
    expect(world.fake.unhandled).toEqual([]);
  });

  it('bad input is refused with what it takes, and changes nothing', async () => {
    w = await makeWorld({ players: 1 });
    const world = w;
    const d = new Driver(world);
    const boss = world.host.id;
    admin(world);
    const bad = async (options: Parameters<Driver['slash']>[3]) => {
      const r = await preset(d, boss, options);
      expect(r.ephemeral).toBe(true);
      return r.content ?? '';
    };
    expect(await bad({ name: 'a:b', ruleset: 'classic-10' })).toMatch(/^⛔ A preset’s name is 1 to 24 letters/);
    expect(await bad({ name: 'x', ruleset: 'classic-10', rules: 'askDon=maybe' })).toMatch(
      /^⛔ “askDon=maybe”: askDon takes true or false\./,
    );
    expect(await bad({ name: 'x', ruleset: 'classic-10', rules: 'tieAgain=coin' })).toMatch(
      /tieAgain takes nobody \/ all-leave-vote/,
    );
    expect(await bad({ name: 'x', ruleset: 'classic-10', rules: 'freezeRepeatLimit=500' })).toMatch(
      /freezeRepeatLimit takes a whole number from 0 to 100/,
    );
    expect(await bad({ name: 'x', ruleset: 'classic-10', rules: 'timers=1' })).toMatch(
      /^⛔ “timers=1” is not an option change\. .*the options: prostituteKnowsMafia, /,
    );
    expect(await bad({ name: 'x', ruleset: 'classic-10', vote: 'forever' })).toMatch(/^⛔ /);
    // A new preset needs a rule set when the server has no default one.
    expect(await bad({ name: 'x', rules: 'askDon=false' })).toMatch(/^⛔ A new preset needs a rule set/);
    expect(await bad({ name: 'x' })).toMatch(/^⛔ This server has no presets yet/);
    const create = await d.slash(boss, 'mafia', 'create', { preset: 'nope' });
    expect(create.content).toMatch(/^⛔ This server has no presets yet/);
    expect((await world.bot.store.activeGamesInChannel(world.channel.id)).length).toBe(0);

    // Twenty at most; the settings' reset keeps them.
    for (let n = 1; n <= 20; n++) expect(await bad({ name: `p${n}`, ruleset: 'kiev-12' })).toMatch(/✅ Preset/);
    expect(await bad({ name: 'p21', ruleset: 'kiev-12' })).toMatch(/^⛔ A server keeps at most 20 presets/);
    await d.slash(boss, 'mafia', 'reset', {}, 'settings');
    expect(await bad({ name: 'p20' })).toMatch(/Preset “p20”/);
    expect(await bad({ name: 'p1', delete: true })).toMatch(/deleted/);
    expect(await bad({ name: 'p21', ruleset: 'kiev-12' })).toMatch(/✅ Preset/);
    expect(await bad({ name: 'nope', delete: true })).toMatch(/^⛔ This server has no preset “nope”\. Its presets: /);
  });

  it('in Ukrainian: the preset and the refusals in the reader’s language', async () => {
    w = await makeWorld({ players: 1 });
    const world = w;
    admin(world);
    const uk = async (options: Record<string, string | boolean>) => {
      const r = await world.fake.slash(world.host.id, world.channel.id, 'mafia', {
        group: 'settings',
        sub: 'preset',
        options,
        locale: 'uk',
      });
      await r.settled();
      return r;
    };
    const saved = await uk({ name: 'швидка', ruleset: 'classic-10', pace: 'async', night: '8h' });
    const body = text(saved.message);
    expect(body).toMatch(/✅ Формат \*\*швидка\*\* збережено\./);
    expect(body).toMatch(/Таймери: нульова ніч: 8 год, ніч: 8 год/);
    expect(body).toMatch(/асинхронно/);
    const bad = await uk({ name: 'швидка', rules: 'askDon=може' });
    expect(bad.content).toMatch(/^⛔ «askDon=може»: значення askDon — true або false\./);
  });
});
