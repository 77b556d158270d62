// The metrics registry (src/ops/metrics.ts) with made-up sources, and the games query behind it.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { gamesByStage } from '../../src/db/ops-queries';
import { OpsMetrics, rateLimitScope, routeLabel, type MetricSources } from '../../src/ops/metrics';

const headers = (h: Record<string, string>) => ({ get: (k: string) => h[k.toLowerCase()] ?? null });

function sample(text: string, series: string): number | null {
  for (const line of text.split('\n')) if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  return null;
}

function sources(o: Partial<MetricSources> = {}): MetricSources {
  return {
    games: async () => [],
    backlog: async () => ({ pending: 0, oldestAt: null }),
    deliveryCounts: () => new Map(),
    gatewayReady: () => true,
    now: () => 1_000_000,
    ...o,
  };
}

describe('routeLabel and rateLimitScope', () => {
  it('keeps ids and tokens out of the labels', () => {
    expect(routeLabel('/channels/:id/messages')).toBe('/channels/:id/messages');
    expect(routeLabel('/channels/12345678901234567890/messages?limit=5')).toBe('/channels/:id/messages');
    expect(routeLabel('/interactions/:id/:token/callback')).toBe('/interactions/:id/:token/callback');
    expect(routeLabel('/webhooks/12345678901234567890/aW50ZXJhY3Rpb24tdG9rZW4/messages/@original')).toBe(
      '/webhooks/:id/:token/messages/@original',
    );
  });

  it("reads a 429's scope as discord.js does", () => {
    expect(rateLimitScope(headers({ 'x-ratelimit-scope': 'global' }))).toBe('global');
    expect(rateLimitScope(headers({ 'x-ratelimit-global': 'true' }))).toBe('global');
    expect(rateLimitScope(headers({ 'x-ratelimit-scope': 'shared' }))).toBe('shared');
    expect(rateLimitScope(headers({ 'x-ratelimit-scope': 'user' }))).toBe('user');
    expect(rateLimitScope(headers({}))).toBe('user');
  });
});

describe('OpsMetrics', () => {
  it('reads games, the outbox, the gateway and the deliverer at each scrape', async () => {
    let games = [
      { status: 'lobby', stage: '', n: 2 },
      { status: 'running', stage: 'night', n: 3 },
    ];
    let ready = true;
    const m = new OpsMetrics(
      sources({
        games: async () => games,
        backlog: async () => ({ pending: 4, oldestAt: 1_000_000 - 7_500 }),
        deliveryCounts: () => new Map([['POST /channels/:id/messages', 9]]),
        gatewayReady: () => ready,
        longestTransactionMs: () => 1250,
      }),
    );
    let t = await m.text();
    expect(sample(t, 'mafia_games{status="lobby",stage=""}')).toBe(2);
    expect(sample(t, 'mafia_games{status="running",stage="night"}')).toBe(3);
    expect(sample(t, 'mafia_outbox_pending')).toBe(4);
    expect(sample(t, 'mafia_outbox_oldest_pending_age_seconds')).toBe(7.5);
    expect(sample(t, 'mafia_gateway_ready')).toBe(1);
    expect(sample(t, 'mafia_db_longest_transaction_seconds')).toBe(1.25);
    expect(sample(t, 'mafia_delivery_total{what="POST /channels/:id/messages"}')).toBe(9);
    expect(t).toContain('nodejs_eventloop_lag_p99_seconds');
    // A game that left a stage is gone from it at the next scrape (no stale series).
    games = [{ status: 'running', stage: 'vote', n: 1 }];
    ready = false;
    t = await m.text();
    expect(sample(t, 'mafia_games{status="running",stage="night"}')).toBeNull();
    expect(sample(t, 'mafia_games{status="running",stage="vote"}')).toBe(1);
    expect(sample(t, 'mafia_gateway_ready')).toBe(0);
  });

  it("shows the SQLite WAL's checkpoint worker: its checkpoints by mode, and whether it runs", async () => {
    const stats = { checkpoints: 12, restarts: 2, handedBack: 0, failed: null as string | null };
    const m = new OpsMetrics(sources({ checkpoints: () => stats }));
    let t = await m.text();
    expect(sample(t, 'mafia_sqlite_checkpoints_total{mode="passive"}')).toBe(12);
    expect(sample(t, 'mafia_sqlite_checkpoints_total{mode="restart"}')).toBe(2);
    expect(sample(t, 'mafia_sqlite_checkpoint_worker_up')).toBe(1);
    stats.checkpoints = 13;
    stats.failed = 'disk I/O error';
    t = await m.text();
    expect(sample(t, 'mafia_sqlite_checkpoints_total{mode="passive"}')).toBe(13);
    expect(sample(t, 'mafia_sqlite_checkpoint_worker_up')).toBe(0);
    // PostgreSQL has none.
    expect(await new OpsMetrics(sources()).text()).not.toContain('mafia_sqlite_checkpoint');
  });

  it('counts REST responses by route and status, and 429s by scope', async () => {
    const m = new OpsMetrics(sources());
    m.response('post', '/channels/:id/messages', '/channels/1/messages', 200, headers({}));
    m.response('post', '/channels/:id/messages', '/channels/1/messages', 200, headers({}));
    m.response(
      'post',
      '/channels/:id/messages',
      '/channels/1/messages',
      429,
      headers({ 'x-ratelimit-scope': 'shared' }),
    );
    m.response(
      'patch',
      '/channels/:id/messages/:id',
      '/channels/1/messages/2',
      429,
      headers({ 'x-ratelimit-global': 'true' }),
    );
    const t = await m.text();
    expect(sample(t, 'mafia_discord_requests_total{method="POST",route="/channels/:id/messages",status="200"}')).toBe(
      2,
    );
    expect(sample(t, 'mafia_discord_requests_total{method="POST",route="/channels/:id/messages",status="429"}')).toBe(
      1,
    );
    expect(sample(t, 'mafia_discord_rate_limited_total{scope="shared"}')).toBe(1);
    expect(sample(t, 'mafia_discord_rate_limited_total{scope="global"}')).toBe(1);
    expect(sample(t, 'mafia_discord_rate_limited_total{scope="user"}')).toBeNull();
  });

  it("times an interaction from its arrival to its first answer's acceptance, once", async () => {
    let clock = 0;
    const m = new OpsMetrics(sources(), () => clock);
    m.interactionReceived('111', 'component');
    m.interactionReceived('222', 'command');
    clock = 400;
    const cb = (id: string, status = 204) =>
      m.response(
        'POST',
        '/interactions/:id/:token/callback',
        `/interactions/${id}/secret-token/callback`,
        status,
        headers({}),
      );
    cb('111');
    clock = 2_600;
    cb('222');
    cb('111'); // a second answer (a follow-up) is not the first
    const t = await m.text();
    expect(sample(t, 'mafia_interaction_first_answer_seconds_count{kind="component"}')).toBe(1);
    expect(sample(t, 'mafia_interaction_first_answer_seconds_sum{kind="component"}')).toBe(0.4);
    expect(sample(t, 'mafia_interaction_first_answer_seconds_bucket{le="0.25",kind="component"}')).toBe(0);
    expect(sample(t, 'mafia_interaction_first_answer_seconds_bucket{le="0.5",kind="component"}')).toBe(1);
    expect(sample(t, 'mafia_interaction_first_answer_seconds_sum{kind="command"}')).toBe(2.6);
    expect(sample(t, 'mafia_interaction_first_answer_seconds_bucket{le="2.5",kind="command"}')).toBe(0);
    expect(t).not.toContain('secret-token');
  });

  it('two bots in one process keep their own figures', async () => {
    const a = new OpsMetrics(sources());
    const b = new OpsMetrics(sources());
    a.response('GET', '/gateway/bot', '/gateway/bot', 200, headers({}));
    expect(sample(await a.text(), 'mafia_discord_requests_total{method="GET",route="/gateway/bot",status="200"}')).toBe(
      1,
    );
    expect(
      sample(await b.text(), 'mafia_discord_requests_total{method="GET",route="/gateway/bot",status="200"}'),
    ).toBeNull();
  });
});

describe('gamesByStage', () => {
  it('counts games by status, running ones by their stage', async () => {
    const db = openDatabase(':memory:');
    try {
      db.sqlite.exec(`INSERT INTO servers (guild_id, created_at, updated_at) VALUES ('1', 0, 0)`);
      const add = db.sqlite.prepare(
        `INSERT INTO games (guild_id, channel_id, host_id, ruleset, pace, status, state, created_at, updated_at)
         VALUES ('1', '2', '3', 'classic-10', 'live', ?, ?, 0, 0)`,
      );
      add.run('lobby', null);
      add.run('lobby', null);
      add.run('running', JSON.stringify({ stage: { kind: 'night' } }));
      add.run('running', JSON.stringify({ stage: { kind: 'night' } }));
      add.run('running', JSON.stringify({ stage: { kind: 'vote' } }));
      add.run('over', JSON.stringify({ stage: { kind: 'over' } }));
      const rows = (await gamesByStage(db.connection)).sort((x, y) =>
        `${x.status}${x.stage}`.localeCompare(`${y.status}${y.stage}`),
      );
      expect(rows).toEqual([
        { status: 'lobby', stage: '', n: 2 },
        { status: 'over', stage: '', n: 1 },
        { status: 'running', stage: 'night', n: 2 },
        { status: 'running', stage: 'vote', n: 1 },
      ]);
    } finally {
      db.close();
    }
  });
});
