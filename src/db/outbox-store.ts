// The outbox's SQL: written inside the transaction of the change that caused it (the planner runs
// there), read and updated by the deliverer. Prepared statements only: this runs on every action.
import type Database from 'better-sqlite3';
import type { Db } from './client';
import { OWNED_GAME } from './owned';

/**
 * Where an operation goes, in order per destination: a channel (`ch:`), a user's DMs (`dm:`), a
 * game's mafia thread (`th:`), or the making and membership of one of a game's private threads
 * (`tm:<channel>:<slot>`: its own queue, so a member call never holds up the channel's posts).
 */
export type Dest = `ch:${string}` | `dm:${string}` | `th:${number}` | `tm:${string}:${string}`;
export type SlotKind = 'message' | 'perms' | 'thread';
/**
 * `live`: kept up to date; `closed`: its stage is over, the last version (controls off) is sent;
 * `stale`: its stage is over, but the controls-off version is sent only for free (when someone
 * clicks it, through the interaction response) or in the repair after a restart; `gone`: deleted.
 */
export type SlotState = 'live' | 'closed' | 'stale' | 'gone';

export interface OutboxRow {
  id: number;
  gameId: number;
  dest: Dest;
  op: 'post' | 'thread' | 'notice' | 'delete';
  slot: string | null;
  payload: string;
  meta: string;
  key: string | null;
  /** `held`: its game is suspended (issue 20), so it waits, neither sent nor dropped. */
  status: 'pending' | 'done' | 'failed' | 'held';
  attempts: number;
  nextAt: number;
  error: string | null;
  messageId: string | null;
  createdAt: number;
}

/**
 * M-1, M-3: the Send Messages deny the bot holds on one member's overwrite in a channel, and the
 * Send Messages bits (and whether an overwrite existed) before the bot added it (`perm_holds`).
 */
export interface PermHold {
  channelId: string;
  userId: string;
  gameId: number;
  hadAllow: boolean;
  hadDeny: boolean;
  existed: boolean;
}

/** What the deliverer has applied to a private thread (see `thread_sync` in schema.ts). */
export interface ThreadApplied {
  threadId: string;
  /** Locked and archived, open, or unknown (null). */
  locked: boolean | null;
  members: string[];
}

export interface SlotRow {
  gameId: number;
  key: string;
  kind: SlotKind;
  dest: Dest;
  messageId: string | null;
  channelId: string | null;
  version: number;
  sentVersion: number;
  payload: string;
  head: string | null;
  repost: boolean;
  pin: boolean;
  state: SlotState;
  updatedAt: number;
}

/** Hints the deliverer acts on. */
export interface PostMeta {
  /** This message opens stage `seq`, whose timer ends at `deadline`: its clock starts when it is seen. */
  clock?: { seq: number; deadline: number };
  /** The seat a DM is for (surfacing a closed DM names him). */
  seat?: number;
  /** What the message is, for logs and repair: `card`, `panel`, `check`, ... */
  what?: string;
  /**
   * Handed to a click's interaction (its id), to be sent as the `viaIndex`-th follow-up of it;
   * if the row is still pending later, the channel is searched for that follow-up first.
   */
  via?: string;
  viaIndex?: number;
  /**
   * Written because of a secret act (a player's night action, a click in a private panel): never
   * handed to a click as its follow-up, which would carry the clicking user's name (issue 20).
   */
  origin?: 'secret';
}

/** One write to the outbox, as the audience check sees it before it is stored (src/discord/audience.ts). */
export interface OutboxWrite {
  gameId: number;
  dest: Dest;
  op: OutboxRow['op'] | 'slot';
  /** The slot's key and kind, for a slot's desired state. */
  slot?: { key: string; kind: SlotKind };
  payload: unknown;
  meta: PostMeta;
}

/**
 * Checks a write before it is stored: returns the meta to store (it may add to it), or false to
 * drop the write (it may also throw, which undoes the whole change).
 */
export type OutboxGuard = (w: OutboxWrite) => PostMeta | false;

const OUTBOX_COLS = `id, game_id AS gameId, dest, op, slot, payload, meta, key, status, attempts, next_at AS nextAt, error, message_id AS messageId, created_at AS createdAt`;
const SLOT_COLS = `game_id AS gameId, key, kind, dest, message_id AS messageId, channel_id AS channelId, version, sent_version AS sentVersion, payload, head, repost, pin, state, updated_at AS updatedAt`;

function toSlot(r: (Omit<SlotRow, 'repost' | 'pin'> & { repost: number; pin: number }) | undefined): SlotRow | null {
  return r ? { ...r, repost: r.repost === 1, pin: r.pin === 1 } : null;
}

export class OutboxStore {
  private readonly q;
  private readonly sqlite: Database.Database;

  private guard: OutboxGuard | null = null;

  /** Every write passes `guard` first (the audience check). */
  setGuard(guard: OutboxGuard | null): void {
    this.guard = guard;
  }

  /** Built from the connection like the other stores (src/db/client.ts). */
  constructor(db: Db) {
    const sqlite = (this.sqlite = (db as unknown as { $client: Database.Database }).$client);
    const p = (sql: string) => sqlite.prepare(sql);
    this.q = {
      // Issue 20: a row of a suspended game is held from the start (but the lifecycle's own notices).
      insert:
        p(`INSERT OR IGNORE INTO outbox (game_id, dest, op, slot, payload, meta, key, status, attempts, next_at, created_at)
                 VALUES (@gameId, @dest, @op, @slot, @payload, @meta, @key,
                   CASE WHEN @free = 0 AND EXISTS (SELECT 1 FROM suspensions WHERE game_id = @gameId) THEN 'held' ELSE 'pending' END,
                   0, @now, @now)`),
      // The head of each destination, channels and threads apart from DMs (what a whole table
      // watches is launched before DMs). Issue 22: only rows of games whose guild this process
      // owns; a channel holds one guild's rows, a DM channel may hold rows of games of guilds owned
      // by other processes, so its head is this process's first row there.
      channelHeads:
        p(`SELECT ${OUTBOX_COLS} FROM outbox o WHERE o.status = 'pending' AND o.next_at <= @now AND o.dest NOT LIKE 'dm:%'
                 AND o.id = (SELECT min(o2.id) FROM outbox o2 WHERE o2.dest = o.dest AND o2.status = 'pending')
                 AND ${OWNED_GAME('o.game_id')}
                 ORDER BY o.id LIMIT @limit`),
      dmHeads:
        p(`SELECT ${OUTBOX_COLS} FROM outbox o WHERE o.status = 'pending' AND o.next_at <= @now AND o.dest LIKE 'dm:%'
                 AND o.id = (SELECT min(o2.id) FROM outbox o2 WHERE o2.dest = o.dest AND o2.status = 'pending' AND ${OWNED_GAME('o2.game_id')})
                 AND ${OWNED_GAME('o.game_id')}
                 ORDER BY o.id LIMIT @limit`),
      nextDue: p(`SELECT min(next_at) AS at FROM outbox o WHERE status = 'pending' AND ${OWNED_GAME('o.game_id')}`),
      pendingCount: p(`SELECT count(*) AS n FROM outbox o WHERE status = 'pending' AND ${OWNED_GAME('o.game_id')}`),
      backlog: p(
        `SELECT count(*) AS n, min(created_at) AS oldest FROM outbox o WHERE status = 'pending' AND ${OWNED_GAME('o.game_id')}`,
      ),
      done: p(
        `UPDATE outbox SET status = 'done', message_id = @messageId, done_at = @now, error = NULL WHERE id = @id`,
      ),
      retry: p(`UPDATE outbox SET attempts = attempts + 1, next_at = @nextAt, error = @error WHERE id = @id`),
      fail: p(
        `UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = @error, done_at = @now WHERE id = @id`,
      ),
      setMeta: p(`UPDATE outbox SET meta = @meta WHERE id = @id`),
      failDest: p(
        `UPDATE outbox SET status = 'failed', error = @error, done_at = @now WHERE dest = @dest AND status = 'pending' AND game_id = @gameId`,
      ),
      getSlot: p(`SELECT ${SLOT_COLS} FROM slots WHERE game_id = @gameId AND key = @key`),
      slotByMessage: p(`SELECT ${SLOT_COLS} FROM slots WHERE message_id = @messageId`),
      insertSlot:
        p(`INSERT INTO slots (game_id, key, kind, dest, payload, head, version, sent_version, repost, pin, state, updated_at, message_id, channel_id)
                     VALUES (@gameId, @key, @kind, @dest, @payload, @head, 1, 0, @repost, @pin, 'live', @now, @messageId, @channelId)`),
      bumpSlot: p(
        `UPDATE slots SET payload = @payload, version = version + 1, state = @state, updated_at = @now, repost = @repost WHERE game_id = @gameId AND key = @key`,
      ),
      sentSlot:
        p(`UPDATE slots SET sent_version = max(sent_version, @version), message_id = coalesce(@messageId, message_id), channel_id = coalesce(@channelId, channel_id)
                   WHERE game_id = @gameId AND key = @key`),
      shownSlot:
        p(`UPDATE slots SET sent_version = CASE WHEN message_id = @messageId THEN @version ELSE max(sent_version, @version) END
                    WHERE game_id = @gameId AND key = @key
                    RETURNING message_id = @messageId AND sent_version < version AS behind`),
      rewriteSlot: p(
        `UPDATE slots SET payload = @payload WHERE game_id = @gameId AND key = @key AND version = @version`,
      ),
      slotGone: p(
        `UPDATE slots SET message_id = NULL, channel_id = NULL, sent_version = 0, state = @state WHERE game_id = @gameId AND key = @key`,
      ),
      // (A suspended game's messages are not edited: its channel is out of reach, issue 20.)
      dirty:
        p(`SELECT ${SLOT_COLS} FROM slots WHERE sent_version < version AND message_id IS NOT NULL AND state NOT IN ('gone', 'stale') AND updated_at <= @before
                AND game_id NOT IN (SELECT game_id FROM suspensions) AND ${OWNED_GAME('slots.game_id')}
                ORDER BY updated_at LIMIT @limit`),
      nextDirty: p(
        `SELECT min(updated_at) AS at FROM slots WHERE sent_version < version AND message_id IS NOT NULL AND state NOT IN ('gone', 'stale')
           AND game_id NOT IN (SELECT game_id FROM suspensions) AND ${OWNED_GAME('slots.game_id')}`,
      ),
      hold: p(`UPDATE outbox SET status = 'held' WHERE game_id = @gameId AND status = 'pending'`),
      release: p(`UPDATE outbox SET status = 'pending', next_at = @now WHERE game_id = @gameId AND status = 'held'`),
      dropHeld: p(
        `UPDATE outbox SET status = 'failed', error = @error, done_at = @now WHERE game_id = @gameId AND status = 'held'`,
      ),
      setState: p(`UPDATE slots SET state = @state WHERE game_id = @gameId AND key = @key`),
      wakeStale: p(
        `UPDATE slots SET state = 'closed' WHERE state = 'stale' AND sent_version < version AND game_id IN (SELECT id FROM games WHERE status IN ('running', 'post-game') AND owns_guild(guild_id))`,
      ),
      touchKept:
        p(`UPDATE slots SET version = version + 1, updated_at = @now WHERE key IN ('table', 'lobby') AND repost = 1 AND state = 'live' AND message_id IS NOT NULL
                     AND game_id IN (SELECT id FROM games WHERE status IN ('lobby', 'running', 'post-game') AND owns_guild(guild_id))`),
      wakeStaleGame: p(
        `UPDATE slots SET state = 'closed' WHERE state = 'stale' AND sent_version < version AND game_id = @gameId`,
      ),
      wakeStaleKey: p(
        `UPDATE slots SET state = 'closed' WHERE state = 'stale' AND sent_version < version AND game_id = @gameId AND key = @key`,
      ),
      liveSlots: p(
        `SELECT ${SLOT_COLS} FROM slots WHERE game_id = @gameId AND state = 'live' AND (key LIKE 'stage:%' OR key LIKE 'panel:%')`,
      ),
      gameSlots: p(`SELECT ${SLOT_COLS} FROM slots WHERE game_id = @gameId`),
      dmGet: p(
        `SELECT user_id AS userId, channel_id AS channelId, ok_at AS okAt, closed_at AS closedAt FROM dm_channels WHERE user_id = @userId`,
      ),
      dmSetChannel: p(`INSERT INTO dm_channels (user_id, channel_id, updated_at) VALUES (@userId, @channelId, @now)
                       ON CONFLICT(user_id) DO UPDATE SET channel_id = excluded.channel_id, updated_at = excluded.updated_at`),
      dmOk: p(`INSERT INTO dm_channels (user_id, ok_at, updated_at) VALUES (@userId, @now, @now)
               ON CONFLICT(user_id) DO UPDATE SET ok_at = excluded.ok_at, closed_at = NULL, updated_at = excluded.updated_at`),
      dmClosed: p(`INSERT INTO dm_channels (user_id, closed_at, updated_at) VALUES (@userId, @now, @now)
                   ON CONFLICT(user_id) DO UPDATE SET closed_at = excluded.closed_at, updated_at = excluded.updated_at`),
      permHolds: p(
        `SELECT channel_id AS channelId, user_id AS userId, game_id AS gameId, had_allow AS hadAllow, had_deny AS hadDeny, existed
           FROM perm_holds WHERE channel_id = @channelId`,
      ),
      setPermHold: p(`INSERT INTO perm_holds (channel_id, user_id, game_id, had_allow, had_deny, existed, updated_at)
                      VALUES (@channelId, @userId, @gameId, @hadAllow, @hadDeny, @existed, @now)
                      ON CONFLICT(channel_id, user_id) DO UPDATE SET game_id = excluded.game_id, had_allow = excluded.had_allow,
                        had_deny = excluded.had_deny, existed = excluded.existed, updated_at = excluded.updated_at`),
      dropPermHold: p(`DELETE FROM perm_holds WHERE channel_id = @channelId AND user_id = @userId`),
      rowsOf: p(`SELECT ${OUTBOX_COLS} FROM outbox WHERE game_id = @gameId ORDER BY id`),
      threadGet: p(
        `SELECT thread_id AS threadId, locked, members FROM thread_sync WHERE game_id = @gameId AND slot = @slot`,
      ),
      threadSet: p(`INSERT INTO thread_sync (game_id, slot, thread_id, locked, members, updated_at)
                    VALUES (@gameId, @slot, @threadId, @locked, @members, @now)
                    ON CONFLICT(game_id, slot) DO UPDATE SET thread_id = excluded.thread_id, locked = excluded.locked,
                    members = excluded.members, updated_at = excluded.updated_at`),
      pendingOf: p(
        `SELECT ${OUTBOX_COLS} FROM outbox WHERE dest = @dest AND status = 'pending' ORDER BY id LIMIT @limit`,
      ),
    };
  }

  /** Runs `fn` in one transaction (nested calls become savepoints): the deliverer's bookkeeping. */
  transaction<T>(fn: () => T): T {
    // IMMEDIATE: see Store.transaction (several processes on one file).
    return this.sqlite.transaction(fn).immediate();
  }

  // -------------------------------------------------------------------------------------------
  // Writes from the planner (inside the change's own transaction)

  /** Queues a one-shot operation; with `key`, at most once per game (later ones are ignored). */
  add(
    gameId: number,
    dest: Dest,
    op: OutboxRow['op'],
    payload: unknown,
    now: number,
    opts: { slot?: string; meta?: PostMeta; key?: string; free?: boolean } = {},
  ): void {
    const meta = this.guard ? this.guard({ gameId, dest, op, payload, meta: opts.meta ?? {} }) : (opts.meta ?? {});
    if (meta === false) return;
    this.insert(gameId, dest, op, payload, now, opts.slot ?? null, meta, opts.key ?? null, opts.free ?? false);
  }

  private insert(
    gameId: number,
    dest: Dest,
    op: OutboxRow['op'],
    payload: unknown,
    now: number,
    slot: string | null,
    meta: PostMeta,
    key: string | null,
    free = false,
  ): void {
    this.q.insert.run({
      gameId,
      dest,
      op,
      slot,
      payload: JSON.stringify(payload ?? {}),
      meta: JSON.stringify(meta),
      key,
      free: free ? 1 : 0,
      now,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Issue 20: a suspended game's rows wait (`held`), neither sent nor dropped. A row added with
  // `free` (the lifecycle's own notice to the host) is sent even so.

  /** Every pending row of the game waits from now on (rows added later wait from the start). */
  hold(gameId: number): number {
    return this.q.hold.run({ gameId }).changes;
  }

  /** The game's held rows are sent after all, at once and in their order. */
  release(gameId: number, now: number): number {
    return this.q.release.run({ gameId, now }).changes;
  }

  /** The game was voided: what it held is given up (recorded as failed with `error`). */
  dropHeld(gameId: number, error: string, now: number): number {
    return this.q.dropHeld.run({ gameId, error, now }).changes;
  }

  /**
   * Sets the desired state of a slot. A new slot of kind `message` is posted (in order with the
   * destination's other posts); an existing one gets a new version only when its payload changed.
   * Returns whether anything changed.
   */
  setSlot(
    gameId: number,
    key: string,
    kind: SlotKind,
    dest: Dest,
    payload: unknown,
    now: number,
    opts: {
      repost?: boolean;
      pin?: boolean;
      meta?: PostMeta;
      state?: SlotState;
      messageId?: string;
      head?: unknown;
    } = {},
  ): boolean {
    let meta = opts.meta ?? {};
    if (this.guard) {
      const checked = this.guard({ gameId, dest, op: 'slot', slot: { key, kind }, payload, meta });
      if (checked === false) return false;
      meta = checked;
    }
    const json = JSON.stringify(payload);
    const cur = this.slot(gameId, key);
    if (!cur) {
      this.q.insertSlot.run({
        gameId,
        key,
        kind,
        dest,
        payload: json,
        head: opts.head === undefined ? null : JSON.stringify(opts.head),
        repost: opts.repost ? 1 : 0,
        pin: opts.pin ? 1 : 0,
        now,
        messageId: opts.messageId ?? null,
        channelId: null,
      });
      if (kind === 'message') this.insert(gameId, dest, 'post', {}, now, key, meta, null);
      return true;
    }
    const state = opts.state ?? cur.state;
    const repost = opts.repost ?? cur.repost;
    if (cur.payload === json && cur.state === state && cur.repost === repost) return false;
    this.q.bumpSlot.run({ gameId, key, payload: json, state, now, repost: repost ? 1 : 0 });
    return true;
  }

  slot(gameId: number, key: string): SlotRow | null {
    return toSlot(this.q.getSlot.get({ gameId, key }) as never);
  }

  slotByMessage(messageId: string): SlotRow | null {
    return toSlot(this.q.slotByMessage.get({ messageId }) as never);
  }

  /** The stage messages and night panels still open in a game. */
  liveSlots(gameId: number): SlotRow[] {
    return (this.q.liveSlots.all({ gameId }) as never[]).map((r) => toSlot(r)!);
  }

  gameSlots(gameId: number): SlotRow[] {
    return (this.q.gameSlots.all({ gameId }) as never[]).map((r) => toSlot(r)!);
  }

  rows(gameId: number): OutboxRow[] {
    return this.q.rowsOf.all({ gameId }) as OutboxRow[];
  }

  // -------------------------------------------------------------------------------------------
  // The deliverer's side

  heads(now: number, limit: number, of: 'channels' | 'dms'): OutboxRow[] {
    return (of === 'channels' ? this.q.channelHeads : this.q.dmHeads).all({ now, limit }) as OutboxRow[];
  }

  /** The first pending operations to one destination, in order. */
  pendingOf(dest: Dest, limit: number): OutboxRow[] {
    return this.q.pendingOf.all({ dest, limit }) as OutboxRow[];
  }

  nextDue(): number | null {
    return (this.q.nextDue.get() as { at: number | null }).at;
  }

  pendingCount(): number {
    return (this.q.pendingCount.get() as { n: number }).n;
  }

  /** What is still to send (operators' health and metrics): how many rows, and since when the oldest waits. */
  backlog(): { pending: number; oldestAt: number | null } {
    const r = this.q.backlog.get() as { n: number; oldest: number | null };
    return { pending: r.n, oldestAt: r.oldest };
  }

  done(id: number, messageId: string | null, now: number): void {
    this.q.done.run({ id, messageId, now });
  }

  retry(id: number, nextAt: number, error: string): void {
    this.q.retry.run({ id, nextAt, error });
  }

  fail(id: number, error: string, now: number): void {
    this.q.fail.run({ id, error, now });
  }

  setMeta(id: number, meta: unknown): void {
    this.q.setMeta.run({ id, meta: JSON.stringify(meta) });
  }

  /**
   * What the deliverer has applied to a game's thread (its slot `key`): null if nothing is known
   * for this thread (never synced, or the slot now names another thread).
   */
  threadApplied(gameId: number, key: string, threadId: string): ThreadApplied | null {
    const r = this.q.threadGet.get({ gameId, slot: key }) as
      { threadId: string; locked: number | null; members: string } | undefined;
    if (!r || r.threadId !== threadId) return null;
    return { threadId, locked: r.locked === null ? null : r.locked === 1, members: JSON.parse(r.members) as string[] };
  }

  /** Records what the deliverer has applied to a game's thread (after each call). */
  setThreadApplied(gameId: number, key: string, applied: ThreadApplied, now: number): void {
    this.q.threadSet.run({
      gameId,
      slot: key,
      threadId: applied.threadId,
      locked: applied.locked === null ? null : applied.locked ? 1 : 0,
      members: JSON.stringify(applied.members),
      now,
    });
  }

  /** Gives up on every pending operation of a game to one destination (a DM that cannot be sent). */
  failDest(gameId: number, dest: Dest, error: string, now: number): void {
    this.q.failDest.run({ gameId, dest, error, now });
  }

  sentSlot(
    gameId: number,
    key: string,
    version: number,
    messageId: string | null = null,
    channelId: string | null = null,
  ): void {
    this.q.sentSlot.run({ gameId, key, version, messageId, channelId });
  }

  /**
   * A write to the slot's message (`messageId`) is done: the message shows `version` now, even if
   * a newer version's write finished first. Writes in flight together (two clicks' answers, a click
   * and an edit) finish in the order Discord applied them, so the last one to finish is what the
   * message shows; an older one that finished last leaves the slot dirty, and it is edited again.
   * (For a message the slot no longer has, only as `sentSlot`.) True when the message is behind.
   */
  shownSlot(gameId: number, key: string, version: number, messageId: string): boolean {
    return (
      (this.q.shownSlot.get({ gameId, key, version, messageId }) as { behind: number | null } | undefined)?.behind === 1
    );
  }

  /** The payload a version was actually sent with (its deadline moved), without a new version. */
  rewriteSlot(gameId: number, key: string, version: number, payload: string): void {
    this.q.rewriteSlot.run({ gameId, key, version, payload });
  }

  /** Its message is gone: it is posted again if it should be (`live`), else dropped (`gone`). */
  slotGone(slot: SlotRow, now: number): void {
    this.transaction(() => {
      const again = slot.repost && slot.state === 'live';
      this.q.slotGone.run({ gameId: slot.gameId, key: slot.key, state: again ? 'live' : 'gone' });
      if (again) this.add(slot.gameId, slot.dest, 'post', {}, now, { slot: slot.key, meta: { what: 'repost' } });
    });
  }

  /** Posts a slot's message anew (e.g. `/mafia table`): the old message is deleted first. */
  repostSlot(gameId: number, key: string, now: number): void {
    const slot = this.slot(gameId, key);
    if (!slot) return;
    if (slot.messageId && slot.channelId)
      this.add(gameId, `ch:${slot.channelId}`, 'delete', { messageId: slot.messageId }, now, {
        meta: { what: 'repost' },
      });
    this.q.slotGone.run({ gameId, key, state: 'live' });
    this.add(gameId, slot.dest, 'post', {}, now, { slot: key, meta: { what: 'repost' } });
  }

  /**
   * After a restart: every open table and lobby is sent once more, so one deleted while the bot
   * was down (its delete event missed) is found (404) and posted again.
   */
  touchKept(now: number): number {
    return this.q.touchKept.run({ now }).changes;
  }

  /** A new state without a new version (nothing to send: the message already looks right). */
  setState(gameId: number, key: string, state: SlotState): void {
    this.q.setState.run({ gameId, key, state });
  }

  /** After a restart: the closed stages of running games get their controls turned off for real. */
  wakeStale(gameId?: number, key?: string): number {
    if (gameId === undefined) return this.q.wakeStale.run().changes;
    return (key === undefined ? this.q.wakeStaleGame.run({ gameId }) : this.q.wakeStaleKey.run({ gameId, key }))
      .changes;
  }

  dirty(before: number, limit: number): SlotRow[] {
    return (this.q.dirty.all({ before, limit }) as never[]).map((r) => toSlot(r)!);
  }

  nextDirty(): number | null {
    return (this.q.nextDirty.get() as { at: number | null }).at;
  }

  dm(userId: string): { channelId: string | null; okAt: number | null; closedAt: number | null } | null {
    return (
      (this.q.dmGet.get({ userId }) as
        { channelId: string | null; okAt: number | null; closedAt: number | null } | undefined) ?? null
    );
  }

  dmChannel(userId: string, channelId: string, now: number): void {
    this.q.dmSetChannel.run({ userId, channelId, now });
  }

  dmOk(userId: string, now: number): void {
    this.q.dmOk.run({ userId, now });
  }

  dmClosed(userId: string, now: number): void {
    this.q.dmClosed.run({ userId, now });
  }

  // -------------------------------------------------------------------------------------------
  // The bot's own changes to a channel's member overwrites (M-1, M-3)

  /** Every Send Messages deny the bot holds in a channel, with what was there before it. */
  permHolds(channelId: string): PermHold[] {
    return (
      this.q.permHolds.all({ channelId }) as (Omit<PermHold, 'hadAllow' | 'hadDeny' | 'existed'> & {
        hadAllow: number;
        hadDeny: number;
        existed: number;
      })[]
    ).map((r) => ({ ...r, hadAllow: r.hadAllow === 1, hadDeny: r.hadDeny === 1, existed: r.existed === 1 }));
  }

  /** Records (before the write to Discord) that the bot holds a member's deny, or its new prior bits. */
  setPermHold(h: PermHold, now: number): void {
    this.q.setPermHold.run({
      ...h,
      hadAllow: h.hadAllow ? 1 : 0,
      hadDeny: h.hadDeny ? 1 : 0,
      existed: h.existed ? 1 : 0,
      now,
    });
  }

  /** The bot's deny is taken back (after Discord has the restored overwrite). */
  dropPermHold(channelId: string, userId: string): void {
    this.q.dropPermHold.run({ channelId, userId });
  }
}
