/**
 * Small helpers for the fake Discord: snowflakes, permission bits, API errors, a ring buffer.
 * No runtime dependency on discord.js.
 */

const DISCORD_EPOCH = 1420070400000n;

/**
 * Monotonic, time-based snowflake generator. Ids are real-looking 18/19 digit snowflakes
 * (so `DiscordSnowflake.timestampFrom(id)` gives a sensible time and @discordjs/rest's
 * major-parameter regex `\d{17,19}` matches them) and strictly increasing.
 */
export class SnowflakeGen {
  private last = 0n;
  next(): string {
    const ts = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    this.last = ts > this.last ? ts : this.last + 1n;
    return this.last.toString();
  }

  /**
   * The next id (still strictly increasing) whose shard under `shardCount` shards is `shardId`:
   * `(id >> 22) % shardCount === shardId`. The timestamp part is moved forward by less than
   * `shardCount` ms to land on the shard, so the id is at most that much "in the future".
   */
  nextOnShard(shardId: number, shardCount: number): string {
    checkShard(shardId, shardCount);
    const n = BigInt(shardCount);
    let ts = BigInt(Date.now()) - DISCORD_EPOCH;
    const lastTs = this.last >> 22n;
    if (ts <= lastTs) ts = lastTs + 1n;
    ts += (BigInt(shardId) - (ts % n) + n) % n;
    this.last = ts << 22n;
    return this.last.toString();
  }
}

function checkShard(shardId: number, shardCount: number): void {
  if (
    !Number.isInteger(shardCount) ||
    shardCount < 1 ||
    !Number.isInteger(shardId) ||
    shardId < 0 ||
    shardId >= shardCount
  )
    throw new Error(`invalid shard [${shardId}, ${shardCount}]`);
}

/** The shard that owns a guild, as Discord computes it: `(guild_id >> 22) % shard_count` (DMs: shard 0). */
export function shardOf(guildId: string | null | undefined, shardCount: number): number {
  if (!guildId || shardCount <= 1) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * A snowflake (for a guild id, say) that lands on shard `shardId` of `shardCount`; its timestamp
 * part is `at` (default now) moved forward by less than `shardCount` ms.
 */
export function snowflakeOnShard(shardId: number, shardCount: number, at: number = Date.now()): string {
  checkShard(shardId, shardCount);
  const n = BigInt(shardCount);
  let ts = BigInt(at) - DISCORD_EPOCH;
  ts += (BigInt(shardId) - (ts % n) + n) % n;
  return (ts << 22n).toString();
}

/** Permission bit flags (subset of discord-api-types PermissionFlagsBits, as bigint). */
export const Perm = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  ViewAuditLog: 1n << 7n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  SendTTSMessages: 1n << 12n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  MentionEveryone: 1n << 17n,
  UseExternalEmojis: 1n << 18n,
  Connect: 1n << 20n,
  Speak: 1n << 21n,
  MuteMembers: 1n << 22n,
  ChangeNickname: 1n << 26n,
  ManageNicknames: 1n << 27n,
  ManageRoles: 1n << 28n,
  ManageWebhooks: 1n << 29n,
  UseApplicationCommands: 1n << 31n,
  ManageThreads: 1n << 34n,
  CreatePublicThreads: 1n << 35n,
  CreatePrivateThreads: 1n << 36n,
  SendMessagesInThreads: 1n << 38n,
  ModerateMembers: 1n << 40n,
  SendPolls: 1n << 49n,
  PinMessages: 1n << 51n,
} as const;

export const ALL_PERMISSIONS = (1n << 52n) - 1n;

/** Default permissions of the bot's managed role (no Administrator). */
export const DEFAULT_BOT_PERMISSIONS =
  Perm.ViewChannel |
  Perm.SendMessages |
  Perm.EmbedLinks |
  Perm.AttachFiles |
  Perm.ReadMessageHistory |
  Perm.AddReactions |
  Perm.ManageChannels |
  Perm.ManageRoles |
  Perm.ManageMessages |
  Perm.PinMessages |
  Perm.CreatePrivateThreads |
  Perm.CreatePublicThreads |
  Perm.SendMessagesInThreads |
  Perm.ManageThreads |
  Perm.UseApplicationCommands;

/** Default @everyone permissions (roughly what a fresh Discord server grants). */
export const DEFAULT_EVERYONE_PERMISSIONS =
  Perm.CreateInstantInvite |
  Perm.AddReactions |
  Perm.ViewChannel |
  Perm.SendMessages |
  Perm.EmbedLinks |
  Perm.AttachFiles |
  Perm.ReadMessageHistory |
  Perm.UseExternalEmojis |
  Perm.Connect |
  Perm.Speak |
  Perm.ChangeNickname |
  Perm.UseApplicationCommands |
  Perm.CreatePublicThreads |
  Perm.CreatePrivateThreads |
  Perm.SendMessagesInThreads |
  Perm.SendPolls;

/** An error the fake REST API answers with (status + Discord JSON error body). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
  ) {
    super(message);
  }
  toBody(): Record<string, unknown> {
    return this.errors
      ? { message: this.message, code: this.code, errors: this.errors }
      : { message: this.message, code: this.code };
  }
}

export const Errors = {
  unknownChannel: () => new ApiError(404, 10003, 'Unknown Channel'),
  unknownGuild: () => new ApiError(404, 10004, 'Unknown Guild'),
  unknownMember: () => new ApiError(404, 10007, 'Unknown Member'),
  unknownMessage: () => new ApiError(404, 10008, 'Unknown Message'),
  unknownOverwrite: () => new ApiError(404, 10009, 'Unknown Overwrite'),
  unknownRole: () => new ApiError(404, 10011, 'Unknown Role'),
  unknownUser: () => new ApiError(404, 10013, 'Unknown User'),
  unknownWebhook: () => new ApiError(404, 10015, 'Unknown Webhook'),
  unknownCommand: () => new ApiError(404, 10063, 'Unknown application command'),
  unknownInteraction: () => new ApiError(404, 10062, 'Unknown interaction'),
  alreadyAcknowledged: () => new ApiError(400, 40060, 'Interaction has already been acknowledged.'),
  missingAccess: () => new ApiError(403, 50001, 'Missing Access'),
  missingPermissions: () => new ApiError(403, 50013, 'Missing Permissions'),
  cannotDm: () => new ApiError(403, 50007, 'Cannot send messages to this user'),
  editOthers: () => new ApiError(403, 50005, 'Cannot edit a message authored by another user'),
  emptyMessage: () => new ApiError(400, 50006, 'Cannot send an empty message'),
  threadLocked: () => new ApiError(403, 160005, 'Thread is locked'),
  invalidForm: (path: string, code: string, message: string) =>
    new ApiError(400, 50035, 'Invalid Form Body', nestError(path, code, message)),
};

/** Build Discord's nested `errors` object for a dotted path like `components.0.components.1.custom_id`. */
function nestError(path: string, code: string, message: string): Record<string, unknown> {
  const parts = path.split('.');
  const root: Record<string, unknown> = {};
  let cur = root;
  for (const part of parts) {
    const next: Record<string, unknown> = {};
    cur[part] = next;
    cur = next;
  }
  cur._errors = [{ code, message }];
  return root;
}

/** Fixed-capacity ring buffer (oldest entries are dropped). Capacity 0 disables recording. */
export class RingBuffer<T> {
  private items: T[] = [];
  private start = 0;
  constructor(readonly capacity: number) {}
  push(item: T): void {
    if (this.capacity <= 0) return;
    if (this.items.length < this.capacity) {
      this.items.push(item);
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }
  toArray(): T[] {
    if (this.start === 0) return this.items.slice();
    return this.items.slice(this.start).concat(this.items.slice(0, this.start));
  }
  clear(): void {
    this.items = [];
    this.start = 0;
  }
  get size(): number {
    return this.items.length;
  }
}

export function isoNow(): string {
  return new Date().toISOString();
}

export function toBigInt(v: unknown, fallback = 0n): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'string' && v !== '') {
    try {
      return BigInt(v);
    } catch {
      return fallback;
    }
  }
  return fallback;
}
