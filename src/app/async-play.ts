// Asynchronous play (issue 10), its rules: durable reminders before deadlines, quiet hours, absent
// players flagged to the host, substitute calls with volunteers, the spectators who join and leave
// (M-3). What players see is written by an AsyncView (the Discord shell renders it into the
// outbox) inside the change's transaction (or, for a reminder, in its own transaction with a key
// per seat and stage: exactly once). No discord.js here: this is tested on its own.
import type { AsyncStore, SeatHolder, SubstituteCall } from '../db/async-store';
import type { GameRow, Store } from '../db/store';
import type { GameState, RefusalCode, Seat } from '../engine/types';
import { owedIsSecret, owedSeats, quietDeadline, reminderTimes } from './async-rules';
import type { GameEffect, GameService } from './game-service';
import { ConductStore } from '../db/conduct-store';
import { joinRefusal } from './conduct';
import { asVolunteerRefusal, playsIn, playingHostMayCall, SEAT_REFUSAL, seatBar, type SeatingContext } from './hosts';
import { inQuietHours } from './quiet-hours';
import { Scheduler, type TimerHost } from './scheduler';
import { parseSettings, type ServerSettings } from './settings';

export function gameSettings(game: GameRow): ServerSettings {
  return parseSettings((game.ui as { settings?: unknown }).settings ?? {});
}

/** One reminder DM: the seat that owes an action, its player, the outbox key that makes it once. */
export interface ReminderTo {
  seat: Seat;
  userId: string;
  key: string;
}

/** A refusal: the code of its message (`refusal.<code>`). */
export interface AsyncRefusal {
  code: RefusalCode;
}

/**
 * What players see of asynchronous play, written where the rules say (the shell renders it into
 * the outbox). Every method is called inside a transaction, and awaits nothing but storage.
 */
export interface AsyncView {
  /** The host is told (by DM) that a seat let `count` stages pass without acting. */
  absent(game: GameRow, state: GameState, seat: Seat, count: number, key: string, now: number): Promise<void>;
  /** The host is told who still owes an action at a stage whose time is up. */
  overdue(game: GameRow, state: GameState, owed: readonly Seat[], key: string, now: number): Promise<void>;
  /** A reminder DM to each player who still owes an action; `end` is the stage's stored end. */
  reminders(game: GameRow, state: GameState, to: readonly ReminderTo[], end: number | null, now: number): Promise<void>;
  /** A substitute call's message (`created`: its first version), open, filled or closed. */
  call(game: GameRow, call: SubstituteCall, filledBy: string | null, now: number, created: boolean): Promise<void>;
  /** The spectators' thread of a game that started (where the channel allows one). */
  spectatorsThread(game: GameRow, state: GameState, now: number): Promise<void>;
  /** Who pressed Watch in this game, ever (null: the game has no spectators' thread). */
  watchers(gameId: number): Promise<string[] | null>;
  /** The spectators' thread's desired members (see spectatorMembers) and its watchers, if it exists. */
  spectators(game: GameRow, members: string[], watchers: string[], now: number): Promise<void>;
  /** A seat changed hands: the newcomer's welcome (the seat's private history), the old holder's notice. */
  substituted(game: GameRow, state: GameState, seat: Seat, from: string, to: string, now: number): Promise<void>;
}

export interface AsyncPlayDeps {
  store: Store;
  astore: AsyncStore;
  service: GameService;
  view: AsyncView;
  now: () => number;
  /** The deliverer's cue: something was written to the outbox outside a game's change. */
  kick: () => void;
  timers?: TimerHost;
}

/** What became of a volunteer: seated at once (auto-substitute), or listed for the host to pick. */
export type VolunteerResult =
  { ok: true; seated: true } | { ok: true; seated: false; call: SubstituteCall } | { ok: false; code: RefusalCode };

export class AsyncPlayRules {
  readonly scheduler: Scheduler;
  private readonly store: Store;
  private readonly astore: AsyncStore;
  private readonly service: GameService;
  private readonly view: AsyncView;
  private readonly now: () => number;
  private readonly kick: () => void;

  constructor(d: AsyncPlayDeps) {
    this.store = d.store;
    this.astore = d.astore;
    this.service = d.service;
    this.view = d.view;
    this.now = d.now;
    this.kick = d.kick;
    // Issue 20: the game service's guard (a storage failure is logged, tried again later, told to
    // the host once per episode, never the end of the process).
    this.scheduler = new Scheduler((gameId) => this.fire(gameId), d.now, d.timers, {
      faults: d.service.faults,
      what: 'a reminder',
    });
    // Issue 20: every substitution (whoever makes it) asks who watched and which calls are open.
    d.service.use({ seating: (gameId) => this.seating(gameId) });
  }

  /** Who watched the game in its spectators' thread, and its open substitute calls (app/hosts.ts seatBar). */
  async seating(gameId: number): Promise<SeatingContext> {
    const calls = (await this.astore.openCalls(gameId)).map((c) => ({ seat: c.seat, volunteers: c.volunteers }));
    return { watchers: (await this.view.watchers(gameId)) ?? [], calls };
  }

  // -------------------------------------------------------------------------------------------
  // Inside the change's transaction

  /** Before the planner: the stage's deadline (quiet hours), reminders, absences. */
  async before(e: GameEffect): Promise<void> {
    switch (e.kind) {
      case 'started':
        for (const s of e.seats) await this.astore.addHolder(e.game.id, s.seat, s.userId, 0);
        await this.stageBegan(e.game, e.state);
        return;
      case 'action': {
        const { game, prev, state, action } = e;
        if ('seat' in action && action.kind !== 'best') await this.astore.acted(game.id, action.seat);
        if (state.result && !prev.result)
          for (const c of await this.astore.openCalls(game.id)) await this.closeCall(game, c, null);
        // G-7: the host moved the stage's end (or resumed it): its reminders follow the new end.
        const clock = action.kind === 'host-resume' || action.kind === 'host-extend';
        if (state.seq === prev.seq && clock) await this.setStageReminders(game, state);
        if (state.seq === prev.seq) return;
        if (action.kind === 'timeout') await this.missed(game, prev);
        if (state.stage.kind === 'over' || state.result) await this.astore.clearReminders(game.id, this.now());
        else await this.stageBegan(game, state);
        return;
      }
      case 'cancelled':
      case 'expired':
        await this.astore.clearReminders(e.game.id, this.now());
        for (const c of await this.astore.openCalls(e.game.id)) await this.closeCall(e.game, c, null);
        return;
      default:
        return;
    }
  }

  /** After the planner (the newcomer's role card goes first; the table's messages before the thread). */
  async after(e: GameEffect): Promise<void> {
    if (e.kind === 'started') {
      await this.view.spectatorsThread(e.game, e.state, this.now());
      return;
    }
    if (e.kind === 'lobby') return;
    if (e.kind === 'substituted') await this.substituted(e.game, e.seat, e.from, e.to);
    // Daybreak: the calls for substitutes made during the night are posted now.
    if (e.kind === 'action' && owedIsSecret(e.prev) && !owedIsSecret(e.state))
      for (const c of await this.astore.openCalls(e.game.id)) await this.view.call(e.game, c, null, this.now(), true);
    // M-3: the spectators' thread follows who is at the table (only when that may have changed).
    if (e.kind === 'action' && !tableChanged(e.prev, e.state)) return;
    await this.spectate(e.game, e.kind === 'action' ? e.state : null);
  }

  /**
   * M-3: the spectators' thread brought in line with the game as it is now: who left the table and
   * who watches are in it, no living player (see spectatorMembers). Nothing when there is none.
   */
  private async spectate(game: GameRow, known: GameState | null, watcher?: string): Promise<void> {
    const watchers = await this.view.watchers(game.id);
    if (!watchers) return;
    const state = known ?? (await this.service.state(game.id)) ?? (await this.store.getState(game.id));
    if (!state) return;
    const all = watcher && !watchers.includes(watcher) ? [...watchers, watcher] : watchers;
    await this.view.spectators(game, spectatorMembers(state, await this.store.players(game.id), all), all, this.now());
  }

  /** A stage began: in async its deadline leaves quiet hours; its reminders are set. */
  private async stageBegan(game: GameRow, state: GameState): Promise<void> {
    const settings = gameSettings(game);
    if (state.deadline !== null && !state.paused) {
      const shifted = quietDeadline(state.deadline, state.pace, settings.quietHours);
      if (shifted !== null && shifted > state.deadline) await this.store.extendDeadline(game.id, state.seq, shifted);
    }
    await this.setStageReminders(game, state);
  }

  /** The stage's end: the engine's, or the stored one when it was moved later (null: none or paused). */
  private async stageEnd(gameId: number, state: GameState): Promise<number | null> {
    if (state.deadline === null) return null;
    const row = await this.store.deadlineOf(gameId);
    return row && row.stageSeq === state.seq ? Math.max(row.dueAt, state.deadline) : state.deadline;
  }

  /** The reminders of the current stage, from now to its (stored) end. */
  private async setStageReminders(game: GameRow, state: GameState): Promise<void> {
    const settings = gameSettings(game);
    const now = this.now();
    const end = state.paused ? null : await this.stageEnd(game.id, state);
    const owes = owedSeats(state).length > 0;
    const times = owes ? reminderTimes(now, end, state.pace, settings.reminders, settings.quietHours) : [];
    await this.astore.setReminders(game.id, state.seq, times, now);
  }

  /** A stage's timer ran out: whoever still owed an action let one more pass. */
  private async missed(game: GameRow, prev: GameState): Promise<void> {
    const settings = gameSettings(game);
    // Live games are watched by their host in the moment; a speech left to its timer is no absence there.
    if (settings.absentAfter === 0 || prev.pace !== 'async') return;
    // N-13: a host who plays must not learn who acts at night from this.
    if ((await this.hostPlays(game)) && owedIsSecret(prev)) return;
    const now = this.now();
    for (const seat of owedSeats(prev)) {
      if (!prev.players[seat - 1]!.alive) continue; // last words left unsaid: he has left anyway
      const n = await this.astore.miss(game.id, seat);
      const holder = await this.astore.holder(game.id, seat);
      if (n < settings.absentAfter || !holder || holder.flaggedAt !== null) continue;
      await this.astore.flag(game.id, seat, now);
      // Issue 24: the absence stays in the member's record (the seat's count is reset when he acts).
      await ConductStore.of(this.store.c).add({
        guildId: game.guildId,
        at: now,
        actorId: 'system',
        action: 'absent',
        userId: holder.userId,
        gameId: game.id,
      });
      await this.view.absent(game, prev, seat, n, `absent:${seat}:${prev.moves}`, now);
    }
  }

  private async substituted(game: GameRow, seat: Seat, from: string, to: string): Promise<void> {
    const state = (await this.service.state(game.id)) ?? (await this.store.getState(game.id));
    const now = this.now();
    await this.astore.replaceHolder(game.id, seat, from, to, state?.moves ?? game.moves);
    // The volunteer's name, for the menus that label seats by name.
    const name = (await this.astore.openCalls(game.id)).find((c) => c.seat === seat)?.names[to];
    const fresh = await this.store.getGame(game.id);
    if (name && fresh) {
      await this.store.setLobby(game.id, { ...fresh.lobby, names: { ...fresh.lobby.names, [to]: name } }, now);
    }
    for (const c of await this.astore.openCalls(game.id)) if (c.seat === seat) await this.closeCall(game, c, to);
    if (!state) return;
    await this.view.substituted(game, state, seat, from, to, now);
  }

  /**
   * N-13: whether the game's host sits or sat at its table (a seat's holder now, or one substituted
   * out: app/hosts.ts playedIn): such a host is never told who has not acted at night.
   */
  private hostPlays(game: GameRow): Promise<boolean> {
    return this.plays(game, game.hostId);
  }

  /** Whether this member sits or sat at the game's table (app/hosts.ts playedIn). */
  private plays(game: GameRow, userId: string): Promise<boolean> {
    return playsIn(this.store, game, userId);
  }

  /**
   * The server does not auto-end turns: a stage whose time is up while someone still owes an action
   * waits for the host, who is told (once) who is missing. A host who plays is never told who has
   * not acted at night (N-13): the night then ends by its timer as usual.
   */
  async holdTimeout(gameId: number, seq: number): Promise<boolean> {
    const game = await this.store.getGame(gameId);
    const state = await this.service.state(gameId);
    if (!game || !state || game.status !== 'running' || state.seq !== seq || gameSettings(game).autoEnd) return false;
    const owed = owedSeats(state);
    if (owed.length === 0) return false;
    if ((await this.hostPlays(game)) && owedIsSecret(state)) return false;
    await this.store.gameTransaction(gameId, async () => {
      const key = `overdue:${seq}:${(await this.store.deadlineOf(gameId))?.dueAt ?? 0}`;
      await this.view.overdue(game, state, owed, key, this.now());
    });
    this.kick();
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Reminders: durable rows, one timer per game for its earliest pending one

  /**
   * After a commit: the game's next reminder is armed. If the database cannot say which, the
   * timer's guard tries again later (fire then arms the right one). Never rejects.
   */
  arm(gameId: number): Promise<void> {
    return this.armNext(gameId).catch((e: unknown) => this.scheduler.failed(gameId, null, e));
  }

  private async armNext(gameId: number): Promise<void> {
    const next = await this.astore.nextReminder(gameId);
    if (next) this.scheduler.arm(gameId, next.stageSeq, next.dueAt);
    else this.scheduler.disarm(gameId);
  }

  /** At start-up: every pending reminder is armed again (overdue ones fire at once). */
  async recover(): Promise<number> {
    const ids = await this.astore.gamesWithReminders();
    for (const id of ids) await this.arm(id);
    return ids.length;
  }

  /**
   * A reminder is due: whoever still owes an action gets a DM with a button straight to it. A
   * storage failure rejects: the timer's guard logs it and tries again later (not at once: the
   * failed reminder is still due, so arming the next one now would fire into the same failure).
   */
  async fire(gameId: number): Promise<void> {
    const game = await this.store.getGame(gameId);
    const state = await this.service.state(gameId);
    const now = this.now();
    if (!game || !state || game.status !== 'running') {
      await this.astore.clearReminders(gameId, now);
      await this.armNext(gameId);
      return;
    }
    const settings = gameSettings(game);
    const quiet = settings.quietHours !== null && inQuietHours(now, settings.quietHours);
    await this.store.gameTransaction(gameId, async () => {
      for (const r of await this.astore.dueReminders(gameId, now)) {
        await this.astore.markReminder(gameId, r.stageSeq, r.kind, now);
        // A stale one (the stage moved on), a paused stage, quiet hours: nothing is sent.
        if (r.stageSeq !== state.seq || state.paused || quiet) continue;
        await this.remind(game, state, r.kind, now);
      }
    });
    this.kick();
    await this.armNext(gameId);
  }

  /** Who a reminder goes to: each seat that owes an action, but not a player who plays from the channel. */
  async remindersFor(game: GameRow, state: GameState, kind: string): Promise<ReminderTo[]> {
    const users = new Map((await this.store.players(game.id)).map((p) => [p.seat, p.userId]));
    const fallback = new Set(game.lobby.fallback ?? []);
    const out: ReminderTo[] = [];
    for (const seat of owedSeats(state)) {
      const u = users.get(seat);
      if (!u || fallback.has(u)) continue;
      // N-13: only by DM, never in public; keyed, so a reminder is sent once whatever happens.
      out.push({ seat, userId: u, key: `remind:${state.seq}:${kind}:${seat}` });
    }
    return out;
  }

  private async remind(game: GameRow, state: GameState, kind: string, now: number): Promise<void> {
    const to = await this.remindersFor(game, state, kind);
    await this.view.reminders(game, state, to, await this.stageEnd(game.id, state), now);
  }

  // -------------------------------------------------------------------------------------------
  // Substitute calls

  private async closeCall(game: GameRow, call: SubstituteCall, filledBy: string | null): Promise<void> {
    await this.astore.closeCall(call.id, filledBy ? 'filled' : 'closed');
    const closed = { ...call, status: filledBy ? ('filled' as const) : ('closed' as const) };
    await this.view.call(game, closed, filledBy, this.now(), false);
  }

  /** Whether a substitute call made now waits for the day to be posted (it is night: N-13). */
  async callWaitsForDay(game: GameRow): Promise<boolean> {
    const state = (await this.service.state(game.id)) ?? (await this.store.getState(game.id));
    return state !== null && owedIsSecret(state);
  }

  /**
   * The host calls for a substitute for a seat (the shell has checked that `hostId` may host it). A
   * host who plays may call one only for a seat flagged as absent (app/hosts.ts playingHostMayCall).
   * Checked and written in one transaction: two calls at once make one.
   */
  async callSubstitute(game: GameRow, seat: number, hostId: string): Promise<AsyncRefusal | null> {
    if (game.status !== 'running') return { code: 'subcall/not-running' };
    const refused = await this.store.gameTransaction(game.id, async (): Promise<AsyncRefusal | null> => {
      if (!(await this.store.players(game.id)).some((p) => p.seat === seat)) return { code: 'seat/unknown' };
      if (await this.astore.openCall(game.id, seat)) return { code: 'subcall/open' };
      if (await this.plays(game, hostId)) {
        const fair = playingHostMayCall(((await this.astore.holder(game.id, seat))?.flaggedAt ?? null) !== null);
        if (!fair.ok) return { code: fair.code };
      }
      const now = this.now();
      const c = await this.astore.createCall(game.id, seat, now);
      // N-13: at night a call would tell the table that this seat had something to do tonight
      // (absences at night are night actions left undone): it is posted at daybreak.
      if (!(await this.callWaitsForDay(game))) await this.view.call(game, c, null, now, true);
      return null;
    });
    if (refused) return refused;
    this.kick();
    return null;
  }

  /** An open call of the game (null: none by that id, or no longer open). */
  async openCall(gameId: number, id: number): Promise<SubstituteCall | null> {
    return (await this.astore.openCalls(gameId)).find((c) => c.id === id) ?? null;
  }

  /** The host picks one of the call's volunteers: he takes the seat. */
  async pick(
    game: GameRow,
    call: SubstituteCall,
    pick: string | undefined,
    hostId: string,
  ): Promise<AsyncRefusal | null> {
    if (!pick || !call.volunteers.includes(pick)) return { code: 'subcall/not-volunteer' };
    const r = await this.service.substitute(game.id, call.seat, pick, `host:${hostId}`, 'substitute call');
    return r.ok ? null : { code: r.code };
  }

  /**
   * A user volunteers: seated at once when the server substitutes automatically, else listed on
   * the call's message (the caller shows it, then cues the deliverer).
   */
  async volunteer(game: GameRow, call: SubstituteCall, userId: string, name: string): Promise<VolunteerResult> {
    const settings = gameSettings(game);
    // Issue 20: the rule of every substitution (app/hosts.ts seatBar), told before he is listed: no
    // player, nobody replaced earlier, no host of the game, nobody who watched it.
    const known = {
      hostId: ((await this.store.getGame(game.id)) ?? game).hostId,
      status: game.status,
      lobbyMembers: game.lobby.members,
      seats: await this.store.players(game.id),
      audit: await this.store.auditLog(game.id),
    };
    const bar = seatBar(userId, known, await this.seating(game.id), `user:${userId}`);
    if (bar) return { ok: false, code: SEAT_REFUSAL[bar].volunteer };
    // Issue 24: a member the server banned takes no seat, one paused takes none in a rated game.
    const conduct = await joinRefusal(this.store, game.guildId, userId, game.rated, this.now());
    if (conduct) return { ok: false, code: conduct.code };
    if (call.volunteers.includes(userId)) return { ok: false, code: 'subcall/already' };
    if (settings.autoSubstitute) {
      const r = await this.service.substitute(game.id, call.seat, userId, `user:${userId}`, 'first volunteer');
      return r.ok ? { ok: true, seated: true } : { ok: false, code: asVolunteerRefusal(r.code) };
    }
    // The call as it is now (another volunteer may have been listed since it was read), in the
    // transaction that lists him.
    return this.store.gameTransaction(game.id, async (): Promise<VolunteerResult> => {
      const cur = await this.openCall(game.id, call.id);
      if (!cur) return { ok: false, code: 'subcall/closed' };
      if (cur.volunteers.includes(userId)) return { ok: false, code: 'subcall/already' };
      const names = { ...cur.names, [userId]: name.slice(0, 60) };
      const next = { ...cur, volunteers: [...cur.volunteers, userId], names };
      await this.astore.setVolunteers(cur.id, next.volunteers, next.names);
      await this.view.call(game, next, null, this.now(), false);
      return { ok: true, seated: false, call: next };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Spectators and the game so far

  /** "Watch": a member who is not at the table joins the spectators' thread (M-3). */
  async watch(game: GameRow, userId: string): Promise<AsyncRefusal | null> {
    const state = await this.service.state(game.id);
    const playing = game.status === 'running' || game.status === 'post-game';
    if (!state || !playing) return { code: 'subcall/not-running' };
    const seat = (await this.store.players(game.id)).find((p) => p.userId === userId)?.seat;
    if (seat !== undefined && state.players[seat - 1]!.alive && !state.result) return { code: 'spectators/living' };
    if (!(await this.view.watchers(game.id))) return { code: 'spectators/none' };
    await this.store.gameTransaction(game.id, () => this.spectate(game, state, userId));
    this.kick();
    return null;
  }

  /** Who held each seat, in order (the Game so far lists the substitutions). */
  holders(gameId: number): Promise<SeatHolder[]> {
    return this.astore.holders(gameId);
  }
}

/** Whether anyone left the table or came back with this change, or the game ended or resumed. */
export function tableChanged(prev: GameState, state: GameState): boolean {
  if (!prev.result !== !state.result) return true;
  return state.players.some((p) => prev.players[p.seat - 1]?.alive !== p.alive);
}

/**
 * M-3 with G-5: who the spectators' thread holds — those who pressed Watch (members not at the
 * table, or players once the game is over) and the players who have left the table (the users now
 * holding their seats), never a living player while the game is on: one brought back (G-7) is
 * taken out (and so would be a watcher at the table, though none may take a seat: app/hosts.ts). One replaced by a substitute is no longer
 * a player: he is in it only if he watches. Once the game is over nothing is secret: nobody is
 * taken out, and the living may watch too.
 */
export function spectatorMembers(
  state: GameState,
  seats: readonly { seat: number; userId: string }[],
  watchers: readonly string[],
): string[] {
  const living = new Set<string>();
  const out = new Set<string>();
  for (const s of seats) {
    const p = state.players[s.seat - 1];
    if (!p) continue;
    if (p.alive) living.add(s.userId);
    else out.add(s.userId);
  }
  for (const w of watchers) if (state.result || !living.has(w)) out.add(w);
  return [...out];
}
