// The SQL of a game's lifecycle (issue 20): the games suspended because their channel, or the
// bot's access to it, is lost; the games of a server that are still going; and the games that
// have ended but still hold a Send Messages deny in their channel (`perm_holds`: the restore could
// not be made then, the channel was out of reach).
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from './client';
import { games, permHolds, suspensions, type LostReason } from './schema';
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

  constructor(private readonly db: Db) {
    // Asked on every change of a game (the service's gate): prepared once.
    this.byGame = db
      .select()
      .from(suspensions)
      .where(eq(suspensions.gameId, sql.placeholder('gameId')))
      .prepare();
  }

  get(gameId: number): Suspension | null {
    return (this.byGame.get({ gameId }) as Suspension | undefined) ?? null;
  }

  /** The suspended games of the guilds this process owns (issue 22). */
  all(): Suspension[] {
    return this.db
      .select()
      .from(suspensions)
      .where(ownedGame(suspensions.gameId))
      .orderBy(asc(suspensions.voidAt))
      .all();
  }

  add(s: Suspension): void {
    this.db.insert(suspensions).values(s).onConflictDoNothing().run();
  }

  setClockStopped(gameId: number): void {
    this.db.update(suspensions).set({ clockStopped: true }).where(eq(suspensions.gameId, gameId)).run();
  }

  remove(gameId: number): void {
    this.db.delete(suspensions).where(eq(suspensions.gameId, gameId)).run();
  }

  /** Games still going (lobby, running, post-game), in every guild this process owns or in one server. */
  activeGames(guildId?: string): GamePlace[] {
    const active = inArray(games.status, [...ACTIVE]);
    return this.db
      .select({ id: games.id, guildId: games.guildId, channelId: games.channelId })
      .from(games)
      .where(and(active, guildId === undefined ? sql`owns_guild(${games.guildId})` : eq(games.guildId, guildId)))
      .orderBy(asc(games.id))
      .all();
  }

  /** Games still going in one channel. */
  activeGamesIn(channelId: string): GamePlace[] {
    return this.db
      .select({ id: games.id, guildId: games.guildId, channelId: games.channelId })
      .from(games)
      .where(and(inArray(games.status, [...ACTIVE]), eq(games.channelId, channelId)))
      .orderBy(asc(games.id))
      .all();
  }

  /**
   * Games that have ended (neither lobby, running nor post-game) and still hold a member's Send
   * Messages deny in their channel: in every guild this process owns, in one server, or in one channel.
   */
  endedWithHolds(where: { guildId?: string; channelId?: string } = {}): GamePlace[] {
    const conds = [
      notInArray(games.status, [...ACTIVE]),
      eq(permHolds.channelId, games.channelId),
      sql`owns_guild(${games.guildId})`,
    ];
    if (where.guildId !== undefined) conds.push(eq(games.guildId, where.guildId));
    if (where.channelId !== undefined) conds.push(eq(games.channelId, where.channelId));
    return this.db
      .selectDistinct({ id: games.id, guildId: games.guildId, channelId: games.channelId })
      .from(permHolds)
      .innerJoin(games, eq(games.id, permHolds.gameId))
      .where(and(...conds))
      .orderBy(asc(games.id))
      .all();
  }
}
