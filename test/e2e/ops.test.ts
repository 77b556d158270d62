// The operators' endpoint against the fake Discord: the real bot with HTTP_PORT=0, a lobby made
// and a 429 met, then /healthz and /metrics read; /healthz turns 503 while another connection
// holds the database's write lock and while the gateway is down, and 200 again after.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Driver } from '../../testkit/driver';
import { makeWorld, testDb, type World } from '../../testkit/world';

let w: World;
let base: string;

beforeAll(async () => {
  w = await makeWorld({ players: 3, http: { port: 0 } });
  expect(w.bot.ops).not.toBeNull();
  base = `http://127.0.0.1:${w.bot.ops!.port}`;
});
afterAll(async () => {
  await w?.stop();
});

async function get(path: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${base}${path}`);
  return { status: r.status, text: await r.text() };
}

/** The value of one series (exact labels as printed), or null when it is not there. */
function sample(text: string, series: string): number | null {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return null;
}

/** Asks /healthz until `want` (the gateway's change reaches discord.js when its socket closes). */
async function healthUntil(want: number): Promise<{ status: number; body: Record<string, unknown> }> {
  let last = { status: 0, text: '' };
  for (let i = 0; i < 500; i++) {
    last = await get('/healthz');
    if (last.status === want) return { status: last.status, body: JSON.parse(last.text) as Record<string, unknown> };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`/healthz never answered ${want}; last: ${last.status} ${last.text}`);
}

describe('operators endpoint', () => {
  it('answers /healthz and /metrics with the bot serving a lobby', async () => {
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'classic-10', pace: 'live' });
    d.gameId = Number(/#(\d+)/.exec(r.content ?? '')?.[1]);
    expect(d.gameId).toBeGreaterThan(0);
    // The next post meets a 429 (the deliverer waits and sends it again).
    w.fake.failNext({ method: 'POST', route: '/channels/:id/messages', status: 429 });
    const j = await w.fake.click(w.users[0]!.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await j.settled();
    await w.bot.idle();

    const h = await get('/healthz');
    expect(h.status).toBe(200);
    expect(JSON.parse(h.text)).toEqual({ gateway: 'connected', database: 'writable', outboxLagSeconds: 0 });

    const m = await get('/metrics');
    expect(m.status).toBe(200);
    expect(sample(m.text, 'mafia_games{status="lobby",stage=""}')).toBe(1);
    expect(sample(m.text, 'mafia_outbox_pending')).toBe(0);
    expect(sample(m.text, 'mafia_outbox_oldest_pending_age_seconds')).toBe(0);
    expect(sample(m.text, 'mafia_gateway_ready')).toBe(1);
    // Every REST call is counted by route and status: the lobby's post, the answers to the command and the click.
    expect(
      sample(m.text, 'mafia_discord_requests_total{method="POST",route="/channels/:id/messages",status="200"}'),
    ).toBeGreaterThan(0);
    expect(
      sample(
        m.text,
        'mafia_discord_requests_total{method="POST",route="/interactions/:id/:token/callback",status="204"}',
      ),
    ).toBe(2);
    expect(
      sample(m.text, 'mafia_discord_requests_total{method="POST",route="/channels/:id/messages",status="429"}'),
    ).toBe(1);
    expect(sample(m.text, 'mafia_discord_rate_limited_total{scope="user"}')).toBe(1);
    expect(sample(m.text, 'mafia_interaction_first_answer_seconds_count{kind="command"}')).toBe(1);
    expect(sample(m.text, 'mafia_interaction_first_answer_seconds_count{kind="component"}')).toBe(1);
    expect(sample(m.text, 'mafia_delivery_total{what="POST /channels/:id/messages"}')).toBeGreaterThan(0);
    // prom-client's process metrics, the event-loop delay among them.
    expect(sample(m.text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    if (process.env.OPS_DUMP) console.log(m.text);
    expect(m.text).not.toContain('test-token');
    expect((await get('/nothing')).status).toBe(404);
  });

  // Another SQLite writer holds the file's lock; PostgreSQL's probe (a transaction that is not read-only)
  // is tested in test/ops/health.test.ts. SQLite only.
  it.skipIf(testDb() === 'postgres')('is 503 while the database cannot be written, and 200 again after', async () => {
    const other = new Database(w.dbPath);
    try {
      other.exec('BEGIN IMMEDIATE'); // another writer holds the lock
      const h = await healthUntil(503);
      expect(h.body.gateway).toBe('connected');
      expect(h.body.database).toMatch(/^not writable: database is locked/);
      expect(h.body.problems).toEqual([expect.stringMatching(/^database not writable/)]);
      other.exec('ROLLBACK');
      expect((await healthUntil(200)).body.database).toBe('writable');
    } finally {
      other.close();
    }
  });

  it('is 503 while the gateway is down, and 200 again once it is back', async () => {
    w.fake.gatewayDown(true);
    const h = await healthUntil(503);
    expect(h.body.gateway).toMatch(/^not ready: shard 0: /);
    expect(h.body.database).toBe('writable');
    expect(sample((await get('/metrics')).text, 'mafia_gateway_ready')).toBe(0);
    w.fake.gatewayDown(false);
    expect((await healthUntil(200)).body.gateway).toBe('connected');
  });
});
