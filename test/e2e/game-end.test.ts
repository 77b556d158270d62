// Issue 21: the end of a game first and clear, closed is closed, answers that accumulate. A whole
// chnu-2016 game played through the fake Discord, read as the players read it.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { allComponents, type StoredMessage } from '../../testkit/fake-discord';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

let world: World | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

async function play(file: string): Promise<{ w: World; d: Driver }> {
  const sc = parseScenario(readJson(join(OWN_DIR, file)));
  const w = (world = await makeWorld({ players: sc.roles.length, dealer: fixedDealer(sc.roles) }));
  const d = new Driver(w);
  await d.createAndStart(sc.ruleset, sc.pace);
  for (const step of sc.steps) await d.step(step);
  return { w, d };
}

const live = (m: StoredMessage) => allComponents(m).filter((c) => c.type !== 1 && !c.disabled);
const countdown = /<t:\d+:R>/;

describe('the end of a game (E-1, E-5, S-4; issue 21)', () => {
  it('E-1, E-5, S-4: the final message leads with who won and why; the vote states its rule; its tally and outcome are told; then every control of the game is closed', async () => {
    // Night 2: the Sheriff's Don question is the last owed action; #5 dies: 3 black against 3 red.
    const { w } = await play('chnu-black-wins-at-night.json');
    const pub = w.fake.publicMessages(w.channel.id);
    const end = pub.find((m) => m.content.startsWith('🏆'))!;
    expect(end, 'the result message').toBeDefined();
    expect(end.content.split('\n')[0]).toBe('🏆 **The mafia (black) wins: 3 black against 3 red at the table.**');
    // Then the night's news, then roles and points (the embed), then the vote with its rule.
    expect(end.content.indexOf('☀️')).toBeGreaterThan(0);
    expect(end.embeds[0]!.title).toBe('Roles and points');
    expect(end.embeds[0]!.description).toContain('#6');
    expect(end.content).toContain(
      '5 votes or more, the host’s included, make the best player (+3); on a tie, the host’s pick decides.',
    );
    // Closed: the post-game message has no menu, no countdown, and says the vote is closed.
    expect(allComponents(end)).toEqual([]);
    expect(end.content).not.toMatch(countdown);
    expect(end.content).toContain('The best-player vote is closed.');
    // The points: the vote's tally (the host's vote counted) and its outcome.
    const points = pub.find((m) => (m.embeds[0]?.title ?? '').startsWith('Points'))!;
    const text = points.embeds[0]!.description!;
    expect(text).toContain('Best-player votes: #6');
    expect(text).toMatch(/#6[^,]* — 5 votes \(the host’s included\), #4[^,]* — 2 votes\./);
    expect(text).toMatch(/#6 .* has 5 votes or more and is the best player\./);
    // Nothing of the game is left live in the channel: no enabled control, and a closed message
    // shows no countdown.
    for (const m of pub) {
      expect(live(m), m.content.slice(0, 80)).toEqual([]);
      if (allComponents(m).length > 0) expect(m.content, m.content.slice(0, 80)).not.toMatch(countdown);
    }
    // Every night panel is closed: no enabled control in anybody's DMs, each says its night is over.
    for (const u of w.users)
      for (const m of w.fake.dms(u.id)) {
        expect(live(m), `${u.username}: ${m.content.slice(0, 80)}`).toEqual([]);
        if (m.content.includes('Night ') && m.content.includes('seat')) expect(m.content).not.toMatch(countdown);
      }
    expect(w.fake.unhandled).toEqual([]);
  });

  it('N-4, N-6: the Sheriff\'s night panel keeps every answer of the night: "black" and then the Don question\'s', async () => {
    const { w } = await play('chnu-black-wins-at-night.json');
    const sheriff = w.users[3]!; // seat 4
    const panels = w.fake.dms(sheriff.id).filter((m) => /night 2 is over/.test(m.content));
    expect(panels).toHaveLength(1);
    const lines = panels[0]!.content.split('\n').filter((l) => l.startsWith('🔎') || l.startsWith('✅'));
    // In the order it happened: the answer "black", then the question asked, then its answer.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^🔎 .*#3.*black/i);
    expect(lines[1]).toMatch(/^✅ .*#3.*Don/);
    expect(lines[2]).toMatch(/^🔎 .*#3.*not the Don/i);
  });
});
