// The operators' health check (GET /healthz): the gateway connected, the database writable, the
// outbox not lagging. Pure: the probes are passed in (src/discord/bot.ts wires the real ones).

export interface HealthProbes {
  /** null when every gateway shard is ready, else what is wrong ("shard 0: Reconnecting"). */
  gateway(): string | null;
  /** null when the database takes a write, else why not. */
  database(): string | null | Promise<string | null>;
  /** When the oldest message still to send was written (ms since epoch), null when none waits. */
  outboxOldestAt(): number | null | Promise<number | null>;
  now(): number;
  /** Above this many seconds of outbox lag the bot is unhealthy. */
  maxOutboxLagSeconds: number;
}

export interface HealthBody {
  gateway: string;
  database: string;
  /** Seconds the oldest undelivered message has waited (0 when nothing waits; -1 unknown). */
  outboxLagSeconds: number;
  /** What is wrong, one line each (only when unhealthy). */
  problems?: string[];
}

export interface Health {
  ok: boolean;
  body: HealthBody;
}

async function attempt<T>(f: () => T | Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await f() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export async function checkHealth(p: HealthProbes): Promise<Health> {
  const problems: string[] = [];
  const g = await attempt(() => p.gateway());
  const gatewayWrong = 'error' in g ? g.error : g.value;
  if (gatewayWrong !== null) problems.push(`gateway not ready: ${gatewayWrong}`);
  const d = await attempt(() => p.database());
  const dbWrong = 'error' in d ? d.error : d.value;
  if (dbWrong !== null) problems.push(`database not writable: ${dbWrong}`);
  const o = await attempt(() => p.outboxOldestAt());
  let lag = -1;
  if ('error' in o) problems.push(`outbox unreadable: ${o.error}`);
  else {
    lag = o.value === null ? 0 : Math.max(0, Math.round((p.now() - o.value) / 1000));
    if (lag > p.maxOutboxLagSeconds) {
      problems.push(`outbox lag ${lag} s is above ${p.maxOutboxLagSeconds} s`);
    }
  }
  const body: HealthBody = {
    gateway: gatewayWrong === null ? 'connected' : `not ready: ${gatewayWrong}`,
    database: dbWrong === null ? 'writable' : `not writable: ${dbWrong}`,
    outboxLagSeconds: lag,
  };
  if (problems.length > 0) body.problems = problems;
  return { ok: problems.length === 0, body };
}
