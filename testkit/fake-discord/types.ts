import type { APIEmbed } from 'discord.js';

/** Discord user object as sent over the API. */
export interface ApiUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  bot?: boolean;
  public_flags?: number;
}

/**
 * A message component as stored (loosely typed so tests can write predicates without narrowing).
 * Covers action rows, buttons, selects and Components-V2 containers/sections.
 */
export interface FakeComponent {
  type: number;
  custom_id?: string;
  label?: string;
  style?: number;
  disabled?: boolean;
  url?: string;
  emoji?: { id?: string | null; name?: string | null; animated?: boolean };
  placeholder?: string;
  min_values?: number;
  max_values?: number;
  options?: { label: string; value: string; description?: string; default?: boolean }[];
  components?: FakeComponent[];
  accessory?: FakeComponent;
  content?: string;
  id?: number;
  [key: string]: unknown;
}

export interface FakeAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
  /** Images: pixel size, as Discord reports it. */
  width?: number;
  height?: number;
}

/**
 * A message as stored by the fake. It *is* the API object the fake sends to discord.js
 * (plus a few fake-only fields that discord.js ignores). It is mutated in place on edits,
 * so a reference always shows the current state; use `fake.history(id)` for every version.
 */
export interface StoredMessage {
  id: string;
  channel_id: string;
  author: ApiUser;
  content: string;
  embeds: APIEmbed[];
  components: FakeComponent[];
  flags: number;
  timestamp: string;
  edited_timestamp: string | null;
  pinned: boolean;
  type: number;
  tts: boolean;
  mention_everyone: boolean;
  mentions: ApiUser[];
  /** Who this message notified when it was posted (mentions allowed by allowed_mentions; edits notify nobody). */
  pinged?: string[];
  mention_roles: string[];
  /**
   * The roles whose members this message notified when it was posted: mentioned, allowed by
   * allowed_mentions (`parse: ['roles']` or listed in `roles`), and mentionable or the author may
   * mention everyone in the channel (Discord's rule).
   */
  pingedRoles?: string[];
  attachments: FakeAttachment[];
  nonce?: string | number;
  webhook_id?: string;
  application_id?: string;
  message_reference?: { message_id?: string; channel_id?: string; guild_id?: string; type?: number };
  interaction_metadata?: {
    id: string;
    type: number;
    user: ApiUser;
    authorizing_integration_owners: Record<string, string>;
    name?: string;
    interacted_message_id?: string;
  };
  poll?: unknown;
  /** fake-only: the message is ephemeral and visible only to this user. */
  ephemeralFor?: string;
  /** fake-only: interaction whose response/followup created this message. */
  interactionId?: string;
  /** fake-only: set when the message was deleted (it is then removed from channel listings). */
  deleted?: boolean;
}

/** One version of a message (creation or an edit). */
export interface MessageVersion {
  at: number;
  kind: 'create' | 'edit' | 'delete';
  content: string;
  embeds: APIEmbed[];
  components: FakeComponent[];
  flags: number;
}

export interface RestLogEntry {
  method: string;
  /** Route pattern, e.g. `/channels/:channel/messages` (the raw path for unknown routes). */
  route: string;
  /** Actual path without `/api/v10`, e.g. `/channels/1234/messages`. */
  path: string;
  query: string;
  body: unknown;
  status: number;
  /** `Date.now()` when the request was received. */
  at: number;
  /** Discord error code of a 4xx/5xx reply, if any. */
  code?: number;
  /** true if the reply came from `failNext` / `failFor`. */
  injected?: boolean;
  /**
   * The scope of a 429 (its `X-RateLimit-Scope`): 'global', 'user' (a per-route bucket) or 'shared'
   * (a resource's bucket shared by every user). Set for every 429, the rate limiter's and injected
   * ones (`injected` tells them apart; only injected 429s can be 'shared': the fake's limiter has no
   * shared buckets).
   */
  rateLimit?: RateLimitScope;
}

export interface UnhandledRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
  at: number;
}

export interface OverwriteInfo {
  id: string;
  /** 0 = role, 1 = member */
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface ThreadInfo {
  id: string;
  name: string;
  type: number;
  parentId: string;
  ownerId: string;
  locked: boolean;
  archived: boolean;
  invitable: boolean;
  autoArchiveDuration: number;
  /** user ids currently in the thread */
  members: string[];
}

export interface FakeUserInfo {
  id: string;
  username: string;
  globalName: string | null;
  locale: string;
  dmsOpen: boolean;
  bot: boolean;
}

export interface FakeGuildInfo {
  id: string;
  name: string;
  locale: string;
  ownerId: string;
  everyoneRoleId: string;
  botRoleId: string;
}

export interface FakeChannelInfo {
  id: string;
  guildId: string | null;
  name: string;
  type: number;
  parentId: string | null;
}

export interface FakeRoleInfo {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
}

export interface RegisteredCommand {
  id: string;
  application_id: string;
  guild_id?: string;
  name: string;
  description: string;
  type: number;
  options?: CommandOptionDef[];
  default_member_permissions: string | null;
  version: string;
  [key: string]: unknown;
}

export interface CommandOptionDef {
  type: number;
  name: string;
  description?: string;
  required?: boolean;
  options?: CommandOptionDef[];
  choices?: { name: string; value: string | number }[];
  [key: string]: unknown;
}

/** What a 429 says it was (`X-RateLimit-Scope`). */
export type RateLimitScope = 'global' | 'user' | 'shared';

export interface FailRule {
  method?: string;
  /** Matched against both the route pattern and the actual path: string = equality, RegExp = test. */
  route?: RegExp | string;
  status: number;
  /** How many requests to fail (default 1; unlimited when `ms` is set). */
  times?: number;
  /** Fail every matching request for this many ms from now (an outage); the rule then expires. */
  ms?: number;
  body?: Record<string, unknown>;
  /** Seconds, for 429 (default 0.05). */
  retryAfter?: number;
  /** For 429: the `X-RateLimit-Scope` it is sent with (default 'user'); 'global' also sets `global: true` and `X-RateLimit-Global`. */
  scope?: RateLimitScope;
}

/** Request counters of `fake.stats` (since start or the last `fake.resetStats()`). */
export interface RequestStats {
  /** every REST request */
  total: number;
  /** per route, keyed like 'POST /channels/:id/messages', 'PATCH /channels/:id/messages/:id',
   *  'POST /interactions/:id/:token/callback', 'PATCH /webhooks/:id/:token/messages/:id' (unknown routes: raw path) */
  byRoute: Record<string, number>;
  /** requests that count against Discord's global limit (all but interaction callbacks and /webhooks/…) */
  globalCounted: number;
  /** most globally-counted requests seen in any 1 s (sliding) */
  peakGlobalPerSecond: number;
  /** every 429 answered (rate limiter + injected) */
  rateLimited429: number;
  /** 429s of the global limit */
  rateLimitedGlobal: number;
  /** 429s of the per-route limiter, by route key as in `byRoute` */
  rateLimitedByRoute: Record<string, number>;
  /** every 429 answered (rate limiter + injected), by the scope it was sent with (`X-RateLimit-Scope`) */
  rateLimitedByScope: Record<RateLimitScope, number>;
  /** replies produced by failNext/failFor */
  injected: number;
  /** message creates answered with an earlier message because of `enforce_nonce` */
  nonceHits: number;
}
