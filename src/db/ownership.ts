// Which guilds this process owns (issue 22). Discord sends a guild's events to one gateway shard,
// `(guild_id >> 22) % shard_count`; the process that holds that shard owns the guild: it alone
// handles its interactions, fires its games' timers and reminders, delivers its outbox rows (the
// DMs of its games included) and recovers its games at start-up. Tournaments stay within one
// guild, so they follow the same rule. One process holding every shard owns everything.
//
// Pure: no Discord, no storage. The database asks it through a SQL function (`owns_guild`, see
// src/db/client.ts), so every query that picks work can filter by it.

/** The shard Discord sends a guild's events to. */
export function shardOf(guildId: string, shardCount: number): number {
  if (shardCount <= 1) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

export interface Ownership {
  /** Whether this process owns the guild (an id that is not a snowflake: owned only by shard 0's holder). */
  owns(guildId: string | null | undefined): boolean;
  /** The shards this process holds, and of how many. */
  readonly shards: readonly number[];
  readonly shardCount: number;
  /** Holds every shard (one process): no filtering needed. */
  readonly all: boolean;
}

/** The shards a process holds, of `shardCount`. */
export class ShardOwnership implements Ownership {
  readonly shards: readonly number[];
  readonly all: boolean;
  private readonly set: ReadonlySet<number>;

  constructor(
    shards: readonly number[],
    readonly shardCount: number,
  ) {
    if (!Number.isInteger(shardCount) || shardCount < 1) throw new Error(`invalid shard count ${shardCount}`);
    for (const s of shards)
      if (!Number.isInteger(s) || s < 0 || s >= shardCount) throw new Error(`invalid shard ${s} of ${shardCount}`);
    this.shards = [...new Set(shards)].sort((a, b) => a - b);
    this.set = new Set(this.shards);
    this.all = this.shards.length === shardCount;
  }

  owns(guildId: string | null | undefined): boolean {
    if (this.all) return true;
    // DMs (no guild) go to shard 0, as Discord sends them.
    if (!guildId || !/^\d{1,20}$/.test(guildId)) return this.set.has(0);
    return this.set.has(shardOf(guildId, this.shardCount));
  }
}

/** One process, every guild (the default). */
export const OWNS_ALL: Ownership = new ShardOwnership([0], 1);

/**
 * The ownership the database's `owns_guild` reads. It can change while the process runs (the shard
 * list is known only once the gateway says how many shards the bot needs), so queries read it at
 * each call.
 */
export class OwnershipRef implements Ownership {
  constructor(private current: Ownership = OWNS_ALL) {}
  set(o: Ownership): void {
    this.current = o;
  }
  owns(guildId: string | null | undefined): boolean {
    return this.current.owns(guildId);
  }
  get shards(): readonly number[] {
    return this.current.shards;
  }
  get shardCount(): number {
    return this.current.shardCount;
  }
  get all(): boolean {
    return this.current.all;
  }
}
