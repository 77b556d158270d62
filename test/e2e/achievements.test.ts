// Achievements (issue 24) through Discord, on both databases: a played game earns them, its
// closing announces them once in the game's channel (also when the bot dies right after the
// closing's commit, and never again after a restart or a rebuild of the ratings), /stats player
// lists them, an annulment takes them back, a casual game earns none; one case in Ukrainian.
// The game: test/scenarios/chnu-red-full-strength.json (chnu-2016): red votes out the three black
// players with no red player lost (S-1 full strength: seats 1, 2, 4, 5, 7, 9, 10), the Don (seat 6)
// finds the Sheriff with his check on night 1 (N-5); the Sheriff checks two of the three black
// players (N-6), so not all of them.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBot } from '../../src/discord/bot';
import { parseScenario } from '../../src/scenario/parse';
import { Perm, type StoredMessage } from '../../testkit/fake-discord';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver, messageText } from '../../testkit/driver';
import { botConfig, fixedDealer, makeWorld, type World, type WorldOptions } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const text = messageText;
const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
const FULL = [1, 2, 4, 5, 7, 9, 10];

async function played(
  o: Partial<WorldOptions> = {},
  extra: Record<string, string | number | boolean> = {},
  afterStep?: () => Promise<void>,
): Promise<Driver> {
  w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles), ...o });
  const d = new Driver(w);
  await d.createAndStart(sc.ruleset, sc.pace, extra);
  for (const step of sc.steps) {
    await d.step(step);
    if (afterStep) await afterStep();
  }
  await w.bot.idle();
  expect((await w.bot.store.getGame(d.gameId))!.status).toBe('over');
  return d;
}

/** The channel's achievement announcements. */
const announcements = (world: World): StoredMessage[] =>
  world.fake.publicMessages(world.channel.id).filter((m) => m.content.startsWith('🏅'));

const player = async (d: Driver, userId: string, locale?: string): Promise<string> => {
  const r = await d.w.fake.slash(userId, d.w.channel.id, 'stats', {
    sub: 'player',
    options: {},
    ...(locale ? { locale } : {}),
  });
  await r.settled();
  return text(r.message);
};

/**
 * Waits for what a background rebuild writes (it sends nothing to Discord, so the fake's waitFor,
 * which looks again at each change of Discord's state, would not see it): asked every 50 ms.
 */
async function until(cond: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting for the rebuild');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const held = async (world: World, userId: string): Promise<string[]> =>
  (await world.bot.store.stats.playerAchievements(world.guild.id, 'chnu-2016', userId)).map((a) => a.code);

describe('achievements through Discord', () => {
  it('a played game earns them, announced once, listed in /stats player; a restart and a rebuild do not announce again; an annulment takes them back', async () => {
    const d = await played();
    const world = w!;
    const user = (seat: number) => world.users[seat - 1]!.id;
    const [ann, ...more] = announcements(world);
    expect(more).toEqual([]);
    const lines = ann!.content.split('\n');
    expect(lines[0]).toBe(`🏅 Achievements in game #${d.gameId}`);
    for (const s of FULL)
      expect(lines).toContain(`<@${user(s)}> — **Full strength**: a win with the whole team still at the table`);
    expect(lines).toContain(
      `<@${user(6)}> — **Don's nose**: as the Don, the Sheriff found with the check on the first night`,
    );
    expect(lines).toHaveLength(1 + FULL.length + 1);
    // Nobody is pinged by it; it comes after the points.
    expect(ann!.content).not.toMatch(/Clear sight|Three of three/);
    const posts = world.fake.publicMessages(world.channel.id);
    expect(posts.indexOf(ann!)).toBeGreaterThan(posts.findIndex((m) => /points/i.test(text(m))));

    // /stats player: the field with the name and the meaning.
    const sheriff = await player(d, user(4));
    expect(sheriff).toMatch(/Achievements\n🏅 \*\*Full strength\*\* — a win with the whole team still at the table/);
    expect(sheriff).not.toMatch(/Clear sight/); // two of three black players checked
    expect(await player(d, user(6))).toMatch(/🏅 \*\*Don's nose\*\* — as the Don, the Sheriff found/);
    expect(await player(d, user(3))).not.toMatch(/Achievements/); // a mafioso who lost

    // A restart: nothing is announced again.
    await world.bot.stop();
    world.bot = await startBot(botConfig(world.fake, world.dbPath));
    await world.bot.idle();
    expect(announcements(world)).toHaveLength(1);

    // A rebuild of the ratings (other Elo constants) derives them again, silently: a row no game
    // earned (written here by hand) is gone after it.
    await world.bot.store.stats.addAchievement({
      guildId: world.guild.id,
      ruleset: 'chnu-2016',
      userId: user(3),
      code: 'three-of-three',
      gameId: d.gameId,
      earnedAt: 1,
    });
    expect(await held(world, user(3))).toEqual(['three-of-three']);
    const admin = world.fake.addRole(world.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    world.fake.setMemberRoles(world.guild.id, world.host.id, [admin.id]);
    const set = await d.slash(world.host.id, 'mafia', 'rating', { win_factor: { type: 10, value: 40 } }, 'settings');
    expect(set.content).toMatch(/recomputed/);
    // (The rebuild runs in the background, in small steps: on a busy machine it takes seconds.)
    await until(async () => (await held(world, user(3))).length === 0);
    await until(async () => (await held(world, user(6))).includes('sharp-nose'));
    expect(await held(world, user(4))).toEqual(['full-strength']);
    await world.bot.idle();
    expect(announcements(world)).toHaveLength(1);

    // The host (who did not play) annuls the game: its achievements go with its results.
    const annul = await d.slash(world.host.id, 'host', 'annul', { reason: 'wrong table' });
    expect(annul.content ?? '').toMatch(/Done/);
    await until(async () => (await held(world, user(4))).length === 0);
    expect(await held(world, user(6))).toEqual([]);
    expect(await player(d, user(4))).not.toMatch(/Achievements/);
    expect(announcements(world)).toHaveLength(1);
    expect(world.fake.unhandled).toEqual([]);
  });

  it('the bot dies right after the closing commit: the announcement goes out after the restart, once', async () => {
    let restarts = 0;
    const d = await played({ crashAt: ['post-game'] }, {}, async () => {
      if (!w!.bot.crashed) return;
      restarts++;
      await w!.bot.kill();
      w!.bot = await startBot(botConfig(w!.fake, w!.dbPath, { dealer: fixedDealer(sc.roles) }));
      await w!.bot.idle();
    });
    expect(restarts).toBe(1);
    await w!.fake.waitFor(() => announcements(w!).length > 0);
    await w!.bot.idle();
    const all = announcements(w!);
    expect(all).toHaveLength(1);
    expect(all[0]!.content).toContain(`🏅 Achievements in game #${d.gameId}`);
    expect(await held(w!, w!.users[3]!.id)).toEqual(['full-strength']);
  });

  it('a casual game earns none', async () => {
    const d = await played({}, { rated: false });
    expect(announcements(w!)).toEqual([]);
    for (const u of w!.users) expect(await held(w!, u.id)).toEqual([]);
    expect(await player(d, w!.users[3]!.id)).not.toMatch(/Achievements/);
  });

  it('in Ukrainian: the announcement and /stats player', async () => {
    const d = await played({ guildLocale: 'uk', userLocale: 'uk' });
    const [ann, ...more] = announcements(w!);
    expect(more).toEqual([]);
    expect(ann!.content).toContain(`🏅 Досягнення в грі #${d.gameId}`);
    expect(ann!.content).toContain(`<@${w!.users[3]!.id}> — **Повний склад**: перемога, коли вся команда ще за столом`);
    expect(ann!.content).toContain(`<@${w!.users[5]!.id}> — **Нюх Дона**: Дон знаходить Шерифа першої ж ночі`);
    const own = await player(d, w!.users[5]!.id, 'uk');
    expect(own).toMatch(/Досягнення\n🏅 \*\*Нюх Дона\*\* — Дон знаходить Шерифа першої ж ночі/);
  });
});
