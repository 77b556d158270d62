// The SQL side of ownership (issue 22, src/db/ownership.ts): conditions that keep a query to the
// games of the guilds this process owns, through the connection (`Connection.ownsGuild`: SQLite's
// `owns_guild` function, PostgreSQL's shard arithmetic).
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Connection } from './connection';

/** The row's game (`gameId`: its game id column or expression) belongs to a guild this process owns. */
export function ownedGame(c: Connection, gameId: SQLWrapper): SQL {
  return c.ownsGuild(sql`(SELECT og.guild_id FROM games og WHERE og.id = ${gameId})`);
}
