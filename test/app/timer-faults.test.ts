// Issue 20: every timer path survives storage failures. A failure of the database under a timer's
// work (better-sqlite3 throwing SQLITE_IOERR, SQLITE_BUSY, SQLITE_FULL) is injected into that
// timer's own storage call; the process must not end (no exception out of a timer's callback, no
// unhandled rejection), the failure is logged, the work is tried again later with a growing delay
// (not in a tight loop) and done once the fault clears, and the game's host is told once per
// failure episode (not at every retry; again after a success).
//
// The timers: the stage timer (also end to end in test/e2e/delivery.test.ts, a read-only database
// during a timer), the reminder timer of asynchronous play, the sweep (a due deadline without a
// timer, the expiry of lobbies), the void timer of a suspended game (app/lifecycle.ts). Substitute
// calls and tournaments have no timers of their own: a tournament's games run on stage timers. The
// deliverer's own timer: test/delivery/storage-faults.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AsyncPlayRules, type AsyncView, type ReminderTo } from '../../src/app/async-play';
import { owedSeats } from '../../src/app/async-rules';
import { GameService } from '../../src/app/game-service';
import { Lifecycle, type LifecycleView } from '../../src/app/lifecycle';
import type { TimerHost } from '../../src/app/scheduler';
import { AsyncStore } from '../../src/db/async-store';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { LifecycleStore } from '../../src/db/lifecycle-store';
import { OutboxStore } from '../../src/db/outbox-store';
import { Store } from '../../src/db/store';
import type { GameState, Role } from '../../src/engine/types';

const DEAL: Role[] = ['civilian', 'civilian', 'mafia', 'sheriff', 'civilian', 'don', 'civilian', 'mafia'];
DEAL.push('civilian', 'civilian');
const USERS = DEAL.map((_, i) => `u${i + 1}`);
const H = 3_600_000;
const RETRY = 1000;

/** What better-sqlite3 throws when the disk fails under it. */
const ioError = (code = 'SQLITE_IOERR') => new Database.SqliteError('disk I/O error', code);

/**
 * Timers the test fires by hand, as the event loop would: an exception out of a callback is what
 * would end the process (Node's uncaught exception), so it is recorded, not thrown at the test.
 */
class LoopTimers implements TimerHost {
  pending = new Map<number, { fn: () => void; ms: number }>();
  /** Exceptions that escaped a timer's callback: each would have ended the process. */
  uncaught: unknown[] = [];
  private next = 1;
  setTimeout(fn: () => void, ms: number) {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(h: unknown) {
    this.pending.delete(h as number);
  }
  fireAll() {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const t of all) {
      try {
        t.fn();
      } catch (e) {
        this.uncaught.push(e);
      }
    }
  }
}

/** Reminders only: what the rules ask the view to show. */
class View implements AsyncView {
  reminded: { to: readonly ReminderTo[]; stage: string }[] = [];
  async absent(): Promise<void> {}
  async overdue(): Promise<void> {}
  async reminders(_g: unknown, state: GameState, to: readonly ReminderTo[]): Promise<void> {
    this.reminded.push({ to, stage: state.stage.kind });
  }
  async call(): Promise<void> {}
  async spectatorsThread(): Promise<void> {}
  async watchers(): Promise<string[] | null> {
    return null;
  }
  async spectators(): Promise<void> {}
  async substituted(): Promise<void> {}
}

const opened: OpenDb[] = [];
/** Promise rejections nobody handled (on Node 20 each ends the process). */
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => void unhandled.push(e);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  vi.restoreAllMocks();
  for (const o of opened.splice(0)) o.close();
});

function setup() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'mafia-faults-')), 'db.sqlite'));
  opened.push(db);
  const store = new Store(db.connection);
  const astore = new AsyncStore(db.connection);
  const now = { t: Date.UTC(2024, 0, 10, 12, 0) };
  const view = new View();
  const errors: string[] = [];
  /** Games whose host was told that the database failed (onStorageError). */
  const told: number[] = [];
  const stageTimers = new LoopTimers();
  const reminderTimers = new LoopTimers();
  const box: { rules: AsyncPlayRules | null } = { rules: null };
  const service = new GameService(store, {
    now: () => now.t,
    timers: stageTimers,
    storageRetryMs: RETRY,
    logger: { error: (m) => void errors.push(m) },
    lobbyTtlMs: 24 * H,
    plan: async (e) => {
      await box.rules!.before(e);
      await box.rules!.after(e);
    },
    committed: (_point, id) => void box.rules!.arm(id),
    onStorageError: (id) => void told.push(id),
  });
  const rules = new AsyncPlayRules({
    store,
    astore,
    service,
    view,
    now: () => now.t,
    kick: () => {},
    timers: reminderTimers,
  });
  box.rules = rules;
  async function start(pace: 'async' | 'live' = 'async'): Promise<number> {
    const game = await service.createLobby({
      guildId: 'g',
      channelId: 'c',
      hostId: 'host',
      ruleset: 'classic-10',
      pace,
      options: {},
      ui: { settings: pace === 'async' ? { autoEnd: true } : {} },
    });
    const r = await service.start(game.id, USERS, DEAL);
    if (!r.ok) throw new Error(r.code);
    return game.id;
  }
  /** Lets queued work, its effects and the guard's handlers run. */
  async function settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      await service.idle();
    }
  }
  return { db, store, astore, service, rules, view, now, errors, told, stageTimers, reminderTimers, start, settle };
}

type T = ReturnType<typeof setup>;

/** Plays on (by timeouts) until a stage in which somebody owes an action (it has reminders). */
async function toOwedStage(t: T, id: number): Promise<GameState> {
  let s = (await t.service.state(id))!;
  for (let n = 0; n < 5 && owedSeats(s).length === 0; n++) {
    t.now.t = Math.max(t.now.t, s.deadline!);
    const r = await t.service.dispatch(id, { kind: 'timeout', seq: s.seq }, 'timer');
    if (!r.ok) throw new Error(r.code);
    s = (await t.service.state(id))!;
  }
  return s;
}

/** Neither an exception out of a timer nor an unhandled rejection: the process lives. */
function expectAlive(t: T): void {
  expect(t.stageTimers.uncaught).toEqual([]);
  expect(t.reminderTimers.uncaught).toEqual([]);
  expect(unhandled).toEqual([]);
}

describe('timers survive storage failures (issue 20)', () => {
  it('a stage timer: logged, tried again later and later, the host told once; the timeout is saved once the disk is back', async () => {
    const t = setup();
    const id = await t.start('live');
    const s = (await t.service.state(id))!;
    const commit = vi.spyOn(t.store, 'commitAction');
    commit.mockImplementationOnce(() => {
      throw ioError();
    });
    commit.mockImplementationOnce(() => {
      throw ioError('SQLITE_FULL');
    });
    t.now.t = s.deadline!;
    t.stageTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect((await t.service.state(id))!.seq).toBe(s.seq);
    expect(t.errors).toEqual([expect.stringMatching(/^game \d+: a stage timer failed \(SQLITE_IOERR, 1 in a row\)/)]);
    expect(t.told).toEqual([id]);
    expect(t.service.scheduler.armed(id)).toEqual({ seq: s.seq, dueAt: t.now.t + RETRY });
    // The second failure: not told again, and the next try waits twice as long.
    t.now.t += RETRY;
    t.stageTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.errors[1]).toMatch(/a stage timer failed \(SQLITE_FULL, 2 in a row\); trying again in 2 s/);
    expect(t.told).toEqual([id]);
    expect(t.service.scheduler.armed(id)).toEqual({ seq: s.seq, dueAt: t.now.t + 2 * RETRY });
    // The disk is back: the timeout is saved.
    t.now.t += 2 * RETRY;
    t.stageTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect((await t.store.getState(id))!.seq).toBeGreaterThan(s.seq);
    expect(t.service.faults.failures).toBe(0);
    // A new failure later is a new episode: the host is told again.
    const s2 = (await t.service.state(id))!;
    commit.mockImplementationOnce(() => {
      throw ioError('SQLITE_BUSY');
    });
    t.now.t = s2.deadline!;
    t.stageTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.told).toEqual([id, id]);
    expect(t.service.scheduler.armed(id)).toEqual({ seq: s2.seq, dueAt: t.now.t + RETRY });
  });

  it('a reminder: logged, tried again later and later, the host told once; the reminder goes out once the disk is back', async () => {
    const t = setup();
    const id = await t.start();
    const s = await toOwedStage(t, id);
    const first = t.rules.scheduler.armed(id)!;
    expect(first.seq).toBe(s.seq);
    const due = vi.spyOn(t.astore, 'dueReminders');
    due.mockImplementationOnce(() => {
      throw ioError();
    });
    due.mockImplementationOnce(() => {
      throw ioError();
    });
    t.now.t = first.dueAt;
    t.reminderTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.view.reminded).toEqual([]);
    expect(t.errors).toEqual([expect.stringMatching(/^game \d+: a reminder failed \(SQLITE_IOERR, 1 in a row\)/)]);
    expect(t.told).toEqual([id]);
    // Not at once (the failed reminder is still due): after the guard's delay.
    expect(t.rules.scheduler.armed(id)!.dueAt).toBe(t.now.t + RETRY);
    t.now.t += RETRY;
    t.reminderTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.errors).toHaveLength(2);
    expect(t.told).toEqual([id]);
    expect(t.rules.scheduler.armed(id)!.dueAt).toBe(t.now.t + 2 * RETRY);
    // The disk is back: the reminder goes out, once, and the next one is armed.
    t.now.t += 2 * RETRY;
    t.reminderTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.view.reminded).toHaveLength(1);
    expect(t.view.reminded[0]!.to.map((r) => r.key)).toEqual(
      owedSeats(s).map((seat) => `remind:${s.seq}:half:${seat}`),
    );
    const next = t.rules.scheduler.armed(id)!;
    expect(next.dueAt).toBe(s.deadline! - H);
    expect(t.service.faults.failures).toBe(0);
    // A failure at the next reminder is a new episode: told again.
    due.mockImplementationOnce(() => {
      throw ioError('SQLITE_BUSY');
    });
    t.now.t = next.dueAt;
    t.reminderTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.told).toEqual([id, id]);
  });

  it('the next reminder cannot be looked up after a commit: the timer is armed to look again later', async () => {
    const t = setup();
    const id = await t.start();
    await toOwedStage(t, id);
    vi.spyOn(t.astore, 'nextReminder').mockImplementationOnce(() => {
      throw ioError();
    });
    await t.rules.arm(id);
    expectAlive(t);
    expect(t.errors).toEqual([expect.stringMatching(/a reminder failed \(SQLITE_IOERR/)]);
    expect(t.told).toEqual([id]);
    expect(t.rules.scheduler.armed(id)!.dueAt).toBe(t.now.t + RETRY);
    // The retry finds nothing due yet and arms the first pending reminder.
    t.now.t += RETRY;
    t.reminderTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(t.view.reminded).toEqual([]);
    const first = (await t.astore.allReminders(id)).find((r) => r.doneAt === null)!;
    expect(t.rules.scheduler.armed(id)!.dueAt).toBe(first.dueAt);
    expect(t.service.faults.failures).toBe(0);
  });

  it('the sweep: a due deadline it cannot save is tried again (the host told once), and the sweep goes on', async () => {
    const t = setup();
    const id = await t.start('live');
    const s = (await t.service.state(id))!;
    // The timer was lost (as after a bug): only the sweep sees the due deadline.
    t.service.scheduler.disarm(id);
    t.now.t = s.deadline! + 1;
    const commit = vi.spyOn(t.store, 'commitAction');
    commit.mockImplementationOnce(() => {
      throw ioError();
    });
    t.service.sweepTick();
    await t.settle();
    expectAlive(t);
    expect((await t.service.state(id))!.seq).toBe(s.seq);
    expect(t.errors).toEqual([expect.stringMatching(/^game \d+: a stage timer failed \(SQLITE_IOERR/)]);
    expect(t.told).toEqual([id]);
    // Its own timer tries again after the delay, and the next sweep does not make it twice.
    expect(t.service.scheduler.armed(id)).toEqual({ seq: s.seq, dueAt: t.now.t + RETRY });
    t.now.t += RETRY;
    t.stageTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect((await t.store.getState(id))!.seq).toBeGreaterThan(s.seq);
    expect(t.told).toEqual([id]);
    expect(t.service.faults.failures).toBe(0);
  });

  it('the sweep: a failing expiry of lobbies is logged and tried again at a later tick, not at every one', async () => {
    const t = setup();
    const lobby = await t.service.createLobby({
      guildId: 'g',
      channelId: 'c2',
      hostId: 'host',
      ruleset: 'classic-10',
      pace: 'live',
      options: {},
    });
    t.now.t += 25 * H;
    const expire = vi.spyOn(t.store, 'expireLobbies');
    expire.mockImplementationOnce(() => {
      throw ioError('SQLITE_BUSY');
    });
    expire.mockImplementationOnce(() => {
      throw ioError('SQLITE_BUSY');
    });
    t.service.sweepTick();
    await t.settle();
    expectAlive(t);
    expect(t.errors).toEqual([
      expect.stringMatching(/^the sweep failed \(SQLITE_BUSY, 1 in a row\); trying again in 1 s/),
    ]);
    expect((await t.store.getGame(lobby.id))!.status).toBe('lobby');
    // Housekeeping holds up no game: no host is told.
    expect(t.told).toEqual([]);
    // Cron's next ticks within the delay are skipped.
    t.service.sweepTick();
    await t.settle();
    expect(expire).toHaveBeenCalledTimes(1);
    t.now.t += RETRY;
    t.service.sweepTick();
    await t.settle();
    expectAlive(t);
    expect(expire).toHaveBeenCalledTimes(2);
    expect(t.errors[1]).toMatch(/the sweep failed \(SQLITE_BUSY, 2 in a row\); trying again in 2 s/);
    t.now.t += RETRY;
    t.service.sweepTick();
    await t.settle();
    expect(expire).toHaveBeenCalledTimes(2);
    // The database is back: the lobby expires.
    t.now.t += RETRY;
    t.service.sweepTick();
    await t.settle();
    expectAlive(t);
    expect((await t.store.getGame(lobby.id))!.status).toBe('expired');
    expect(t.service.faults.failures).toBe(0);
    expect(t.errors).toHaveLength(2);
  });

  it('the void of a suspended game: logged, tried again later and later, the host told once; the game is voided once the disk is back', async () => {
    const t = setup();
    const id = await t.start('live');
    const voidTimers = new LoopTimers();
    const voided: number[] = [];
    const view: LifecycleView = {
      suspended: async () => {},
      resumed: async () => {},
      voided: async (game) => void voided.push(game.id),
      restorePerms: async () => false,
    };
    const logged: string[] = [];
    const lifecycle = new Lifecycle({
      store: t.store,
      lstore: new LifecycleStore(t.db.connection),
      outbox: new OutboxStore(t.db.connection),
      service: t.service,
      view,
      now: () => t.now.t,
      log: { warn: (m) => void logged.push(m), error: (m) => void logged.push(m) },
      timers: voidTimers,
    });
    t.service.use({ plan: (e) => lifecycle.plan(e), suspended: (g) => lifecycle.isSuspended(g) });
    // The channel is lost: suspended, its clock stopped.
    expect(await lifecycle.suspend(id, 'no-access')).toBe(true);
    await t.settle();
    const voidAt = (await lifecycle.suspension(id))!.voidAt;
    expect(lifecycle.scheduler.armed(id)).toEqual({ seq: 0, dueAt: voidAt });
    // The period is over; the disk fails under the cancel, twice.
    const status = vi.spyOn(t.store, 'setStatus');
    status.mockImplementationOnce(() => {
      throw ioError();
    });
    status.mockImplementationOnce(() => {
      throw ioError('SQLITE_BUSY');
    });
    t.now.t = voidAt;
    voidTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(voidTimers.uncaught).toEqual([]);
    expect((await t.store.getGame(id))!.status).toBe('running');
    expect(await lifecycle.isSuspended(id)).toBe(true);
    expect(t.errors).toEqual([
      expect.stringMatching(
        /^game \d+: the void of a suspended game failed \(SQLITE_IOERR, 1 in a row\); trying again in 1 s/,
      ),
    ]);
    expect(t.told).toEqual([id]);
    expect(lifecycle.scheduler.armed(id)).toEqual({ seq: 0, dueAt: t.now.t + RETRY });
    // The second failure: not told again, and the next try waits twice as long.
    t.now.t += RETRY;
    voidTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(voidTimers.uncaught).toEqual([]);
    expect(t.errors[1]).toMatch(/the void of a suspended game failed \(SQLITE_BUSY, 2 in a row\); trying again in 2 s/);
    expect(t.told).toEqual([id]);
    expect(lifecycle.scheduler.armed(id)).toEqual({ seq: 0, dueAt: t.now.t + 2 * RETRY });
    // The disk is back: the game is voided, once, and the host told so.
    t.now.t += 2 * RETRY;
    voidTimers.fireAll();
    await t.settle();
    expectAlive(t);
    expect(voidTimers.uncaught).toEqual([]);
    expect((await t.store.getGame(id))!.status).toBe('cancelled');
    expect(await lifecycle.isSuspended(id)).toBe(false);
    expect(voided).toEqual([id]);
    expect(lifecycle.scheduler.armed(id)).toBeNull();
    expect(t.service.faults.failures).toBe(0);
    expect(t.errors).toHaveLength(2);
  });
});
