import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Issue 23: the end-to-end and persistence suites run twice, on SQLite and on PostgreSQL (the
// `postgres` project sets TEST_DB=postgres: each world's bot gets a fresh PostgreSQL database,
// testkit/world.ts). Files that look at the SQLite file itself (its pragmas, raw rows, the CLI's
// checks of the file) run on SQLite only. Without PostgreSQL (no binaries, no TEST_DATABASE_URL)
// the second project is left out and the run says so loudly (test/postgres-setup.ts); CI requires it.
const SQLITE_ONLY = [
  'test/e2e/cli.test.ts', // npm start's checks of DATABASE_PATH's file
  'test/persistence/bad-data.test.ts', // corrupt rows written into the file by hand
  'test/persistence/perm-holds-upgrade.test.ts', // an old SQLite file upgraded
  'test/persistence/tournament-store.test.ts', // raw SQLite rows
];
/** Files that run on both databases themselves (describe.each over SQLite and PostgreSQL). */
const BOTH_ALREADY = ['test/persistence/shared-crash.test.ts'];
/** testkit/postgres.ts's postgresBinaries, in short (the config imports no project module). */
const hasBinaries = (): boolean =>
  (process.env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, 'initdb'))) ||
  (existsSync('/usr/lib/postgresql') &&
    readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb'))));
const havePostgres = Boolean(process.env.TEST_DATABASE_URL) || hasBinaries();

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A throwaway PostgreSQL for the suites that run on both databases.
    globalSetup: ['test/postgres-setup.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      ...(havePostgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/e2e/**/*.test.ts', 'test/persistence/**/*.test.ts'],
                exclude: [...SQLITE_ONLY, ...BOTH_ALREADY],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
