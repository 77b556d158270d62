// DM clicks handed between processes through the database (issue 23; table relayed_clicks,
// src/discord/shard-relay.ts): the process that received a click writes it, the guild's owner
// takes it. Runs on both databases through the connection.
import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Connection } from './connection';

export interface RelayedClick {
  interactionId: string;
  guildId: string;
  /** The raw INTERACTION_CREATE payload (JSON). */
  payload: string;
}

export class RelayStore {
  constructor(private readonly c: Connection) {}

  /** Writes a click for its guild's owner; false when it was written already (the same interaction twice). */
  async put(click: RelayedClick, now: number): Promise<boolean> {
    const t = this.c.t.relayedClicks;
    const n = await this.c.run(
      this.c.db
        .insert(t)
        .values({ ...click, createdAt: now })
        .onConflictDoNothing({ target: t.interactionId }),
    );
    return n > 0;
  }

  /**
   * Takes the clicks waiting for a guild this process owns, made after `since` (older ones can no
   * longer be answered), oldest first. Each is taken by one process only: the update is checked
   * and made under the row's lock.
   */
  async take(since: number, now: number): Promise<RelayedClick[]> {
    const t = this.c.t.relayedClicks;
    const waiting = and(isNull(t.takenAt), gt(t.createdAt, since), this.c.ownsGuild(t.guildId));
    // A read first: most polls find nothing, and a read takes no write lock.
    const any = await this.c.get(this.c.db.select({ id: t.id }).from(t).where(waiting).orderBy(asc(t.id)).limit(1));
    if (!any) return [];
    const rows = await this.c.all(
      this.c.db
        .update(t)
        .set({ takenAt: now })
        .where(waiting)
        .returning({ id: t.id, interactionId: t.interactionId, guildId: t.guildId, payload: t.payload }),
    );
    return rows.sort((a, b) => a.id - b.id).map(({ id: _id, ...click }) => click);
  }

  /** Forgets clicks made before `before` (taken or let go); how many. */
  async prune(before: number): Promise<number> {
    const t = this.c.t.relayedClicks;
    return this.c.run(this.c.db.delete(t).where(lt(t.createdAt, before)));
  }

  /** Whether a click was taken (tests). */
  async taken(interactionId: string): Promise<boolean> {
    const t = this.c.t.relayedClicks;
    const row = await this.c.get(
      this.c.db.select({ at: t.takenAt }).from(t).where(eq(t.interactionId, interactionId)).limit(1),
    );
    return row?.at != null;
  }
}
