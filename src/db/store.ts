// The game's repository (servers, games, players, actions, deadlines, results, audit). All SQL is in
// src/db, one store per area (docs/storage.md). Hot paths use prepared statements.
import type Database from 'better-sqlite3';
import { and, asc, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import { teamOf } from '../engine/rulesets';
import type { Action, GameState, OptionOverrides, Pace, Role, RulesetId } from '../engine/types';
import { seatShares } from '../engine/rating';
import { recordGame } from '../stats/record';
import type { Db } from './client';
import { SqliteStatsStore, type StatsStore } from './stats-store';
import { actions, audit, deadlines, games, players, results, servers, type GameStatus } from './schema';
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

type RawGame = typeof games.$inferSelect;

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
  };
}

/** The status column that matches an engine state. */
export function statusOf(state: GameState): GameStatus {
  if (state.stage.kind === 'over') return 'over';
  if (state.stage.kind === 'postGame') return 'post-game';
  return 'running';
}

export class Store {
  private readonly insertAction;
  private readonly updateState;
  private readonly upsertDeadline;
  private readonly deleteDeadline;
  private readonly selectDeadline;
  // Hot paths (every action reads the game and its seats): prepared once, not rebuilt per query.
  private readonly selectGame;
  private readonly selectState;
  private readonly selectPlayers;

  constructor(readonly db: Db) {
    this.insertAction = db
      .insert(actions)
      .values({
        gameId: sql.placeholder('gameId'),
        seq: sql.placeholder('seq'),
        kind: sql.placeholder('kind'),
        action: sql.placeholder('action'),
        actor: sql.placeholder('actor'),
        at: sql.placeholder('at'),
      })
      .prepare();
    this.updateState = db
      .update(games)
      .set({
        state: sql`${sql.placeholder('state')}`,
        moves: sql`${sql.placeholder('moves')}`,
        status: sql`${sql.placeholder('status')}`,
        updatedAt: sql`${sql.placeholder('at')}`,
      })
      .where(eq(games.id, sql.placeholder('gameId')))
      .prepare();
    this.upsertDeadline = db
      .insert(deadlines)
      .values({ gameId: sql.placeholder('gameId'), stageSeq: sql.placeholder('seq'), dueAt: sql.placeholder('dueAt') })
      .onConflictDoUpdate({
        target: deadlines.gameId,
        // The same stage keeps a later end it was given (its message was seen late): see extendDeadline.
        set: {
          stageSeq: sql`excluded.stage_seq`,
          dueAt: sql`CASE WHEN ${deadlines.stageSeq} = excluded.stage_seq THEN max(${deadlines.dueAt}, excluded.due_at) ELSE excluded.due_at END`,
        },
      })
      .prepare();
    this.deleteDeadline = db
      .delete(deadlines)
      .where(eq(deadlines.gameId, sql.placeholder('gameId')))
      .prepare();
    this.selectGame = db
      .select()
      .from(games)
      .where(eq(games.id, sql.placeholder('id')))
      .prepare();
    this.selectState = db
      .select({ state: games.state })
      .from(games)
      .where(eq(games.id, sql.placeholder('id')))
      .prepare();
    this.selectPlayers = db
      .select({ seat: players.seat, userId: players.userId, role: players.role })
      .from(players)
      .where(eq(players.gameId, sql.placeholder('gameId')))
      .orderBy(asc(players.seat))
      .prepare();
    this.selectDeadline = db
      .select({ stageSeq: deadlines.stageSeq, dueAt: deadlines.dueAt })
      .from(deadlines)
      .where(eq(deadlines.gameId, sql.placeholder('gameId')))
      .prepare();
  }

  /** The better-sqlite3 connection under drizzle (for this store's raw statements, tests and tools). */
  get sqlite(): Database.Database {
    return (this.db as unknown as { $client: Database.Database }).$client;
  }

  /** Ratings, standings, seasons and /stats (src/db/stats-store.ts), on the same connection. */
  get stats(): StatsStore {
    return SqliteStatsStore.of(this.db);
  }

  /**
   * One write transaction. IMMEDIATE: the write lock is taken at BEGIN, so a process sharing the
   * file waits for it there (busy_timeout) instead of failing at once with "database is locked"
   * when a read transaction tries to become a write one after another process wrote (issue 22;
   * measured by bench/shared-file.ts).
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(() => fn(), { behavior: 'immediate' });
  }

  // -------------------------------------------------------------------------------------------
  // Servers

  ensureServer(guildId: string, now: number): void {
    this.db.insert(servers).values({ guildId, createdAt: now, updatedAt: now }).onConflictDoNothing().run();
  }

  getServer(guildId: string) {
    return this.db.select().from(servers).where(eq(servers.guildId, guildId)).get() ?? null;
  }

  updateServer(
    guildId: string,
    patch: { locale?: string | null; mafiaTalkEveryNight?: boolean; enforceSpeakingOrder?: boolean },
    now: number,
  ): void {
    this.ensureServer(guildId, now);
    this.db
      .update(servers)
      .set({ ...patch, updatedAt: now })
      .where(eq(servers.guildId, guildId))
      .run();
  }

  /** The settings JSON of a server as stored (validated by src/app/settings.ts). */
  serverSettingsRaw(guildId: string): string | null {
    return (
      this.db.select({ settings: servers.settings }).from(servers).where(eq(servers.guildId, guildId)).get()
        ?.settings ?? null
    );
  }

  setServerSettingsRaw(guildId: string, json: string, now: number): void {
    this.ensureServer(guildId, now);
    this.db.update(servers).set({ settings: json, updatedAt: now }).where(eq(servers.guildId, guildId)).run();
  }

  // -------------------------------------------------------------------------------------------
  // Games

  createLobby(input: {
    guildId: string;
    channelId: string;
    hostId: string;
    ruleset: RulesetId;
    pace: Pace;
    options: OptionOverrides;
    lobby?: LobbyInfo;
    ui?: Record<string, unknown>;
    now: number;
  }): GameRow {
    this.ensureServer(input.guildId, input.now);
    const row = this.db
      .insert(games)
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
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning()
      .get();
    return toRow(row);
  }

  getGame(id: number): GameRow | null {
    const r = this.selectGame.get({ id });
    return r ? toRow(r) : null;
  }

  getState(id: number): GameState | null {
    const r = this.selectState.get({ id });
    return r?.state ? (JSON.parse(r.state) as GameState) : null;
  }

  gamesWithStatus(statuses: GameStatus[]): GameRow[] {
    return this.db.select().from(games).where(inArray(games.status, statuses)).orderBy(asc(games.id)).all().map(toRow);
  }

  /** Games in a channel that are not finished (lobby, running or post-game). */
  activeGamesInChannel(channelId: string): GameRow[] {
    return this.db
      .select()
      .from(games)
      .where(and(eq(games.channelId, channelId), inArray(games.status, ['lobby', 'running', 'post-game'])))
      .orderBy(asc(games.id))
      .all()
      .map(toRow);
  }

  /** The newest game of a channel, whatever its status. */
  latestGameInChannel(channelId: string): GameRow | null {
    const r = this.db.select().from(games).where(eq(games.channelId, channelId)).orderBy(desc(games.id)).limit(1).get();
    return r ? toRow(r) : null;
  }

  allGameIds(): number[] {
    return this.db
      .select({ id: games.id })
      .from(games)
      .orderBy(asc(games.id))
      .all()
      .map((r) => r.id);
  }

  setLobby(id: number, lobby: LobbyInfo, now: number): void {
    this.db
      .update(games)
      .set({ lobby: JSON.stringify(lobby), updatedAt: now })
      .where(eq(games.id, id))
      .run();
  }

  setStatus(id: number, status: GameStatus, now: number): void {
    this.db.update(games).set({ status, updatedAt: now }).where(eq(games.id, id)).run();
  }

  /** A finished game is annulled: it stays in the archive, its results no longer count. */
  setAnnulled(id: number, at: number): void {
    this.db.update(games).set({ annulledAt: at, updatedAt: at }).where(eq(games.id, id)).run();
  }

  setHost(id: number, hostId: string, now: number): void {
    this.db.update(games).set({ hostId, updatedAt: now }).where(eq(games.id, id)).run();
  }

  /** Deals the game: seats, roles and the initial state, in one transaction. */
  startGame(id: number, seats: { seat: number; userId: string; role: Role }[], state: GameState, now: number): void {
    this.transaction(() => {
      const game = this.getGame(id);
      if (!game) throw new Error(`no game ${id}`);
      this.db
        .update(games)
        .set({
          status: 'running',
          deal: JSON.stringify(seats.map((s) => s.role)),
          state: JSON.stringify(state),
          moves: 0,
          startedAt: now,
          updatedAt: now,
        })
        .where(eq(games.id, id))
        .run();
      this.db
        .insert(players)
        .values(seats.map((s) => ({ gameId: id, seat: s.seat, guildId: game.guildId, userId: s.userId, role: s.role })))
        .run();
      if (state.deadline !== null) this.upsertDeadline.run({ gameId: id, seq: state.seq, dueAt: state.deadline });
    });
  }

  players(gameId: number): { seat: number; userId: string; role: Role }[] {
    return this.selectPlayers.all({ gameId }) as { seat: number; userId: string; role: Role }[];
  }

  /** A substitute takes over a seat (the seat, its role and its history stay). */
  substitute(gameId: number, seat: number, userId: string): void {
    this.db
      .update(players)
      .set({ userId })
      .where(and(eq(players.gameId, gameId), eq(players.seat, seat)))
      .run();
  }

  /**
   * Appends an accepted action and saves the new state (and the stage's deadline) in one
   * transaction: either all of it is in the database, or none of it.
   */
  commitAction(
    gameId: number,
    entry: { action: Action; actor: string; at: number },
    state: GameState,
    extra?: { audit?: AuditEntry; onOver?: () => void; inTx?: () => void; resetDeadline?: boolean },
  ): void {
    this.transaction(() => {
      // G-7: the host moved the stage's end (also earlier): the later end it was shown goes too.
      if (extra?.resetDeadline) this.deleteDeadline.run({ gameId });
      this.insertAction.run({
        gameId,
        seq: state.moves,
        kind: entry.action.kind,
        action: JSON.stringify(entry.action),
        actor: entry.actor,
        at: entry.at,
      });
      this.updateState.run({
        gameId,
        state: JSON.stringify(state),
        moves: state.moves,
        status: statusOf(state),
        at: entry.at,
      });
      if (state.deadline === null) this.deleteDeadline.run({ gameId });
      else this.upsertDeadline.run({ gameId, seq: state.seq, dueAt: state.deadline });
      if (extra?.audit) this.addAudit(extra.audit);
      extra?.onOver?.();
      extra?.inTx?.();
    });
  }

  log(gameId: number): LoggedAction[] {
    return this.db
      .select({ seq: actions.seq, action: actions.action, actor: actions.actor, at: actions.at })
      .from(actions)
      .where(eq(actions.gameId, gameId))
      .orderBy(asc(actions.seq))
      .all()
      .map((r) => ({ seq: r.seq, action: JSON.parse(r.action) as Action, actor: r.actor, at: r.at }));
  }

  /** The time of the latest logged action (0 when none). */
  lastActionTime(): number {
    const r = this.db
      .select({ at: sql<number | null>`max(${actions.at})` })
      .from(actions)
      .get();
    return r?.at ?? 0;
  }

  deadlineOf(gameId: number): { stageSeq: number; dueAt: number } | null {
    return (this.selectDeadline.get({ gameId }) as { stageSeq: number; dueAt: number } | undefined) ?? null;
  }

  /** A stage's timer ends later (never earlier) when its message was seen late. Returns the end. */
  extendDeadline(gameId: number, stageSeq: number, dueAt: number): number | null {
    this.db
      .update(deadlines)
      .set({ dueAt: sql`max(${deadlines.dueAt}, ${dueAt})` })
      .where(and(eq(deadlines.gameId, gameId), eq(deadlines.stageSeq, stageSeq)))
      .run();
    const d = this.deadlineOf(gameId);
    return d && d.stageSeq === stageSeq ? d.dueAt : null;
  }

  /** The raw stored state JSON (for verification). */
  rawState(gameId: number): string | null {
    return this.db.select({ state: games.state }).from(games).where(eq(games.id, gameId)).get()?.state ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // Deadlines

  /** The stored deadlines of the games this process owns (issue 22), soonest first. */
  pendingDeadlines(): { gameId: number; stageSeq: number; dueAt: number }[] {
    return this.db
      .select()
      .from(deadlines)
      .where(ownedGame(deadlines.gameId))
      .orderBy(asc(deadlines.dueAt), asc(deadlines.gameId))
      .all();
  }

  dueDeadlines(now: number): { gameId: number; stageSeq: number; dueAt: number }[] {
    return this.db
      .select()
      .from(deadlines)
      .where(and(lte(deadlines.dueAt, now), ownedGame(deadlines.gameId)))
      .orderBy(asc(deadlines.dueAt))
      .all();
  }

  clearDeadline(gameId: number): void {
    this.deleteDeadline.run({ gameId });
  }

  // -------------------------------------------------------------------------------------------
  // Results, audit

  /** Writes the final points of a finished game (S-1..S-4) and marks it over. */
  writeResults(game: GameRow, state: GameState, seats: { seat: number; userId: string }[], now: number): void {
    const res = state.result;
    if (!res?.points) return;
    const userBySeat = new Map(seats.map((s) => [s.seat, s.userId]));
    this.db.delete(results).where(eq(results.gameId, game.id)).run();
    const rows = res.points.map((p) => {
      const player = state.players[p.seat - 1]!;
      const team = teamOf(player.role);
      const outcome = res.winner === 'draw' ? 'draw' : res.winner === team ? 'win' : 'loss';
      const killedNight1 = state.out.some(
        (o) => o.seat === p.seat && o.by === 'night' && o.at.phase === 'night' && o.at.n === 1,
      );
      const bm = state.history.bestMove;
      return {
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
        noDayVote: res.reason === 'host' && !this.dayVoteHeld(game.id, state),
        moves: state.moves,
        fouls: player.fouls,
        removed: state.out.some((o) => o.seat === p.seat && o.by === 'removed'),
        bestMoveBlack:
          bm?.seat === p.seat ? bm.targets.filter((x) => teamOf(state.players[x - 1]!.role) === 'black').length : null,
        holders: this.seatHolders(game.id, p.seat, userBySeat.get(p.seat) ?? '', state.moves),
      };
    });
    this.db.insert(results).values(rows).run();
    this.db.update(games).set({ winner: res.winner, finishedAt: now }).where(eq(games.id, game.id)).run();
    recordGame(this.stats, game.id);
  }

  /** Whether a day vote was held: a ballot was cast, or someone left by the vote. */
  private dayVoteHeld(gameId: number, state: GameState): boolean {
    if (state.out.some((o) => o.by === 'vote')) return true;
    return (
      this.sqlite
        .prepare("SELECT 1 FROM actions WHERE game_id = ? AND kind IN ('vote', 'voteAll') LIMIT 1")
        .get(gameId) !== undefined
    );
  }

  /** A substituted seat's holders and their shares of the moves (JSON), or null (one holder). */
  private seatHolders(gameId: number, seat: number, finalUser: string, moves: number): string | null {
    const subs = this.sqlite
      .prepare("SELECT detail, at FROM audit WHERE game_id = ? AND action = 'substitute' ORDER BY id")
      .all(gameId) as { detail: string; at: number }[];
    const changes: { atMove: number; to: string; from: string }[] = [];
    for (const r of subs) {
      const d = JSON.parse(r.detail) as { seat?: number; from?: string; to?: string; moves?: number };
      if (d.seat !== seat || typeof d.to !== 'string' || typeof d.from !== 'string') continue;
      const atMove =
        typeof d.moves === 'number'
          ? d.moves
          : (
              this.sqlite
                .prepare('SELECT count(*) AS n FROM actions WHERE game_id = ? AND at <= ?')
                .get(gameId, r.at) as { n: number }
            ).n;
      changes.push({ atMove, to: d.to, from: d.from });
    }
    if (changes.length === 0) return null;
    return JSON.stringify(
      seatShares(changes[0]!.from, changes, moves).filter((h) => h.userId !== '' || finalUser === ''),
    );
  }

  resultsFor(filter: { guildId: string; ruleset?: RulesetId; since?: number; userId?: string }) {
    // Annulled games stay in the archive but count for nothing.
    const conds = [
      eq(results.guildId, filter.guildId),
      sql`${results.gameId} not in (select ${games.id} from ${games} where ${games.annulledAt} is not null)`,
    ];
    if (filter.ruleset) conds.push(eq(results.ruleset, filter.ruleset));
    if (filter.since !== undefined) conds.push(sql`${results.finishedAt} >= ${filter.since}`);
    if (filter.userId) conds.push(eq(results.userId, filter.userId));
    return this.db
      .select()
      .from(results)
      .where(and(...conds))
      .orderBy(desc(results.finishedAt))
      .all();
  }

  addAudit(e: AuditEntry): void {
    this.db
      .insert(audit)
      .values({
        gameId: e.gameId,
        at: e.at,
        actorId: e.actorId,
        action: e.action,
        detail: JSON.stringify(e.detail ?? {}),
        reason: e.reason ?? null,
      })
      .run();
  }

  auditLog(gameId: number) {
    return this.db.select().from(audit).where(eq(audit.gameId, gameId)).orderBy(asc(audit.id)).all();
  }

  // -------------------------------------------------------------------------------------------
  // Housekeeping

  /** Moves this process's games untouched since `before` from one status to another; returns their ids. */
  private moveStale(from: GameStatus, to: GameStatus, before: number, now: number): number[] {
    const ids = this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.status, from), lt(games.updatedAt, before), sql`owns_guild(${games.guildId})`))
      .all()
      .map((r) => r.id);
    if (ids.length > 0) this.db.update(games).set({ status: to, updatedAt: now }).where(inArray(games.id, ids)).run();
    return ids;
  }

  /** Lobbies nobody started before `before` are expired; returns their ids. */
  expireLobbies(before: number, now: number): number[] {
    return this.moveStale('lobby', 'expired', before, now);
  }

  /** Finished games older than `before` are archived; returns their ids. */
  archiveFinished(before: number, now: number): number[] {
    return this.moveStale('over', 'archived', before, now);
  }
}
