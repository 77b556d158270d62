// The rules of asynchronous play (src/app/async-play.ts) on their own: no discord.js, a real
// SQLite file, the game service, timers fired by hand and a view that records what it is asked
// to show.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { owedSeats } from '../../src/app/async-rules';
import { AsyncPlayRules, spectatorMembers, type AsyncView, type ReminderTo } from '../../src/app/async-play';
import { GameService } from '../../src/app/game-service';
import type { TimerHost } from '../../src/app/scheduler';
import { AsyncStore, type SubstituteCall } from '../../src/db/async-store';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { Store } from '../../src/db/store';
import type { GameState, Role, Seat } from '../../src/engine/types';

const DEAL: Role[] = ['civilian', 'civilian', 'mafia', 'sheriff', 'civilian', 'don', 'civilian', 'mafia'];
DEAL.push('civilian', 'civilian');
const USERS = DEAL.map((_, i) => `u${i + 1}`);
const H = 3_600_000;

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
}

/** Records every call of the rules into the view. */
class RecordingView implements AsyncView {
  absents: { seat: Seat; count: number; key: string }[] = [];
  overdues: { owed: readonly Seat[]; key: string }[] = [];
  reminded: { to: readonly ReminderTo[]; end: number | null; stage: string }[] = [];
  calls: { call: SubstituteCall; filledBy: string | null; created: boolean }[] = [];
  threads: number[] = [];
  /** The spectators' thread's desired members, each time they were set. */
  memberships: { members: string[]; watchers: string[] }[] = [];
  /** Whether the game has a spectators' thread, and who watches it. */
  thread: string[] | null = null;
  welcomed: { seat: Seat; from: string; to: string }[] = [];

  async absent(_g: unknown, _s: GameState, seat: Seat, count: number, key: string): Promise<void> {
    this.absents.push({ seat, count, key });
  }
  async overdue(_g: unknown, _s: GameState, owed: readonly Seat[], key: string): Promise<void> {
    this.overdues.push({ owed, key });
  }
  async reminders(_g: unknown, state: GameState, to: readonly ReminderTo[], end: number | null): Promise<void> {
    this.reminded.push({ to, end, stage: state.stage.kind });
  }
  async call(
    _g: unknown,
    call: SubstituteCall,
    filledBy: string | null,
    _now: number,
    created: boolean,
  ): Promise<void> {
    this.calls.push({ call, filledBy, created });
  }
  async spectatorsThread(game: { id: number }): Promise<void> {
    this.threads.push(game.id);
  }
  async watchers(): Promise<string[] | null> {
    return this.thread;
  }
  async spectators(_g: unknown, members: string[], watchers: string[]): Promise<void> {
    this.memberships.push({ members, watchers });
    this.thread = watchers;
  }
  async substituted(_g: unknown, _s: GameState, seat: Seat, from: string, to: string): Promise<void> {
    this.welcomed.push({ seat, from, to });
  }
}

const opened: OpenDb[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

function setup() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'mafia-async-')), 'db.sqlite'));
  opened.push(db);
  const store = new Store(db.connection);
  const astore = new AsyncStore(db.connection);
  const now = { t: Date.UTC(2024, 0, 10, 12, 0) };
  const view = new RecordingView();
  let kicks = 0;
  const box: { rules: AsyncPlayRules | null } = { rules: null };
  const service = new GameService(store, {
    now: () => now.t,
    timers: new ManualTimers(),
    plan: async (e) => {
      await box.rules!.before(e);
      await box.rules!.after(e);
    },
    committed: (_point, id) => void box.rules!.arm(id),
    holdTimeout: (id, seq) => box.rules!.holdTimeout(id, seq),
  });
  const timers = new ManualTimers();
  const kick = () => void kicks++;
  const rules = new AsyncPlayRules({ store, astore, service, view, now: () => now.t, kick, timers });
  box.rules = rules;
  /** An async classic-10 game with these server settings, started. */
  async function start(settings: Record<string, unknown> = {}, pace: 'async' | 'live' = 'async'): Promise<number> {
    const game = await service.createLobby({
      guildId: 'g',
      channelId: 'c',
      hostId: 'host',
      ruleset: 'classic-10',
      pace,
      options: {},
      ui: { settings },
    });
    const r = await service.start(game.id, USERS, DEAL);
    if (!r.ok) throw new Error(r.code);
    return game.id;
  }
  /** The stage's timer runs out (the clock moved to its end). */
  async function timeout(id: number): Promise<GameState> {
    const s = (await service.state(id))!;
    now.t = Math.max(now.t, s.deadline!);
    const r = await service.dispatch(id, { kind: 'timeout', seq: s.seq }, 'timer');
    if (!r.ok) throw new Error(r.code);
    return (await service.state(id))!;
  }
  return { store, astore, service, rules, view, now, timers, start, timeout, kicks: () => kicks };
}

/** Plays on (by timeouts) until a stage in which somebody owes an action. */
async function toOwedStage(t: ReturnType<typeof setup>, id: number): Promise<GameState> {
  let s = (await t.service.state(id))!;
  for (let n = 0; n < 5 && (s.stage.kind === 'night0' || s.stage.kind === 'discussion'); n++) s = await t.timeout(id);
  return s;
}

describe('async play rules', () => {
  it('an owed stage has reminders halfway and an hour before its end, each sent once to who owes', async () => {
    const t = setup();
    const id = await t.start();
    const s = await toOwedStage(t, id);
    expect(s.stage.kind).toBe('window');
    const begun = t.now.t;
    const end = s.deadline!;
    expect(end - begun).toBeGreaterThan(2 * H);
    const pending = (await t.astore.allReminders(id)).filter((r) => r.doneAt === null);
    expect(pending.map((r) => [r.stageSeq, r.kind, r.dueAt])).toEqual([
      [s.seq, 'half', begun + Math.floor((end - begun) / 2)],
      [s.seq, 'hour', end - H],
    ]);
    // The earliest is armed.
    expect(t.rules.scheduler.armed(id)).toEqual({ seq: s.seq, dueAt: begun + Math.floor((end - begun) / 2) });
    // Halfway: every player who has not passed the window is reminded (not seat 4), each by his own key.
    const passed = await t.service.dispatch(id, { kind: 'pass', seat: 4 }, 'user:u4');
    expect(passed.ok).toBe(true);
    t.now.t = pending[0]!.dueAt;
    await t.rules.fire(id);
    const owed = owedSeats((await t.service.state(id))!);
    expect(owed.length).toBeGreaterThan(0);
    expect(owed).not.toContain(4);
    expect(t.view.reminded).toEqual([
      {
        to: owed.map((seat) => ({ seat, userId: `u${seat}`, key: `remind:${s.seq}:half:${seat}` })),
        end,
        stage: 'window',
      },
    ]);
    expect(t.rules.scheduler.armed(id)).toEqual({ seq: s.seq, dueAt: end - H });
    // Fired again: nothing more (the reminder is done).
    await t.rules.fire(id);
    expect(t.view.reminded).toHaveLength(1);
  });

  it('no reminder for a player who plays from the channel, none in quiet hours, none for a stale stage', async () => {
    const t = setup();
    const id = await t.start({ quietHours: { start: '00:00', end: '08:00', tz: 'UTC' } });
    const s = await toOwedStage(t, id);
    const game = (await t.store.getGame(id))!;
    const owed = await t.rules.remindersFor(game, s, 'half');
    expect(owed.length).toBeGreaterThan(0);
    expect(owed).not.toContain(4);
    const fallback = { ...game, lobby: { ...game.lobby, fallback: owed.map((r) => r.userId) } };
    expect(await t.rules.remindersFor(fallback, s, 'half')).toEqual([]);
    // The clock jumps into quiet hours past every reminder: they are let go unsent.
    const last = Math.max(...(await t.astore.allReminders(id)).map((r) => r.dueAt));
    t.now.t = Math.floor(last / (24 * H)) * 24 * H + 24 * H + 3 * H; // 03:00 UTC, after the last reminder
    await t.rules.fire(id);
    expect(t.view.reminded).toEqual([]);
    expect((await t.astore.allReminders(id)).every((r) => r.doneAt !== null)).toBe(true);
    expect(t.rules.scheduler.armed(id)).toBeNull();
  });

  it('an async player who lets his turn pass is flagged to the host after `absentAfter` misses, once', async () => {
    const t = setup();
    const id = await t.start({ absentAfter: 1 });
    const s = await toOwedStage(t, id);
    const game = (await t.store.getGame(id))!;
    const owed = (await t.rules.remindersFor(game, s, 'x')).map((r) => r.seat);
    await t.timeout(id);
    expect(t.view.absents).toEqual(owed.map((seat) => ({ seat, count: 1, key: `absent:${seat}:${s.moves}` })));
    expect((await t.astore.holder(id, owed[0]!))!.flaggedAt).not.toBeNull();
  });

  it('a live game counts no absences', async () => {
    const t = setup();
    const id = await t.start({ absentAfter: 1 }, 'live');
    await toOwedStage(t, id);
    await t.timeout(id);
    expect(t.view.absents).toEqual([]);
  });

  it('without auto-end a stage whose time is up waits for the host, who is told who is missing', async () => {
    const t = setup();
    const id = await t.start({ autoEnd: false });
    const s = await toOwedStage(t, id);
    const owed = (await t.rules.remindersFor((await t.store.getGame(id))!, s, 'x')).map((r) => r.seat);
    expect(await t.rules.holdTimeout(id, s.seq - 1)).toBe(false); // a stale timer
    expect(await t.rules.holdTimeout(id, s.seq)).toBe(true);
    expect(t.view.overdues).toEqual([{ owed, key: `overdue:${s.seq}:${(await t.store.deadlineOf(id))!.dueAt}` }]);
    expect(t.kicks()).toBe(1);
    // With auto-end (the default) the timer ends the stage.
    const other = await t.start();
    const s2 = await toOwedStage(t, other);
    expect(await t.rules.holdTimeout(other, s2.seq)).toBe(false);
  });

  it('substitute calls: one open call per seat; a volunteer is listed, then picked by the host', async () => {
    const t = setup();
    const id = await t.start();
    // By day: a call made at night waits for daybreak (N-13).
    await t.timeout(id);
    expect((await t.service.state(id))!.clock.phase).toBe('day');
    const game = (await t.store.getGame(id))!;
    expect(await t.rules.callSubstitute(game, 11, 'host')).toEqual({ code: 'seat/unknown' });
    expect(await t.rules.callSubstitute(game, 2, 'host')).toBeNull();
    expect(await t.rules.callSubstitute(game, 2, 'host')).toEqual({ code: 'subcall/open' });
    const call = t.view.calls[0]!.call;
    expect(t.view.calls[0]).toMatchObject({ created: true, filledBy: null, call: { seat: 2, status: 'open' } });
    expect(await t.rules.volunteer(game, call, 'u3', 'Three')).toEqual({ ok: false, code: 'subcall/playing' });
    expect(await t.rules.volunteer(game, call, 'host', 'Host')).toEqual({ ok: false, code: 'subcall/host' });
    const listed = await t.rules.volunteer(game, call, 'v1', 'Volunteer One');
    const call1 = { volunteers: ['v1'], names: { v1: 'Volunteer One' } };
    expect(listed).toMatchObject({ ok: true, seated: false, call: call1 });
    const open = (await t.rules.openCall(id, call.id))!;
    expect(await t.rules.volunteer(game, open, 'v1', 'Again')).toEqual({ ok: false, code: 'subcall/already' });
    expect(await t.rules.pick(game, open, 'nobody', 'host')).toEqual({ code: 'subcall/not-volunteer' });
    expect(await t.rules.pick(game, open, 'v1', 'host')).toBeNull();
    await t.service.idle(id);
    expect((await t.store.players(id)).find((p) => p.seat === 2)!.userId).toBe('v1');
    expect(t.view.welcomed).toEqual([{ seat: 2, from: 'u2', to: 'v1' }]);
    expect(t.view.calls.at(-1)).toMatchObject({ filledBy: 'v1', call: { status: 'filled' } });
    expect(await t.rules.openCall(id, call.id)).toBeNull();
    expect((await t.store.getGame(id))!.lobby.names?.v1).toBe('Volunteer One');
    // u2 held the seat through night 0, v1 from then on.
    expect((await t.rules.holders(id)).filter((h) => h.seat === 2).map((h) => h.userId)).toEqual(['u2', 'v1']);
  });

  it('N-13: one rule for every way a seat changes hands: no player, nobody replaced, no host, no watcher', async () => {
    const t = setup();
    const id = await t.start({ autoSubstitute: false });
    await t.timeout(id);
    t.view.thread = []; // the game has a spectators' thread (public facts only: the default)
    const game = async () => (await t.store.getGame(id))!;
    const host = (seat: number, user: string, by = 'host:host') => t.service.substitute(id, seat, user, by, null);
    expect(await t.rules.watch(await game(), 'fan')).toBeNull();
    // The host's command: a watcher (even with the roles hidden), a player, the host, the referee himself.
    expect(await host(3, 'fan')).toEqual({ ok: false, code: 'substitute/watched' });
    expect(await host(3, 'u4')).toEqual({ ok: false, code: 'substitute/already-playing' });
    expect(await host(3, 'host')).toEqual({ ok: false, code: 'substitute/host' });
    expect(await host(3, 'ref', 'host:ref')).toEqual({ ok: false, code: 'substitute/host' });
    // One replaced out of a seat does not come back into another.
    expect(await host(2, 'n1')).toEqual({ ok: true });
    expect(await host(3, 'u2')).toEqual({ ok: false, code: 'substitute/played' });
    // The volunteer: told the same, in his own words, before he is listed.
    expect(await t.rules.callSubstitute(await game(), 3, 'host')).toBeNull();
    const call = (await t.rules.openCall(id, t.view.calls.at(-1)!.call.id))!;
    expect(await t.rules.volunteer(await game(), call, 'fan', 'Fan')).toEqual({ ok: false, code: 'subcall/watched' });
    expect(await t.rules.volunteer(await game(), call, 'u2', 'Two')).toEqual({ ok: false, code: 'subcall/played' });
    expect(await t.rules.volunteer(await game(), call, 'host', 'Host')).toEqual({ ok: false, code: 'subcall/host' });
    // The pick: a volunteer who watched after he was listed is refused when picked.
    expect(await t.rules.volunteer(await game(), call, 'late', 'Late')).toMatchObject({ ok: true, seated: false });
    expect(await t.rules.watch(await game(), 'late')).toBeNull();
    expect(await t.rules.pick(await game(), (await t.rules.openCall(id, call.id))!, 'late', 'host')).toEqual({
      code: 'substitute/watched',
    });
    // Who handed the game over hosted it: he may not sit down either.
    expect(await t.service.transfer(id, 'next', 'host:host', null)).toEqual({ ok: true });
    expect(await host(3, 'host', 'host:next')).toEqual({ ok: false, code: 'substitute/host' });
    expect(await host(3, 'next', 'host:ref')).toEqual({ ok: false, code: 'substitute/host' });
    expect((await t.store.players(id)).map((p) => p.userId)).toEqual(['u1', 'n1', ...USERS.slice(2)]);
  });

  it('N-13: the first volunteer is refused the seat on the same rule (auto-substitute)', async () => {
    const t = setup();
    const id = await t.start({ autoSubstitute: true });
    await t.timeout(id);
    t.view.thread = [];
    const game = (await t.store.getGame(id))!;
    expect(await t.rules.watch(game, 'fan')).toBeNull();
    expect(await t.rules.callSubstitute(game, 3, 'host')).toBeNull();
    const call = (await t.rules.openCall(id, t.view.calls.at(-1)!.call.id))!;
    expect(await t.rules.volunteer(game, call, 'fan', 'Fan')).toEqual({ ok: false, code: 'subcall/watched' });
    expect(await t.rules.volunteer(game, call, 'v', 'V')).toEqual({ ok: true, seated: true });
    expect((await t.store.players(id)).find((p) => p.seat === 3)!.userId).toBe('v');
  });

  it('a host who plays gives a seat only to a volunteer of its call, and calls only for a seat flagged absent', async () => {
    const t = setup();
    const id = await t.start();
    await t.timeout(id);
    // u1 hosts the game and plays in it (seat 1).
    expect(await t.service.transfer(id, 'u1', 'host:host', null)).toEqual({ ok: true });
    const game = async () => (await t.store.getGame(id))!;
    // Not freely: not his second account, not without a call.
    expect(await t.service.substitute(id, 4, 'alt', 'host:u1', null)).toEqual({
      ok: false,
      code: 'host/playing-host-substitute',
    });
    expect(await t.rules.callSubstitute(await game(), 4, 'u1')).toEqual({ code: 'subcall/playing-host-absent' });
    // Seat 4 is flagged as absent (the bot's count): he may call; a volunteer is listed.
    await t.astore.flag(id, 4, t.now.t);
    expect(await t.rules.callSubstitute(await game(), 4, 'u1')).toBeNull();
    const call = (await t.rules.openCall(id, t.view.calls.at(-1)!.call.id))!;
    const listed = await t.rules.volunteer(await game(), call, 'v9', 'Nine');
    expect(listed).toMatchObject({ ok: true, seated: false });
    // Still not someone who did not volunteer; the volunteer, by the menu or by the command.
    expect(await t.service.substitute(id, 4, 'alt', 'host:u1', null)).toEqual({
      ok: false,
      code: 'host/playing-host-substitute',
    });
    expect(await t.rules.pick(await game(), (await t.rules.openCall(id, call.id))!, 'v9', 'u1')).toBeNull();
    expect((await t.store.players(id)).find((p) => p.seat === 4)!.userId).toBe('v9');
    // A host who does not play is not limited: a referee seats whom he names.
    expect(await t.service.substitute(id, 5, 'alt', 'host:ref', null)).toEqual({ ok: true });
  });

  it('M-3: Watch is refused to a living player and where there is no thread; a watcher is kept once', async () => {
    const t = setup();
    const id = await t.start();
    const game = (await t.store.getGame(id))!;
    expect(await t.rules.watch(game, 'u1')).toEqual({ code: 'spectators/living' });
    expect(await t.rules.watch(game, 'fan')).toEqual({ code: 'spectators/none' });
    t.view.thread = [];
    expect(await t.rules.watch(game, 'fan')).toBeNull();
    expect(await t.rules.watch(game, 'fan')).toBeNull();
    expect(t.view.memberships.at(-1)).toEqual({ members: ['fan'], watchers: ['fan'] });
    expect(t.view.thread).toEqual(['fan']);
  });

  it('M-3, G-5, G-7: the spectators follow the table: who leaves joins, who is brought back or seated leaves', async () => {
    const t = setup();
    const id = await t.start();
    t.view.thread = ['fan'];
    // A watcher may not take a seat (N-13: test/app/fair-hosting.test.ts); a newcomer takes seat 5, and the
    // one he replaced, no longer a player, is not in the thread unless he watches.
    expect(await t.service.substitute(id, 5, 'fan', 'host:host', null)).toEqual({
      ok: false,
      code: 'substitute/watched',
    });
    const subbed = await t.service.substitute(id, 5, 'new', 'host:host', null);
    expect(subbed.ok).toBe(true);
    await t.service.idle(id);
    expect(t.view.memberships.at(-1)).toEqual({ members: ['fan'], watchers: ['fan'] });
    // The host takes seat 1 out of the table (G-5): its player joins; brought back (G-7), he is out again.
    const out = await t.service.dispatch(id, { kind: 'host-kill', target: 1 }, 'host:host');
    expect(out.ok).toBe(true);
    expect(t.view.memberships.at(-1)).toEqual({ members: ['u1', 'fan'], watchers: ['fan'] });
    const back = await t.service.dispatch(id, { kind: 'host-revive', target: 1 }, 'host:host');
    expect(back.ok).toBe(true);
    expect(t.view.memberships.at(-1)).toEqual({ members: ['fan'], watchers: ['fan'] });
    // An action that moves nobody in or out of the table asks nothing of the thread.
    const n = t.view.memberships.length;
    await t.timeout(id);
    expect(t.view.memberships).toHaveLength(n);
  });

  it('M-3: who the spectators are, from the state: never a living player while the game is on', () => {
    const seats = [1, 2, 3].map((seat) => ({ seat, userId: `u${seat}` }));
    const state = (a: boolean[], over = false) =>
      ({
        players: a.map((x, i) => ({ seat: i + 1, alive: x })),
        result: over ? { winner: 'red' } : null,
      }) as unknown as GameState;
    expect(spectatorMembers(state([false, true, true]), seats, ['fan', 'u2'])).toEqual(['u1', 'fan']);
    expect(spectatorMembers(state([false, true, true], true), seats, ['fan', 'u2'])).toEqual(['u1', 'fan', 'u2']);
    expect(spectatorMembers(state([true, true, true]), seats, [])).toEqual([]);
  });
});
