/**
 * Discord-style REST rate limits for the fake:
 *
 *  - global: N requests per second per bot token (default 50) over every route except the
 *    interaction endpoints (`POST /interactions/:id/:token/callback` and `/webhooks/:app/:token…`),
 *    which Discord exempts;
 *  - per-route buckets (per token and channel): message creates and message edits, 5 per 5 s each,
 *    as separate buckets.
 *
 * Buckets are fixed windows, as Discord's are: the window opens with the first request after the
 * previous one ran out, `X-RateLimit-Remaining` counts down, and the whole bucket refills at
 * `X-RateLimit-Reset`. Responses on limited routes carry the headers @discordjs/rest paces itself
 * by (`X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After`, `-Bucket`); a 429 carries
 * Discord's body (`message`, `retry_after`, `global`) and headers (`Retry-After` in whole seconds,
 * rounded up, `X-RateLimit-Scope`, and for the global limit `X-RateLimit-Global: true`).
 */
import { createHash } from 'node:crypto';

export interface BucketLimit {
  /** requests per window */
  limit: number;
  /** window length in ms */
  windowMs: number;
}

export interface RateLimitOptions {
  /** master switch (default true when an options object is given) */
  enabled?: boolean;
  /** global requests per second per bot token, interaction routes exempt (default 50; 0 = no global limit) */
  globalPerSecond?: number;
  /** `POST /channels/:id/messages`, per channel (default 5 per 5000 ms; false = unlimited) */
  messageCreate?: BucketLimit | false;
  /** `PATCH /channels/:id/messages/:id`, per channel, a separate bucket (default 5 per 5000 ms; false = unlimited) */
  messageEdit?: BucketLimit | false;
}

export interface ResolvedRateLimits {
  enabled: boolean;
  globalPerSecond: number;
  messageCreate: BucketLimit | null;
  messageEdit: BucketLimit | null;
}

export const DEFAULT_RATE_LIMITS: ResolvedRateLimits = {
  enabled: true,
  globalPerSecond: 50,
  messageCreate: { limit: 5, windowMs: 5000 },
  messageEdit: { limit: 5, windowMs: 5000 },
};

export function resolveRateLimits(o: boolean | RateLimitOptions | undefined): ResolvedRateLimits {
  if (o === undefined || o === true) return { ...DEFAULT_RATE_LIMITS };
  if (o === false) return { ...DEFAULT_RATE_LIMITS, enabled: false };
  const pick = (v: BucketLimit | false | undefined, d: BucketLimit | null): BucketLimit | null =>
    v === false ? null : v === undefined ? d : { limit: v.limit, windowMs: v.windowMs };
  return {
    enabled: o.enabled ?? true,
    globalPerSecond: o.globalPerSecond ?? DEFAULT_RATE_LIMITS.globalPerSecond,
    messageCreate: pick(o.messageCreate, DEFAULT_RATE_LIMITS.messageCreate),
    messageEdit: pick(o.messageEdit, DEFAULT_RATE_LIMITS.messageEdit),
  };
}

/** Routes Discord does not count against the global limit (interaction callbacks and webhooks). */
export function isInteractionRoute(pattern: string): boolean {
  return pattern.startsWith('/interactions/') || pattern.startsWith('/webhooks/');
}

type BucketName = 'messageCreate' | 'messageEdit';

const ROUTE_BUCKETS: Record<string, { name: BucketName; major: string }> = {
  'POST /channels/:channel/messages': { name: 'messageCreate', major: 'channel' },
  'PATCH /channels/:channel/messages/:message': { name: 'messageEdit', major: 'channel' },
};

/** Opaque bucket hashes like Discord's (same for every channel; the channel is the major parameter). */
const BUCKET_HASH: Record<BucketName, string> = {
  messageCreate: createHash('md5').update('fake-discord:POST /channels/{channel_id}/messages').digest('hex'),
  messageEdit: createHash('md5')
    .update('fake-discord:PATCH /channels/{channel_id}/messages/{message_id}')
    .digest('hex'),
};

interface Window {
  resetAt: number;
  count: number;
}

export interface RateLimitVerdict {
  /** headers to add to the response (rate limited routes only) */
  headers?: Record<string, string>;
  /** set when the request is refused with a 429 */
  limited?: { scope: 'global' | 'user'; body: Record<string, unknown>; headers: Record<string, string> };
}

const secs = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

function tooMany(retryMs: number, global: boolean): Record<string, unknown> {
  return { message: 'You are being rate limited.', retry_after: Number(secs(retryMs)), global };
}

export class RateLimiter {
  config: ResolvedRateLimits;
  private readonly globals = new Map<string, Window>();
  private readonly buckets = new Map<string, Window>();

  constructor(config: ResolvedRateLimits) {
    this.config = config;
  }

  set(config: ResolvedRateLimits): void {
    this.config = config;
    this.reset();
  }

  /** Forget every window (all buckets full again). */
  reset(): void {
    this.globals.clear();
    this.buckets.clear();
  }

  /**
   * Account for one request that matched `method pattern` and decide whether it may pass.
   * `token` is the Authorization header ('' for none).
   */
  check(method: string, pattern: string, params: Record<string, string>, token: string, now: number): RateLimitVerdict {
    const c = this.config;
    if (!c.enabled) return {};
    if (!isInteractionRoute(pattern) && c.globalPerSecond > 0) {
      const w = this.window(this.globals, token, 1000, now);
      if (w.count >= c.globalPerSecond) {
        const retry = w.resetAt - now;
        return {
          limited: {
            scope: 'global',
            body: tooMany(retry, true),
            headers: {
              'retry-after': String(Math.max(1, Math.ceil(retry / 1000))),
              'x-ratelimit-global': 'true',
              'x-ratelimit-scope': 'global',
            },
          },
        };
      }
      w.count++;
    }
    const route = ROUTE_BUCKETS[`${method} ${pattern}`];
    const limit = route ? c[route.name] : null;
    if (!route || !limit) return {};
    const key = `${token}\u0000${route.name}\u0000${params[route.major] ?? ''}`;
    const w = this.window(this.buckets, key, limit.windowMs, now);
    const headers = (remaining: number): Record<string, string> => ({
      'x-ratelimit-limit': String(limit.limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': secs(w.resetAt),
      'x-ratelimit-reset-after': secs(w.resetAt - now),
      'x-ratelimit-bucket': BUCKET_HASH[route.name],
    });
    if (w.count >= limit.limit) {
      const retry = w.resetAt - now;
      return {
        limited: {
          scope: 'user',
          body: tooMany(retry, false),
          headers: {
            ...headers(0),
            'retry-after': String(Math.max(1, Math.ceil(retry / 1000))),
            'x-ratelimit-scope': 'user',
          },
        },
      };
    }
    w.count++;
    return { headers: headers(limit.limit - w.count) };
  }

  private window(map: Map<string, Window>, key: string, windowMs: number, now: number): Window {
    let w = map.get(key);
    if (!w || now >= w.resetAt) {
      if (map.size > 2000) for (const [k, v] of map) if (now >= v.resetAt) map.delete(k);
      w = { resetAt: now + windowMs, count: 0 };
      map.set(key, w);
    }
    return w;
  }
}

/** 'POST /channels/:channel/messages' -> 'POST /channels/:id/messages' (every param but :token becomes :id). */
export function statsRouteKey(method: string, pattern: string): string {
  return `${method} ${pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'token' ? ':token' : ':id'))}`;
}
