// db:verify on PostgreSQL (issue 23): the games, states, logs and deadlines of a PostgreSQL database
// through drizzle's node-postgres driver and the PostgreSQL schema, in the shapes the Store returns
// (test/db/migrate-to-postgres.test.ts compares them game by game with the Store's).
import { asc, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Action } from '../engine/types';
import type { GameReader } from './game-reader';
import * as schema from './schema-pg';
import { actions, deadlines, games } from './schema-pg';
import { toRow } from './store';

/** Whether the database holds this bot's tables (its migrations were applied). */
export async function hasGamesTable(client: pg.Client): Promise<boolean> {
  const r = await client.query<{ t: string | null }>("select to_regclass('public.games')::text as t");
  return r.rows[0]?.t != null;
}

/** The games of the PostgreSQL database on this connection. */
export function pgGameReader(client: pg.Client): GameReader {
  const db = drizzle(client, { schema });
  // getGame reads the whole row: the state that came with it answers the rawState right after it
  // (db:verify asks for both, game after game), once: one round trip fewer per game.
  let last: { id: number; state: string | null } | null = null;
  return {
    async allGameIds() {
      const rows = await db.select({ id: games.id }).from(games).orderBy(asc(games.id));
      return rows.map((r) => r.id);
    },
    async getGame(id) {
      const [r] = await db.select().from(games).where(eq(games.id, id));
      last = r ? { id, state: r.state } : null;
      return r ? toRow(r) : null;
    },
    async rawState(id) {
      if (last?.id === id) {
        const { state } = last;
        last = null;
        return state;
      }
      const [r] = await db.select({ state: games.state }).from(games).where(eq(games.id, id));
      return r?.state ?? null;
    },
    async log(id) {
      const rows = await db
        .select({ seq: actions.seq, action: actions.action, actor: actions.actor, at: actions.at })
        .from(actions)
        .where(eq(actions.gameId, id))
        .orderBy(asc(actions.seq));
      return rows.map((r) => ({ seq: r.seq, action: JSON.parse(r.action) as Action, actor: r.actor, at: r.at }));
    },
    async deadlineOf(id) {
      const [r] = await db
        .select({ stageSeq: deadlines.stageSeq, dueAt: deadlines.dueAt })
        .from(deadlines)
        .where(eq(deadlines.gameId, id));
      return r ?? null;
    },
  };
}
