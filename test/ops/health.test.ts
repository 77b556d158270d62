// The health check's logic (src/ops/health.ts) and the database's write probe (src/db/ops-queries.ts).
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { probeWritable } from '../../src/db/ops-queries';
import { checkHealth, type HealthProbes } from '../../src/ops/health';
import pg from 'pg';
import { PgConnection } from '../../src/db/pg-connection';
import { openPostgres } from '../../src/db/pg-open';
import { postgresOrSkip } from '../../testkit/postgres';

const NOW = 1_800_000_000_000;
const probes = (o: Partial<HealthProbes> = {}): HealthProbes => ({
  gateway: () => null,
  database: () => null,
  outboxOldestAt: () => null,
  now: () => NOW,
  maxOutboxLagSeconds: 300,
  ...o,
});

describe('checkHealth', () => {
  it('is healthy with the gateway ready, the database writable and nothing waiting', async () => {
    expect(await checkHealth(probes())).toEqual({
      ok: true,
      body: { gateway: 'connected', database: 'writable', outboxLagSeconds: 0 },
    });
  });

  it('reports the outbox lag, and fails above the threshold only', async () => {
    expect(await checkHealth(probes({ outboxOldestAt: () => NOW - 300_000 }))).toMatchObject({
      ok: true,
      body: { outboxLagSeconds: 300 },
    });
    const h = await checkHealth(probes({ outboxOldestAt: () => NOW - 301_000 }));
    expect(h.ok).toBe(false);
    expect(h.body.outboxLagSeconds).toBe(301);
    expect(h.body.problems).toEqual(['outbox lag 301 s is above 300 s']);
  });

  it('names every problem at once: the gateway, the database, an unreadable outbox', async () => {
    const h = await checkHealth(
      probes({
        gateway: () => 'shard 0: Reconnecting',
        database: () => 'database is locked',
        outboxOldestAt: () => {
          throw new Error('The database connection is not open');
        },
      }),
    );
    expect(h).toEqual({
      ok: false,
      body: {
        gateway: 'not ready: shard 0: Reconnecting',
        database: 'not writable: database is locked',
        outboxLagSeconds: -1,
        problems: [
          'gateway not ready: shard 0: Reconnecting',
          'database not writable: database is locked',
          'outbox unreadable: The database connection is not open',
        ],
      },
    });
  });

  it('a probe that throws counts as its problem', async () => {
    const h = await checkHealth(
      probes({
        database: () => {
          throw new Error('disk I/O error');
        },
      }),
    );
    expect(h.ok).toBe(false);
    expect(h.body.database).toBe('not writable: disk I/O error');
  });
});

describe('probeWritable', () => {
  it('takes and lets go of the write lock; another writer holding it makes the database not writable', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mafia-probe-')), 'db.sqlite');
    const db = openDatabase(path);
    const other = new Database(path);
    try {
      expect(await probeWritable(db.connection)).toBeNull();
      expect(db.sqlite.inTransaction).toBe(false);
      other.exec('BEGIN IMMEDIATE');
      expect(await probeWritable(db.connection, 0)).toMatch(/database is locked/);
      // The bot's own busy timeout is put back, and no transaction is left open.
      expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.sqlite.inTransaction).toBe(false);
      other.exec('ROLLBACK');
      expect(await probeWritable(db.connection)).toBeNull();
    } finally {
      other.close();
      db.close();
    }
    expect(await probeWritable(db.connection)).toBe('the database is closed');
  });

  it('a read-only connection is not writable', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mafia-probe-')), 'db.sqlite');
    openDatabase(path).close();
    const ro = openDatabase(path, { readonly: true });
    try {
      expect(await probeWritable(ro.connection)).toBe('the database is open read-only');
    } finally {
      ro.close();
    }
  });
});

describe('probeWritable on PostgreSQL', () => {
  it('writable; not writable once the database is read-only (as a standby is); closed', async (ctx) => {
    const d = await postgresOrSkip('test/ops/health.test.ts');
    if (!d) return ctx.skip();
    try {
      const a = await openPostgres(d.url, { poolSize: 2 });
      expect(await probeWritable(a.connection)).toBeNull();
      await a.connection.exec(
        sql.raw(`ALTER DATABASE "${new URL(d.url).pathname.slice(1)}" SET default_transaction_read_only = on`),
      );
      await a.close();
      // New sessions are read-only (the bot's pool, reconnecting after a failover to a standby).
      const b = new PgConnection(new pg.Pool({ connectionString: d.url, max: 2 }));
      expect(await probeWritable(b)).toBe('the database is read-only');
      await b.close();
      expect(await probeWritable(b)).toMatch(/pool/i);
    } finally {
      await d.drop();
    }
  });
});
