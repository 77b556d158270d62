// The SQL of asynchronous play (issue 10): reminders, who held each seat (for the ratings: each is
// credited for his part), absence counters and substitute calls.
import { and, asc, eq, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Db } from './client';
import { reminders, seatHolders, substituteCalls } from './schema';
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
  private readonly q;

  constructor(private readonly db: Db) {
    const p = sql.placeholder;
    this.q = {
      nextReminder: db
        .select({ stageSeq: reminders.stageSeq, kind: reminders.kind, dueAt: reminders.dueAt })
        .from(reminders)
        .where(and(eq(reminders.gameId, p('gameId')), isNull(reminders.doneAt)))
        .orderBy(asc(reminders.dueAt))
        .limit(1)
        .prepare(),
      acted: db
        .update(seatHolders)
        .set({ misses: 0, flaggedAt: null })
        .where(
          and(
            eq(seatHolders.gameId, p('gameId')),
            eq(seatHolders.seat, p('seat')),
            isNull(seatHolders.toMove),
            sql`(${seatHolders.misses} > 0 OR ${seatHolders.flaggedAt} IS NOT NULL)`,
          ),
        )
        .prepare(),
    };
  }

  // Reminders ----------------------------------------------------------------------------------

  /** The stage's reminders replace whatever was pending for the game (an old stage's are let go). */
  setReminders(gameId: number, stageSeq: number, list: { kind: string; at: number }[], now: number): void {
    this.db
      .update(reminders)
      .set({ doneAt: now })
      .where(and(eq(reminders.gameId, gameId), isNull(reminders.doneAt), ne(reminders.stageSeq, stageSeq)))
      .run();
    for (const r of list) {
      this.db
        .insert(reminders)
        .values({ gameId, stageSeq, kind: r.kind, dueAt: r.at })
        .onConflictDoUpdate({
          target: [reminders.gameId, reminders.stageSeq, reminders.kind],
          set: { dueAt: r.at, doneAt: null },
        })
        .run();
    }
  }

  clearReminders(gameId: number, now: number): void {
    this.db
      .update(reminders)
      .set({ doneAt: now })
      .where(and(eq(reminders.gameId, gameId), isNull(reminders.doneAt)))
      .run();
  }

  /** The game's earliest pending reminder. */
  nextReminder(gameId: number): { stageSeq: number; kind: string; dueAt: number } | null {
    return this.q.nextReminder.get({ gameId }) ?? null;
  }

  /** Pending reminders due by `now`. */
  dueReminders(gameId: number, now: number): { stageSeq: number; kind: string; dueAt: number }[] {
    return this.db
      .select({ stageSeq: reminders.stageSeq, kind: reminders.kind, dueAt: reminders.dueAt })
      .from(reminders)
      .where(and(eq(reminders.gameId, gameId), isNull(reminders.doneAt), lte(reminders.dueAt, now)))
      .orderBy(asc(reminders.dueAt))
      .all();
  }

  markReminder(gameId: number, stageSeq: number, kind: string, now: number): void {
    this.db
      .update(reminders)
      .set({ doneAt: now })
      .where(and(eq(reminders.gameId, gameId), eq(reminders.stageSeq, stageSeq), eq(reminders.kind, kind)))
      .run();
  }

  /** Every game of a guild this process owns with a pending reminder (re-armed at start-up). */
  gamesWithReminders(): number[] {
    return this.db
      .selectDistinct({ gameId: reminders.gameId })
      .from(reminders)
      .where(and(isNull(reminders.doneAt), ownedGame(reminders.gameId)))
      .all()
      .map((r) => r.gameId);
  }

  /** Every reminder of a game (tests, tools). */
  allReminders(gameId: number): { stageSeq: number; kind: string; dueAt: number; doneAt: number | null }[] {
    return this.db
      .select({ stageSeq: reminders.stageSeq, kind: reminders.kind, dueAt: reminders.dueAt, doneAt: reminders.doneAt })
      .from(reminders)
      .where(eq(reminders.gameId, gameId))
      .orderBy(asc(reminders.dueAt))
      .all();
  }

  // Seat holders -------------------------------------------------------------------------------

  addHolder(gameId: number, seat: number, userId: string, fromMove: number): void {
    this.db.insert(seatHolders).values({ gameId, seat, userId, fromMove }).onConflictDoNothing().run();
  }

  /** The seat's current holder (null before this feature existed for the game). */
  holder(gameId: number, seat: number): SeatHolder | null {
    return (
      this.db
        .select()
        .from(seatHolders)
        .where(and(eq(seatHolders.gameId, gameId), eq(seatHolders.seat, seat), isNull(seatHolders.toMove)))
        .get() ?? null
    );
  }

  /** Every holder of every seat, in order: who played which part of the game (issue 12's ratings). */
  holders(gameId: number): SeatHolder[] {
    return this.db
      .select()
      .from(seatHolders)
      .where(eq(seatHolders.gameId, gameId))
      .orderBy(asc(seatHolders.seat), asc(seatHolders.fromMove))
      .all();
  }

  /** A new user takes the seat from move `move` on. */
  replaceHolder(gameId: number, seat: number, from: string, to: string, move: number): void {
    let cur = this.holder(gameId, seat);
    if (!cur) {
      this.addHolder(gameId, seat, from, 0);
      cur = this.holder(gameId, seat)!;
    }
    const key = and(eq(seatHolders.gameId, gameId), eq(seatHolders.seat, seat), eq(seatHolders.fromMove, cur.fromMove));
    // One who held the seat for no move at all played no part of it.
    if (cur.fromMove === move) this.db.delete(seatHolders).where(key).run();
    else this.db.update(seatHolders).set({ toMove: move }).where(key).run();
    this.addHolder(gameId, seat, to, move);
  }

  /** One more owed action let pass; returns the new count. */
  miss(gameId: number, seat: number): number {
    const cur = this.holder(gameId, seat);
    if (!cur) return 0;
    this.db
      .update(seatHolders)
      .set({ misses: sql`${seatHolders.misses} + 1` })
      .where(and(eq(seatHolders.gameId, gameId), eq(seatHolders.seat, seat), eq(seatHolders.fromMove, cur.fromMove)))
      .run();
    return cur.misses + 1;
  }

  /** He acted: the run of misses is over (and a later run is flagged again). */
  acted(gameId: number, seat: number): void {
    this.q.acted.run({ gameId, seat });
  }

  flag(gameId: number, seat: number, now: number): void {
    this.db
      .update(seatHolders)
      .set({ flaggedAt: now })
      .where(and(eq(seatHolders.gameId, gameId), eq(seatHolders.seat, seat), isNull(seatHolders.toMove)))
      .run();
  }

  // Substitute calls ---------------------------------------------------------------------------

  openCall(gameId: number, seat: number): SubstituteCall | null {
    const r = this.db
      .select()
      .from(substituteCalls)
      .where(
        and(eq(substituteCalls.gameId, gameId), eq(substituteCalls.seat, seat), eq(substituteCalls.status, 'open')),
      )
      .get();
    return r ? toCall(r) : null;
  }

  createCall(gameId: number, seat: number, now: number): SubstituteCall {
    const r = this.db
      .insert(substituteCalls)
      .values({ gameId, seat, status: 'open', createdAt: now })
      .returning()
      .get();
    return toCall(r);
  }

  setVolunteers(id: number, volunteers: string[], names: Record<string, string>): void {
    this.db
      .update(substituteCalls)
      .set({ volunteers: JSON.stringify(volunteers), names: JSON.stringify(names) })
      .where(eq(substituteCalls.id, id))
      .run();
  }

  closeCall(id: number, status: 'filled' | 'closed'): void {
    this.db.update(substituteCalls).set({ status }).where(eq(substituteCalls.id, id)).run();
  }

  openCalls(gameId: number): SubstituteCall[] {
    return this.db
      .select()
      .from(substituteCalls)
      .where(and(eq(substituteCalls.gameId, gameId), eq(substituteCalls.status, 'open')))
      .all()
      .map(toCall);
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
