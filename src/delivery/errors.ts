// What a failed Discord call means, read from what discord.js actually throws. `instanceof` is not
// used on purpose: @discordjs/rest's ESM build exports other classes than the CommonJS ones that
// discord.js throws (the dual-package hazard), so the shape (`status`, `code`) is what counts.

export type Failure =
  /** 50007: the user does not accept DMs from the bot (permanent for this user, for now). */
  | 'dm-closed'
  /** 403, 50001 Missing Access, 50013 Missing Permissions. */
  | 'forbidden'
  /** 404: the message, channel or thread is gone. */
  | 'not-found'
  /** 429 that discord.js gave up waiting for. */
  | 'rate-limited'
  /** 5xx: Discord's trouble, try again. */
  | 'server'
  /** No answer at all: a refused connection, a reset, a timeout. */
  | 'network'
  /** 400 and the rest: our request is wrong; retrying will not help. */
  | 'bad-request';

const TRANSIENT: ReadonlySet<Failure> = new Set(['rate-limited', 'server', 'network']);

export function isTransient(f: Failure): boolean {
  return TRANSIENT.has(f);
}

export function classify(e: unknown): Failure {
  const err = e as { status?: unknown; code?: unknown; name?: unknown } | null;
  const status = typeof err?.status === 'number' ? err.status : null;
  const code = typeof err?.code === 'number' ? err.code : null;
  if (code === 50007) return 'dm-closed';
  if (code === 10003 || code === 10008 || code === 10013 || status === 404) return 'not-found';
  if (code === 50001 || code === 50013 || status === 403) return 'forbidden';
  if (status === 429) return 'rate-limited';
  if (status !== null && status >= 500) return 'server';
  if (status === null) return 'network';
  return 'bad-request';
}

/** Seconds Discord asked us to wait (a 429's retry_after), if it said. */
export function retryAfterMs(e: unknown): number | null {
  const raw = (e as { rawError?: { retry_after?: unknown } } | null)?.rawError?.retry_after;
  return typeof raw === 'number' && raw >= 0 ? Math.ceil(raw * 1000) : null;
}

/**
 * Issue 20: how a failed call on a channel says the channel may be out of reach for good, not just
 * this message: `deleted` (10003 Unknown Channel, 10004 Unknown Guild), `no-access` (50001 Missing
 * Access: the bot may not see the channel, or was removed from the server), or `permission` (50013:
 * some permission is missing; whether it is one the game cannot go on without, the shell decides
 * from the gateway's cache).
 */
export type LostAccess = 'deleted' | 'no-access' | 'permission';

export function lostAccess(e: unknown): LostAccess | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 10003 || code === 10004) return 'deleted';
  if (code === 50001) return 'no-access';
  if (code === 50013) return 'permission';
  return null;
}
