// An action's writes write only what changes (Store.commitAction), on both databases: the game's
// status is named in the state's UPDATE only when it changes (SQLite rewrites an index of every
// column a SET names, changed or not), and the stage's end is written only when it moves. What is
// stored after each action of random games is what the rules of the stage's end say: the host's
// clock controls set it (G-7), every other action keeps a later end its stage was given.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GameService } from '../../src/app/game-service';
import type { Connection } from '../../src/db/connection';
import { statusOf, Store } from '../../src/db/store';
import { isClockControl } from '../../src/engine/replay';
import type { Action } from '../../src/engine/types';
import { RULESET_IDS } from '../../src/engine/rulesets';
import { randomAction, randomDeal, seededRng } from '../../src/sim/random-play';
import { postgresAvailable, postgresOrSkip } from '../../testkit/postgres';
import { connectionSubjects as subjects, type Opened } from '../../testkit/connections';

beforeAll(async () => {
  await (await postgresOrSkip('test/db/action-writes.test.ts'))?.drop();
});

type End = { stageSeq: number; dueAt: number } | null;

describe.each(subjects)('$name: an action writes what changes', ({ name, open }) => {
  const skip = name === 'postgres' && !postgresAvailable();
  let o: Opened;
  let c: Connection;
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    o = await open();
    c = o.c;
  });
  afterEach(async () => {
    if (!skip) await o.close();
  });

  it.each(RULESET_IDS)('%s: the status and the stage’s end stored after every action', async (ruleset) => {
    const store = new Store(c);
    let clock = 1_700_000_000_000;
    const service = new GameService(store, {
      now: () => clock,
      timers: { setTimeout: () => null, clearTimeout: () => {} },
    });
    // SQLite: every write that names the status, every write of the stage's end, counted.
    const counted = name === 'sqlite';
    if (counted) {
      o.sqlite!.exec(`
        create temp table writes (what text);
        create temp trigger status_named after update of status on games begin insert into writes values ('status'); end;
        create temp trigger end_added after insert on deadlines begin insert into writes values ('end'); end;
        create temp trigger end_moved after update on deadlines begin insert into writes values ('end'); end;`);
    }
    const writes = (what: string) =>
      (o.sqlite!.prepare('select count(*) n from writes where what = ?').get(what) as { n: number }).n;
    const rng = seededRng(7);
    let actions = 0;
    let clockControls = 0;
    for (let g = 0; g < 3; g++) {
      const game = await service.createLobby({
        guildId: 'g',
        channelId: `c${g}`,
        hostId: 'h',
        ruleset,
        pace: 'live',
        options: {},
      });
      const roles = randomDeal(rng, ruleset);
      await service.start(
        game.id,
        roles.map((_, i) => `u${i}`),
        roles,
      );
      const before = counted ? { status: writes('status'), end: writes('end') } : null;
      let statusChanges = 0;
      let step = 0;
      let endChanges = 0;
      let end: End = await store.deadlineOf(game.id);
      let status = (await store.getGame(game.id))!.status;
      for (;;) {
        const s = await service.state(game.id);
        if (!s || s.stage.kind === 'over') break;
        // Random play, with the host's clock controls now and then (random play has none).
        step++;
        const a: Action =
          step % 29 === 4
            ? { kind: 'host-pause' }
            : step % 29 === 5
              ? { kind: 'host-resume' }
              : step % 13 === 7
                ? { kind: 'host-extend', seconds: step % 2 === 0 ? 30 : -10 }
                : randomAction(s, rng)!;
        if (a.kind === 'timeout' && s.deadline !== null) clock = Math.max(clock, s.deadline);
        else clock += 100;
        const r = await service.dispatch(game.id, a, a.kind.startsWith('host') ? 'host:h' : 'system');
        if (!r.ok) continue;
        actions++;
        if (isClockControl(a.kind)) clockControls++;
        const after = (await service.state(game.id))!;
        // The stage's end as the rules keep it.
        const expected: End =
          after.deadline === null
            ? null
            : !isClockControl(a.kind) && end !== null && end.stageSeq === after.seq
              ? { stageSeq: after.seq, dueAt: Math.max(end.dueAt, after.deadline) }
              : { stageSeq: after.seq, dueAt: after.deadline };
        const stored = await store.deadlineOf(game.id);
        expect(stored, `after ${a.kind}`).toEqual(expected);
        // Written when it moves; a clock control writes it afresh (deleted, then added).
        const moved =
          expected !== null &&
          (isClockControl(a.kind) ||
            end === null ||
            end.stageSeq !== expected.stageSeq ||
            end.dueAt !== expected.dueAt);
        if (moved) endChanges++;
        end = stored;
        const row = (await store.getGame(game.id))!;
        expect(row.status).toBe(statusOf(after));
        if (row.status !== status) statusChanges++;
        status = row.status;
      }
      if (before) {
        expect(writes('status') - before.status).toBe(statusChanges);
        expect(writes('end') - before.end).toBe(endChanges);
      }
    }
    expect(actions).toBeGreaterThan(100);
    // Each game had its clock stopped, restarted and moved.
    expect(clockControls).toBeGreaterThan(6);
    await service.close();
  });
});
