// The game service over a real SQLite file: one transaction per accepted action, effects after
// the commit, a per-game queue, deadlines stored and re-armed across a restart, housekeeping.
import { afterEach, describe, expect, it } from 'vitest';
import { GameService, type GameEffect } from '../../src/app/game-service';
import type { TimerHost } from '../../src/app/scheduler';
import { verifyStore } from '../../src/app/verify';
import { Store } from '../../src/db/store';
import { testDatabases } from '../../testkit/world';
import type { Role } from '../../src/engine/types';

const chnuDeal: Role[] = [
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
const users = chnuDeal.map((_, i) => `u${i + 1}`);

/** Timers the test fires by hand: no test depends on wall-clock speed. */
class ManualTimers implements TimerHost {
  pending = new Map<number, { fn: () => void; ms: number }>();
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
    for (const t of all) t.fn();
  }
}

// On SQLite, or on PostgreSQL under TEST_DB=postgres (vitest's postgres project).
const dbs = testDatabases();
afterEach(() => dbs.closeAll());

async function setup(file?: string, now = { t: 1_000_000 }) {
  const path = file ?? (await dbs.fresh());
  const open = await dbs.open(path);
  const store = new Store(open.connection);
  const effects: GameEffect[] = [];
  const timers = new ManualTimers();
  const service = new GameService(store, { now: () => now.t, timers, onEffect: (e) => void effects.push(e) });
  return { path, open, store, service, effects, timers, now };
}

async function startGame(svc: GameService) {
  const game = await svc.createLobby({
    guildId: 'g1',
    channelId: 'c1',
    hostId: 'host',
    ruleset: 'chnu-2016',
    pace: 'live',
    options: {},
  });
  const r = await svc.start(game.id, users, chnuDeal);
  if (!r.ok) throw new Error(r.code);
  return game.id;
}

describe('game service', () => {
  it('an accepted action is in the log and the state before its effect runs; a refused one is not logged', async () => {
    const { service, store, effects, now } = await setup();
    const id = await startGame(service);
    const seen: number[] = [];
    const svc2 = new GameService(store, {
      now: () => now.t,
      timers: new ManualTimers(),
      onEffect: async (e) => {
        if (e.kind === 'action') seen.push((await store.log(id)).length, (await store.getState(id))!.moves);
      },
    });
    const refused = await svc2.dispatch(id, { kind: 'check', seat: 4, target: 3 }, 'user:u4');
    expect(refused).toEqual({ ok: false, code: 'night/acquaintance' });
    expect(await store.log(id)).toHaveLength(0);
    now.t += 60_000;
    const r = await svc2.dispatch(id, { kind: 'timeout', seq: (await svc2.state(id))!.seq }, 'timer');
    expect(r.ok).toBe(true);
    await svc2.idle();
    expect(seen).toEqual([1, 1]);
    expect(await store.log(id)).toEqual([
      { seq: 1, action: { kind: 'timeout', seq: 1 }, actor: 'timer', at: 1_060_000 },
    ]);
    expect(effects.map((e) => e.kind)).toEqual(['lobby', 'started']);
  });

  it('concurrent clicks on one game are applied one at a time: no vote lost or doubled', async () => {
    const { service, store, now } = await setup();
    const id = await startGame(service);
    now.t += 60_000;
    await service.dispatch(id, { kind: 'timeout', seq: (await service.state(id))!.seq }, 'timer');
    await service.dispatch(id, { kind: 'nominate', seat: 1, target: 3 }, 'user:u1');
    for (let seat = 1; seat <= 10; seat++) await service.dispatch(id, { kind: 'pass', seat }, `user:u${seat}`);
    await service.dispatch(id, { kind: 'timeout', seq: (await service.state(id))!.seq }, 'timer'); // day 1, one candidate: no vote
    // Night 1: then day 2 with two candidates, and everybody votes at the same moment, twice.
    for (const [seat, target] of [
      [3, 5],
      [6, 5],
      [8, 5],
    ] as const)
      await service.dispatch(id, { kind: 'shoot', seat, target }, `user:u${seat}`);
    await service.dispatch(id, { kind: 'skip', seat: 6 }, 'user:u6');
    await service.dispatch(id, { kind: 'skip', seat: 4 }, 'user:u4');
    await service.dispatch(id, { kind: 'pass', seat: 5 }, 'user:u5'); // last words
    const st = (await service.state(id))!;
    expect(st.stage.kind).toBe('turns');
    await service.dispatch(id, { kind: 'nominate', seat: 2, target: 3 }, 'user:u2');
    await service.dispatch(id, { kind: 'pass', seat: 2 }, 'user:u2');
    await service.dispatch(id, { kind: 'nominate', seat: 3, target: 8 }, 'user:u3');
    for (const seat of [3, 4, 6, 7, 8, 9, 10, 1]) await service.dispatch(id, { kind: 'pass', seat }, `user:u${seat}`);
    expect((await service.state(id))!.stage.kind).toBe('vote');
    const voters = [1, 2, 3, 4, 6, 7, 8, 9, 10];
    const clicks = voters
      .flatMap((seat) => [seat, seat])
      .map((seat) => service.dispatch(id, { kind: 'vote', seat, target: seat % 2 ? 3 : 8 }, `user:u${seat}`));
    const results = await Promise.all(clicks);
    expect(results.filter((r) => r.ok)).toHaveLength(voters.length);
    // The second click is refused: already voted, or (for the last voter) the vote has closed.
    expect(new Set(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.code)))).toEqual(
      new Set(['vote/already-voted', 'vote/not-now']),
    );
    const voteEntries = (await store.log(id)).filter((e) => e.action.kind === 'vote');
    expect(voteEntries).toHaveLength(voters.length);
    expect((await verifyStore(store)).mismatches).toEqual([]);
  });

  it('host actions are written to the audit log with their reason', async () => {
    const { service, store } = await setup();
    const id = await startGame(service);
    await service.dispatch(id, { kind: 'host-foul', target: 2, count: 1 }, 'host:host', 'talked at night');
    await service.dispatch(id, { kind: 'host-kill', target: 7 }, 'host:host', 'left the server');
    await service.substitute(id, 5, 'u99', 'host:host', 'connection lost');
    expect(await service.substitute(id, 5, 'u1', 'host:host', null)).toEqual({
      ok: false,
      code: 'substitute/already-playing',
    });
    const audit = (await store.auditLog(id)).map((a) => [a.action, a.reason, JSON.parse(a.detail)]);
    expect(audit).toEqual([
      ['foul', 'talked at night', { kind: 'host-foul', target: 2, count: 1 }],
      ['kill', 'left the server', { kind: 'host-kill', target: 7 }],
      // moves: the accepted actions before the substitution (a substitute is rated for his part).
      ['substitute', 'connection lost', { seat: 5, from: 'u5', to: 'u99', moves: 2 }],
    ]);
    expect((await store.players(id))[4]).toEqual({ seat: 5, userId: 'u99', role: 'civilian' });
  });

  it('a finished game writes its results (points per player with the breakdown)', async () => {
    const { service, store } = await setup();
    const id = await startGame(service);
    await service.dispatch(id, { kind: 'host-end', winner: 'red' }, 'host:host');
    await service.dispatch(id, { kind: 'host-best', target: 4 }, 'host:host');
    await service.dispatch(id, { kind: 'host-skip' }, 'host:host');
    const rows = await store.resultsFor({ guildId: 'g1' });
    expect(rows).toHaveLength(10);
    const sheriff = rows.find((r) => r.seat === 4)!;
    expect(sheriff).toMatchObject({
      userId: 'u4',
      role: 'sheriff',
      team: 'red',
      outcome: 'win',
      points: 6,
      bestPlayer: false,
    });
    expect(JSON.parse(sheriff.breakdown)).toEqual({ win: 5, fullStrength: 1 });
    expect(await store.getGame(id)).toMatchObject({ status: 'over', winner: 'red' });
    expect(await store.deadlineOf(id)).toBeNull();
  });

  it('the deadline of each stage is stored and its timer fires a timeout for exactly that stage', async () => {
    const { service, store, timers, now } = await setup();
    const id = await startGame(service);
    expect(await store.deadlineOf(id)).toEqual({ stageSeq: 1, dueAt: 1_060_000 });
    now.t = 1_060_000;
    timers.fireAll();
    await service.idle();
    expect((await service.state(id))!.clock).toEqual({ phase: 'day', n: 1 });
    expect(await store.deadlineOf(id)).toEqual({ stageSeq: 2, dueAt: 1_120_000 });
    expect((await store.log(id)).map((e) => e.actor)).toEqual(['timer']);
    // A stale timer (for a stage that has ended) is refused and changes nothing.
    expect(await service.dispatch(id, { kind: 'timeout', seq: 1 }, 'timer')).toEqual({
      ok: false,
      code: 'timeout/stale',
    });
  });

  it('a deadline that passes while the bot is down ends its stage right after start-up, overdue ones in order', async () => {
    const clock = { t: 1_000_000 };
    const a = await setup(undefined, clock);
    const first = await startGame(a.service);
    clock.t += 30_000;
    const second = await startGame(a.service); // night 0 ends 30 s after the first one's
    await a.service.close();
    await dbs.close(a.open);

    clock.t += 10 * 60_000; // down for ten minutes
    const b = await setup(a.path, clock);
    expect((await b.service.state(first))!.stage.kind).toBe('night0');
    const r = await b.service.recover();
    expect(r).toEqual({ rearmed: 0, fired: 2 });
    expect((await b.service.state(first))!.clock).toEqual({ phase: 'day', n: 1 });
    expect((await b.service.state(second))!.clock).toEqual({ phase: 'day', n: 1 });
    // In order: the earlier deadline fired first; the next stages run from now with full timers.
    const fired = [(await b.store.log(first))[0]!, (await b.store.log(second))[0]!];
    expect(fired.map((e) => e.at)).toEqual([clock.t, clock.t]);
    expect((await b.store.deadlineOf(first))!.dueAt).toBe(clock.t + 60_000);
    expect((await verifyStore(b.store)).mismatches).toEqual([]);
  });

  it('pending deadlines in the future are re-armed at start-up', async () => {
    const clock = { t: 1_000_000 };
    const a = await setup(undefined, clock);
    const id = await startGame(a.service);
    await a.service.close();
    const b = await setup(a.path, clock);
    expect(await b.service.recover()).toEqual({ rearmed: 1, fired: 0 });
    expect(b.service.scheduler.armed(id)).toEqual({ seq: 1, dueAt: 1_060_000 });
  });

  it('the sweep fires due deadlines without a timer, expires old lobbies and archives old games', async () => {
    const { service, store, now } = await setup();
    const running = await startGame(service);
    const lobby = await service.createLobby({
      guildId: 'g1',
      channelId: 'c2',
      hostId: 'host',
      ruleset: 'kiev-12',
      pace: 'async',
      options: {},
    });
    const done = await startGame(service);
    await service.dispatch(done, { kind: 'host-end', winner: 'draw' }, 'host:host');
    await service.dispatch(done, { kind: 'host-skip' }, 'host:host');
    service.scheduler.stop(); // as if the timers were lost
    now.t += 8 * 24 * 3600_000;
    const r = await service.sweep();
    expect(r).toEqual({ fired: 1, expired: 1, archived: 1 });
    expect((await service.state(running))!.clock).toEqual({ phase: 'day', n: 1 });
    expect((await store.getGame(lobby.id))!.status).toBe('expired');
    expect((await store.getGame(done))!.status).toBe('archived');
  });

  it('issue 20: nothing is kept in memory about games cancelled, expired, finished, annulled or archived', async () => {
    const { service, store, now, timers } = await setup();
    const empty = { states: 0, extended: 0, storageWarned: 0, timers: 0, queues: 0, effects: 0 };
    expect(service.sizes()).toEqual(empty);
    const lobby = async () =>
      await service.createLobby({
        guildId: 'g1',
        channelId: 'c1',
        hostId: 'host',
        ruleset: 'chnu-2016',
        pace: 'live',
        options: {},
      });
    const N = 3;
    const cancelledLobbies: number[] = [];
    for (let k = 0; k < N; k++) cancelledLobbies.push((await lobby()).id);
    const expiring: number[] = [];
    for (let k = 0; k < N; k++) expiring.push((await lobby()).id);
    const cancelled: number[] = [];
    const finished: number[] = [];
    for (let k = 0; k < N; k++) cancelled.push(await startGame(service));
    for (let k = 0; k < N; k++) finished.push(await startGame(service));
    // While they are played, each has its state and its timer (what the test then sees released).
    expect(service.sizes()).toMatchObject({ states: 2 * N, timers: 2 * N });
    for (const id of cancelled) {
      // A stage end moved later because its message was seen late (kept until the game ends).
      await service.extendDeadline(id, (await service.state(id))!.seq, (await service.state(id))!.deadline! + 5_000);
    }
    expect(service.sizes().extended).toBe(N);
    for (const id of cancelledLobbies) expect((await service.cancel(id, 'host:host', null)).ok).toBe(true);
    for (const id of cancelled) expect((await service.cancel(id, 'host:host', 'no table')).ok).toBe(true);
    for (const id of finished) {
      await service.dispatch(id, { kind: 'host-end', winner: 'red' }, 'host:host');
      await service.dispatch(id, { kind: 'host-skip' }, 'host:host');
      expect((await store.getGame(id))!.status).toBe('over');
    }
    expect((await service.annul(finished[0]!, 'host:host', 'wrong deal')).ok).toBe(true);
    // Old games are read afterwards (/host log, the host panel, a timer that fired late): read, not kept.
    timers.fireAll();
    for (const id of [...cancelled, ...finished]) expect(await service.state(id)).not.toBeNull();
    for (const id of cancelled) await service.dispatch(id, { kind: 'timeout', seq: 1 }, 'timer');
    now.t += 8 * 24 * 3600_000;
    expect(await service.sweep()).toMatchObject({ expired: N, archived: N });
    for (const id of expiring) expect((await store.getGame(id))!.status).toBe('expired');
    for (const id of finished) expect(await service.state(id)).not.toBeNull();
    await service.idle();
    expect(service.sizes()).toEqual(empty);
  });

  it('lobby changes are serialized and refused once the game has started', async () => {
    const { service } = await setup();
    const game = await service.createLobby({
      guildId: 'g1',
      channelId: 'c1',
      hostId: 'host',
      ruleset: 'chnu-2016',
      pace: 'live',
      options: {},
    });
    const joins = await Promise.all(
      users.map((u) =>
        service.updateLobby(game.id, (l) =>
          l.members.includes(u) ? 'lobby/already-joined' : { ...l, members: [...l.members, u] },
        ),
      ),
    );
    expect(joins.every((j) => j.ok)).toBe(true);
    expect((await service.game(game.id))!.lobby.members).toEqual(users);
    await service.start(game.id, users, chnuDeal);
    expect(await service.updateLobby(game.id, (l) => l)).toEqual({ ok: false, code: 'lobby/closed' });
    expect(await service.start(game.id, users, chnuDeal)).toEqual({ ok: false, code: 'lobby/closed' });
  });
});
