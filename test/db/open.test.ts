// Choosing the database (issue 23): DATABASE_URL checked by the configuration, winning over
// DATABASE_PATH, never shown with its password; openConnection opens PostgreSQL for a URL and the
// SQLite file otherwise, and warns when the file holds games PostgreSQL has not.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configSecrets, databaseChoice, parseConfig } from '../../src/config';
import { StartupError } from '../../src/db/client';
import { openConnection } from '../../src/db/open';
import { createLog } from '../../src/log';
import { postgresOrSkip, type TestPostgres } from '../../testkit/postgres';

const env = (e: Record<string, string>) => parseConfig({ DISCORD_TOKEN: 'test-token', ...e });
const configError = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no ConfigError');
};

describe('DATABASE_URL in the configuration', () => {
  it('takes a PostgreSQL URL, and is unset when empty', () => {
    expect(env({ DATABASE_URL: ' postgres://u:pw@db:5432/mafia ' }).DATABASE_URL).toBe('postgres://u:pw@db:5432/mafia');
    expect(env({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    expect(env({}).DATABASE_PATH).toBe('./data/mafia.sqlite');
  });

  it('refuses what is not a PostgreSQL URL in one line, without echoing it', () => {
    expect(configError(() => env({ DATABASE_URL: 'mysql://u:s3cret@db/mafia' }))).toBe(
      'DATABASE_URL is not a PostgreSQL URL (the scheme is mysql:); expected postgres://user:password@host:5432/database (see .env.example)',
    );
    const m = configError(() => env({ DATABASE_URL: 'postgres://u:s3cret@db' }));
    expect(m).toMatch(/^DATABASE_URL is not a PostgreSQL URL \(no database name after the host\)/);
    expect(m).not.toContain('s3cret');
    expect(configError(() => env({ DATABASE_URL: 'data/mafia.sqlite' }))).toMatch(/cannot be parsed/);
  });

  it('lets DATABASE_URL win over DATABASE_PATH (the image and the compose file set DATABASE_PATH)', () => {
    const c = env({ DATABASE_URL: 'postgres://u@db/mafia', DATABASE_PATH: '/data/mafia.db' });
    expect(databaseChoice(c)).toMatchObject({ kind: 'postgres', shown: 'postgres://u@db/mafia' });
  });

  it('names the database without the password, and keeps the URL and its password out of the logs', () => {
    const c = env({ DATABASE_URL: 'postgresql://mafia:p%40ss-word-1@db.example:6543/mafia?sslmode=require' });
    const choice = databaseChoice(c);
    expect(choice).toMatchObject({
      kind: 'postgres',
      shown: 'postgresql://mafia:***@db.example:6543/mafia?sslmode=require',
    });
    expect(databaseChoice(env({ DATABASE_PATH: '/var/lib/mafia.sqlite' }))).toEqual({
      kind: 'sqlite',
      path: '/var/lib/mafia.sqlite',
    });
    const lines: string[] = [];
    const log = createLog({ format: 'json', destination: { write: (l) => lines.push(l) }, secrets: configSecrets(c) });
    log.info(`opening ${c.DATABASE_URL}`);
    log.warn('connection failed for p@ss-word-1 and p%40ss-word-1');
    expect(lines.join('')).not.toMatch(/p@ss|p%40ss/);
    expect(lines[0]).toContain('opening [redacted]');
  });
});

describe('openConnection', () => {
  let pgdb: TestPostgres | null = null;
  beforeAll(async () => {
    pgdb = await postgresOrSkip('test/db/open.test.ts');
    return async () => {
      await pgdb?.drop();
    };
  });

  it('opens the SQLite file at DATABASE_PATH without DATABASE_URL', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mafia-open-')), 'db', 'mafia.sqlite');
    const o = await openConnection({ DATABASE_PATH: path, DATABASE_URL: '' });
    try {
      expect(o.dialect).toBe('sqlite');
      expect(o.shown).toBe(`SQLite ${path}`);
      expect(existsSync(path)).toBe(true);
      expect(o.sqlite?.connection).toBe(o.connection);
      expect(await o.connection.rows(sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await o.close();
    }
  });

  it('opens PostgreSQL for a postgres:// DATABASE_URL, migrated', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const o = await openConnection({ DATABASE_URL: pgdb.url, DATABASE_PATH: './never-created.sqlite' });
    try {
      expect(o.dialect).toBe('postgres');
      expect(o.connection.dialect).toBe('postgres');
      expect(o.shown).toMatch(/^PostgreSQL postgres:\/\//);
      expect(o.sqlite).toBeNull();
      expect(existsSync('./never-created.sqlite')).toBe(false);
      expect(await o.connection.rows(sql`select count(*) as n from servers`)).toEqual([{ n: 0 }]);
      expect(o.connection.ownership).toBe(o.ownership);
    } finally {
      await o.close();
    }
  });

  it('warns when DATABASE_PATH’s file holds games and the PostgreSQL database has none; not once it has', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const path = join(mkdtempSync(join(tmpdir(), 'mafia-open-')), 'mafia.sqlite');
    const file = await openConnection({ DATABASE_PATH: path });
    const { servers, games } = file.connection.t;
    await file.connection.run(file.connection.db.insert(servers).values({ guildId: '1', createdAt: 1, updatedAt: 1 }));
    const game = {
      guildId: '1',
      channelId: 'c',
      hostId: 'h',
      ruleset: 'classic-10',
      pace: 'live',
      status: 'over' as const,
      createdAt: 1,
      updatedAt: 1,
    };
    await file.connection.run(file.connection.db.insert(games).values(game));
    await file.close();
    const first = await openConnection({ DATABASE_URL: pgdb.url, DATABASE_PATH: path });
    try {
      expect(first.warnings).toHaveLength(1);
      expect(first.warnings[0]).toMatch(
        new RegExp(
          `^DATABASE_URL is set, so the bot runs on PostgreSQL \\(postgres://.*\\), which has no game yet, and not on the SQLite file .*mafia\\.sqlite \\(DATABASE_PATH\\), which holds 1 game\\. To bring them over, stop the bot and run: npm run db:migrate-to-postgres -- --from `,
        ),
      );
      const c = first.connection;
      await c.run(c.db.insert(c.t.servers).values({ guildId: '1', createdAt: 1, updatedAt: 1 }));
      await c.run(c.db.insert(c.t.games).values(game));
    } finally {
      await first.close();
    }
    const again = await openConnection({ DATABASE_URL: pgdb.url, DATABASE_PATH: path });
    await again.close();
    expect(again.warnings).toEqual([]);
  });

  it('gives a bad URL as one StartupError line', async () => {
    const e = await openConnection({ DATABASE_URL: 'postgres://u:s3cret@db.example' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StartupError);
    expect((e as Error).message).toBe(
      'not a PostgreSQL URL (no database name after the host); expected postgres://user:password@host:5432/database',
    );
  });
});
