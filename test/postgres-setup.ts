// vitest's global set-up (vitest.config.ts): one throwaway PostgreSQL server for the whole run,
// when the machine has PostgreSQL's binaries and no TEST_DATABASE_URL is given (issue 23). The
// test files' processes inherit TEST_DATABASE_URL and each takes fresh databases on it.
import { postgresBinaries, startTestServer, type TestServer } from '../testkit/postgres';

let server: TestServer | null = null;

export function setup(): void {
  if (process.env.TEST_DATABASE_URL) return;
  const bin = postgresBinaries();
  if (!bin) {
    if (process.env.CI_REQUIRE_POSTGRES === '1')
      throw new Error("CI_REQUIRE_POSTGRES=1 but no PostgreSQL binaries were found (install Debian's postgresql)");
    process.stderr.write(
      '\n!!! No PostgreSQL on this machine: the PostgreSQL half of the suites is SKIPPED (docs/testing.md).\n\n',
    );
    return;
  }
  server = startTestServer(bin);
  process.env.TEST_DATABASE_URL = server.url;
}

export function teardown(): void {
  server?.stop();
}
