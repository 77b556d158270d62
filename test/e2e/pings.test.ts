// Issue 21: a ping asks a person to act now. In a live game only the speaker whose turn begins is
// pinged (the table is at the table); votes and windows ping those they wait for only in a game
// over days (test/e2e/async-play.test.ts). Counted here over a whole live game of each rule set.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { Driver } from '../../testkit/driver';
import { OWN_DIR, readJson } from '../../testkit/scenario-files';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

const GAMES = ['chnu-red-full-strength.json', 'classic-all-leave-ends-game.json', 'kiev-draw-quiet-rounds.json'];

describe('pings with purpose in a live game (issue 21)', () => {
  for (const file of GAMES) {
    it(`${file}: only the speaker whose turn begins is pinged; no vote pings the table`, async () => {
      const sc = parseScenario(readJson(join(OWN_DIR, file)));
      const world = (w = await makeWorld({ players: sc.roles.length, dealer: fixedDealer(sc.roles) }));
      const d = new Driver(world);
      await d.createAndStart(sc.ruleset, sc.pace);
      for (const step of sc.steps) await d.step(step);
      await world.bot.idle();
      const state = (await world.bot.store.getState(d.gameId))!;
      const perUser = new Map<string, number>();
      for (const m of world.fake.publicMessages(world.channel.id)) {
        const pinged = m.pinged ?? [];
        if (pinged.length === 0) continue;
        // A turn's message pings its speaker alone; a notice its player and the host.
        expect(pinged.length, m.content.slice(0, 80)).toBeLessThanOrEqual(2);
        // A vote's own message (its first version holds the ballot's buttons) pings nobody in a live game.
        const first = world.fake.history(m.id)[0] as unknown as { components?: unknown };
        expect(JSON.stringify(first?.components ?? []).includes(':vote:'), m.content.slice(0, 80)).toBe(false);
        for (const u of pinged) perUser.set(u, (perUser.get(u) ?? 0) + 1);
      }
      const days = Math.max(1, state.clock.n);
      const worst = Math.max(0, ...[...perUser.values()].map((n) => n / days));
      // At most a couple of turns of one's own a day (a speech, a shootout's, last words).
      expect(worst).toBeLessThanOrEqual(3);
      if (process.env.PINGS_REPORT)
        console.log(file, { days, perPlayerPerDay: [...perUser.values()].map((n) => +(n / days).toFixed(2)) });
    });
  }
});
