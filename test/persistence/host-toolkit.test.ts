// Issue 11 in the service and the store: undo persisted as its own log entry (db:verify replays
// it), pause across a restart of the service (no deadline to re-arm), extend moves the stored
// timer both ways, annul (the hook, results no longer counted), transfer; the settings store
// (zod on read and write, field by field, legacy columns) and the host rule.
import { afterEach, describe, expect, it } from 'vitest';
import { GameService } from '../../src/app/game-service';
import { canHost, hostRight } from '../../src/app/hosts';
import { DEFAULT_SETTINGS, parseSettings, readSettings, writeSettings } from '../../src/app/settings';
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

class ManualTimers implements TimerHost {
  readonly pending = new Map<number, () => void>();
  private next = 1;
  setTimeout(fn: () => void) {
    const id = this.next++;
    this.pending.set(id, fn);
    return id;
  }
  clearTimeout(h: unknown) {
    this.pending.delete(h as number);
  }
}

// On SQLite, or on PostgreSQL under TEST_DB=postgres (vitest's postgres project).
const dbs = testDatabases();
afterEach(() => dbs.closeAll());

async function setup(path?: string, now = { t: 1_000_000 }, annulled: number[] = []) {
  path ??= await dbs.fresh();
  const open = await dbs.open(path);
  const store = new Store(open.connection);
  const timers = new ManualTimers();
  const service = new GameService(store, { now: () => now.t, timers, onAnnulled: (id) => annulled.push(id) });
  return { path, store, service, timers, now, annulled };
}

async function started(svc: GameService) {
  const game = await svc.createLobby({
    guildId: 'g1',
    channelId: 'c1',
    hostId: 'host',
    ruleset: 'chnu-2016',
    pace: 'live',
    options: {},
  });
  const r = await svc.start(game.id, users, deal);
  if (!r.ok) throw new Error(r.code);
  return game.id;
}

describe('the host toolkit in the service (G-7)', () => {
  it('undo is its own log entry and an audit line; db:verify replays it; repeated undo walks back', async () => {
    const { store, service, now } = await setup();
    const id = await started(service);
    await service.dispatch(id, { kind: 'host-skip' }, 'host:host');
    now.t += 1000;
    const before = (await service.state(id))!;
    await service.dispatch(id, { kind: 'nominate', seat: 1, target: 3 }, 'user:u1');
    const r = await service.undo(id, 'host:host', 'misclick');
    expect(r.ok).toBe(true);
    expect({ ...(await service.state(id))!, moves: 0 }).toEqual({ ...before, moves: 0 });
    expect((await store.log(id)).map((e) => e.action.kind)).toEqual(['host-skip', 'nominate', 'host-undo']);
    expect((await store.auditLog(id)).slice(1).map((a) => [a.action, JSON.parse(a.detail), a.reason])).toEqual([
      ['undo', { undone: 2, what: 'nominate', seat: 1, target: 3 }, 'misclick'],
    ]);
    expect((await verifyStore(store)).mismatches).toEqual([]);
    const again = await service.undo(id, 'host:host', null);
    expect(again.ok ? 'ok' : again.code).toBe('undo/stage-closed');
    expect(await store.log(id)).toHaveLength(3); // a refusal is not logged
  });

  it('a pause survives a restart of the service: nothing is re-armed, nothing fires; resume re-arms the time left', async () => {
    const a = await setup();
    const id = await started(a.service);
    a.now.t += 10_000;
    await a.service.dispatch(id, { kind: 'host-pause' }, 'host:host', 'break');
    const left = (await a.service.state(id))!.paused!.remaining!;
    expect(left).toBe((await a.service.state(id))!.options.timers.night0 * 1000 - 10_000);
    expect(await a.store.deadlineOf(id)).toBeNull();
    await a.service.close();
    const now = { t: a.now.t + 86_400_000 }; // a day later
    const b = await setup(a.path, now);
    expect(await b.service.recover()).toEqual({ rearmed: 0, fired: 0 });
    expect(await b.service.sweep()).toMatchObject({ fired: 0 });
    expect(b.timers.pending.size).toBe(0);
    expect((await b.service.state(id))!.stage.kind).toBe('night0');
    await b.service.dispatch(id, { kind: 'host-resume' }, 'host:host');
    expect(await b.store.deadlineOf(id)).toEqual({ stageSeq: (await b.service.state(id))!.seq, dueAt: now.t + left });
    expect(b.timers.pending.size).toBe(1);
    expect((await verifyStore(b.store)).mismatches).toEqual([]);
  });

  it('extend moves the stored timer later and earlier (a later end it was shown does not hold it back)', async () => {
    const { store, service } = await setup();
    const id = await started(service);
    const d = (await service.state(id))!.deadline!;
    await service.extendDeadline(id, (await service.state(id))!.seq, d + 5_000); // its message was seen 5 s late
    expect((await store.deadlineOf(id))!.dueAt).toBe(d + 5_000);
    await service.dispatch(id, { kind: 'host-extend', seconds: -20 }, 'host:host');
    expect((await store.deadlineOf(id))!.dueAt).toBe(d - 20_000);
    await service.dispatch(id, { kind: 'host-extend', seconds: 60 }, 'host:host');
    expect((await store.deadlineOf(id))!.dueAt).toBe(d + 40_000);
    expect((await store.auditLog(id)).map((a) => JSON.parse(a.detail).seconds)).toEqual([-20, 60]);
  });

  it('annul: only a finished game, once; its results stop counting; the hook is called', async () => {
    const annulled: number[] = [];
    const { store, service } = await setup(undefined, undefined, annulled);
    const id = await started(service);
    expect(await service.annul(id, 'host:host', null)).toEqual({ ok: false, code: 'annul/not-finished' });
    await service.dispatch(id, { kind: 'host-end', winner: 'red' }, 'host:host');
    await service.dispatch(id, { kind: 'host-skip' }, 'host:host');
    expect(await store.resultsFor({ guildId: 'g1' })).toHaveLength(10);
    expect(await service.annul(id, 'host:host', 'wrong deal')).toEqual({ ok: true });
    expect(annulled).toEqual([id]);
    expect(await store.resultsFor({ guildId: 'g1' })).toHaveLength(0);
    expect((await store.getGame(id))!.status).toBe('over'); // still in the archive
    expect((await store.log(id)).length).toBeGreaterThan(0);
    expect(await service.annul(id, 'host:host', null)).toEqual({ ok: false, code: 'annul/already' });
    expect((await store.auditLog(id)).at(-1)).toMatchObject({ action: 'annul', reason: 'wrong deal' });
  });

  it('transfer: the new host is stored and the change is audited', async () => {
    const { store, service } = await setup();
    const id = await started(service);
    expect(await service.transfer(id, 'host', 'host:host', null)).toEqual({ ok: false, code: 'transfer/same-host' });
    expect(await service.transfer(id, 'h2', 'host:host', 'shift over')).toEqual({ ok: true });
    expect((await store.getGame(id))!.hostId).toBe('h2');
    expect((await store.auditLog(id)).at(-1)).toMatchObject({ action: 'transfer', reason: 'shift over' });
  });
});

describe('server settings', () => {
  it('are validated on write (nothing stored on a bad value) and read field by field', async () => {
    const { store } = await setup();
    expect(await readSettings(store, 'g9')).toEqual(DEFAULT_SETTINGS);
    expect(
      await writeSettings(store, 'g1', { ruleset: 'kiev-12', timers: { live: { speech: 45 }, async: {} } }, 1),
    ).toMatchObject({ ok: true });
    const bad = await writeSettings(store, 'g1', { pace: 'fast' }, 2);
    expect(bad.ok).toBe(false);
    expect(await readSettings(store, 'g1')).toMatchObject({
      ruleset: 'kiev-12',
      pace: 'live',
      timers: { live: { speech: 45 } },
    });
    expect((await writeSettings(store, 'g1', { timers: { live: { speech: 0 }, async: {} } }, 3)).ok).toBe(false);
    expect((await writeSettings(store, 'g1', { hostRole: 'not-a-snowflake' }, 3)).ok).toBe(false);
    // One bad field in the stored JSON (another version wrote it) falls back alone.
    expect(parseSettings({ ruleset: 'chess', pace: 'async', language: 'uk', extra: 1 })).toEqual({
      ...DEFAULT_SETTINGS,
      pace: 'async',
      language: 'uk',
    });
    expect(parseSettings('garbage')).toEqual(DEFAULT_SETTINGS);
  });

  it('read the columns of older versions and keep them in step', async () => {
    const { store } = await setup();
    await store.updateServer('g2', { locale: 'ru', mafiaTalkEveryNight: true, enforceSpeakingOrder: true }, 1);
    expect(await readSettings(store, 'g2')).toMatchObject({
      language: 'ru',
      mafiaTalk: 'every-night',
      speakingOrder: 'enforced',
    });
    await writeSettings(store, 'g2', { language: 'auto', speakingOrder: 'free' }, 2);
    expect(await store.getServer('g2')).toMatchObject({
      locale: null,
      mafiaTalkEveryNight: true,
      enforceSpeakingOrder: false,
    });
  });
});

describe('who hosts', () => {
  const game = { hostId: 'creator' };
  it('the creator, Manage Server, the host role; nobody else', () => {
    expect(hostRight({ userId: 'creator', manageGuild: false, roles: [] }, game, null)).toBe('creator');
    expect(hostRight({ userId: 'x', manageGuild: true, roles: [] }, game, null)).toBe('manage-server');
    expect(hostRight({ userId: 'x', manageGuild: false, roles: ['r1'] }, game, 'r1')).toBe('host-role');
    expect(canHost({ userId: 'x', manageGuild: false, roles: ['r1'] }, game, null)).toBe(false);
    expect(canHost({ userId: 'x', manageGuild: false, roles: ['r2'] }, game, 'r1')).toBe(false);
  });
});
