// The SQL of asynchronous play (issue 10): reminders, who held each seat (for the ratings: each is
// credited for his part), absence counters and substitute calls.
import { and, asc, eq, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Connection } from './connection';
import type { substituteCalls } from './schema';
import { ownedGame } from './owned';

export interface SeatHolder {
  seat: number;
  userId: string;
  fromMove: number;
  toMove: number | null;
  misses: number;
  flaggedAt: number | null;
}

export interface SubstituteCall {
  id: number;
  gameId: number;
  seat: number;
  status: 'open' | 'filled' | 'closed';
  volunteers: string[];
  names: Record<string, string>;
  createdAt: number;
}

export class AsyncStore {
  // Asked on every commit (the timers are armed again): prepared once, not built per call.
  private readonly nextReminderQ;
  private readonly actedQ;

  constructor(private readonly c: Connection) {
    const p = sql.placeholder;
    this.nextReminderQ = c.statement((db, t) =>
      db
        .select({ stageSeq: t.reminders.stageSeq, kind: t.reminders.kind, dueAt: t.reminders.dueAt })
        .from(t.reminders)
        .where(and(eq(t.reminders.gameId, p('gameId')), isNull(t.reminders.doneAt)))
        .orderBy(asc(t.reminders.dueAt))
        .limit(1),
    );
    this.actedQ = c.statement((db, t) =>
      db
        .update(t.seatHolders)
        .set({ misses: 0, flaggedAt: null })
        .where(
          and(
            eq(t.seatHolders.gameId, p('gameId')),
            eq(t.seatHolders.seat, p('seat')),
            isNull(t.seatHolders.toMove),
            sql`(${t.seatHolders.misses} > 0 OR ${t.seatHolders.flaggedAt} IS NOT NULL)`,
          ),
        ),
    );
  }

  // Reminders ----------------------------------------------------------------------------------

  /** The stage's reminders replace whatever was pending for the game (an old stage's are let go). */
  async setReminders(
    gameId: number,
    stageSeq: number,
    list: { kind: string; at: number }[],
    now: number,
  ): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.reminders)
        .set({ doneAt: now })
        .where(and(eq(t.reminders.gameId, gameId), isNull(t.reminders.doneAt), ne(t.reminders.stageSeq, stageSeq))),
    );
    for (const r of list) {
      await this.c.run(
        db
          .insert(t.reminders)
          .values({ gameId, stageSeq, kind: r.kind, dueAt: r.at })
          .onConflictDoUpdate({
            target: [t.reminders.gameId, t.reminders.stageSeq, t.reminders.kind],
            set: { dueAt: r.at, doneAt: null },
          }),
      );
    }
  }

  async clearReminders(gameId: number, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.reminders)
        .set({ doneAt: now })
        .where(and(eq(t.reminders.gameId, gameId), isNull(t.reminders.doneAt))),
    );
  }

  /** The game's earliest pending reminder. */
  async nextReminder(gameId: number): Promise<{ stageSeq: number; kind: string; dueAt: number } | null> {
    return (await this.c.get(this.nextReminderQ(), { gameId })) ?? null;
  }

  /** Pending reminders due by `now`. */
  async dueReminders(gameId: number, now: number): Promise<{ stageSeq: number; kind: string; dueAt: number }[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select({ stageSeq: t.reminders.stageSeq, kind: t.reminders.kind, dueAt: t.reminders.dueAt })
        .from(t.reminders)
        .where(and(eq(t.reminders.gameId, gameId), isNull(t.reminders.doneAt), lte(t.reminders.dueAt, now)))
        .orderBy(asc(t.reminders.dueAt)),
    );
  }

  async markReminder(gameId: number, stageSeq: number, kind: string, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.reminders)
        .set({ doneAt: now })
        .where(and(eq(t.reminders.gameId, gameId), eq(t.reminders.stageSeq, stageSeq), eq(t.reminders.kind, kind))),
    );
  }

  /** Every game of a guild this process owns with a pending reminder (re-armed at start-up). */
  async gamesWithReminders(): Promise<number[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .selectDistinct({ gameId: t.reminders.gameId })
        .from(t.reminders)
        .where(and(isNull(t.reminders.doneAt), ownedGame(this.c, t.reminders.gameId))),
    );
    return rows.map((r) => r.gameId);
  }

  /** Every reminder of a game (tests, tools). */
  async allReminders(
    gameId: number,
  ): Promise<{ stageSeq: number; kind: string; dueAt: number; doneAt: number | null }[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select({
          stageSeq: t.reminders.stageSeq,
          kind: t.reminders.kind,
          dueAt: t.reminders.dueAt,
          doneAt: t.reminders.doneAt,
        })
        .from(t.reminders)
        .where(eq(t.reminders.gameId, gameId))
        .orderBy(asc(t.reminders.dueAt)),
    );
  }

  // Seat holders -------------------------------------------------------------------------------

  async addHolder(gameId: number, seat: number, userId: string, fromMove: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.insert(t.seatHolders).values({ gameId, seat, userId, fromMove }).onConflictDoNothing());
  }

  /** The seat's current holder (null before this feature existed for the game). */
  async holder(gameId: number, seat: number): Promise<SeatHolder | null> {
    const { db, t } = this.c;
    return (
      (await this.c.get(
        db
          .select()
          .from(t.seatHolders)
          .where(and(eq(t.seatHolders.gameId, gameId), eq(t.seatHolders.seat, seat), isNull(t.seatHolders.toMove)))
          .limit(1),
      )) ?? null
    );
  }

  /** Every holder of every seat, in order: who played which part of the game (issue 12's ratings). */
  async holders(gameId: number): Promise<SeatHolder[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select()
        .from(t.seatHolders)
        .where(eq(t.seatHolders.gameId, gameId))
        .orderBy(asc(t.seatHolders.seat), asc(t.seatHolders.fromMove)),
    );
  }

  /** A new user takes the seat from move `move` on. */
  async replaceHolder(gameId: number, seat: number, from: string, to: string, move: number): Promise<void> {
    let cur = await this.holder(gameId, seat);
    if (!cur) {
      await this.addHolder(gameId, seat, from, 0);
      cur = (await this.holder(gameId, seat))!;
    }
    const { db, t } = this.c;
    const key = and(
      eq(t.seatHolders.gameId, gameId),
      eq(t.seatHolders.seat, seat),
      eq(t.seatHolders.fromMove, cur.fromMove),
    );
    // One who held the seat for no move at all played no part of it.
    if (cur.fromMove === move) await this.c.run(db.delete(t.seatHolders).where(key));
    else await this.c.run(db.update(t.seatHolders).set({ toMove: move }).where(key));
    await this.addHolder(gameId, seat, to, move);
  }

  /** One more owed action let pass; returns the new count. */
  async miss(gameId: number, seat: number): Promise<number> {
    const cur = await this.holder(gameId, seat);
    if (!cur) return 0;
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.seatHolders)
        .set({ misses: sql`${t.seatHolders.misses} + 1` })
        .where(
          and(eq(t.seatHolders.gameId, gameId), eq(t.seatHolders.seat, seat), eq(t.seatHolders.fromMove, cur.fromMove)),
        ),
    );
    return cur.misses + 1;
  }

  /** He acted: the run of misses is over (and a later run is flagged again). */
  async acted(gameId: number, seat: number): Promise<void> {
    await this.c.run(this.actedQ(), { gameId, seat });
  }

  async flag(gameId: number, seat: number, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.seatHolders)
        .set({ flaggedAt: now })
        .where(and(eq(t.seatHolders.gameId, gameId), eq(t.seatHolders.seat, seat), isNull(t.seatHolders.toMove))),
    );
  }

  // Substitute calls ---------------------------------------------------------------------------

  async openCall(gameId: number, seat: number): Promise<SubstituteCall | null> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db
        .select()
        .from(t.substituteCalls)
        .where(
          and(
            eq(t.substituteCalls.gameId, gameId),
            eq(t.substituteCalls.seat, seat),
            eq(t.substituteCalls.status, 'open'),
          ),
        )
        .limit(1),
    );
    return r ? toCall(r) : null;
  }

  async createCall(gameId: number, seat: number, now: number): Promise<SubstituteCall> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db.insert(t.substituteCalls).values({ gameId, seat, status: 'open', createdAt: now }).returning(),
    );
    return toCall(r!);
  }

  async setVolunteers(id: number, volunteers: string[], names: Record<string, string>): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .update(t.substituteCalls)
        .set({ volunteers: JSON.stringify(volunteers), names: JSON.stringify(names) })
        .where(eq(t.substituteCalls.id, id)),
    );
  }

  async closeCall(id: number, status: 'filled' | 'closed'): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.substituteCalls).set({ status }).where(eq(t.substituteCalls.id, id)));
  }

  async openCalls(gameId: number): Promise<SubstituteCall[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select()
        .from(t.substituteCalls)
        .where(and(eq(t.substituteCalls.gameId, gameId), eq(t.substituteCalls.status, 'open'))),
    );
    return rows.map(toCall);
  }
}

function toCall(r: typeof substituteCalls.$inferSelect): SubstituteCall {
  return {
    id: r.id,
    gameId: r.gameId,
    seat: r.seat,
    status: r.status as SubstituteCall['status'],
    volunteers: JSON.parse(r.volunteers) as string[],
    names: JSON.parse(r.names) as Record<string, string>,
    createdAt: r.createdAt,
  };
}
