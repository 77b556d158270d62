// The SQL side of ownership (issue 22, src/db/ownership.ts): conditions that keep a query to the
// games of the guilds this process owns, through the connection's `owns_guild` function.
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/** The row's game belongs to a guild this process owns. */
export function ownedGame(gameId: SQLiteColumn): SQL {
  return sql`owns_guild((SELECT g.guild_id FROM games g WHERE g.id = ${gameId}))`;
}

/** The same, as raw SQL for a prepared statement, for a game id expression such as `o.game_id`. */
export const OWNED_GAME = (gameIdExpr: string): string =>
  `owns_guild((SELECT og.guild_id FROM games og WHERE og.id = ${gameIdExpr}))`;
