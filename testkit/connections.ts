// The storage seam's two connections for tests that run on both databases (issue 23): SQLite in
// memory always, PostgreSQL (a fresh database on the test server, testkit/postgres.ts) when one is
// there. Use with describe.each and skip the PostgreSQL side when `postgresAvailable()` is false.
import type Database from 'better-sqlite3';
import { openDatabase } from '../src/db/client';
import type { Connection } from '../src/db/connection';
import { openPostgres } from '../src/db/pg-open';
import { testPostgres } from './postgres';

export interface Opened {
  c: Connection;
  /** SQLite's handle, to look at the file without going through the connection. */
  sqlite?: Database.Database;
  close(): Promise<void>;
}

export const connectionSubjects: { name: 'sqlite' | 'postgres'; open(): Promise<Opened> }[] = [
  {
    name: 'sqlite',
    async open() {
      const o = openDatabase(':memory:');
      return { c: o.connection, sqlite: o.sqlite, close: async () => o.close() };
    },
  },
  {
    name: 'postgres',
    async open() {
      const d = (await testPostgres())!;
      const o = await openPostgres(d.url, { poolSize: 4 });
      return {
        c: o.connection,
        async close() {
          await o.close();
          await d.drop();
        },
      };
    },
  },
];
