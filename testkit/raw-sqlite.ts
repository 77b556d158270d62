// Tests that set up rows by hand (results of old games, a game's status) write them straight into
// the SQLite file under a store: the driver's connection behind the store's storage seam.
import type Database from 'better-sqlite3';
import type { SqliteConnection } from '../src/db/connection';
import type { Store } from '../src/db/store';

/** The better-sqlite3 connection under a store opened on a SQLite file. */
export function rawSqlite(store: Store): Database.Database {
  return (store.c as SqliteConnection).sqlite;
}
