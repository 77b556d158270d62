// Issue 21, a newcomer's path, through the fake Discord: "how to play" for the rule set being played
// (/mafia rules and the Rules button of the lobby and the table, privately, in the reader's
// language), night 0 that says what it is for (G-4), complete role cards (N-6's "is it the Don?",
// the win condition of E-1/E-2), and commands named as command mentions with the ids the bot read
// from Discord at start-up (`</host transfer:ID>`).
import { afterEach, describe, expect, it } from 'vitest';
import { allCommands } from '../../src/discord/commands/definitions';
import { FakeDiscord, type InteractionResult } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { fixedDealer, limitsOf, makeWorld, type World } from '../../testkit/world';
import { setCommandIds } from '../../src/i18n';

const chnu = [
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
let fake: FakeDiscord | null = null;
afterEach(async () => {
  await w?.stop();
  await fake?.stop();
  w = null;
  fake = null;
  setCommandIds([]);
});

/** A fake Discord with the bot's commands registered globally, as `npm run deploy-commands` does. */
async function registeredFake(): Promise<FakeDiscord> {
  const f = await FakeDiscord.start({
    interactionTimeout: 10_000,
    interactionDeadlineMs: 3_000,
    rateLimits: limitsOf(),
  });
  const res = await fetch(`${f.apiBase}/v10/applications/${f.applicationId}/commands`, {
    method: 'PUT',
    headers: { Authorization: 'Bot test-token', 'Content-Type': 'application/json' },
    body: JSON.stringify(allCommands()),
  });
  expect(res.status).toBe(200);
  return f;
}

const idOf = (f: FakeDiscord, name: string) => f.commands().find((c) => c.name === name)!.id;
const embedOf = (r: InteractionResult) => r.message?.embeds[0];
const embedText = (r: InteractionResult) => {
  const e = embedOf(r);
  return `${e?.title ?? ''}\n${e?.description ?? ''}`;
};

describe('a newcomer’s path (issue 21)', () => {
  it('/mafia rules answers privately in the reader’s language: teams, roles, day, end, points; within Discord’s limits', async () => {
    fake = await registeredFake();
    w = await makeWorld({ players: 1, fake, userLocale: 'uk' });
    const d = new Driver(w);
    const r = await d.slash(w.users[0]!.id, 'mafia', 'rules', { ruleset: 'chnu-2016' });
    expect(r.ephemeral).toBe(true);
    const text = embedText(r);
    expect(text).toContain('Як грати: Турнір ЧНУ 2016');
    for (const word of [
      'Шериф',
      'Дон',
      'Мафія',
      'Мирний житель',
      'це Дон?',
      'ніч знайомства',
      'Порівну голосів',
      'Останнє слово',
      'Червоні перемагають',
      'Бали',
    ])
      expect(text, word).toContain(word);
    // The footer names /mafia role as a clickable mention with the registered id.
    expect(text).toContain(`</mafia role:${idOf(fake, 'mafia')}>`);
    expect(text).not.toMatch(/\b[GNDMFESTP]-\d+\b|chnu-2016/);
    const e = embedOf(r)!;
    expect(e.description!.length).toBeLessThanOrEqual(4096);
    expect((e.title ?? '').length + e.description!.length).toBeLessThanOrEqual(6000);
    // Without a game here and without a server default, the rule set must be named.
    const none = await d.slash(w.users[0]!.id, 'mafia', 'rules');
    expect(none.ephemeral).toBe(true);
    expect(none.content).toContain(`</mafia settings ruleset:${idOf(fake, 'mafia')}>`);
  });

  it('G-4, N-6, E-1: the Rules button of the lobby and the table; night 0 says what it is for; the chnu Sheriff’s card has the Don question and the win', async () => {
    fake = await registeredFake();
    w = await makeWorld({ players: 10, fake, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content!)![1]);
    // Anybody may read the rules from the lobby, before joining.
    const fromLobby = await w.fake.click(w.users[0]!.id, d.lobbyMessage(), `v1:p:${d.gameId}:rules`);
    expect(fromLobby.ephemeral).toBe(true);
    const lobbyRules = embedText(fromLobby);
    expect(lobbyRules).toContain('How to play: ChNU 2016');
    expect(lobbyRules).toContain('Night 0 is the acquaintance night');
    expect(lobbyRules).toContain('may also ask “is it the Don?”');
    // /mafia rules with no rule set: the game in this channel.
    expect(embedText(await d.slash(w.users[1]!.id, 'mafia', 'rules'))).toContain('How to play: ChNU 2016');
    for (const u of w.users) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await w.bot.idle();
    await (await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`)).settled();
    await w.bot.idle();
    // Night 0's stage message says what the night is for.
    const public0 = w.fake
      .messages(w.channel.id)
      .map((m) => m.content + (m.embeds[0]?.description ?? '') + (m.embeds[0]?.title ?? ''));
    expect(public0.join('\n')).toContain(
      'Night 0, the acquaintance night: the black players get to know each other; nobody shoots or checks.',
    );
    // The table's Rules button.
    const table = w.fake
      .messages(w.channel.id)
      .find((m) => w!.fake.components(m).some((c) => c.custom_id === `v1:p:${d.gameId}:rules` && !c.disabled));
    expect(table).toBeDefined();
    const fromTable = await w.fake.click(w.users[4]!.id, table!, `v1:p:${d.gameId}:rules`);
    expect(embedText(fromTable)).toContain('How to play: ChNU 2016');
    // The Sheriff's card (seat 4): the check, the Don question, and how the town wins.
    const card = w.fake.dms(w.users[3]!.id).find((m) => /Sheriff — seat 4/.test(m.embeds[0]?.title ?? ''))!;
    const desc = card.embeds[0]!.description!;
    expect(desc).toContain('After a “black” answer you may also ask: is it the Don?');
    expect(desc).toContain('The town wins when no black player is left at the table.');
    const don = w.fake.dms(w.users[5]!.id).find((m) => /Don — seat 6/.test(m.embeds[0]?.title ?? ''))!;
    expect(don.embeds[0]!.description).toContain(
      'The mafia wins as soon as there are as many black players as red ones.',
    );
  });

  it('a refusal that names a command shows it as a mention with the registered id: </host transfer:ID>', async () => {
    fake = await registeredFake();
    w = await makeWorld({ players: 9, fake, dealer: fixedDealer(chnu) });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content!)![1]);
    // The host plays too.
    for (const u of [w.host, ...w.users]) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await w.bot.idle();
    await (await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`)).settled();
    await w.bot.idle();
    const panel = await d.slash(w.host.id, 'host', 'panel');
    expect(panel.ephemeral).toBe(true);
    expect(panel.content).toContain(
      `hand the game to a host who is not playing (</host transfer:${idOf(fake, 'host')}>)`,
    );
  });

  it('a command whose id is unknown is plain text in the reader’s language', async () => {
    w = await makeWorld({ players: 1, userLocale: 'ru' }); // no commands registered in this fake
    const r = await new Driver(w).slash(w.users[0]!.id, 'mafia', 'rules');
    expect(r.content).toContain('/мафия настройки правила');
    expect(r.content).not.toContain('</');
  });
});
