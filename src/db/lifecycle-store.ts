// The SQL of a game's lifecycle (issue 20): the games suspended because their channel, or the
// bot's access to it, is lost; the games of a server that are still going; and the games that
// have ended but still hold a Send Messages deny in their channel (`perm_holds`: the restore could
// not be made then, the channel was out of reach).
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Connection } from './connection';
import type { LostReason } from './schema';
import { ownedGame } from './owned';

export interface Suspension {
  gameId: number;
  reason: LostReason;
  since: number;
  voidAt: number;
  stageSeq: number | null;
  extraMs: number;
  clockStopped: boolean;
}

/** A game that is still going, with where it is played. */
export interface GamePlace {
  id: number;
  guildId: string;
  channelId: string;
}

const ACTIVE = ['lobby', 'running', 'post-game'] as const;

export class LifecycleStore {
  private readonly byGame;

  constructor(private readonly c: Connection) {
    // Asked on every change of a game (the service's gate): prepared once.
    this.byGame = c.statement((db, t) =>
      db
        .select()
        .from(t.suspensions)
        .where(eq(t.suspensions.gameId, sql.placeholder('gameId'))),
    );
  }

  async get(gameId: number): Promise<Suspension | null> {
    return ((await this.c.get(this.byGame(), { gameId })) as Suspension | undefined) ?? null;
  }

  /** The suspended games of the guilds this process owns (issue 22). */
  async all(): Promise<Suspension[]> {
    const { db, t } = this.c;
    return (await this.c.all(
      db.select().from(t.suspensions).where(ownedGame(this.c, t.suspensions.gameId)).orderBy(asc(t.suspensions.voidAt)),
    )) as Suspension[];
  }

  async add(s: Suspension): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.insert(t.suspensions).values(s).onConflictDoNothing());
  }

  async setClockStopped(gameId: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.suspensions).set({ clockStopped: true }).where(eq(t.suspensions.gameId, gameId)));
  }

  async remove(gameId: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.delete(t.suspensions).where(eq(t.suspensions.gameId, gameId)));
  }

  /** Games still going (lobby, running, post-game), in every guild this process owns or in one server. */
  async activeGames(guildId?: string): Promise<GamePlace[]> {
    const { db, t } = this.c;
    const active = inArray(t.games.status, [...ACTIVE]);
    return this.c.all(
      db
        .select({ id: t.games.id, guildId: t.games.guildId, channelId: t.games.channelId })
        .from(t.games)
        .where(and(active, guildId === undefined ? this.c.ownsGuild(t.games.guildId) : eq(t.games.guildId, guildId)))
        .orderBy(asc(t.games.id)),
    );
  }

  /** Games still going in one channel. */
  async activeGamesIn(channelId: string): Promise<GamePlace[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select({ id: t.games.id, guildId: t.games.guildId, channelId: t.games.channelId })
        .from(t.games)
        .where(and(inArray(t.games.status, [...ACTIVE]), eq(t.games.channelId, channelId)))
        .orderBy(asc(t.games.id)),
    );
  }

  /**
   * Games that have ended (neither lobby, running nor post-game) and still hold a member's Send
   * Messages deny in their channel: in every guild this process owns, in one server, or in one channel.
   */
  async endedWithHolds(where: { guildId?: string; channelId?: string } = {}): Promise<GamePlace[]> {
    const { db, t } = this.c;
    const conds = [
      notInArray(t.games.status, [...ACTIVE]),
      eq(t.permHolds.channelId, t.games.channelId),
      this.c.ownsGuild(t.games.guildId),
    ];
    if (where.guildId !== undefined) conds.push(eq(t.games.guildId, where.guildId));
    if (where.channelId !== undefined) conds.push(eq(t.games.channelId, where.channelId));
    return this.c.all(
      db
        .selectDistinct({ id: t.games.id, guildId: t.games.guildId, channelId: t.games.channelId })
        .from(t.permHolds)
        .innerJoin(t.games, eq(t.games.id, t.permHolds.gameId))
        .where(and(...conds))
        .orderBy(asc(t.games.id)),
    );
  }
}
