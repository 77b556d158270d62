// The tournaments' SQL (T-1..T-4): registration, the draw, the tables' games, the final. The
// games themselves live in the game store; this links them to their tournament.
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { TournamentResult, TournamentTable } from '../engine/tournament';
import type { OptionOverrides, Role, RulesetId } from '../engine/types';
import type { Connection } from './connection';
import type { tournaments, TournamentStatus } from './schema';

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
  constructor(readonly c: Connection) {}

  /** One write transaction (see Store.transaction): it awaits nothing but storage. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.c.transaction(fn);
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
  }): Promise<TournamentRow> {
    return this.transaction(async () => {
      const { db, t } = this.c;
      await this.c.run(
        db
          .insert(t.servers)
          .values({ guildId: input.guildId, createdAt: input.now, updatedAt: input.now })
          .onConflictDoNothing(),
      );
      const row = (await this.c.get(
        db
          .insert(t.tournaments)
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
          .returning(),
      ))!;
      const holder = (await this.c.get(
        db
          .insert(t.games)
          .values({
            guildId: input.guildId,
            channelId: input.channelId,
            hostId: input.hostId,
            ruleset: input.ruleset,
            pace: 'live',
            // Never played: it only owns the tournament's messages (see schema.ts, tournaments).
            status: 'cancelled',
            ui: JSON.stringify({ locale: input.locale, holder: 'tournament' }),
            tournamentId: row.id,
            createdAt: input.now,
            updatedAt: input.now,
          })
          .returning({ id: t.games.id }),
      ))!;
      await this.c.run(db.update(t.tournaments).set({ holderGameId: holder.id }).where(eq(t.tournaments.id, row.id)));
      return toRow({ ...row, holderGameId: holder.id });
    });
  }

  async get(id: number): Promise<TournamentRow | null> {
    const { db, t } = this.c;
    const r = await this.c.get(db.select().from(t.tournaments).where(eq(t.tournaments.id, id)));
    return r ? toRow(r) : null;
  }

  /** The newest tournament of a server that is not over (the default for commands). */
  async current(guildId: string): Promise<TournamentRow | null> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db
        .select()
        .from(t.tournaments)
        .where(and(eq(t.tournaments.guildId, guildId), inArray(t.tournaments.status, ['registration', 'running'])))
        .orderBy(desc(t.tournaments.id))
        .limit(1),
    );
    return r ? toRow(r) : null;
  }

  /** The newest tournament of a server, whatever its status. */
  async latest(guildId: string): Promise<TournamentRow | null> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db
        .select()
        .from(t.tournaments)
        .where(eq(t.tournaments.guildId, guildId))
        .orderBy(desc(t.tournaments.id))
        .limit(1),
    );
    return r ? toRow(r) : null;
  }

  async setStatus(id: number, status: TournamentStatus, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.tournaments)
        .set({ status, updatedAt: now, ...(status === 'finished' ? { finishedAt: now } : {}) })
        .where(eq(t.tournaments.id, id)),
    );
  }

  async setCategory(id: number, categoryId: string, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.tournaments).set({ categoryId, updatedAt: now }).where(eq(t.tournaments.id, id)));
  }

  async setFinalLot(id: number, lot: { among: string[]; chosen: string[] } | null, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.tournaments)
        .set({ finalLot: lot ? JSON.stringify(lot) : null, updatedAt: now })
        .where(eq(t.tournaments.id, id)),
    );
  }

  /**
   * After a restart: the messages of every open tournament are sent once more, so one deleted
   * while the bot was down is found (404) and posted again. Returns how many.
   */
  async touchMessages(now: number): Promise<number> {
    const { db, t } = this.c;
    const open = (
      await this.c.all(
        db
          .select({ id: t.tournaments.holderGameId })
          .from(t.tournaments)
          .where(inArray(t.tournaments.status, ['registration', 'running'])),
      )
    )
      .map((r) => r.id)
      .filter((id): id is number => id !== null);
    if (open.length === 0) return 0;
    // The slots' rows change here, not through OutboxStore.setSlot: a transaction's copies go.
    this.c.txCache()?.clear();
    return this.c.run(
      db
        .update(t.slots)
        .set({ version: sql`${t.slots.version} + 1`, updatedAt: now })
        .where(
          and(
            inArray(t.slots.gameId, open),
            eq(t.slots.repost, true),
            eq(t.slots.state, 'live'),
            isNotNull(t.slots.messageId),
          ),
        ),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Registration

  async players(id: number): Promise<RegisteredPlayer[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select({
          userId: t.tournamentPlayers.userId,
          name: t.tournamentPlayers.name,
          locale: t.tournamentPlayers.locale,
        })
        .from(t.tournamentPlayers)
        .where(eq(t.tournamentPlayers.tournamentId, id))
        .orderBy(asc(t.tournamentPlayers.joinedAt), asc(t.tournamentPlayers.userId)),
    );
  }

  /** Registers a player; false if he already is. */
  async join(id: number, p: RegisteredPlayer, now: number): Promise<boolean> {
    const { db, t } = this.c;
    const changed = await this.c.run(
      db
        .insert(t.tournamentPlayers)
        .values({ tournamentId: id, userId: p.userId, name: p.name, locale: p.locale, joinedAt: now })
        .onConflictDoNothing(),
    );
    return changed > 0;
  }

  async leave(id: number, userId: string): Promise<boolean> {
    const { db, t } = this.c;
    const changed = await this.c.run(
      db
        .delete(t.tournamentPlayers)
        .where(and(eq(t.tournamentPlayers.tournamentId, id), eq(t.tournamentPlayers.userId, userId))),
    );
    return changed > 0;
  }

  // -------------------------------------------------------------------------------------------
  // Tables

  async addTables(id: number, round: number, tables: string[][]): Promise<void> {
    if (tables.length === 0) return;
    const { db, t } = this.c;
    await this.c.run(
      db
        .insert(t.tournamentTables)
        .values(tables.map((seats, i) => ({ tournamentId: id, round, table: i + 1, seats: JSON.stringify(seats) }))),
    );
  }

  async tables(id: number): Promise<TableRow[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select()
        .from(t.tournamentTables)
        .where(eq(t.tournamentTables.tournamentId, id))
        .orderBy(asc(t.tournamentTables.round), asc(t.tournamentTables.table)),
    );
    return rows.map((r) => ({
      round: r.round,
      table: r.table,
      seats: JSON.parse(r.seats) as string[],
      channelId: r.channelId,
      gameId: r.gameId,
      subs: JSON.parse(r.subs) as Record<string, string>,
    }));
  }

  async table(id: number, round: number, table: number): Promise<TableRow | null> {
    return (await this.tables(id)).find((t) => t.round === round && t.table === table) ?? null;
  }

  async setTableChannel(id: number, round: number, table: number, channelId: string): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.tournamentTables)
        .set({ channelId })
        .where(
          and(
            eq(t.tournamentTables.tournamentId, id),
            eq(t.tournamentTables.round, round),
            eq(t.tournamentTables.table, table),
          ),
        ),
    );
  }

  /** Links a table to its game (and the game to the tournament: games.tournament_id). */
  async setTableGame(
    id: number,
    round: number,
    table: number,
    gameId: number,
    subs: Record<string, string>,
  ): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.tournamentTables)
        .set({ gameId, subs: JSON.stringify(subs) })
        .where(
          and(
            eq(t.tournamentTables.tournamentId, id),
            eq(t.tournamentTables.round, round),
            eq(t.tournamentTables.table, table),
          ),
        ),
    );
    await this.c.run(db.update(t.games).set({ tournamentId: id }).where(eq(t.games.id, gameId)));
  }

  /** The tournament table a game belongs to, if any. */
  async tableOfGame(gameId: number): Promise<{ tournamentId: number; round: number; table: number } | null> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db
        .select({
          tournamentId: t.tournamentTables.tournamentId,
          round: t.tournamentTables.round,
          table: t.tournamentTables.table,
        })
        .from(t.tournamentTables)
        .where(eq(t.tournamentTables.gameId, gameId))
        .limit(1),
    );
    return r ?? null;
  }

  /**
   * The tables with their games' results, for the pure T-1..T-3 functions. A game counts once it
   * is over (its results written) and not annulled.
   */
  async withResults(id: number): Promise<(TournamentTable & TableRow & { status: string | null })[]> {
    const tables = await this.tables(id);
    const ids = tables.map((t) => t.gameId).filter((g): g is number => g !== null);
    const status = new Map<number, { status: string; annulled: boolean }>();
    const byGame = new Map<number, TournamentResult[]>();
    if (ids.length > 0) {
      const { db, t } = this.c;
      for (const g of await this.c.all(
        db
          .select({ id: t.games.id, status: t.games.status, annulledAt: t.games.annulledAt })
          .from(t.games)
          .where(inArray(t.games.id, ids)),
      )) {
        status.set(g.id, { status: g.status, annulled: g.annulledAt !== null });
      }
      for (const r of await this.c.all(
        db
          .select()
          .from(t.results)
          .where(and(inArray(t.results.gameId, ids), isNotNull(t.results.userId))),
      )) {
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
