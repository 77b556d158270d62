// What `db:verify` reads of a database (issue 23): every game, its stored state, its log and its
// deadline, in the shapes the Store returns. Through the Store (here: any connection), or
// PostgreSQL's own reader for a bare client (src/db/pg-game-reader.ts).
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

/** A database's games, through its Store. */
export function storeReader(store: Store): GameReader {
  return {
    allGameIds: () => store.allGameIds(),
    getGame: (id) => store.getGame(id),
    rawState: (id) => store.rawState(id),
    log: (id) => store.log(id),
    deadlineOf: (id) => store.deadlineOf(id),
  };
}
