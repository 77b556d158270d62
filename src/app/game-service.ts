// The game service: the only place where games change. Actions for one game are applied one at a
// time (a per-game queue); each accepted action is appended to the log and the new state saved in
// one transaction before any effect (a Discord message) is sent. Deadlines are stored with the
// state and re-armed at start-up; overdue ones fire at once, in order.
import cron, { type ScheduledTask } from 'node-cron';
import { apply, createGame } from '../engine/apply';
import type { Action, GameEvent, GameState, Role } from '../engine/types';
import type { GameRow, LobbyInfo, Store } from '../db/store';
import { Scheduler, type TimerHost } from './scheduler';

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
    }
  | { kind: 'started'; game: GameRow; state: GameState; seats: { seat: number; userId: string; role: Role }[] }
  | { kind: 'lobby'; game: GameRow }
  | { kind: 'expired'; game: GameRow }
  | { kind: 'cancelled'; game: GameRow; by: string }
  | { kind: 'substituted'; game: GameRow; seat: number; from: string; to: string; by: string };

export type DispatchResult =
  | { ok: true; state: GameState; events: readonly GameEvent[]; seq: number }
  | { ok: false; code: string };

export interface Logger {
  error(msg: string, err?: unknown): void;
  info?(msg: string): void;
}

export interface ServiceOptions {
  now?: () => number;
  onEffect?: (e: GameEffect) => void | Promise<void>;
  timers?: TimerHost;
  logger?: Logger;
  /** Lobbies untouched for this long expire (housekeeping). */
  lobbyTtlMs?: number;
  /** Finished games are archived after this long. */
  archiveAfterMs?: number;
}

const HOST_VERBS: ReadonlySet<string> = new Set(['host-foul', 'host-remove', 'host-kill', 'host-skip', 'host-end', 'host-best', 'host-bonus']);

export class GameService {
  readonly now: () => number;
  readonly scheduler: Scheduler;
  private readonly states = new Map<number, GameState>();
  private readonly queues = new Map<number, Promise<unknown>>();
  private readonly effects = new Map<number, Promise<void>>();
  private readonly onEffect: (e: GameEffect) => void | Promise<void>;
  private readonly logger: Logger;
  private cronTask: ScheduledTask | null = null;
  private closed = false;

  constructor(
    readonly store: Store,
    private readonly opts: ServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.onEffect = opts.onEffect ?? (() => {});
    this.logger = opts.logger ?? { error: (m, e) => console.error(m, e) };
    this.scheduler = new Scheduler((id, seq, due) => this.onTimer(id, seq, due), this.now, opts.timers);
  }

  // -------------------------------------------------------------------------------------------
  // Queues

  /** Runs `task` after every earlier task of the same game (whatever became of them). */
  private enqueue<T>(gameId: number, task: () => T | Promise<T>): Promise<T> {
    const prev = this.queues.get(gameId) ?? Promise.resolve();
    const run = prev.then(task, task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(gameId, tail);
    void tail.then(() => {
      if (this.queues.get(gameId) === tail) this.queues.delete(gameId);
    });
    return run;
  }

  /** Effects of one game run in order, after the transaction that caused them. */
  private emitEffect(gameId: number, effect: GameEffect): void {
    const prev = this.effects.get(gameId) ?? Promise.resolve();
    const next = prev.then(async () => {
      try {
        await this.onEffect(effect);
      } catch (e) {
        this.logger.error(`game ${gameId}: effect ${effect.kind} failed`, e);
      }
    });
    this.effects.set(gameId, next);
    void next.then(() => {
      if (this.effects.get(gameId) === next) this.effects.delete(gameId);
    });
  }

  /** Resolves when every queued action and effect (of one game, or all) has finished. */
  async idle(gameId?: number): Promise<void> {
    for (;;) {
      const pending =
        gameId === undefined
          ? [...this.queues.values(), ...this.effects.values()]
          : [this.queues.get(gameId), this.effects.get(gameId)].filter((p): p is Promise<void> => p !== undefined);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  // -------------------------------------------------------------------------------------------
  // State

  /** The current state of a started game (cached; the database is the truth). */
  state(gameId: number): GameState | null {
    let s = this.states.get(gameId);
    if (!s) {
      s = this.store.getState(gameId) ?? undefined;
      if (s) this.states.set(gameId, s);
    }
    return s ?? null;
  }

  game(gameId: number): GameRow | null {
    return this.store.getGame(gameId);
  }

  // -------------------------------------------------------------------------------------------
  // Lobby

  createLobby(input: Omit<Parameters<Store['createLobby']>[0], 'now'>): GameRow {
    const game = this.store.createLobby({ ...input, now: this.now() });
    this.emitEffect(game.id, { kind: 'lobby', game });
    return game;
  }

  /**
   * Changes a lobby's member list (join, leave, fallback) one change at a time. `change` returns
   * the new lobby, or a refusal code.
   */
  updateLobby(gameId: number, change: (lobby: LobbyInfo, game: GameRow) => LobbyInfo | string): Promise<{ ok: true; game: GameRow } | { ok: false; code: string }> {
    return this.enqueue(gameId, () => {
      const game = this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'lobby') return { ok: false as const, code: 'lobby/closed' };
      const next = change(game.lobby, game);
      if (typeof next === 'string') return { ok: false as const, code: next };
      this.store.setLobby(gameId, next, this.now());
      const updated = { ...game, lobby: next };
      this.emitEffect(gameId, { kind: 'lobby', game: updated });
      return { ok: true as const, game: updated };
    });
  }

  /** Deals the game: seat i+1 is `userIds[i]` with role `roles[i]` (G-1: both random, chosen by the caller). */
  start(gameId: number, userIds: string[], roles: Role[]): Promise<{ ok: true; state: GameState } | { ok: false; code: string }> {
    return this.enqueue(gameId, () => {
      const game = this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'lobby') return { ok: false as const, code: 'lobby/closed' };
      const now = this.now();
      const state = createGame(game.ruleset, { roles }, game.options, game.pace, { now });
      const seats = userIds.map((userId, i) => ({ seat: i + 1, userId, role: roles[i]! }));
      this.store.startGame(gameId, seats, state, now);
      this.states.set(gameId, state);
      this.scheduler.arm(gameId, state.seq, state.deadline);
      const started = this.store.getGame(gameId)!;
      this.emitEffect(gameId, { kind: 'started', game: started, state, seats });
      return { ok: true as const, state };
    });
  }

  cancel(gameId: number, by: string, reason: string | null): Promise<{ ok: true } | { ok: false; code: string }> {
    return this.enqueue(gameId, () => {
      const game = this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (!['lobby', 'running', 'post-game'].includes(game.status)) return { ok: false as const, code: 'game/finished' };
      const now = this.now();
      this.store.transaction(() => {
        this.store.setStatus(gameId, 'cancelled', now);
        this.store.clearDeadline(gameId);
        this.store.addAudit({ gameId, at: now, actorId: by, action: 'cancel', reason });
      });
      this.scheduler.disarm(gameId);
      this.emitEffect(gameId, { kind: 'cancelled', game: { ...game, status: 'cancelled' }, by });
      return { ok: true as const };
    });
  }

  /** A substitute takes over a seat (role, fouls and history stay with the seat). */
  substitute(gameId: number, seat: number, userId: string, by: string, reason: string | null): Promise<{ ok: true } | { ok: false; code: string }> {
    return this.enqueue(gameId, () => {
      const game = this.store.getGame(gameId);
      if (!game) return { ok: false as const, code: 'game/unknown' };
      if (game.status !== 'running' && game.status !== 'post-game') return { ok: false as const, code: 'game/not-running' };
      const seats = this.store.players(gameId);
      const current = seats.find((s) => s.seat === seat);
      if (!current) return { ok: false as const, code: 'seat/unknown' };
      if (seats.some((s) => s.userId === userId)) return { ok: false as const, code: 'substitute/already-playing' };
      const now = this.now();
      this.store.transaction(() => {
        this.store.substitute(gameId, seat, userId);
        this.store.addAudit({ gameId, at: now, actorId: by, action: 'substitute', detail: { seat, from: current.userId, to: userId }, reason });
      });
      this.emitEffect(gameId, { kind: 'substituted', game, seat, from: current.userId, to: userId, by });
      return { ok: true as const };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  /** The only way a game changes. Refused actions change nothing and are not logged. */
  dispatch(gameId: number, action: Action, actor: ActorId, reason?: string | null): Promise<DispatchResult> {
    return this.enqueue(gameId, () => this.applyNow(gameId, action, actor, reason ?? null));
  }

  private applyNow(gameId: number, action: Action, actor: ActorId, reason: string | null): DispatchResult {
    if (this.closed) return { ok: false, code: 'service/closed' };
    const prev = this.state(gameId);
    if (!prev) return { ok: false, code: 'game/unknown' };
    const now = this.now();
    const r = apply(prev, action, { now });
    if (!r.ok) return r;
    const state = r.state;
    const game = this.store.getGame(gameId)!;
    if (game.status !== 'running' && game.status !== 'post-game') return { ok: false, code: 'game/not-running' };
    const over = state.stage.kind === 'over' && prev.stage.kind !== 'over';
    const audit = HOST_VERBS.has(action.kind)
      ? { gameId, at: now, actorId: actor, action: action.kind.slice('host-'.length), detail: { ...action }, reason }
      : undefined;
    this.store.commitAction(gameId, { action, actor, at: now }, state, {
      ...(audit ? { audit } : {}),
      ...(over ? { onOver: () => this.store.writeResults(game, state, this.store.players(gameId), now) } : {}),
    });
    this.states.set(gameId, state);
    this.scheduler.arm(gameId, state.seq, state.deadline);
    if (over) this.states.delete(gameId);
    this.emitEffect(gameId, { kind: 'action', game, action, actor, prev, state, events: r.events });
    return { ok: true, state, events: r.events, seq: state.moves };
  }

  private onTimer(gameId: number, seq: number, dueAt: number): void {
    void this.dispatch(gameId, { kind: 'timeout', seq }, 'timer').then((r) => {
      if (!r.ok && r.code === 'timeout/early') this.scheduler.arm(gameId, seq, dueAt);
    });
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
    for (const d of this.store.pendingDeadlines()) {
      if (d.dueAt <= this.now()) {
        const r = await this.dispatch(d.gameId, { kind: 'timeout', seq: d.stageSeq }, 'timer');
        if (r.ok) fired++;
        else if (r.code === 'timeout/stale' || r.code === 'game/not-running' || r.code === 'game/over') {
          // The stored deadline no longer matches the state: put the state's own deadline back.
          const s = this.state(d.gameId);
          if (s?.deadline != null && s.stage.kind !== 'over') this.scheduler.arm(d.gameId, s.seq, s.deadline);
          else this.store.clearDeadline(d.gameId);
        }
      } else {
        this.scheduler.arm(d.gameId, d.stageSeq, d.dueAt);
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
    for (const d of this.store.dueDeadlines(now)) {
      const armed = this.scheduler.armed(d.gameId);
      if (armed?.seq === d.stageSeq && armed.dueAt > now) continue;
      const r = await this.dispatch(d.gameId, { kind: 'timeout', seq: d.stageSeq }, 'timer');
      if (r.ok) fired++;
    }
    const expired = this.store.expireLobbies(now - (this.opts.lobbyTtlMs ?? 24 * 3600_000), now);
    for (const id of expired) this.emitEffect(id, { kind: 'expired', game: this.store.getGame(id)! });
    const archived = this.store.archiveFinished(now - (this.opts.archiveAfterMs ?? 7 * 24 * 3600_000), now);
    return { fired, expired: expired.length, archived: archived.length };
  }

  /** Runs the sweep every minute with node-cron. */
  startCron(expression = '* * * * *'): void {
    this.cronTask?.stop();
    this.cronTask = cron.schedule(expression, () => {
      this.sweep().catch((e) => this.logger.error('sweep failed', e));
    });
  }

  /** Stops timers and the sweep, then waits for queued work and effects to finish. */
  async close(): Promise<void> {
    this.cronTask?.stop();
    this.cronTask = null;
    this.scheduler.stop();
    await this.idle();
    this.closed = true;
  }
}
