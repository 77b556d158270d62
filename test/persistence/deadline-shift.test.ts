// A turn's clock starts when players can see it: a stage whose message was delivered late gets a
// later end (never an earlier one), kept by later actions of the same stage and across a restart,
// while the engine's own deadline stays the earliest moment a timeout is accepted (replays agree).
import { afterEach, describe, expect, it } from 'vitest';
import { GameService } from '../../src/app/game-service';
import type { TimerHost } from '../../src/app/scheduler';
import { verifyStore } from '../../src/app/verify';
import { Store } from '../../src/db/store';
import { testDatabases } from '../../testkit/world';
import type { Role } from '../../src/engine/types';

const deal: Role[] = [
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
const users = deal.map((_, i) => `u${i + 1}`);

const noTimers: TimerHost = { setTimeout: () => null, clearTimeout: () => {} };
// On SQLite, or on PostgreSQL under TEST_DB=postgres (vitest's postgres project).
const dbs = testDatabases();
afterEach(() => dbs.closeAll());

async function open(path: string, now: { t: number }) {
  const db = await dbs.open(path);
  const store = new Store(db.connection);
  return { db, store, service: new GameService(store, { now: () => now.t, timers: noTimers }) };
}

describe('P-3 timers run from when the stage is visible', () => {
  it('a late message moves the timer later, a later action keeps it, a restart re-arms it; replay is unaffected', async () => {
    const path = await dbs.fresh();
    const now = { t: 1_000_000 };
    const { store, service } = await open(path, now);
    const game = await service.createLobby({
      guildId: 'g',
      channelId: 'c',
      hostId: 'h',
      ruleset: 'chnu-2016',
      pace: 'live',
      options: {},
    });
    await service.start(game.id, users, deal);
    await service.dispatch(game.id, { kind: 'host-skip' }, 'host:h'); // day 1: seat 1 speaks
    const s = (await service.state(game.id))!;
    expect(s.stage.kind).toBe('turns');
    const engineDeadline = s.deadline!;
    // Its message became visible 4 s late.
    await service.extendDeadline(game.id, s.seq, engineDeadline + 4000);
    expect(service.scheduler.armed(game.id)).toEqual({ seq: s.seq, dueAt: engineDeadline + 4000 });
    expect(await store.deadlineOf(game.id)).toEqual({ stageSeq: s.seq, dueAt: engineDeadline + 4000 });
    // Never earlier; a stale stage is ignored.
    await service.extendDeadline(game.id, s.seq, engineDeadline + 1000);
    await service.extendDeadline(game.id, s.seq - 1, engineDeadline + 9000);
    expect((await store.deadlineOf(game.id))!.dueAt).toBe(engineDeadline + 4000);
    // A nomination in the same turn keeps the later end.
    now.t += 1000;
    expect((await service.dispatch(game.id, { kind: 'nominate', seat: 1, target: 3 }, 'user:u1')).ok).toBe(true);
    expect((await store.deadlineOf(game.id))!.dueAt).toBe(engineDeadline + 4000);
    expect(service.scheduler.armed(game.id)!.dueAt).toBe(engineDeadline + 4000);
    // A restart re-arms the later end.
    await service.close();
    const again = await open(path, now);
    await again.service.recover();
    expect(again.service.scheduler.armed(game.id)).toEqual({ seq: s.seq, dueAt: engineDeadline + 4000 });
    // The timeout at the shown end is accepted, and the log replays to the stored state.
    now.t = engineDeadline + 4000;
    expect((await again.service.dispatch(game.id, { kind: 'timeout', seq: s.seq }, 'timer')).ok).toBe(true);
    expect((await verifyStore(again.store)).mismatches).toEqual([]);
  });
});
