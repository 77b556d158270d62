// Issue 23's "done when": two processes share one database (PostgreSQL; the SQLite file too, as
// issue 22's shard processes share it), each playing the games of its own shard (sim --shard I/N).
// One is SIGKILLed mid-game at random moments and resumed (--resume takes only its own games);
// the other runs untouched to its end meanwhile. Afterwards: every action either process
// acknowledged is in the log with its seq and kind, no action was acknowledged twice, each game's
// log runs 1..n without a gap or a repeat, the survivor's games hold exactly what it acknowledged
// (nothing more applied, nothing twice), every game finished, and db:verify replays every game to
// its stored state.
//
// "Sends nothing twice": the simulator plays through the game service alone (no Discord, no
// planner), so it writes no outbox row: nothing is there to send, and the test checks the outbox is
// empty. Delivery across a SIGKILL is checked with real bot processes against the fake Discord in
// test/e2e/shard-processes.test.ts (on PostgreSQL under TEST_DB=postgres).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shardOf } from '../../src/db/ownership';
import { Store } from '../../src/db/store';
import { seededRng } from '../../src/sim/random-play';
import { postgresOrSkip } from '../../testkit/postgres';
import { dbVerify, openSimDatabase, runSim, startSim, type Ack } from '../../testkit/sim-process';
import { testDatabase, testDb } from '../../testkit/world';

const SUITE = 'test/persistence/shared-crash.test.ts';
const KILLS = 3;
const KILLED_GAMES = 12; // shard 0's process: classic-10, killed KILLS times
const SURVIVOR_GAMES = 30; // shard 1's process: kiev-12, never touched (more games: it runs through the kills)

/** The database of one run: under TEST_DB=postgres only PostgreSQL; else the SQLite file and PostgreSQL. */
const subjects: ('sqlite' | 'postgres')[] = testDb() === 'postgres' ? ['postgres'] : ['sqlite', 'postgres'];

async function freshDatabase(kind: 'sqlite' | 'postgres'): Promise<{ path: string; drop(): Promise<void> } | null> {
  if (kind === 'postgres') {
    const pg = await postgresOrSkip(SUITE);
    return pg && { path: pg.url, drop: () => pg.drop() };
  }
  const d = await testDatabase();
  return { path: d.path, drop: () => d.drop() };
}

describe.each(subjects)('two processes share one database (%s); one is SIGKILLed mid-game', (kind) => {
  it(`${KILLS} kills of one process lose no acknowledged action of either, apply nothing twice; every game finishes; db:verify clean`, async (ctx) => {
    const database = await freshDatabase(kind);
    if (!database) return ctx.skip();
    const db = database.path;
    try {
      const rng = seededRng(4242);
      // The survivor: shard 1 of 2, its own games, started first and never killed.
      const survivor = startSim([
        '--db',
        db,
        '--shard',
        '1/2',
        '--games',
        String(SURVIVOR_GAMES),
        '--ruleset',
        'kiev-12',
        '--seed',
        '2',
        // A bot's pace at most (the file plays thousands a second): it plays on through every kill.
        '--rate',
        '300',
      ]);
      // The victim: shard 0 of 2, killed at random moments, resumed (its own games only).
      const victimAcks: Ack[] = [];
      let kills = 0;
      let killsWhileSurvivorRan = 0;
      const count = (r: { acks: Ack[]; killed: boolean }) => {
        victimAcks.push(...r.acks);
        if (!r.killed) return;
        kills++;
        // Still running when the victim had died (its close comes after the kill): running at the kill.
        if (!survivor.exited) killsWhileSurvivorRan++;
      };
      count(
        await runSim(
          ['--db', db, '--shard', '0/2', '--games', String(KILLED_GAMES), '--ruleset', 'classic-10', '--seed', '1'],
          30 + Math.floor(rng() * 200),
        ),
      );
      for (let round = 0; round < 20; round++) {
        const killAfter = kills < KILLS ? 20 + Math.floor(rng() * 300) : null;
        const r = await runSim(['--db', db, '--shard', '0/2', '--resume', '--seed', String(round + 7)], killAfter);
        count(r);
        if (!r.killed && kills >= KILLS) break;
      }
      const survived = await survivor.done;
      expect(kills).toBe(KILLS);
      // The scenario: the survivor was playing when the victim was killed (it has ten times the work).
      expect(killsWhileSurvivorRan).toBeGreaterThanOrEqual(1);
      expect(survived.killed).toBe(false);
      expect(survived.summary).toMatchObject({ games: SURVIVOR_GAMES, finished: SURVIVOR_GAMES });
      expect(survived.summary!.actions).toBe(survived.acks.length);

      const open = await openSimDatabase(db);
      try {
        const store = new Store(open.connection);
        const games = await store.gamesWithStatus(['lobby', 'running', 'post-game', 'over']);
        expect(games).toHaveLength(KILLED_GAMES + SURVIVOR_GAMES);
        expect(games.filter((g) => g.status !== 'over').map((g) => g.id)).toEqual([]);
        // Each process played only games of its own shard.
        const shard = new Map(games.map((g) => [g.id, shardOf(g.guildId, 2)]));
        expect([...shard.values()].filter((s) => s === 0)).toHaveLength(KILLED_GAMES);
        expect(victimAcks.filter((a) => shard.get(a.game) !== 0)).toEqual([]);
        expect(survived.acks.filter((a) => shard.get(a.game) !== 1)).toEqual([]);
        // No action acknowledged twice (the same game and seq), by one process or the two.
        const acked = [...victimAcks, ...survived.acks];
        const keys = acked.map((a) => `${a.game}:${a.seq}`);
        expect(keys.length - new Set(keys).size).toBe(0);

        const logs = new Map<number, Map<number, string>>();
        for (const g of games) {
          const log = await store.log(g.id);
          // Each game's log is 1..n: no gap, no seq twice.
          expect(
            log.map((e) => e.seq),
            `game ${g.id}`,
          ).toEqual(log.map((_, i) => i + 1));
          logs.set(g.id, new Map(log.map((e) => [e.seq, e.action.kind])));
        }
        // Every acknowledged action is in the log with its seq and kind.
        for (const a of acked) expect(logs.get(a.game)?.get(a.seq), `game ${a.game} seq ${a.seq}`).toBe(a.kind);
        // The survivor's games hold exactly what it acknowledged: nothing more, nothing twice.
        const survivorLogged = [...logs].filter(([id]) => shard.get(id) === 1).reduce((n, [, log]) => n + log.size, 0);
        expect(survivorLogged).toBe(survived.acks.length);
        // Nothing to send: the simulator writes no outbox row (see the header).
        const [outbox] = await open.connection.rows<{ n: number }>(sql`select count(*) as n from outbox`);
        expect(Number(outbox!.n)).toBe(0);
      } finally {
        await open.close();
      }

      const verify = dbVerify(db);
      expect(verify.status, verify.stderr).toBe(0);
      expect(verify.report).toMatchObject({ checked: KILLED_GAMES + SURVIVOR_GAMES, mismatches: [] });
    } finally {
      await database.drop();
    }
  }, 240_000);
});
