// Whole games of each rule set played through Discord by 10 or 12 simulated users: the same steps
// as the scenario files, but as clicks, menus, DMs and host commands. The result must equal the
// scenario's expectation, and the users must have seen it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { resultOf } from '../../src/scenario/run';
import { compareExpect, OWN_DIR, readJson, SHARED_DIR } from '../support/scenario-files';
import { Driver } from './driver';
import { fixedDealer, makeWorld, type World } from './world';

let world: World | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

async function playFile(file: string) {
  const raw = readJson(file) as { expect: Record<string, unknown> };
  const sc = parseScenario(raw);
  world = await makeWorld({ players: sc.roles.length, dealer: fixedDealer(sc.roles) });
  const d = new Driver(world);
  await d.createAndStart(sc.ruleset, sc.pace);
  const refused: number[] = [];
  for (const [i, step] of sc.steps.entries()) {
    const outcome = await d.step(step);
    if (outcome === 'refused') refused.push(i);
  }
  const state = world.bot.store.getState(d.gameId)!;
  const result = resultOf(state, refused) as unknown as Record<string, unknown>;
  expect(compareExpect(result, raw.expect), JSON.stringify(result)).toEqual([]);
  return { d, state, sc };
}

const games = [
  join(OWN_DIR, 'chnu-red-full-strength.json'),
  join(OWN_DIR, 'classic-all-leave-ends-game.json'),
  join(OWN_DIR, 'kiev-black-wins-rating.json'),
  join(SHARED_DIR, 'kiev-full-game.json'),
  join(SHARED_DIR, 'chnu-full-game.json'),
  join(SHARED_DIR, 'classic-tie-leave-all.json'),
].filter(existsSync);

describe('complete games through Discord', () => {
  for (const file of games) {
    it(`${file.split('/').pop()}`, async () => {
      const { d, state } = await playFile(file);
      const w = world!;
      // Every player got his role card by DM.
      for (const [i, u] of w.users.entries()) {
        const card = w.fake.dms(u.id).find((m) => m.embeds[0]?.title?.includes(`seat ${i + 1}`));
        expect(card, `card of seat ${i + 1}`).toBeDefined();
      }
      // The final reveal and the points table are in the channel.
      const pub = w.fake.publicMessages(w.channel.id);
      expect(pub.some((m) => /wins|Draw/.test(m.embeds[0]?.title ?? ''))).toBe(true);
      expect(pub.some((m) => (m.embeds[0]?.title ?? '').startsWith('Points'))).toBe(true);
      expect(state.stage.kind).toBe('over');
      expect(w.fake.unhandled).toEqual([]);
      void d;
    });
  }
});
