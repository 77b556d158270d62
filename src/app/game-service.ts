// The game service: the only place where games change. Actions for one game are applied one at a
// time (a per-game queue); each accepted action is appended to the log and the new state saved in
// one transaction before any effect (a Discord message) is sent. Deadlines are stored with the
// state and re-armed at start-up; overdue ones fire at once, in order. Storage is asynchronous
// (SQLite or PostgreSQL behind src/db/connection.ts): inside a transaction nothing but storage is
// awaited (the planners write the outbox there), so one change never waits on another game.
import cron, { type ScheduledTask } from 'node-cron';
import { joinRefusal } from './conduct';
import { apply, createGame } from '../engine/apply';
import { isClockControl, planUndo } from '../engine/replay';
import type {
  Action,
  ActionKind,
  GameEvent,
  GameState,
  HostAction,
  HostActionKind,
  HostVerb,
  RefusalCode,
  Role,
} from '../engine/types';
import { detached } from '../db/connection';
import type { GameRow, LobbyInfo, Store } from '../db/store';
import { NO_SEATING, playedIn, playingHostMaySeat, SEAT_REFUSAL, seatBar, type SeatingContext } from './hosts';
import { KeyedQueue } from './keyed-queue';
import { Scheduler, TimerFaults, type TimerHost } from './scheduler';

/** Who did something: `user:<id>`, `host:<id>`, `timer` or `system`. */
export type ActorId = `user:${string}` | `host:${string}` | 'timer' | 'system';

export type GameEffect =
  | {
      kind: 'action';
      game: GameRow;
      action: Action;
      actor: ActorId;
      prev: GameState;
      state: GameState;
      events: readonly GameEvent[];
      /** For a host's undo (G-7): the action taken back. */
      undone?: Action;
    }
  | { kind: 'annulled'; game: GameRow; by: string; reason: string | null }
  | { kind: 'transferred'; game: GameRow; from: string; to: string; by: string }
  | { kind: 'started'; game: GameRow; state: GameState; seats: { seat: number; userId: string; role: Role }[] }
  | { kind: 'lobby'; game: GameRow }
  | { kind: 'expired'; game: GameRow }
  | { kind: 'cancelled'; game: GameRow; by: string }
  | { kind: 'substituted'; game: GameRow; seat: number; from: string; to: string; by: string };

/** The commits after which a crash matters most (fault-injection tests kill the bot there). */
export type CommitPoint = 'lobby' | 'deal' | 'action' | 'night' | 'vote' | 'game-end' | 'post-game' | 'cancel';

export function commitPointOf(prev: GameState, state: GameState): CommitPoint {
  if (state.stage.kind === 'over' && prev.stage.kind !== 'over') return 'post-game';
  if (state.result && !prev.result) return 'game-end';
  if (prev.stage.kind === 'night' && state.seq !== prev.seq) return 'night';
  if ((prev.stage.kind === 'vote' || prev.stage.kind === 'voteAll') && state.seq !== prev.seq) return 'vote';
  return 'action';
}

/** A refused request: nothing was changed. */
export type Refused = { ok: false; code: RefusalCode };

export type DispatchResult = { ok: true; state: GameState; events: readonly GameEvent[]; seq: number } | Refused;

export interface Logger {
  error(msg: string, err?: unknown): void;
  info?(msg: string): void;
}

/**
 * What the shell and the features do around a change: the planners that write the outbox, the
 * deliverer's cue, asynchronous play's hold, the ratings after an annul. They are registered after
 * the service is built (`use`), so the composition root builds everything top to bottom; hooks of
 * one kind run in the order they were registered.
 */
export interface ServiceHooks {
  /**
   * Writes what players must see because of a change (the outbox), inside the change's own
   * transaction: if it throws (or rejects), the change is not made. It awaits nothing but storage.
   */
  plan?: (e: GameEffect) => void | Promise<void>;
  /**
   * Reads, inside an accepted action's transaction and at the same time as the game's row, what
   * `plan` is going to read (kept in the transaction's cache; PostgreSQL: sent with BEGIN, one
   * round trip for all of it). Optional: `plan` reads whatever was not read here.
   */
  prefetch?: (gameId: number, e: { prev: GameState; state: GameState; action: Action }) => Promise<void>;
  /**
   * Runs a change's planning (all `plan` hooks) with the change known to it: the audience check
   * (src/discord/audience.ts) learns what caused the writes. The first registered is used.
   */
  around?: (e: GameEffect, plan: () => Promise<void>) => Promise<void>;
  /** After a transaction with effects committed (the deliverer's cue). */
  committed?: (point: CommitPoint, gameId: number) => void;
  /** Called after the commit, in order per game (tests and tools). */
  onEffect?: (e: GameEffect) => void | Promise<void>;
  /** The database failed during a timer or the sweep (disk full, read-only): tell someone. */
  onStorageError?: (gameId: number, e: unknown) => void;
  /** After a host annulled a finished game (the ratings recompute is wired here). */
  onAnnulled?(gameId: number): void;
  /**
   * A stage's timer ran out: true holds it open for the host instead of ending it (issue 10: a
   * server that does not auto-end turns). Called again by the sweep, so it must be idempotent.
   */
  holdTimeout?(gameId: number, seq: number): boolean | Promise<boolean>;
  /**
   * Issue 20: the game is suspended (its channel, or the bot's access to it, is lost): no timer
   * fires and only the system acts on it (the lifecycle stops and restarts its clock).
   */
  suspended?(gameId: number): boolean | Promise<boolean>;
  /**
   * Issue 20: who watched the game in its spectators' thread and the open substitute calls (async
   * play), for the rule of who may take a seat (app/hosts.ts seatBar, playingHostMaySeat).
   */
  seating?(gameId: number): SeatingContext | Promise<SeatingContext>;
}

export interface ServiceOptions extends ServiceHooks {
  now?: () => number;
  /** How soon a timed action that could not be saved is tried again (doubled at each failure in a row). */
  storageRetryMs?: number;
  /** The longest wait between two tries of a timed action that cannot be saved (default 5 min). */
  storageMaxRetryMs?: number;
  timers?: TimerHost;
  logger?: Logger;
  /** Lobbies untouched for this long expire (housekeeping). */
  lobbyTtlMs?: number;
  /** Finished games are archived after this long. */
  archiveAfterMs?: number;
}

/** Whether an action is the host's (written to the audit log under its verb, `host-` cut off). */
const IS_HOST_ACTION: { readonly [K in ActionKind]: K extends HostActionKind ? true : false } = {
  pass: false,
  nominate: false,
  vote: false,
  voteAll: false,
  shoot: false,
  check: false,
  askDon: false,
  heal: false,
  freeze: false,
  kill: false,
  skip: false,
  take: false,
  guess: false,
  best: false,
  timeout: false,
  'host-foul': true,
  'host-remove': true,
  'host-kill': true,
  'host-skip': true,
  'host-end': true,
  'host-best': true,
  'host-bonus': true,
  'host-pause': true,
  'host-resume': true,
  'host-extend': true,
  'host-revive': true,
  'host-undo': true,
};
const isHostAction = (a: Action): a is HostAction => IS_HOST_ACTION[a.kind];
/** `host-foul` -> `foul`, the audit log's name of the verb. */
const hostVerb = (kind: HostActionKind): HostVerb => kind.slice('host-'.length) as HostVerb;

/** Thrown inside an action's transaction to refuse it: its game is no longer played. */
class NotPlayed extends Error {
  constructor() {
    super('game/not-running');
  }
}

export class GameService {
  readonly now: () => number;
  readonly scheduler: Scheduler;
  /**
   * The guard of every timer's work (stage timers, reminders, the sweep; issue 20): a storage
   * failure is logged, tried again with a growing delay, and told to the host once per episode
   * through onStorageError.
   */
  readonly faults: TimerFaults;
  private readonly states = new Map<number, GameState>();
  /** Each game's actions, one at a time. */
  private readonly queues = new KeyedQueue<number>();
  /** Each game's effects, in order, after the transaction that caused them. */
  private readonly effects = new KeyedQueue<number>();
  /** The hooks, the options' own first (see ServiceHooks). */
  private readonly hooks: ServiceHooks[];
  /** Stage ends moved later because the stage's message was seen late (see extendDeadline). */
  private readonly extended = new Map<number, { seq: number; dueAt: number }>();
  private readonly logger: Logger;
  private cronTask: ScheduledTask | null = null;
  /** The sweep failed: cron's ticks before this time are skipped (its backoff). */
  private sweepAfter = 0;
  private closed = false;

  constructor(
    readonly store: Store,
    private readonly opts: ServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.hooks = [opts];
    this.logger = opts.logger ?? { error: (m, e) => console.error(m, e) };
    this.faults = new TimerFaults({
      log: this.logger,
      retryMs: opts.storageRetryMs ?? 30_000,
      ...(opts.storageMaxRetryMs !== undefined ? { maxRetryMs: opts.storageMaxRetryMs } : {}),
      tell: (gameId, e) => {
        for (const h of this.hooks) h.onStorageError?.(gameId, e);
      },
    });
    this.scheduler = new Scheduler((id, seq, due) => this.onTimer(id, seq, due), this.now, opts.timers, {
      faults: this.faults,
      what: 'a stage timer',
    });
  }

  /** Registers hooks after the ones already there (see ServiceHooks). */
  use(hooks: ServiceHooks): void {
    this.hooks.push(hooks);
  }

  /** Writes what players must see because of a change, inside its transaction (throws to undo it). */
  private async planEffect(e: GameEffect): Promise<void> {
    const plan = async () => {
      for (const h of this.hooks) await h.plan?.(e);
    };
    const around = this.hooks.find((h) => h.around)?.around;
    if (around) await around(e, plan);
    else await plan();
  }

  private async onEffect(e: GameEffect): Promise<void> {
    for (const h of this.hooks) await h.onEffect?.(e);
  }

  // -------------------------------------------------------------------------------------------
  // Queues

  /**
   * Runs `task` after every earlier task of the same game (whatever became of them), as a flow of
   * its own (never inside a transaction of its caller's: see `detached`).
   */
  private enqueue<T>(gameId: number, task: () => T | Promise<T>): Promise<T> {
    return detached(() => this.queues.run(gameId, task));
  }

  /** Effects of one game run in order, after the transaction that caused them. */
  private emitEffect(gameId: number, effect: GameEffect): void {
    const point: CommitPoint =
      effect.kind === 'action'
        ? commitPointOf(effect.prev, effect.state)
        : effect.kind === 'started'
          ? 'deal'
          : effect.kind === 'lobby' || effect.kind === 'transferred'
            ? 'lobby'
            : 'cancel';
    // What the commit starts is a flow of its own (a change made inside another transaction, as a
    // tournament's table opens its lobby, would otherwise hand it that transaction: see `detached`).
    detached(() => {
      for (const h of this.hooks) h.committed?.(point, gameId);
      void this.effects.run(gameId, async () => {
        try {
          await this.onEffect(effect);
        } catch (e) {
          this.logger.error(`game ${gameId}: effect ${effect.kind} failed`, e);
        }
      });
    });
  }

  /**
   * Resolves when every queued action and effect (of one game, or all) has finished, and every
   * stage timer that fired (it reads before it queues its action: on PostgreSQL a round trip).
   */
  async idle(gameId?: number): Promise<void> {
    for (;;) {
      const pending = [
        ...this.scheduler.pending(gameId),
        ...this.queues.pending(gameId),
        ...this.effects.pending(gameId),
      ];
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  // -------------------------------------------------------------------------------------------
  // State

  /**
   * The current state of a started game (cached while the game is played; the database is the
   * truth). The state of a finished, cancelled or expired game is read, not kept: a /host log or a
   * late timer on an old game must not fill the cache for good.
   */
  async state(gameId: number): Promise<GameState | null> {
    const cached = this.states.get(gameId);
    if (cached) return cached;
    const s = await this.store.getState(gameId);
    if (s && s.stage.kind !== 'over' && (await this.played(gameId))) {
      // A change committed while this read waited has cached its own (newer) state: it stands.
      const now = this.states.get(gameId);
      if (now) return now;
      this.states.set(gameId, s);
    }
    return s;
  }

  /** Whether a game is being played (running or post-game): only then is anything kept about it. */
  private async played(gameId: number): Promise<boolean> {
    const status = (await this.store.getGame(gameId))?.status;
    return status === 'running' || status === 'post-game';
  }

  /**
   * Forgets everything kept in memory about a game that is no longer played (finished, cancelled,
   * expired, annulled, archived): its cached state, its timer, a later stage end. (A timer's
   * failure is forgotten when its work succeeds or the timer is disarmed.) Its queues drop their key by themselves once idle (KeyedQueue).
   */
  private release(gameId: number): void {
    this.states.delete(gameId);
    this.extended.delete(gameId);
    this.scheduler.disarm(gameId);
  }

  /**
   * How many entries the in-memory maps hold (tests: after games end they return to where they
   * were). Queues count the games with work queued or running.
   */
  sizes(): {
    states: number;
    extended: number;
    storageWarned: number;
    timers: number;
    queues: number;
    effects: number;
  } {
    return {
      states: this.states.size,
      extended: this.extended.size,
      storageWarned: this.faults.failures,
      timers: this.scheduler.size,
      queues: this.queues.size,
      effects: this.effects.size,
    };
  }

  game(gameId: number): Promise<GameRow | null> {
    return this.store.getGame(gameId);
  }

  // -------------------------------------------------------------------------------------------
  // Lobby

  async createLobby(input: Omit<Parameters<Store['createLobby']>[0], 'now'>): Promise<GameRow> {
    const game = await this.store.transaction(async () => {
      const g = await this.store.createLobby({ ...input, now: this.now() });
      await this.planEffect({ kind: 'lobby', game: g });
      return g;
    });
    this.emitEffect(game.id, { kind: 'lobby', game });
    return game;
  }

  /**
   * Changes a lobby's member list (join, leave, fallback) one change at a time. `change` returns
   * the new lobby, or a refusal code.
   */
  updateLobby(
    gameId: number,
    change: (lobby: LobbyInfo, game: GameRow) => LobbyInfo | RefusalCode,
  ): Promise<{ ok: true; game: GameRow } | Refused> {
    return this.enqueue(gameId, async () => {
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'lobby') return { ok: false as const, code: 'lobby/closed' };
      const next = change(game.lobby, game);
      if (typeof next === 'string') return { ok: false as const, code: next };
      const updated = { ...game, lobby: next };
      await this.store.gameTransaction(gameId, async () => {
        await this.store.setLobby(gameId, next, this.now());
        await this.planEffect({ kind: 'lobby', game: updated });
      });
      this.emitEffect(gameId, { kind: 'lobby', game: updated });
      return { ok: true as const, game: updated };
    });
  }

  /** Deals the game: seat i+1 is `userIds[i]` with role `roles[i]` (G-1: both random, chosen by the caller). */
  start(gameId: number, userIds: string[], roles: Role[]): Promise<{ ok: true; state: GameState } | Refused> {
    return this.enqueue(gameId, async () => {
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'lobby') return { ok: false as const, code: 'lobby/closed' };
      if (await this.isSuspended(gameId)) return { ok: false as const, code: 'game/paused' };
      const now = this.now();
      const state = createGame(game.ruleset, { roles }, game.options, game.pace, { now });
      const seats = userIds.map((userId, i) => ({ seat: i + 1, userId, role: roles[i]! }));
      const started = await this.store.gameTransaction(gameId, async () => {
        await this.store.startGame(gameId, seats, state, now);
        const g = (await this.store.getGame(gameId))!;
        await this.planEffect({ kind: 'started', game: g, state, seats });
        return g;
      });
      this.states.set(gameId, state);
      await this.armStage(gameId, state);
      this.emitEffect(gameId, { kind: 'started', game: started, state, seats });
      return { ok: true as const, state };
    });
  }

  cancel(gameId: number, by: string, reason: string | null): Promise<{ ok: true } | Refused> {
    return this.enqueue(gameId, async () => {
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (!['lobby', 'running', 'post-game'].includes(game.status))
        return { ok: false as const, code: 'game/finished' };
      const now = this.now();
      await this.store.gameTransaction(gameId, async () => {
        await this.store.setStatus(gameId, 'cancelled', now);
        await this.store.clearDeadline(gameId);
        await this.store.addAudit({ gameId, at: now, actorId: by, action: 'cancel', reason });
        await this.planEffect({ kind: 'cancelled', game: { ...game, status: 'cancelled' }, by });
      });
      this.release(gameId);
      this.emitEffect(gameId, { kind: 'cancelled', game: { ...game, status: 'cancelled' }, by });
      return { ok: true as const };
    });
  }

  /** What the features know of who may take a seat (the hooks' `seating`, merged). */
  private async seating(gameId: number): Promise<SeatingContext> {
    const all: SeatingContext[] = [];
    for (const h of this.hooks) if (h.seating) all.push(await h.seating(gameId));
    if (all.length === 0) return NO_SEATING;
    return { watchers: all.flatMap((c) => c.watchers), calls: all.flatMap((c) => c.calls) };
  }

  /** A substitute takes over a seat (role, fouls and history stay with the seat). */
  substitute(
    gameId: number,
    seat: number,
    userId: string,
    by: string,
    reason: string | null,
  ): Promise<{ ok: true } | Refused> {
    return this.enqueue(gameId, async () => {
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'running' && game.status !== 'post-game')
        return { ok: false as const, code: 'game/not-running' };
      const seats = await this.store.players(gameId);
      const current = seats.find((s) => s.seat === seat);
      if (!current) return { ok: false as const, code: 'seat/unknown' };
      // Issue 20: one rule for every way a seat changes hands (the host's command, a call's pick,
      // its first volunteer): nobody who holds or held a seat, hosts or hosted the game, or watched it.
      const seating = await this.seating(gameId);
      const table = { hostId: game.hostId, status: game.status, lobbyMembers: game.lobby.members, seats };
      const known = { ...table, audit: await this.store.auditLog(gameId) };
      const bar = seatBar(userId, known, seating, by);
      if (bar) return { ok: false as const, code: SEAT_REFUSAL[bar].host };
      // Issue 24: a member the server banned takes no seat, one paused takes none in a rated game.
      const conduct = await joinRefusal(
        this.store,
        game.guildId,
        userId,
        game.rated,
        this.now(),
        by.startsWith('host:'),
      );
      if (conduct) return { ok: false as const, code: conduct.code };
      // A host who plays gives a seat only to a volunteer of the call open for it (PLAYING_HOST).
      if (by.startsWith('host:') && playedIn(by.slice('host:'.length), known)) {
        const fair = playingHostMaySeat(seat, userId, seating);
        if (!fair.ok) return { ok: false as const, code: fair.code };
      }
      const now = this.now();
      const moves = (await this.state(gameId))?.moves ?? 0;
      await this.store.gameTransaction(gameId, async () => {
        await this.store.substitute(gameId, seat, userId);
        await this.store.addAudit({
          gameId,
          at: now,
          actorId: by,
          action: 'substitute',
          detail: { seat, from: current.userId, to: userId, moves },
          reason,
        });
        await this.planEffect({ kind: 'substituted', game, seat, from: current.userId, to: userId, by });
      });
      this.emitEffect(gameId, { kind: 'substituted', game, seat, from: current.userId, to: userId, by });
      return { ok: true as const };
    });
  }

  /**
   * G-7: takes back the last accepted action of the open stage (see planUndo). The log gets an
   * entry of its own naming the one taken back, so it keeps both and a replay gives this state.
   */
  undo(gameId: number, actor: ActorId, reason: string | null): Promise<DispatchResult> {
    return this.enqueue(gameId, async () => {
      if (this.closed) return { ok: false as const, code: 'service/closed' };
      if (await this.isSuspended(gameId)) return { ok: false as const, code: 'game/paused' };
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'running' && game.status !== 'post-game')
        return { ok: false as const, code: 'game/not-running' };
      const prev = await this.state(gameId);
      if (!prev || !game.deal || game.startedAt === null) return { ok: false as const, code: 'game/unknown' };
      const initial = createGame(game.ruleset, { roles: game.deal }, game.options, game.pace, { now: game.startedAt });
      const log = await this.store.log(gameId);
      const plan = planUndo(initial, log, prev.moves + 1);
      if (!plan.ok) return plan;
      const now = this.now();
      const action: Action = { kind: 'host-undo', undone: plan.undone.seq, ...(reason ? { reason } : {}) };
      const state = plan.state;
      const u = plan.undone.action;
      const detail = {
        undone: plan.undone.seq,
        what: u.kind,
        ...('seat' in u ? { seat: u.seat } : {}),
        ...('target' in u ? { target: u.target } : {}),
      };
      const effect: GameEffect = { kind: 'action', game, action, actor, prev, state, events: [], undone: u };
      const stored = await this.store.commitAction(gameId, { action, actor, at: now }, state, {
        audit: { gameId, at: now, actorId: actor, action: 'undo', detail, reason },
        inTx: () => this.planEffect(effect),
      });
      this.states.set(gameId, state);
      await this.armStage(gameId, state, stored);
      this.emitEffect(gameId, effect);
      return { ok: true as const, state, events: [], seq: state.moves };
    });
  }

  /** A finished game is annulled: it stays in the archive, its points and ratings no longer count. */
  annul(gameId: number, by: string, reason: string | null): Promise<{ ok: true } | Refused> {
    return this.enqueue(gameId, async () => {
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.annulledAt !== null) return { ok: false as const, code: 'annul/already' };
      if (game.status !== 'over' && game.status !== 'archived')
        return { ok: false as const, code: 'annul/not-finished' };
      const now = this.now();
      const annulled = { ...game, annulledAt: now };
      await this.store.gameTransaction(gameId, async () => {
        await this.store.setAnnulled(gameId, now);
        await this.store.addAudit({ gameId, at: now, actorId: by, action: 'annul', reason });
        await this.planEffect({ kind: 'annulled', game: annulled, by, reason });
      });
      this.release(gameId);
      this.emitEffect(gameId, { kind: 'annulled', game: annulled, by, reason });
      try {
        for (const h of this.hooks) h.onAnnulled?.(gameId);
      } catch (e) {
        this.logger.error(`game ${gameId}: the annul hook failed`, e);
      }
      return { ok: true as const };
    });
  }

  /** `/host transfer`: another member hosts the game from now on. */
  transfer(gameId: number, to: string, by: string, reason: string | null): Promise<{ ok: true } | Refused> {
    return this.enqueue(gameId, async () => {
      const game = await this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (!['lobby', 'running', 'post-game'].includes(game.status))
        return { ok: false as const, code: 'game/finished' };
      if (game.hostId === to) return { ok: false as const, code: 'transfer/same-host' };
      const now = this.now();
      const moved = { ...game, hostId: to };
      await this.store.gameTransaction(gameId, async () => {
        await this.store.setHost(gameId, to, now);
        await this.store.addAudit({
          gameId,
          at: now,
          actorId: by,
          action: 'transfer',
          detail: { from: game.hostId, to },
          reason,
        });
        await this.planEffect({ kind: 'transferred', game: moved, from: game.hostId, to, by });
      });
      this.emitEffect(gameId, { kind: 'transferred', game: moved, from: game.hostId, to, by });
      return { ok: true as const };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  /** The only way a game changes. Refused actions change nothing and are not logged. */
  dispatch(gameId: number, action: Action, actor: ActorId, reason?: string | null): Promise<DispatchResult> {
    return this.enqueue(gameId, () => this.applyNow(gameId, action, actor, reason ?? null));
  }

  private async applyNow(
    gameId: number,
    action: Action,
    actor: ActorId,
    reason: string | null,
  ): Promise<DispatchResult> {
    if (this.closed) return { ok: false, code: 'service/closed' };
    // Issue 20: a suspended game waits for its channel; only the system stops or restarts its clock.
    if (actor !== 'system' && (await this.isSuspended(gameId))) return { ok: false, code: 'game/paused' };
    const prev = await this.state(gameId);
    if (!prev) return { ok: false, code: 'game/unknown' };
    const now = this.now();
    const r = apply(prev, action, { now });
    if (!r.ok) return r;
    const state = r.state;
    const over = state.stage.kind === 'over' && prev.stage.kind !== 'over';
    const host = isHostAction(action);
    const audit = host
      ? { gameId, at: now, actorId: actor, action: hostVerb(action.kind), detail: { ...action }, reason }
      : undefined;
    const clock = isClockControl(action.kind);
    // The game's row is read inside the transaction, held, before anything is written (PostgreSQL:
    // sent with BEGIN, one round trip); a game no longer played refuses the action there.
    let effect: GameEffect | null = null as GameEffect | null;
    let stored: { stageSeq: number; dueAt: number } | null;
    try {
      stored = await this.store.commitAction(gameId, { action, actor, at: now }, state, {
        prefetch: async () => {
          await Promise.all(this.hooks.map(async (h) => h.prefetch?.(gameId, { prev, state, action })));
        },
        game: (row) => {
          if (!row || (row.status !== 'running' && row.status !== 'post-game')) throw new NotPlayed();
          effect = { kind: 'action', game: row, action, actor, prev, state, events: r.events };
        },
        ...(audit ? { audit } : {}),
        ...(over
          ? {
              onOver: async () => this.store.writeResults(effect!.game, state, await this.store.players(gameId), now),
            }
          : {}),
        ...(clock ? { resetDeadline: true } : {}),
        inTx: () => this.planEffect(effect!),
      });
    } catch (e) {
      if (e instanceof NotPlayed) return { ok: false, code: 'game/not-running' };
      throw e;
    }
    this.states.set(gameId, state);
    if (clock) this.extended.delete(gameId);
    await this.armStage(gameId, state, stored);
    if (over) this.release(gameId);
    this.emitEffect(gameId, (effect as GameEffect | null)!);
    return { ok: true, state, events: r.events, seq: state.moves };
  }

  /**
   * Arms the stage's timer, at the later end it was given if its message was seen late. `stored`:
   * the stage's end as the transaction that wrote the state left it (else it is read).
   */
  private async armStage(
    gameId: number,
    state: GameState,
    stored?: { stageSeq: number; dueAt: number } | null,
  ): Promise<void> {
    const ext = this.extended.get(gameId);
    if (ext && ext.seq !== state.seq) this.extended.delete(gameId);
    let due =
      ext && ext.seq === state.seq && state.deadline !== null ? Math.max(ext.dueAt, state.deadline) : state.deadline;
    // A later end written with the change itself (issue 10: a deadline moved out of quiet hours).
    const row = due === null ? null : stored !== undefined ? stored : await this.store.deadlineOf(gameId);
    if (due !== null && row && row.stageSeq === state.seq) due = Math.max(due, row.dueAt);
    this.scheduler.arm(gameId, state.seq, due);
  }

  /**
   * A stage's message became visible late: its timer ends `dueAt` instead (never earlier). The
   * engine's own deadline is the earliest a timeout is accepted, so replays are unaffected.
   */
  extendDeadline(gameId: number, seq: number, dueAt: number): Promise<void> {
    return this.enqueue(gameId, async () => {
      const s = await this.state(gameId);
      if (!s || s.seq !== seq || s.deadline === null || dueAt <= s.deadline) return;
      const due = await this.store.extendDeadline(gameId, seq, dueAt);
      if (due === null) return;
      this.extended.set(gameId, { seq, dueAt: due });
      this.scheduler.arm(gameId, seq, due);
    }).catch((e) => this.logger.error(`game ${gameId}: could not extend the deadline`, e));
  }

  /**
   * A timer fired. A failing store never ends the process: the returned promise rejects, and the
   * scheduler's guard logs it, tells the host (once) and tries the timeout again later.
   */
  private async onTimer(gameId: number, seq: number, dueAt: number): Promise<void> {
    if (await this.held(gameId, seq)) return;
    let r: DispatchResult;
    try {
      r = await this.dispatch(gameId, { kind: 'timeout', seq }, 'timer');
    } catch (e) {
      this.states.delete(gameId); // the database is the truth: reload after the failure
      throw e;
    }
    if (!r.ok && r.code === 'timeout/early')
      this.scheduler.arm(gameId, seq, Math.max(dueAt, (await this.state(gameId))?.deadline ?? dueAt));
  }

  private async isSuspended(gameId: number): Promise<boolean> {
    for (const h of this.hooks) if (h.suspended && (await h.suspended(gameId))) return true;
    return false;
  }

  private async held(gameId: number, seq: number): Promise<boolean> {
    try {
      if (await this.isSuspended(gameId)) return true;
      for (const h of this.hooks) if (h.holdTimeout && (await h.holdTimeout(gameId, seq))) return true;
      return false;
    } catch (e) {
      this.logger.error(`game ${gameId}: could not decide whether to hold the timeout`, e);
      return false;
    }
  }

  /** A timeout dispatched by recovery or the sweep (not its timer): its failure goes to the same guard. */
  private timedOut(gameId: number, seq: number): Promise<DispatchResult> {
    return this.dispatch(gameId, { kind: 'timeout', seq }, 'timer').then(
      (r) => {
        this.scheduler.succeeded(gameId);
        return r;
      },
      (e: unknown) => {
        this.states.delete(gameId); // the database is the truth: reload after the failure
        this.scheduler.failed(gameId, seq, e);
        return { ok: false as const, code: 'storage/failed' as const };
      },
    );
  }

  // -------------------------------------------------------------------------------------------
  // Start-up and housekeeping

  /**
   * Re-arms every stored deadline. Overdue ones fire at once, oldest first, each after the
   * previous has been applied.
   */
  async recover(): Promise<{ rearmed: number; fired: number }> {
    let fired = 0;
    let rearmed = 0;
    for (const d of await this.store.pendingDeadlines()) {
      if (d.dueAt <= this.now()) {
        if (await this.held(d.gameId, d.stageSeq)) continue;
        const r = await this.timedOut(d.gameId, d.stageSeq);
        if (r.ok) fired++;
        else if (r.code === 'timeout/stale' || r.code === 'game/not-running' || r.code === 'game/over') {
          // The stored deadline no longer matches the state: put the state's own deadline back.
          const s = await this.state(d.gameId);
          if (s?.deadline != null && s.stage.kind !== 'over') this.scheduler.arm(d.gameId, s.seq, s.deadline);
          else await this.store.clearDeadline(d.gameId);
        }
      } else {
        this.scheduler.arm(d.gameId, d.stageSeq, d.dueAt);
        this.extended.set(d.gameId, { seq: d.stageSeq, dueAt: d.dueAt });
        rearmed++;
      }
    }
    return { rearmed, fired };
  }

  /**
   * The periodic sweep (safety net and housekeeping): fires deadlines that are due but have no
   * timer, expires abandoned lobbies and archives finished games.
   */
  async sweep(): Promise<{ fired: number; expired: number; archived: number }> {
    const now = this.now();
    let fired = 0;
    for (const d of await this.store.dueDeadlines(now)) {
      const armed = this.scheduler.armed(d.gameId);
      if (armed?.seq === d.stageSeq && armed.dueAt > now) continue;
      if (await this.held(d.gameId, d.stageSeq)) continue;
      const r = await this.timedOut(d.gameId, d.stageSeq);
      if (r.ok) fired++;
    }
    const expired = await this.store.transaction(async () => {
      const ids = await this.store.expireLobbies(now - (this.opts.lobbyTtlMs ?? 24 * 3600_000), now);
      const games: GameRow[] = [];
      for (const id of ids) {
        const game = (await this.store.getGame(id))!;
        await this.planEffect({ kind: 'expired', game });
        games.push(game);
      }
      return games;
    });
    for (const game of expired) {
      this.release(game.id);
      this.emitEffect(game.id, { kind: 'expired', game });
    }
    const archived = await this.store.archiveFinished(now - (this.opts.archiveAfterMs ?? 7 * 24 * 3600_000), now);
    for (const id of archived) this.release(id);
    return { fired, expired: expired.length, archived: archived.length };
  }

  /**
   * Runs the sweep every minute with node-cron. A sweep that fails (the database) is logged and
   * tried again at the first tick after its guard's delay (see TimerFaults); no host is told here:
   * a game whose timeout the sweep could not save is told through its stage timer's guard.
   */
  startCron(expression = '* * * * *'): void {
    void this.cronTask?.stop();
    this.cronTask = cron.schedule(expression, () => this.sweepTick());
  }

  /** One tick of the sweep's cron (tests call it): skipped while the last failure's delay runs. */
  sweepTick(): void {
    if (this.closed || this.now() < this.sweepAfter) return;
    this.faults.run(
      'the sweep',
      'sweep',
      null,
      () => this.sweep(),
      (retryIn) => {
        this.sweepAfter = retryIn === null ? 0 : this.now() + retryIn;
      },
    );
  }

  /** Stops timers and the sweep, then waits for queued work and effects to finish. */
  async close(): Promise<void> {
    void this.cronTask?.stop();
    this.cronTask = null;
    this.scheduler.stop();
    await this.idle();
    this.closed = true;
  }
}
