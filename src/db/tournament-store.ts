// The tournaments' SQL (T-1..T-4): registration, the draw, the tables' games, the final. The
// games themselves live in the game store; this links them to their tournament.
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { TournamentResult, TournamentTable } from '../engine/tournament';
import type { OptionOverrides, Role, RulesetId } from '../engine/types';
import type { Db } from './client';
import {
  games,
  results,
  servers,
  slots,
  tournamentPlayers,
  tournamentTables,
  tournaments,
  type TournamentStatus,
} from './schema';

export interface TournamentRow {
  id: number;
  guildId: string;
  channelId: string;
  hostId: string;
  name: string;
  ruleset: RulesetId;
  options: OptionOverrides;
  locale: string;
  status: TournamentStatus;
  holderGameId: number;
  categoryId: string | null;
  finalLot: { among: string[]; chosen: string[] } | null;
  createdAt: number;
  finishedAt: number | null;
}

export interface RegisteredPlayer {
  userId: string;
  name: string;
  locale: string | null;
}

export interface TableRow {
  round: number;
  table: number;
  seats: string[];
  channelId: string | null;
  gameId: number | null;
  subs: Record<string, string>;
}

type RawT = typeof tournaments.$inferSelect;

function toRow(r: RawT): TournamentRow {
  return {
    id: r.id,
    guildId: r.guildId,
    channelId: r.channelId,
    hostId: r.hostId,
    name: r.name,
    ruleset: r.ruleset as RulesetId,
    options: JSON.parse(r.options) as OptionOverrides,
    locale: r.locale,
    status: r.status,
    holderGameId: r.holderGameId!,
    categoryId: r.categoryId,
    finalLot: r.finalLot ? (JSON.parse(r.finalLot) as { among: string[]; chosen: string[] }) : null,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}

export class TournamentStore {
  constructor(readonly db: Db) {}

  /** One write transaction, IMMEDIATE (see Store.transaction). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(() => fn(), { behavior: 'immediate' });
  }

  /** A new tournament in registration, with its holder game row (owner of its messages in the outbox). */
  create(input: {
    guildId: string;
    channelId: string;
    hostId: string;
    name: string;
    ruleset: RulesetId;
    options: OptionOverrides;
    locale: string;
    now: number;
  }): TournamentRow {
    return this.transaction(() => {
      this.db
        .insert(servers)
        .values({ guildId: input.guildId, createdAt: input.now, updatedAt: input.now })
        .onConflictDoNothing()
        .run();
      const t = this.db
        .insert(tournaments)
        .values({
          guildId: input.guildId,
          channelId: input.channelId,
          hostId: input.hostId,
          name: input.name,
          ruleset: input.ruleset,
          options: JSON.stringify(input.options),
          locale: input.locale,
          status: 'registration',
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning()
        .get();
      const holder = this.db
        .insert(games)
        .values({
          guildId: input.guildId,
          channelId: input.channelId,
          hostId: input.hostId,
          ruleset: input.ruleset,
          pace: 'live',
          // Never played: it only owns the tournament's messages (see schema.ts, tournaments).
          status: 'cancelled',
          ui: JSON.stringify({ locale: input.locale, holder: 'tournament' }),
          tournamentId: t.id,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: games.id })
        .get();
      this.db.update(tournaments).set({ holderGameId: holder.id }).where(eq(tournaments.id, t.id)).run();
      return toRow({ ...t, holderGameId: holder.id });
    });
  }

  get(id: number): TournamentRow | null {
    const r = this.db.select().from(tournaments).where(eq(tournaments.id, id)).get();
    return r ? toRow(r) : null;
  }

  /** The newest tournament of a server that is not over (the default for commands). */
  current(guildId: string): TournamentRow | null {
    const r = this.db
      .select()
      .from(tournaments)
      .where(and(eq(tournaments.guildId, guildId), inArray(tournaments.status, ['registration', 'running'])))
      .orderBy(desc(tournaments.id))
      .limit(1)
      .get();
    return r ? toRow(r) : null;
  }

  /** The newest tournament of a server, whatever its status. */
  latest(guildId: string): TournamentRow | null {
    const r = this.db
      .select()
      .from(tournaments)
      .where(eq(tournaments.guildId, guildId))
      .orderBy(desc(tournaments.id))
      .limit(1)
      .get();
    return r ? toRow(r) : null;
  }

  setStatus(id: number, status: TournamentStatus, now: number): void {
    this.db
      .update(tournaments)
      .set({ status, updatedAt: now, ...(status === 'finished' ? { finishedAt: now } : {}) })
      .where(eq(tournaments.id, id))
      .run();
  }

  setCategory(id: number, categoryId: string, now: number): void {
    this.db.update(tournaments).set({ categoryId, updatedAt: now }).where(eq(tournaments.id, id)).run();
  }

  setFinalLot(id: number, lot: { among: string[]; chosen: string[] } | null, now: number): void {
    this.db
      .update(tournaments)
      .set({ finalLot: lot ? JSON.stringify(lot) : null, updatedAt: now })
      .where(eq(tournaments.id, id))
      .run();
  }

  /**
   * After a restart: the messages of every open tournament are sent once more, so one deleted
   * while the bot was down is found (404) and posted again. Returns how many.
   */
  touchMessages(now: number): number {
    const open = this.db
      .select({ id: tournaments.holderGameId })
      .from(tournaments)
      .where(inArray(tournaments.status, ['registration', 'running']))
      .all()
      .map((r) => r.id)
      .filter((id): id is number => id !== null);
    if (open.length === 0) return 0;
    return this.db
      .update(slots)
      .set({ version: sql`${slots.version} + 1`, updatedAt: now })
      .where(
        and(inArray(slots.gameId, open), eq(slots.repost, true), eq(slots.state, 'live'), isNotNull(slots.messageId)),
      )
      .run().changes;
  }

  // -------------------------------------------------------------------------------------------
  // Registration

  players(id: number): RegisteredPlayer[] {
    return this.db
      .select({ userId: tournamentPlayers.userId, name: tournamentPlayers.name, locale: tournamentPlayers.locale })
      .from(tournamentPlayers)
      .where(eq(tournamentPlayers.tournamentId, id))
      .orderBy(asc(tournamentPlayers.joinedAt), asc(tournamentPlayers.userId))
      .all();
  }

  /** Registers a player; false if he already is. */
  join(id: number, p: RegisteredPlayer, now: number): boolean {
    const r = this.db
      .insert(tournamentPlayers)
      .values({ tournamentId: id, userId: p.userId, name: p.name, locale: p.locale, joinedAt: now })
      .onConflictDoNothing()
      .run();
    return r.changes > 0;
  }

  leave(id: number, userId: string): boolean {
    return (
      this.db
        .delete(tournamentPlayers)
        .where(and(eq(tournamentPlayers.tournamentId, id), eq(tournamentPlayers.userId, userId)))
        .run().changes > 0
    );
  }

  // -------------------------------------------------------------------------------------------
  // Tables

  addTables(id: number, round: number, tables: string[][]): void {
    if (tables.length === 0) return;
    this.db
      .insert(tournamentTables)
      .values(tables.map((seats, i) => ({ tournamentId: id, round, table: i + 1, seats: JSON.stringify(seats) })))
      .run();
  }

  tables(id: number): TableRow[] {
    return this.db
      .select()
      .from(tournamentTables)
      .where(eq(tournamentTables.tournamentId, id))
      .orderBy(asc(tournamentTables.round), asc(tournamentTables.table))
      .all()
      .map((r) => ({
        round: r.round,
        table: r.table,
        seats: JSON.parse(r.seats) as string[],
        channelId: r.channelId,
        gameId: r.gameId,
        subs: JSON.parse(r.subs) as Record<string, string>,
      }));
  }

  table(id: number, round: number, table: number): TableRow | null {
    return this.tables(id).find((t) => t.round === round && t.table === table) ?? null;
  }

  setTableChannel(id: number, round: number, table: number, channelId: string): void {
    this.db
      .update(tournamentTables)
      .set({ channelId })
      .where(
        and(
          eq(tournamentTables.tournamentId, id),
          eq(tournamentTables.round, round),
          eq(tournamentTables.table, table),
        ),
      )
      .run();
  }

  /** Links a table to its game (and the game to the tournament: games.tournament_id). */
  setTableGame(id: number, round: number, table: number, gameId: number, subs: Record<string, string>): void {
    this.db
      .update(tournamentTables)
      .set({ gameId, subs: JSON.stringify(subs) })
      .where(
        and(
          eq(tournamentTables.tournamentId, id),
          eq(tournamentTables.round, round),
          eq(tournamentTables.table, table),
        ),
      )
      .run();
    this.db.update(games).set({ tournamentId: id }).where(eq(games.id, gameId)).run();
  }

  /** The tournament table a game belongs to, if any. */
  tableOfGame(gameId: number): { tournamentId: number; round: number; table: number } | null {
    const r = this.db
      .select({
        tournamentId: tournamentTables.tournamentId,
        round: tournamentTables.round,
        table: tournamentTables.table,
      })
      .from(tournamentTables)
      .where(eq(tournamentTables.gameId, gameId))
      .get();
    return r ?? null;
  }

  /**
   * The tables with their games' results, for the pure T-1..T-3 functions. A game counts once it
   * is over (its results written) and not annulled.
   */
  withResults(id: number): (TournamentTable & TableRow & { status: string | null })[] {
    const tables = this.tables(id);
    const ids = tables.map((t) => t.gameId).filter((g): g is number => g !== null);
    const status = new Map<number, { status: string; annulled: boolean }>();
    const byGame = new Map<number, TournamentResult[]>();
    if (ids.length > 0) {
      for (const g of this.db
        .select({ id: games.id, status: games.status, annulledAt: games.annulledAt })
        .from(games)
        .where(inArray(games.id, ids))
        .all()) {
        status.set(g.id, { status: g.status, annulled: g.annulledAt !== null });
      }
      for (const r of this.db
        .select()
        .from(results)
        .where(and(inArray(results.gameId, ids), isNotNull(results.userId)))
        .all()) {
        const list = byGame.get(r.gameId) ?? [];
        list.push({
          userId: r.userId,
          seat: r.seat,
          points: r.points,
          won: r.outcome === 'win',
          role: r.role as Role,
          bestPlayer: r.bestPlayer,
          killedNight1: r.killedNight1,
        });
        byGame.set(r.gameId, list);
      }
    }
    return tables.map((t) => {
      const g = t.gameId === null ? null : (status.get(t.gameId) ?? null);
      const done =
        g !== null && !g.annulled && (g.status === 'over' || g.status === 'archived') && byGame.has(t.gameId!);
      return { ...t, status: g?.status ?? null, results: done ? byGame.get(t.gameId!)! : null };
    });
  }
}
