// The Prometheus metrics (GET /metrics), with prom-client: one registry per bot (tests run
// several in one process). What the database knows (games, outbox) is read when scraped; what
// happens (REST calls, 429s, interaction answers) is counted as it happens. prom-client's default
// metrics add the process's own: event-loop delay, memory, CPU, garbage collection.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CheckpointerStats } from '../db/checkpointer';

export interface MetricSources {
  /** Games by status, running ones by stage (src/db/ops-queries.ts). */
  games(): Promise<{ status: string; stage: string; n: number }[]>;
  /** Outbox rows still to send and when the oldest was written. */
  backlog(): Promise<{ pending: number; oldestAt: number | null }>;
  /** What the deliverer counted (calls by purpose, by budget level, waits). */
  deliveryCounts(): ReadonlyMap<string, number>;
  /** Whether every gateway shard is ready. */
  gatewayReady(): boolean;
  /**
   * The longest a storage transaction stayed open since the start, in ms (issue 23: on SQLite the
   * other flows' queries wait for it; one that awaits anything but storage shows here).
   */
  longestTransactionMs?(): number;
  /** SQLite: what the WAL's checkpoint worker did (src/db/checkpointer.ts); absent on PostgreSQL. */
  checkpoints?(): CheckpointerStats;
  now(): number;
}

export type InteractionKind = 'command' | 'component' | 'modal' | 'autocomplete' | 'other';
export type RateLimitScope = 'global' | 'shared' | 'user';

/** A REST route as a label: ids and tokens already replaced by discord.js, the rest made safe too. */
export function routeLabel(route: string): string {
  return route
    .replace(/\?.*$/, '')
    .replace(/\/\d{5,}/g, '/:id')
    .replace(/\/interactions\/:id\/[^/]+/, '/interactions/:id/:token')
    .replace(/\/webhooks\/:id\/[^/]+/, '/webhooks/:id/:token');
}

/** The 429's scope from its headers, as discord.js reads it (no scope header: `user`). */
export function rateLimitScope(headers: { get(name: string): string | null }): RateLimitScope {
  const scope = headers.get('x-ratelimit-scope');
  if (scope === 'global' || headers.get('x-ratelimit-global') === 'true') return 'global';
  if (scope === 'shared') return 'shared';
  return 'user';
}

export class OpsMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly limited: Counter<'scope'>;
  private readonly answered: Histogram<'kind'>;
  /** Interactions received and not answered yet: when (performance.now()) and of what kind. */
  private readonly waiting = new Map<string, { at: number; kind: InteractionKind }>();

  constructor(
    sources: MetricSources,
    private readonly clock: () => number = () => performance.now(),
  ) {
    const r = this.registry;
    collectDefaultMetrics({ register: r });
    new Gauge({
      name: 'mafia_games',
      help: 'Games in the database by status, running games by stage (read at each scrape)',
      labelNames: ['status', 'stage'],
      registers: [r],
      async collect() {
        const games = await sources.games();
        this.reset();
        for (const g of games) this.set({ status: g.status, stage: g.stage }, g.n);
      },
    });
    new Gauge({
      name: 'mafia_outbox_pending',
      help: 'Outbox rows (posts, DMs, follow-ups) still to send',
      registers: [r],
      async collect() {
        this.set((await sources.backlog()).pending);
      },
    });
    new Gauge({
      name: 'mafia_outbox_oldest_pending_age_seconds',
      help: 'How long the oldest outbox row still to send has waited (0 when none waits)',
      registers: [r],
      async collect() {
        const b = await sources.backlog();
        this.set(b.oldestAt === null ? 0 : Math.max(0, (sources.now() - b.oldestAt) / 1000));
      },
    });
    if (sources.longestTransactionMs) {
      const longest = sources.longestTransactionMs;
      new Gauge({
        name: 'mafia_db_longest_transaction_seconds',
        help: 'The longest a storage transaction stayed open since the start (other queries wait for it on SQLite)',
        registers: [r],
        collect() {
          this.set(longest() / 1000);
        },
      });
    }
    if (sources.checkpoints) {
      const stats = sources.checkpoints;
      new Counter({
        name: 'mafia_sqlite_checkpoints_total',
        help: 'Checkpoints of the SQLite WAL by the checkpoint worker, by mode (passive, or restart: the WAL made to start over)',
        labelNames: ['mode'],
        registers: [r],
        collect() {
          const s = stats();
          this.reset();
          this.inc({ mode: 'passive' }, s.checkpoints);
          this.inc({ mode: 'restart' }, s.restarts);
        },
      });
      new Gauge({
        name: 'mafia_sqlite_checkpoint_worker_up',
        help: "1 while the SQLite WAL's checkpoint worker runs; 0 once it stopped (the bot's own connection then checkpoints, holding the event loop)",
        registers: [r],
        collect() {
          this.set(stats().failed === null ? 1 : 0);
        },
      });
    }
    new Gauge({
      name: 'mafia_gateway_ready',
      help: '1 when every gateway shard is ready, 0 otherwise',
      registers: [r],
      collect() {
        this.set(sources.gatewayReady() ? 1 : 0);
      },
    });
    new Counter({
      name: 'mafia_delivery_total',
      help: "The deliverer's own counts: calls by purpose, calls by budget level, waits for channel windows",
      labelNames: ['what'],
      registers: [r],
      collect() {
        this.reset();
        for (const [what, n] of sources.deliveryCounts()) this.inc({ what }, n);
      },
    });
    this.requests = new Counter({
      name: 'mafia_discord_requests_total',
      help: 'REST calls to Discord by method, route and HTTP status (every response, retries included)',
      labelNames: ['method', 'route', 'status'],
      registers: [r],
    });
    this.limited = new Counter({
      name: 'mafia_discord_rate_limited_total',
      help: 'REST responses 429 (rate limited) by scope: global (the bot), shared (the resource), user (the route bucket)',
      labelNames: ['scope'],
      registers: [r],
    });
    this.answered = new Histogram({
      name: 'mafia_interaction_first_answer_seconds',
      help: "Time from an interaction's arrival on the gateway to Discord's acceptance of its first answer",
      labelNames: ['kind'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5, 10],
      registers: [r],
    });
  }

  /**
   * A REST response (any call: the deliverer's, the shell's, discord.js's own). `route` is
   * discord.js's bucket route (ids replaced), `path` the call's own path (an interaction's id).
   */
  response(
    method: string,
    route: string,
    path: string,
    status: number,
    headers: { get(name: string): string | null },
  ): void {
    this.requests.inc({ method: method.toUpperCase(), route: routeLabel(route), status: String(status) });
    if (status === 429) this.limited.inc({ scope: rateLimitScope(headers) });
    const m = /^\/interactions\/(\d+)\/[^/]+\/callback/.exec(path);
    if (m && status < 300) this.interactionAnswered(m[1]!);
  }

  interactionReceived(id: string, kind: InteractionKind): void {
    this.waiting.set(id, { at: this.clock(), kind });
    // Interactions never answered (the bot halted, a bug) must not pile up: a token lives 15 minutes.
    if (this.waiting.size > 10_000) {
      const old = this.clock() - 15 * 60_000;
      for (const [k, v] of this.waiting) if (v.at < old) this.waiting.delete(k);
    }
  }

  interactionAnswered(id: string): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    this.answered.observe({ kind: w.kind }, (this.clock() - w.at) / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
