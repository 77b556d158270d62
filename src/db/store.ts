// The game's repository (servers, games, players, actions, deadlines, results, audit). All SQL is in
// src/db, one store per area (docs/storage.md), run through the storage seam's Connection (SQLite
// or PostgreSQL, the same code). Hot paths use prepared statements (`Connection.statement`).
import { and, asc, count, desc, eq, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { teamOf } from '../engine/rulesets';
import type { Action, GameState, OptionOverrides, Pace, Role, RulesetId } from '../engine/types';
import { seatShares } from '../engine/rating';
import { recordGame } from '../stats/record';
import { gameFeats } from '../stats/achievements';
import { quiet, type Connection, type Db, type Runnable, type Tables } from './connection';
import { StatsStore } from './stats-store';
import type { games, GameStatus } from './schema';
import { ownedGame } from './owned';

export interface LobbyInfo {
  /** Joined user ids, in order of joining. */
  members: string[];
  /** Users the host lets play without DMs (ephemeral fallback in the channel). */
  fallback?: string[];
  /** Display names by user id, as seen when they joined. */
  names?: Record<string, string>;
  /** Discord client locales by user id, as seen when they joined (for DMs). */
  locales?: Record<string, string>;
  /** M-1: only the current speaker may write (the server's setting when the game was created). */
  enforceTurns?: boolean;
  /** Players the bot could not DM at the last Start (shown with the fix). */
  unreachable?: string[];
  /** Issue 24: the server's lobby role this lobby pings while it is open (its cooldown allowed it). */
  ping?: string;
}

export interface GameRow {
  id: number;
  guildId: string;
  channelId: string;
  hostId: string;
  ruleset: RulesetId;
  pace: Pace;
  options: OptionOverrides;
  status: GameStatus;
  lobby: LobbyInfo;
  deal: Role[] | null;
  moves: number;
  winner: string | null;
  ui: Record<string, unknown>;
  createdAt: number;
  startedAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
  /** Set when a host annulled the finished game: it stays in the archive, its points do not count. */
  annulledAt: number | null;
  /** Issue 24: false for a casual game (chosen at creation): in the archive, never in Elo or standings. */
  rated: boolean;
  /** Issue 24: the server's preset the game was created from (its name), or null. */
  preset: string | null;
}

export interface LoggedAction {
  seq: number;
  action: Action;
  actor: string;
  at: number;
}

export interface AuditEntry {
  gameId: number;
  at: number;
  actorId: string;
  action: string;
  detail?: Record<string, unknown>;
  reason?: string | null;
}

type RawGame = Omit<typeof games.$inferSelect, 'state' | 'tournamentId'>;

/** A game's columns GameRow is made of: not its state (kilobytes of JSON the service holds already). */
function gameRowFields(t: Tables) {
  const g = t.games;
  return {
    id: g.id,
    guildId: g.guildId,
    channelId: g.channelId,
    hostId: g.hostId,
    ruleset: g.ruleset,
    pace: g.pace,
    options: g.options,
    status: g.status,
    lobby: g.lobby,
    deal: g.deal,
    moves: g.moves,
    winner: g.winner,
    ui: g.ui,
    createdAt: g.createdAt,
    startedAt: g.startedAt,
    updatedAt: g.updatedAt,
    finishedAt: g.finishedAt,
    annulledAt: g.annulledAt,
    rated: g.rated,
    preset: g.preset,
  };
}

/** A game row as the rest of the bot reads it (JSON columns parsed); PostgreSQL's rows have the same shape. */
export function toRow(r: RawGame): GameRow {
  return {
    id: r.id,
    guildId: r.guildId,
    channelId: r.channelId,
    hostId: r.hostId,
    ruleset: r.ruleset as RulesetId,
    pace: r.pace as Pace,
    options: JSON.parse(r.options) as OptionOverrides,
    status: r.status,
    lobby: JSON.parse(r.lobby) as LobbyInfo,
    deal: r.deal ? (JSON.parse(r.deal) as Role[]) : null,
    moves: r.moves,
    winner: r.winner,
    ui: JSON.parse(r.ui) as Record<string, unknown>,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    updatedAt: r.updatedAt,
    finishedAt: r.finishedAt,
    annulledAt: r.annulledAt,
    rated: r.rated,
    preset: r.preset ?? null,
  };
}

/** The status column that matches an engine state. */
export function statusOf(state: GameState): GameStatus {
  if (state.stage.kind === 'over') return 'over';
  if (state.stage.kind === 'postGame') return 'post-game';
  return 'running';
}

type Seat = { seat: number; userId: string; role: Role };

type DeadlineRow = { stageSeq: number; dueAt: number };

/** The stage's end after writing `dueAt` for stage `seq` over `cur`: the same stage keeps a later end. */
function nextEnd(cur: DeadlineRow | null, seq: number, dueAt: number): DeadlineRow {
  return cur && cur.stageSeq === seq ? { stageSeq: seq, dueAt: Math.max(cur.dueAt, dueAt) } : { stageSeq: seq, dueAt };
}

function sameEnd(a: DeadlineRow | null, b: DeadlineRow): boolean {
  return a !== null && a.stageSeq === b.stageSeq && a.dueAt === b.dueAt;
}

/** PostgreSQL: the state's UPDATE and the log's INSERT of Store.actionWrites, ahead of its last part. */
function actionHead(): SQL {
  const p = sql.placeholder;
  return sql`with state_written as (update games set state = ${p('state')}, moves = ${p('moves')}, status = ${p('status')}, updated_at = ${p('at')} where id = ${p('gameId')}), action_logged as (insert into actions (game_id, seq, kind, action, actor, at) values (${p('gameId')}, ${p('moves')}, ${p('kind')}, ${p('action')}, ${p('actor')}, ${p('at')}))`;
}
/** A stage's end kept in a transaction's cache: its answer, and the row once it is known. */
interface KeptDeadline {
  answer: Promise<DeadlineRow | null>;
  known: boolean;
  value: DeadlineRow | null;
}

export class Store {
  // Hot paths (every action reads the game and its seats, logs, saves the state and the deadline):
  // prepared once on SQLite (Connection.statement), not rebuilt per query.
  private readonly insertAction;
  private readonly updateState;
  private readonly updateStateOnly;
  private readonly upsertDeadline;
  private readonly upsertDeadlineQuiet;
  /** PostgreSQL: the state, the log row and the stage's end in one statement (null on SQLite). */
  private readonly actionWrites: Record<'end' | 'noEnd' | 'sameEnd', () => Runnable<unknown>> | null;
  private readonly deleteDeadline;
  private readonly selectDeadline;
  private readonly selectGame;
  private readonly selectGameHeld;
  private readonly selectState;
  private readonly selectPlayers;

  constructor(readonly c: Connection) {
    const p = sql.placeholder;
    this.insertAction = c.statement((db, t) =>
      db.insert(t.actions).values({
        gameId: p('gameId'),
        seq: p('seq'),
        kind: p('kind'),
        action: p('action'),
        actor: p('actor'),
        at: p('at'),
      }),
    );
    this.updateState = c.statement((db, t) =>
      db
        .update(t.games)
        .set({
          state: sql`${p('state')}`,
          moves: sql`${p('moves')}`,
          status: sql`${p('status')}`,
          updatedAt: sql`${p('at')}`,
        })
        .where(eq(t.games.id, p('gameId'))),
    );
    // The same, when the game's status stays as the row has it (most actions): SQLite rewrites an
    // index of every column a SET names, changed or not (the games' three status indexes: three
    // pages more per commit).
    this.updateStateOnly = c.statement((db, t) =>
      db
        .update(t.games)
        .set({ state: sql`${p('state')}`, moves: sql`${p('moves')}`, updatedAt: sql`${p('at')}` })
        .where(eq(t.games.id, p('gameId'))),
    );
    const upsertDeadline = (db: Db, t: Tables) =>
      db
        .insert(t.deadlines)
        .values({ gameId: p('gameId'), stageSeq: p('seq'), dueAt: p('dueAt') })
        .onConflictDoUpdate({
          target: t.deadlines.gameId,
          // The same stage keeps a later end it was given (its message was seen late): see extendDeadline.
          set: {
            stageSeq: sql`excluded.stage_seq`,
            dueAt: sql`CASE WHEN ${t.deadlines.stageSeq} = excluded.stage_seq THEN ${c.greatest(t.deadlines.dueAt, sql`excluded.due_at`)} ELSE excluded.due_at END`,
          },
        });
    // The row as it now is (a later end kept), so the planner and the timer need not read it…
    this.upsertDeadline = c.statement((db, t) =>
      upsertDeadline(db, t).returning({ stageSeq: t.deadlines.stageSeq, dueAt: t.deadlines.dueAt }),
    );
    // …or, when the transaction knows the row it replaces, nothing (queued: see writeDeadline).
    this.upsertDeadlineQuiet = c.statement(upsertDeadline);
    // PostgreSQL: updateState, insertAction and the deadline's upsert (or delete) as one statement
    // (a data-modifying WITH; SQLite has none): commitAction's service path, where the game's row
    // is held already and the stage's end it replaces is known. The same columns and values as the
    // three statements above; the e2e and persistence suites run both forms (one per database).
    this.actionWrites =
      c.dialect === 'postgres'
        ? {
            end: c.sqlStatement(
              () =>
                sql`${actionHead()} insert into deadlines (game_id, stage_seq, due_at) values (${p('gameId')}, ${p('seq')}, ${p('dueAt')}) on conflict (game_id) do update set stage_seq = excluded.stage_seq, due_at = case when deadlines.stage_seq = excluded.stage_seq then greatest(deadlines.due_at, excluded.due_at) else excluded.due_at end`,
            ),
            noEnd: c.sqlStatement(() => sql`${actionHead()} delete from deadlines where game_id = ${p('gameId')}`),
            // The stage's end stays as stored (most actions): the two writes alone.
            sameEnd: c.sqlStatement(() => sql`${actionHead()} select 1`),
          }
        : null;
    this.deleteDeadline = c.statement((db, t) => db.delete(t.deadlines).where(eq(t.deadlines.gameId, p('gameId'))));
    this.selectGame = c.statement((db, t) =>
      db
        .select(gameRowFields(t))
        .from(t.games)
        .where(eq(t.games.id, p('id'))),
    );
    // The game's row with its stage's end (commitAction), the game's row held.
    this.selectGameHeld = c.statement((db, t) => {
      const q = db
        .select({ ...gameRowFields(t), endSeq: t.deadlines.stageSeq, endAt: t.deadlines.dueAt })
        .from(t.games)
        .leftJoin(t.deadlines, eq(t.deadlines.gameId, t.games.id))
        .where(eq(t.games.id, p('id')));
      // SQLite's transactions hold the whole file already (and it has no FOR UPDATE).
      type Held = { for(s: 'update', o: { of: unknown }): typeof q };
      return c.dialect === 'postgres' ? (q as unknown as Held).for('update', { of: t.games }) : q;
    });
    this.selectState = c.statement((db, t) =>
      db
        .select({ state: t.games.state })
        .from(t.games)
        .where(eq(t.games.id, p('id'))),
    );
    this.selectPlayers = c.statement((db, t) =>
      db
        .select({ seat: t.players.seat, userId: t.players.userId, role: t.players.role })
        .from(t.players)
        .where(eq(t.players.gameId, p('gameId')))
        .orderBy(asc(t.players.seat)),
    );
    this.selectDeadline = c.statement((db, t) =>
      db
        .select({ stageSeq: t.deadlines.stageSeq, dueAt: t.deadlines.dueAt })
        .from(t.deadlines)
        .where(eq(t.deadlines.gameId, p('gameId'))),
    );
  }

  /** Ratings, standings, seasons and /stats (src/db/stats-store.ts), on the same connection. */
  get stats(): StatsStore {
    return StatsStore.of(this.c);
  }

  /**
   * One write transaction: all of `fn`'s queries, or none (nested: a savepoint). Inside it, await
   * nothing but storage (docs/storage.md, "The transaction rule").
   */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.c.transaction(fn);
  }

  /**
   * One write transaction on one game: the game's row is held first (Connection.lockGame), so a
   * second process that believes it owns the guild (a handover) waits instead of writing it too.
   */
  gameTransaction<T>(gameId: number, fn: () => Promise<T>): Promise<T> {
    return this.transaction(async () => {
      await this.c.lockGame(gameId);
      return fn();
    });
  }

  // -------------------------------------------------------------------------------------------
  // Servers

  async ensureServer(guildId: string, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.insert(t.servers).values({ guildId, createdAt: now, updatedAt: now }).onConflictDoNothing());
  }

  /**
   * Issue 24: a new lobby may ping the server's lobby role when the last ping is at least
   * `cooldownMs` old; if so, the ping is claimed (its time written) in the caller's transaction.
   */
  async claimLobbyPing(guildId: string, now: number, cooldownMs: number): Promise<boolean> {
    const { db, t } = this.c;
    await this.ensureServer(guildId, now);
    const changed = await this.c.run(
      db
        .update(t.servers)
        .set({ lobbyPingAt: now })
        .where(
          and(
            eq(t.servers.guildId, guildId),
            sql`(${t.servers.lobbyPingAt} IS NULL OR ${t.servers.lobbyPingAt} <= ${now - cooldownMs})`,
          ),
        ),
    );
    return changed > 0;
  }

  async getServer(guildId: string) {
    const { db, t } = this.c;
    return (await this.c.get(db.select().from(t.servers).where(eq(t.servers.guildId, guildId)))) ?? null;
  }

  async updateServer(
    guildId: string,
    patch: { locale?: string | null; mafiaTalkEveryNight?: boolean; enforceSpeakingOrder?: boolean },
    now: number,
  ): Promise<void> {
    await this.ensureServer(guildId, now);
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.servers)
        .set({ ...patch, updatedAt: now })
        .where(eq(t.servers.guildId, guildId)),
    );
  }

  /** The settings JSON of a server as stored (validated by src/app/settings.ts). */
  async serverSettingsRaw(guildId: string): Promise<string | null> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db.select({ settings: t.servers.settings }).from(t.servers).where(eq(t.servers.guildId, guildId)),
    );
    return r?.settings ?? null;
  }

  async setServerSettingsRaw(guildId: string, json: string, now: number): Promise<void> {
    await this.ensureServer(guildId, now);
    const { db, t } = this.c;
    await this.c.run(
      db.update(t.servers).set({ settings: json, updatedAt: now }).where(eq(t.servers.guildId, guildId)),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Games

  async createLobby(input: {
    guildId: string;
    channelId: string;
    hostId: string;
    ruleset: RulesetId;
    pace: Pace;
    options: OptionOverrides;
    lobby?: LobbyInfo;
    ui?: Record<string, unknown>;
    /** Issue 24: false for a casual game (default: rated). */
    rated?: boolean;
    /** Issue 24: the preset's name, when the game was created from one. */
    preset?: string | null;
    now: number;
  }): Promise<GameRow> {
    await this.ensureServer(input.guildId, input.now);
    const { db, t } = this.c;
    const row = await this.c.get(
      db
        .insert(t.games)
        .values({
          guildId: input.guildId,
          channelId: input.channelId,
          hostId: input.hostId,
          ruleset: input.ruleset,
          pace: input.pace,
          options: JSON.stringify(input.options),
          status: 'lobby',
          lobby: JSON.stringify(input.lobby ?? { members: [] }),
          ui: JSON.stringify(input.ui ?? {}),
          rated: input.rated ?? true,
          preset: input.preset ?? null,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning(),
    );
    return toRow(row!);
  }

  async getGame(id: number): Promise<GameRow | null> {
    const r = await this.c.get(this.selectGame(), { id });
    return r ? toRow(r) : null;
  }

  async getState(id: number): Promise<GameState | null> {
    const r = await this.c.get(this.selectState(), { id });
    return r?.state ? (JSON.parse(r.state) as GameState) : null;
  }

  async gamesWithStatus(statuses: GameStatus[]): Promise<GameRow[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db.select().from(t.games).where(inArray(t.games.status, statuses)).orderBy(asc(t.games.id)),
    );
    return rows.map(toRow);
  }

  /** Games in a channel that are not finished (lobby, running or post-game). */
  async activeGamesInChannel(channelId: string): Promise<GameRow[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select()
        .from(t.games)
        .where(and(eq(t.games.channelId, channelId), inArray(t.games.status, ['lobby', 'running', 'post-game'])))
        .orderBy(asc(t.games.id)),
    );
    return rows.map(toRow);
  }

  /** The newest game of a channel, whatever its status. */
  async latestGameInChannel(channelId: string): Promise<GameRow | null> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db.select().from(t.games).where(eq(t.games.channelId, channelId)).orderBy(desc(t.games.id)).limit(1),
    );
    return r ? toRow(r) : null;
  }

  async allGameIds(): Promise<number[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(db.select({ id: t.games.id }).from(t.games).orderBy(asc(t.games.id)));
    return rows.map((r) => r.id);
  }

  async setLobby(id: number, lobby: LobbyInfo, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.games)
        .set({ lobby: JSON.stringify(lobby), updatedAt: now })
        .where(eq(t.games.id, id)),
    );
  }

  async setStatus(id: number, status: GameStatus, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.games).set({ status, updatedAt: now }).where(eq(t.games.id, id)));
  }

  /** A finished game is annulled: it stays in the archive, its results no longer count. */
  async setAnnulled(id: number, at: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.games).set({ annulledAt: at, updatedAt: at }).where(eq(t.games.id, id)));
  }

  async setHost(id: number, hostId: string, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.games).set({ hostId, updatedAt: now }).where(eq(t.games.id, id)));
  }

  /** Deals the game: seats, roles and the initial state, in one transaction. */
  async startGame(id: number, seats: Seat[], state: GameState, now: number): Promise<void> {
    await this.gameTransaction(id, async () => {
      this.c.txCache()?.delete(`players:${id}`);
      const game = await this.getGame(id);
      if (!game) throw new Error(`no game ${id}`);
      const { db, t } = this.c;
      await this.c.run(
        db
          .update(t.games)
          .set({
            status: 'running',
            deal: JSON.stringify(seats.map((s) => s.role)),
            state: JSON.stringify(state),
            moves: 0,
            startedAt: now,
            updatedAt: now,
          })
          .where(eq(t.games.id, id)),
      );
      await this.c.run(
        db
          .insert(t.players)
          .values(
            seats.map((s) => ({ gameId: id, seat: s.seat, guildId: game.guildId, userId: s.userId, role: s.role })),
          ),
      );
      if (state.deadline !== null) await this.writeDeadline(id, state.seq, state.deadline);
    });
  }

  /** A game's seats (kept for the rest of a transaction that reads them: only this store writes them). */
  async players(gameId: number): Promise<Seat[]> {
    const cache = this.c.txCache();
    const k = `players:${gameId}`;
    if (cache?.has(k)) return (cache.get(k) as Seat[]).map((s) => ({ ...s }));
    const rows = (await this.c.all(this.selectPlayers(), { gameId })) as Seat[];
    cache?.set(k, rows);
    return rows.map((s) => ({ ...s }));
  }

  /** A substitute takes over a seat (the seat, its role and its history stay). */
  async substitute(gameId: number, seat: number, userId: string): Promise<void> {
    const { db, t } = this.c;
    this.c.txCache()?.delete(`players:${gameId}`);
    await this.c.run(
      db
        .update(t.players)
        .set({ userId })
        .where(and(eq(t.players.gameId, gameId), eq(t.players.seat, seat))),
    );
  }

  /**
   * Appends an accepted action and saves the new state (and the stage's deadline) in one
   * transaction: either all of it is in the database, or none of it. `onOver` (the results and
   * ratings of a game that ends) and `inTx` (the planner's outbox rows) run inside it, and await
   * nothing but storage.
   */
  async commitAction(
    gameId: number,
    entry: { action: Action; actor: string; at: number },
    state: GameState,
    extra?: {
      /**
       * The game's row as this transaction holds it, read first (nothing is written before): it
       * may throw to refuse the action, and nothing is written.
       */
      game?: (row: GameRow | null) => void;
      /** Reads made with the game's row (the plan's: see ServiceHooks.prefetch). */
      prefetch?: () => Promise<void>;
      audit?: AuditEntry;
      onOver?: () => Promise<void>;
      inTx?: () => Promise<void>;
      resetDeadline?: boolean;
    },
  ): Promise<{ stageSeq: number; dueAt: number } | null> {
    const stored = await this.transaction(async () => {
      // The status the game's row has, when it was read here.
      let heldStatus: string | null = null;
      // The game's row first, held to the end of the transaction as lockGame would hold it
      // (PostgreSQL: a second process that believes it owns the guild waits here): read with FOR
      // UPDATE when the caller wants it (sent with BEGIN, one round trip), else by the state's
      // UPDATE, with one statement fewer.
      if (extra?.game) {
        // With the stage's end it replaces (writeDeadline then works the new one out).
        const [row] = await Promise.all([this.c.get(this.selectGameHeld(), { id: gameId }), extra.prefetch?.()]);
        if (!row) extra.game(null);
        else {
          const { endSeq, endAt, ...game } = row;
          const cur = endSeq === null || endAt === null ? null : { stageSeq: endSeq, dueAt: endAt };
          this.keepDeadline(gameId, cur);
          heldStatus = game.status;
          extra.game(toRow(game));
          if (this.actionWrites && !extra.resetDeadline) {
            // PostgreSQL: the three writes below as one statement.
            const end = state.deadline === null ? null : nextEnd(cur, state.seq, state.deadline);
            const w = this.actionWrites;
            const q = end === null ? (cur === null ? w.sameEnd : w.noEnd) : sameEnd(cur, end) ? w.sameEnd : w.end;
            await this.c.queue(q(), {
              gameId,
              state: JSON.stringify(state),
              moves: state.moves,
              status: statusOf(state),
              kind: entry.action.kind,
              action: JSON.stringify(entry.action),
              actor: entry.actor,
              at: entry.at,
              seq: state.seq,
              dueAt: state.deadline,
            });
            this.keepDeadline(gameId, end);
            return this.afterWrites(gameId, state, extra);
          }
        }
      }
      const status = statusOf(state);
      await this.c.queue(status === heldStatus ? this.updateStateOnly() : this.updateState(), {
        gameId,
        state: JSON.stringify(state),
        moves: state.moves,
        status,
        at: entry.at,
      });
      // G-7: the host moved the stage's end (also earlier): the later end it was shown goes too.
      if (extra?.resetDeadline) await this.dropDeadline(gameId);
      await this.c.queue(this.insertAction(), {
        gameId,
        seq: state.moves,
        kind: entry.action.kind,
        action: JSON.stringify(entry.action),
        actor: entry.actor,
        at: entry.at,
      });
      if (state.deadline === null) await this.dropDeadline(gameId);
      else await this.writeDeadline(gameId, state.seq, state.deadline);
      return this.afterWrites(gameId, state, extra);
    });
    return stored.end === null ? null : stored.end;
  }

  /** commitAction after the action's own writes: the audit, the closing, the plan; the stage's end. */
  private async afterWrites(
    gameId: number,
    state: GameState,
    extra?: { audit?: AuditEntry; onOver?: () => Promise<void>; inTx?: () => Promise<void> },
  ): Promise<{ end: Promise<DeadlineRow | null> | null }> {
    if (extra?.audit) await this.addAudit(extra.audit);
    if (extra?.onOver) await extra.onOver();
    if (extra?.inTx) await extra.inTx();
    // The stage's end as stored at the end of it all (the planner may have moved it later): its
    // answer is waited for after the commit, which it travels with (PostgreSQL).
    return { end: state.deadline === null ? null : quiet(this.deadlineOf(gameId)) };
  }

  /**
   * Writes the stage's end (a later end the same stage was given stays). The row as it then is
   * is kept for `deadlineOf`: worked out from the row it replaces when this transaction knows it
   * (commitAction reads it with the game's row; only the game's own work writes it, in turn), the
   * write then queued; else the write's answer to come (PostgreSQL: not waited for here).
   */
  private async writeDeadline(gameId: number, seq: number, dueAt: number): Promise<void> {
    const cache = this.c.txCache();
    const kept = cache?.get(`deadline:${gameId}`) as KeptDeadline | undefined;
    if (kept?.known) {
      const end = nextEnd(kept.value, seq, dueAt);
      // The same stage's end as stored (most actions): nothing to write.
      if (sameEnd(kept.value, end)) return;
      await this.c.queue(this.upsertDeadlineQuiet(), { gameId, seq, dueAt });
      this.keepDeadline(gameId, end);
      return;
    }
    const row = this.c
      .get(this.upsertDeadline(), { gameId, seq, dueAt })
      .then((r) => (r as DeadlineRow | undefined) ?? null);
    this.keepDeadline(gameId, row);
    // Outside a transaction nothing keeps it: wait for it here.
    if (!this.c.inTransaction) await row;
  }

  private async dropDeadline(gameId: number): Promise<void> {
    await this.c.queue(this.deleteDeadline(), { gameId });
    this.keepDeadline(gameId, null);
  }

  /** The stage's end for the rest of the transaction (Connection.txCache): a row, or its answer to come. */
  private keepDeadline(gameId: number, row: DeadlineRow | null | Promise<DeadlineRow | null>): void {
    const cache = this.c.txCache();
    if (!cache) return;
    if (!(row instanceof Promise)) {
      cache.set(`deadline:${gameId}`, { answer: Promise.resolve(row), known: true, value: row } satisfies KeptDeadline);
      return;
    }
    const kept: KeptDeadline = { answer: quiet(row), known: false, value: null };
    row.then(
      (v) => {
        kept.known = true;
        kept.value = v;
      },
      () => {},
    );
    cache.set(`deadline:${gameId}`, kept);
  }

  async log(gameId: number): Promise<LoggedAction[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select({ seq: t.actions.seq, action: t.actions.action, actor: t.actions.actor, at: t.actions.at })
        .from(t.actions)
        .where(eq(t.actions.gameId, gameId))
        .orderBy(asc(t.actions.seq)),
    );
    return rows.map((r) => ({ seq: r.seq, action: JSON.parse(r.action) as Action, actor: r.actor, at: r.at }));
  }

  /** The time of the latest logged action (0 when none). */
  async lastActionTime(): Promise<number> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db.select({ at: sql<number | null>`max(${t.actions.at})`.mapWith(Number) }).from(t.actions),
    );
    return r?.at ?? 0;
  }

  /**
   * The game's stage end as stored. Inside a transaction that wrote or read it already, not read
   * again (Connection.txCache: the service, the planner and the stage messages each ask).
   */
  async deadlineOf(gameId: number): Promise<{ stageSeq: number; dueAt: number } | null> {
    const cache = this.c.txCache();
    const k = `deadline:${gameId}`;
    const kept = cache?.get(k) as KeptDeadline | undefined;
    if (kept) return kept.answer;
    const row = this.c.get(this.selectDeadline(), { gameId }).then((r) => r ?? null);
    this.keepDeadline(gameId, row);
    return row;
  }

  /** A stage's timer ends later (never earlier) when its message was seen late. Returns the end. */
  async extendDeadline(gameId: number, stageSeq: number, dueAt: number): Promise<number | null> {
    const { db, t } = this.c;
    this.c.txCache()?.delete(`deadline:${gameId}`);
    await this.c.run(
      db
        .update(t.deadlines)
        .set({ dueAt: this.c.greatest(t.deadlines.dueAt, sql`${dueAt}`) })
        .where(and(eq(t.deadlines.gameId, gameId), eq(t.deadlines.stageSeq, stageSeq))),
    );
    const d = await this.deadlineOf(gameId);
    return d && d.stageSeq === stageSeq ? d.dueAt : null;
  }

  /** The raw stored state JSON (for verification). */
  async rawState(gameId: number): Promise<string | null> {
    const r = await this.c.get(this.selectState(), { id: gameId });
    return r?.state ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // Deadlines

  /** The stored deadlines of the games this process owns (issue 22), soonest first. */
  async pendingDeadlines(): Promise<{ gameId: number; stageSeq: number; dueAt: number }[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select()
        .from(t.deadlines)
        .where(ownedGame(this.c, t.deadlines.gameId))
        .orderBy(asc(t.deadlines.dueAt), asc(t.deadlines.gameId)),
    );
  }

  async dueDeadlines(now: number): Promise<{ gameId: number; stageSeq: number; dueAt: number }[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select()
        .from(t.deadlines)
        .where(and(lte(t.deadlines.dueAt, now), ownedGame(this.c, t.deadlines.gameId)))
        .orderBy(asc(t.deadlines.dueAt)),
    );
  }

  async clearDeadline(gameId: number): Promise<void> {
    await this.dropDeadline(gameId);
  }

  // -------------------------------------------------------------------------------------------
  // Results, audit

  /** Writes the final points of a finished game (S-1..S-4) and marks it over. */
  async writeResults(
    game: GameRow,
    state: GameState,
    seats: { seat: number; userId: string }[],
    now: number,
  ): Promise<void> {
    const res = state.result;
    if (!res?.points) return;
    const userBySeat = new Map(seats.map((s) => [s.seat, s.userId]));
    const { db, t } = this.c;
    // The writes queued (sent unwaited on PostgreSQL), the reads at once: the closing action's
    // transaction waits only for what it reads. A queued write's failure is thrown by the next
    // statement waited for or by the commit, not here: catching a failure of what follows
    // (recordGame) would not keep the transaction.
    await this.c.queueBuilt(db.delete(t.results).where(eq(t.results.gameId, game.id)));
    const [voteHeld, subs] = await Promise.all([
      res.reason === 'host' ? this.dayVoteHeld(game.id, state) : true,
      this.substitutions(game.id),
    ]);
    const noDayVote = !voteHeld;
    const rows = [];
    for (const p of res.points) {
      const player = state.players[p.seat - 1]!;
      const team = teamOf(player.role);
      const outcome = res.winner === 'draw' ? 'draw' : res.winner === team ? 'win' : 'loss';
      const killedNight1 = state.out.some(
        (o) => o.seat === p.seat && o.by === 'night' && o.at.phase === 'night' && o.at.n === 1,
      );
      const bm = state.history.bestMove;
      rows.push({
        gameId: game.id,
        seat: p.seat,
        guildId: game.guildId,
        userId: userBySeat.get(p.seat) ?? '',
        ruleset: state.ruleset,
        role: player.role,
        team,
        outcome,
        points: p.total,
        breakdown: JSON.stringify(p.items),
        bestPlayer: res.bestPlayer === p.seat,
        killedNight1,
        finishedAt: now,
        // Ratings and /stats (src/stats): the facts that decide whether and how the game is rated.
        noDayVote,
        moves: state.moves,
        fouls: player.fouls,
        removed: state.out.some((o) => o.seat === p.seat && o.by === 'removed'),
        bestMoveBlack:
          bm?.seat === p.seat ? bm.targets.filter((x) => teamOf(state.players[x - 1]!.role) === 'black').length : null,
        holders: await this.seatHolders(game.id, subs, p.seat, userBySeat.get(p.seat) ?? '', state.moves),
        // Issue 24: what the seat did that an achievement rewards (the achievements are derived from it).
        feats: gameFeats(state, p.seat).join(','),
      });
    }
    await this.c.queueBuilt(db.insert(t.results).values(rows));
    await this.c.queueBuilt(
      db.update(t.games).set({ winner: res.winner, finishedAt: now }).where(eq(t.games.id, game.id)),
    );
    await recordGame(this.stats, game.id, game.guildId);
  }

  /** Whether a day vote was held: a ballot was cast, or someone left by the vote. */
  private async dayVoteHeld(gameId: number, state: GameState): Promise<boolean> {
    if (state.out.some((o) => o.by === 'vote')) return true;
    const { db, t } = this.c;
    const r = await this.c.get(
      db
        .select({ one: t.actions.seq })
        .from(t.actions)
        .where(and(eq(t.actions.gameId, gameId), inArray(t.actions.kind, ['vote', 'voteAll'])))
        .limit(1),
    );
    return r !== undefined;
  }

  /** The game's substitutions (audit entries), in order. */
  private async substitutions(gameId: number): Promise<{ detail: string; at: number }[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select({ detail: t.audit.detail, at: t.audit.at })
        .from(t.audit)
        .where(and(eq(t.audit.gameId, gameId), eq(t.audit.action, 'substitute')))
        .orderBy(asc(t.audit.id)),
    );
  }

  /** A substituted seat's holders and their shares of the moves (JSON), or null (one holder). */
  private async seatHolders(
    gameId: number,
    subs: { detail: string; at: number }[],
    seat: number,
    finalUser: string,
    moves: number,
  ): Promise<string | null> {
    const changes: { atMove: number; to: string; from: string }[] = [];
    for (const r of subs) {
      const d = JSON.parse(r.detail) as { seat?: number; from?: string; to?: string; moves?: number };
      if (d.seat !== seat || typeof d.to !== 'string' || typeof d.from !== 'string') continue;
      let atMove = d.moves;
      if (typeof atMove !== 'number') {
        const { db, t } = this.c;
        const n = await this.c.get(
          db
            .select({ n: count() })
            .from(t.actions)
            .where(and(eq(t.actions.gameId, gameId), lte(t.actions.at, r.at))),
        );
        atMove = n?.n ?? 0;
      }
      changes.push({ atMove, to: d.to, from: d.from });
    }
    if (changes.length === 0) return null;
    return JSON.stringify(
      seatShares(changes[0]!.from, changes, moves).filter((h) => h.userId !== '' || finalUser === ''),
    );
  }

  async resultsFor(filter: { guildId: string; ruleset?: RulesetId; since?: number; userId?: string }) {
    const { db, t } = this.c;
    // Annulled games stay in the archive but count for nothing.
    const conds = [
      eq(t.results.guildId, filter.guildId),
      sql`${t.results.gameId} not in (select ${t.games.id} from ${t.games} where ${t.games.annulledAt} is not null)`,
    ];
    if (filter.ruleset) conds.push(eq(t.results.ruleset, filter.ruleset));
    if (filter.since !== undefined) conds.push(sql`${t.results.finishedAt} >= ${filter.since}`);
    if (filter.userId) conds.push(eq(t.results.userId, filter.userId));
    return this.c.all(
      db
        .select()
        .from(t.results)
        .where(and(...conds))
        .orderBy(desc(t.results.finishedAt)),
    );
  }

  async addAudit(e: AuditEntry): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db.insert(t.audit).values({
        gameId: e.gameId,
        at: e.at,
        actorId: e.actorId,
        action: e.action,
        detail: JSON.stringify(e.detail ?? {}),
        reason: e.reason ?? null,
      }),
    );
  }

  async auditLog(gameId: number) {
    const { db, t } = this.c;
    return this.c.all(db.select().from(t.audit).where(eq(t.audit.gameId, gameId)).orderBy(asc(t.audit.id)));
  }

  // -------------------------------------------------------------------------------------------
  // Housekeeping

  /** Moves this process's games untouched since `before` from one status to another; returns their ids. */
  private async moveStale(from: GameStatus, to: GameStatus, before: number, now: number): Promise<number[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select({ id: t.games.id })
        .from(t.games)
        .where(and(eq(t.games.status, from), lt(t.games.updatedAt, before), this.c.ownsGuild(t.games.guildId))),
    );
    const ids = rows.map((r) => r.id);
    if (ids.length > 0)
      await this.c.run(db.update(t.games).set({ status: to, updatedAt: now }).where(inArray(t.games.id, ids)));
    return ids;
  }

  /** Lobbies nobody started before `before` are expired; returns their ids. */
  expireLobbies(before: number, now: number): Promise<number[]> {
    return this.moveStale('lobby', 'expired', before, now);
  }

  /** Finished games older than `before` are archived; returns their ids. */
  archiveFinished(before: number, now: number): Promise<number[]> {
    return this.moveStale('over', 'archived', before, now);
  }
}
