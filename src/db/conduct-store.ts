// Conduct across games (issue 24): the server's own audit log (`server_audit`: bans, unbans, a
// host's pauses and lifts, absences the bot flagged) and a member's record, read from the rows
// the games already keep: fouls and removals from `results`, the games he left to a substitute
// from `seat_holders`. Nothing is counted ahead: the record is recomputed from these rows on each
// read, through the indexes by member (results_guild_user_date, server_audit_member,
// seat_holders_user). The SQL is the same on SQLite and PostgreSQL.
import { and, asc, desc, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Connection } from './connection';

export type ServerAuditAction = 'ban' | 'unban' | 'pause' | 'lift' | 'absent';

export interface ServerAuditEntry {
  guildId: string;
  at: number;
  /** `host:<id>` or `system`. */
  actorId: string;
  action: ServerAuditAction;
  userId: string;
  gameId?: number | null;
  until?: number | null;
  reason?: string | null;
}

export interface ServerAuditRow extends ServerAuditEntry {
  id: number;
  gameId: number | null;
  until: number | null;
  reason: string | null;
}

/** One fact of a member's record: a game with fouls or a removal, an absence, a game left to a substitute. */
export interface ConductFact {
  kind: 'foul' | 'removal' | 'absence' | 'abandoned';
  gameId: number | null;
  at: number;
  /** Fouls in that game (1 for the other kinds). */
  count: number;
}

const byConnection = new WeakMap<Connection, ConductStore>();

export class ConductStore {
  constructor(private readonly c: Connection) {}

  /** The conduct store of a connection (one per connection). */
  static of(c: Connection): ConductStore {
    let s = byConnection.get(c);
    if (!s) byConnection.set(c, (s = new ConductStore(c)));
    return s;
  }

  async add(e: ServerAuditEntry): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db.insert(t.serverAudit).values({
        guildId: e.guildId,
        at: e.at,
        actorId: e.actorId,
        action: e.action,
        userId: e.userId,
        gameId: e.gameId ?? null,
        until: e.until ?? null,
        reason: e.reason ?? null,
      }),
    );
  }

  /** A member's rows of the server's audit log, oldest first. */
  async member(guildId: string, userId: string): Promise<ServerAuditRow[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select()
        .from(t.serverAudit)
        .where(and(eq(t.serverAudit.guildId, guildId), eq(t.serverAudit.userId, userId)))
        .orderBy(asc(t.serverAudit.at), asc(t.serverAudit.id)),
    );
    return rows.map((r) => ({ ...r, action: r.action as ServerAuditAction }));
  }

  /** The server's bans, unbans, pauses and lifts, newest first (the hosts' log). */
  async log(guildId: string, limit: number): Promise<ServerAuditRow[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select()
        .from(t.serverAudit)
        .where(
          and(eq(t.serverAudit.guildId, guildId), inArray(t.serverAudit.action, ['ban', 'unban', 'pause', 'lift'])),
        )
        .orderBy(desc(t.serverAudit.at), desc(t.serverAudit.id))
        .limit(limit),
    );
    return rows.map((r) => ({ ...r, action: r.action as ServerAuditAction }));
  }

  /** Every ban and unban of the server, oldest first: the members banned now are those whose last row is a ban. */
  async bansAndUnbans(guildId: string): Promise<ServerAuditRow[]> {
    const { db, t } = this.c;
    const rows = await this.c.all(
      db
        .select()
        .from(t.serverAudit)
        .where(and(eq(t.serverAudit.guildId, guildId), inArray(t.serverAudit.action, ['ban', 'unban'])))
        .orderBy(asc(t.serverAudit.at), asc(t.serverAudit.id)),
    );
    return rows.map((r) => ({ ...r, action: r.action as ServerAuditAction }));
  }

  /** The member's facts since `since` (fouls, removals, absences, games left), oldest first. */
  async facts(guildId: string, userId: string, since: number): Promise<ConductFact[]> {
    const { db, t } = this.c;
    const results = await this.c.all(
      db
        .select({
          gameId: t.results.gameId,
          at: t.results.finishedAt,
          fouls: t.results.fouls,
          removed: t.results.removed,
        })
        .from(t.results)
        .where(
          and(
            eq(t.results.guildId, guildId),
            eq(t.results.userId, userId),
            gte(t.results.finishedAt, since),
            or(sql`${t.results.fouls} > 0`, eq(t.results.removed, true)),
          ),
        ),
    );
    // A seat he held until a substitute took it (to_move set); the game's start dates it.
    const left = await this.c.all(
      db
        .selectDistinct({ gameId: t.seatHolders.gameId, at: t.games.startedAt })
        .from(t.seatHolders)
        .innerJoin(t.games, eq(t.games.id, t.seatHolders.gameId))
        .where(
          and(
            eq(t.seatHolders.userId, userId),
            isNotNull(t.seatHolders.toMove),
            eq(t.games.guildId, guildId),
            gte(t.games.startedAt, since),
          ),
        ),
    );
    const absences = await this.c.all(
      db
        .select({ gameId: t.serverAudit.gameId, at: t.serverAudit.at })
        .from(t.serverAudit)
        .where(
          and(
            eq(t.serverAudit.guildId, guildId),
            eq(t.serverAudit.userId, userId),
            eq(t.serverAudit.action, 'absent'),
            gte(t.serverAudit.at, since),
          ),
        ),
    );
    const out: ConductFact[] = [];
    for (const r of results) {
      if (r.fouls > 0) out.push({ kind: 'foul', gameId: r.gameId, at: r.at, count: r.fouls });
      if (r.removed) out.push({ kind: 'removal', gameId: r.gameId, at: r.at, count: 1 });
    }
    for (const r of left) out.push({ kind: 'abandoned', gameId: r.gameId, at: r.at ?? 0, count: 1 });
    for (const r of absences) out.push({ kind: 'absence', gameId: r.gameId, at: r.at, count: 1 });
    return out.sort((a, b) => a.at - b.at || (a.gameId ?? 0) - (b.gameId ?? 0));
  }
}
