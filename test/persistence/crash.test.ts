// Nothing acknowledged is lost: the simulator is killed with SIGKILL at random moments, resumed,
// and at the end every acknowledged action is in the log, every game finished, and replaying every
// log from its deal gives the stored state (db:verify). On the SQLite file, or under
// TEST_DB=postgres on a fresh PostgreSQL database (issue 23).
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store';
import { seededRng } from '../../src/sim/random-play';
import { dbVerify, openSimDatabase, runSim, type Ack } from '../../testkit/sim-process';
import { testDatabase, testDb } from '../../testkit/world';

const KILLS_PER_RULESET = 7; // 21 kills across the suite
// PostgreSQL commits an action in a few round trips where SQLite writes the file in process: on
// PostgreSQL half the games, and kills after half as many acknowledgements (the same 7 kills).
const SCALE = testDb() === 'postgres' ? 0.5 : 1;
const GAMES = 40 * SCALE;

describe(`crash safety on ${testDb()}: SIGKILL at random moments, then --resume`, () => {
  for (const [i, ruleset] of (['chnu-2016', 'classic-10', 'kiev-12'] as const).entries()) {
    it.concurrent(
      `${ruleset}: ${KILLS_PER_RULESET} kills lose no acknowledged action; every game finishes; db:verify clean`,
      async () => {
        const database = await testDatabase();
        const db = database.path;
        try {
          const rng = seededRng(100 + i);
          const acked: Ack[] = [];
          let kills = 0;
          const first = await runSim(
            ['--db', db, '--games', String(GAMES), '--ruleset', ruleset, '--seed', String(i + 1)],
            Math.floor((50 + rng() * 400) * SCALE),
          );
          acked.push(...first.acks);
          if (first.killed) kills++;
          for (let round = 0; round < 40; round++) {
            const killAfter = kills < KILLS_PER_RULESET ? Math.floor((20 + rng() * 600) * SCALE) : null;
            const r = await runSim(['--db', db, '--resume', '--seed', String(round + 7)], killAfter);
            acked.push(...r.acks);
            if (r.killed) kills++;
            else if (kills >= KILLS_PER_RULESET) break;
          }
          expect(kills).toBeGreaterThanOrEqual(KILLS_PER_RULESET);

          const open = await openSimDatabase(db);
          try {
            const store = new Store(open.connection);
            // Every acknowledged action is in the log, with the same kind.
            const logs = new Map<number, Map<number, string>>();
            for (const id of await store.allGameIds())
              logs.set(id, new Map((await store.log(id)).map((e) => [e.seq, e.action.kind])));
            for (const a of acked) expect(logs.get(a.game)?.get(a.seq), `game ${a.game} seq ${a.seq}`).toBe(a.kind);
            // Every game finished, with results.
            const games = await store.gamesWithStatus(['lobby', 'running', 'post-game', 'over']);
            expect(games).toHaveLength(GAMES);
            expect(games.every((g) => g.status === 'over')).toBe(true);
          } finally {
            await open.close();
          }

          const verify = dbVerify(db);
          expect(verify.status, verify.stderr).toBe(0);
          expect(verify.report).toMatchObject({ checked: GAMES, mismatches: [] });
        } finally {
          await database.drop();
        }
      },
      // A guard, not a measure: PostgreSQL's run took 93 s alone, 150 s beside another file, of 2 cores.
      240_000 / SCALE,
    );
  }
});
