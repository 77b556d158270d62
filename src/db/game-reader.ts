// What `db:verify` reads of a database (issue 23): every game, its stored state, its log and its
// deadline. Asynchronous, as PostgreSQL is; SQLite's through the Store (here), PostgreSQL's in
// src/db/pg-game-reader.ts. Both return the shapes the Store returns.
import type { GameRow, LoggedAction, Store } from './store';

export interface GameReader {
  /** Every game id, ascending. */
  allGameIds(): Promise<number[]>;
  getGame(id: number): Promise<GameRow | null>;
  /** The stored state's JSON as it is in the database (null before the deal). */
  rawState(id: number): Promise<string | null>;
  /** The game's log, by sequence number. */
  log(id: number): Promise<LoggedAction[]>;
  deadlineOf(id: number): Promise<{ stageSeq: number; dueAt: number } | null>;
}

/** A SQLite database's games, through its Store. */
export function storeReader(store: Store): GameReader {
  return {
    allGameIds: () => Promise.resolve(store.allGameIds()),
    getGame: (id) => Promise.resolve(store.getGame(id)),
    rawState: (id) => Promise.resolve(store.rawState(id)),
    log: (id) => Promise.resolve(store.log(id)),
    deadlineOf: (id) => Promise.resolve(store.deadlineOf(id)),
  };
}
