// A game's lifecycle follows its channel and server (issue 20). When the game's channel is deleted,
// the bot may no longer see or post in it, or the bot is removed from the server, the game is
// suspended: it stops acting (no timer fires, no reminder, nothing of it is sent: its outbox rows
// are held, not dropped) and the host is told by DM, once. If access returns, the game resumes
// where it stopped (the stage's clock gets back all the time it had); if not, it is voided after
// VOID_AFTER_MS (cancelled: it never counts in standings or ratings) and the host is told.
//
// The suspension is a row (src/db/lifecycle-store.ts), so a restart re-arms nothing of the game.
// The clock is stopped with the host's own pause (G-7's `host-pause`, by the system), so every
// part that already follows a paused game (reminders, the stage's message, the replay) follows a
// suspended one too. What the players and the host read is written by a LifecycleView (the shell)
// inside the change's transaction. No discord.js here: the shell detects and calls in.
//
// Who may write (M-1, M-3) outlives a void: the game's end asks for every Send Messages deny it
// holds (`perm_holds`) to be given back, but its channel is out of reach then (or the bot has lost
// Manage Roles), so the holds stay. The `perms` slot is therefore not given up with the game's
// messages, and whenever the channel is in reach again (the gateway's review, and at start-up) an
// ended game that still holds denies there has its wish set again (restorePerms): the deliverer
// then gives back exactly what the holds say. Without it the players would stay muted for good.
import type { Suspension, LifecycleStore } from '../db/lifecycle-store';
import type { OutboxStore } from '../db/outbox-store';
import type { LostReason } from '../db/schema';
import type { GameRow, Store } from '../db/store';
import type { Pace } from '../engine/types';
import type { GameEffect, GameService } from './game-service';
import { Scheduler, type TimerHost } from './scheduler';

export type { LostReason } from '../db/schema';

/**
 * How long a suspended game waits for its channel before it is voided. A live game is played in
 * one sitting: a day later its players have gone. A game over days (async) has stages of 12-24 h,
 * so it gets three days: a server admin has time to notice and give the access back.
 */
export const VOID_AFTER_MS: Readonly<Record<Pace, number>> = {
  live: 24 * 3_600_000,
  async: 72 * 3_600_000,
};

const ACTIVE: ReadonlySet<string> = new Set(['lobby', 'running', 'post-game']);

/** What the host and the table read (written into the outbox inside the transaction given: storage only). */
export interface LifecycleView {
  /** The host, by DM: the game is paused because `s.reason`; it is voided at `s.voidAt` unless access returns. */
  suspended(game: GameRow, s: Suspension, now: number): Promise<void>;
  /** Access is back: the table is told the game goes on, and the host. */
  resumed(game: GameRow, s: Suspension, now: number): Promise<void>;
  /** The game was voided: the host, by DM. */
  voided(game: GameRow, s: Suspension, now: number): Promise<void>;
  /**
   * An ended game still holds Send Messages denies in its channel: its wish (the `perms` slot) is
   * set to nothing again, as a new version. False when a version is already on its way.
   */
  restorePerms(game: GameRow, now: number): Promise<boolean>;
}

export interface LifecycleLogger {
  warn(msg: string): void;
  error(msg: string, e?: unknown): void;
}

export interface LifecycleDeps {
  store: Store;
  lstore: LifecycleStore;
  outbox: OutboxStore;
  service: GameService;
  view: LifecycleView;
  now: () => number;
  log: LifecycleLogger;
  timers?: TimerHost;
}

export class Lifecycle {
  /** One timer per suspended game: when it is voided. */
  readonly scheduler: Scheduler;

  constructor(private readonly d: LifecycleDeps) {
    // Issue 20: the game service's guard (a storage failure is logged, tried again later with a
    // growing delay, told to the host once per episode, never the end of the process).
    this.scheduler = new Scheduler((gameId) => this.voidGame(gameId), d.now, d.timers, {
      faults: d.service.faults,
      what: 'the void of a suspended game',
    });
  }

  async isSuspended(gameId: number): Promise<boolean> {
    return (await this.d.lstore.get(gameId)) !== null;
  }

  suspension(gameId: number): Promise<Suspension | null> {
    return this.d.lstore.get(gameId);
  }

  /**
   * The game's channel (or the bot's access to it) is lost. Suspends a game that is still going,
   * at once (from now on no action, timer or message of it goes through). True when the game is
   * suspended (now or already). The caller cues the deliverer (the host's notice). What it reads
   * and writes is one transaction: two losses told at once suspend the game once.
   */
  async suspend(gameId: number, reason: LostReason): Promise<boolean> {
    const { store, lstore, outbox, service, view } = this.d;
    const s = await store.gameTransaction(gameId, async (): Promise<Suspension | boolean> => {
      const game = await store.getGame(gameId);
      if (!game || !ACTIVE.has(game.status)) return false;
      if (await lstore.get(gameId)) return true;
      const now = this.d.now();
      const state = game.status === 'lobby' ? null : await service.state(gameId);
      // The stored end may be later than the engine's (its message was seen late, quiet hours): the
      // difference is given back at the resume, with the time that was left.
      const row = await store.deadlineOf(gameId);
      const extraMs =
        state && !state.paused && state.deadline !== null && row && row.stageSeq === state.seq
          ? Math.max(0, row.dueAt - state.deadline)
          : 0;
      const s: Suspension = {
        gameId,
        reason,
        since: now,
        voidAt: now + VOID_AFTER_MS[game.pace],
        stageSeq: state?.seq ?? null,
        extraMs,
        clockStopped: false,
      };
      await lstore.add(s);
      await outbox.hold(gameId);
      await view.suspended(game, s, now);
      return s;
    });
    if (typeof s === 'boolean') return s;
    // (Asynchronous play's reminders need no stop: a paused stage's are let go, and the clock
    // stops next, in the game's queue, before anything else of the game can run.)
    service.scheduler.disarm(gameId);
    this.scheduler.arm(gameId, 0, s.voidAt);
    this.d.log.warn(`lifecycle: game ${gameId} suspended (${reason}); voided at ${new Date(s.voidAt).toISOString()}`);
    void this.stopClock(gameId);
    return true;
  }

  /** The clock of a suspended game stops (the host's pause, by the system), unless it already stands. */
  private async stopClock(gameId: number): Promise<void> {
    const state = await this.d.service.state(gameId);
    if (!state || state.paused || state.stage.kind === 'over') return;
    const r = await this.d.service
      .dispatch(gameId, { kind: 'host-pause' }, 'system')
      .catch((e: unknown) => ({ ok: false as const, code: String(e) }));
    if (!r.ok && r.code !== 'pause/already')
      this.d.log.warn(`lifecycle: could not stop the clock of game ${gameId} (${r.code})`);
  }

  /** Access to the game's channel is back: the game goes on where it stopped (the caller cues the deliverer). */
  async resume(gameId: number): Promise<void> {
    const { store, lstore, outbox, view } = this.d;
    const now = this.d.now();
    const done = await store.gameTransaction(gameId, async () => {
      const s = await lstore.get(gameId);
      if (!s) return null;
      const game = await store.getGame(gameId);
      if (!game || !ACTIVE.has(game.status)) {
        await this.end(gameId, game?.channelId ?? null, s.reason, now);
        return { s, forgot: true };
      }
      await lstore.remove(gameId);
      // What waited goes out first, in order, then the word that the game goes on.
      await outbox.release(gameId, now);
      await view.resumed(game, s, now);
      return { s, forgot: false };
    });
    if (!done) return;
    this.scheduler.disarm(gameId);
    if (done.forgot) return;
    const { s } = done;
    this.d.log.warn(`lifecycle: game ${gameId} resumed after ${Math.round((now - s.since) / 1000)} s`);
    if (s.clockStopped) void this.restartClock(gameId, s);
  }

  /** The clock runs again with the time it had left; the stored end's extra (seen late, quiet hours) too. */
  private async restartClock(gameId: number, s: Suspension): Promise<void> {
    const { service } = this.d;
    const r = await service
      .dispatch(gameId, { kind: 'host-resume' }, 'system')
      .catch((e: unknown) => ({ ok: false as const, code: String(e) }));
    if (!r.ok) {
      this.d.log.warn(`lifecycle: could not restart the clock of game ${gameId} (${r.code})`);
      return;
    }
    if (s.extraMs > 0 && r.state.seq === s.stageSeq && r.state.deadline !== null)
      await service.extendDeadline(gameId, r.state.seq, r.state.deadline + s.extraMs);
  }

  /**
   * The period is over and access did not return: the game is voided (cancelled, never rated).
   * Run by the void timer, whose guard takes a failure (a throw, a rejection): it is logged, the
   * host told once, and the void tried again after the guard's delay.
   */
  async voidGame(gameId: number): Promise<void> {
    const s = await this.d.lstore.get(gameId);
    if (!s) return;
    const now = this.d.now();
    if (now < s.voidAt) {
      this.scheduler.arm(gameId, 0, s.voidAt);
      return;
    }
    // The cancel's own transaction gives up what was held and tells the host (see plan).
    const r = await this.d.service.cancel(gameId, 'system', null);
    if (!r.ok) await this.forget(gameId, this.d.now());
    else this.d.log.warn(`lifecycle: game ${gameId} voided (${s.reason})`);
  }

  /** A suspension whose game ended otherwise: what it held is given up. */
  private async forget(gameId: number, now: number): Promise<void> {
    await this.d.store.gameTransaction(gameId, async () => {
      const s = await this.d.lstore.get(gameId);
      const game = await this.d.store.getGame(gameId);
      await this.end(gameId, game?.channelId ?? null, s?.reason ?? null, now);
    });
    this.scheduler.disarm(gameId);
  }

  /**
   * In a transaction: the game's held rows are given up, its messages left alone, the row removed.
   * Its `perms` slot stays: its last wish (nothing, at the end) is tried when the suspension is
   * gone, and set again whenever the channel is in reach later (restorePerms). Only a deleted
   * channel takes its overwrites with it: then the game's holds there are dropped too. (Its
   * threads' lock and members are given up: they decide nobody's writing in the channel.)
   */
  private async end(gameId: number, channelId: string | null, reason: LostReason | null, now: number): Promise<void> {
    const { outbox, lstore } = this.d;
    await outbox.dropHeld(gameId, 'void', now);
    const deleted = reason === 'channel-deleted';
    // Its channel is out of reach: the closed versions of its messages are not even tried.
    for (const slot of await outbox.gameSlots(gameId))
      if (slot.state !== 'gone' && (slot.kind !== 'perms' || deleted)) await outbox.setState(gameId, slot.key, 'gone');
    if (deleted && channelId !== null)
      for (const h of await outbox.permHolds(channelId))
        if (h.gameId === gameId) await outbox.dropPermHold(channelId, h.userId);
    await lstore.remove(gameId);
  }

  /**
   * The channel of a game that has ended is in reach again (the shell has checked that the bot may
   * manage its permissions), and the game still holds Send Messages denies there: they are given
   * back (the `perms` wish set again, for the deliverer). True when a new version was written (the
   * caller cues the deliverer).
   */
  async restorePerms(gameId: number): Promise<boolean> {
    const { store, view } = this.d;
    const game = await store.getGame(gameId);
    if (!game || ACTIVE.has(game.status)) return false;
    const now = this.d.now();
    const wrote = await store.gameTransaction(gameId, () => view.restorePerms(game, now));
    if (wrote) this.d.log.warn(`lifecycle: game ${gameId} (${game.status}): its denies in the channel are given back`);
    return wrote;
  }

  /**
   * Inside every change's transaction (after the planner): the clock a suspension stopped is
   * recorded; a suspended game that ends (voided, or cancelled or expired otherwise) gives up what
   * it held, and a voided one's host is told.
   */
  async plan(e: GameEffect): Promise<void> {
    const gameId = e.game.id;
    if (e.kind === 'action') {
      if (e.actor === 'system' && e.action.kind === 'host-pause' && (await this.d.lstore.get(gameId)))
        await this.d.lstore.setClockStopped(gameId);
      return;
    }
    if (e.kind !== 'cancelled' && e.kind !== 'expired') return;
    const s = await this.d.lstore.get(gameId);
    if (!s) return;
    const now = this.d.now();
    await this.end(gameId, e.game.channelId, s.reason, now);
    if (e.kind === 'cancelled' && e.by === 'system') await this.d.view.voided(e.game, s, now);
    this.scheduler.disarm(gameId);
  }

  /**
   * At start-up (after the shell has reviewed what it can reach): each suspended game's void timer
   * is armed (an overdue one fires now), and a clock a crash left running is stopped.
   */
  async recover(): Promise<number> {
    const list = await this.d.lstore.all();
    for (const s of list) {
      this.scheduler.arm(s.gameId, 0, s.voidAt);
      if (!s.clockStopped) void this.stopClock(s.gameId);
    }
    return list.length;
  }
}
