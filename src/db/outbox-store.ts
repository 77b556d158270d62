// The outbox's SQL: written inside the transaction of the change that caused it (the planner runs
// there), read and updated by the deliverer. Prepared statements only (Connection.statement): this
// runs on every action.
import { and, asc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Connection, Db, Tables } from './connection';
import { ownedGame } from './owned';

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

/** liveSlots' rows: the live stage messages and night panels. */
function isLiveStageOrPanel(r: SlotRow): boolean {
  return r.state === 'live' && (r.key.startsWith('stage:') || r.key.startsWith('panel:'));
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
 * drop the write (it may also throw, which undoes the whole change). It runs inside the change's
 * transaction: it may read storage, and await nothing else.
 */
export type OutboxGuard = (w: OutboxWrite) => PostMeta | false | Promise<PostMeta | false>;

/** The outbox's columns as OutboxRow names them. */
const outboxFields = (t: Tables) => ({
  id: t.outbox.id,
  gameId: t.outbox.gameId,
  dest: t.outbox.dest,
  op: t.outbox.op,
  slot: t.outbox.slot,
  payload: t.outbox.payload,
  meta: t.outbox.meta,
  key: t.outbox.key,
  status: t.outbox.status,
  attempts: t.outbox.attempts,
  nextAt: t.outbox.nextAt,
  error: t.outbox.error,
  messageId: t.outbox.messageId,
  createdAt: t.outbox.createdAt,
});

/** The slots' columns as SlotRow names them. */
const slotFields = (t: Tables) => ({
  gameId: t.slots.gameId,
  key: t.slots.key,
  kind: t.slots.kind,
  dest: t.slots.dest,
  messageId: t.slots.messageId,
  channelId: t.slots.channelId,
  version: t.slots.version,
  sentVersion: t.slots.sentVersion,
  payload: t.slots.payload,
  head: t.slots.head,
  repost: t.slots.repost,
  pin: t.slots.pin,
  state: t.slots.state,
  updatedAt: t.slots.updatedAt,
});

const p = sql.placeholder;
/** A placeholder where drizzle's types want a column's value (it is encoded as that column's: booleans). */
const ph = <T>(name: string): T => sql.placeholder(name) as unknown as T;
/** A placeholder as an SQL value (not encoded: numbers and strings). */
const v = (name: string): SQL => sql`${sql.placeholder(name)}`;
/** A boolean read by a raw expression (SQLite gives 0/1, PostgreSQL booleans). */
const flag = (x: unknown): boolean => x === true || x === 1;

/**
 * An outbox row (`name` gives its values' placeholder names). Issue 20: a row of a suspended game
 * is held from the start (but the lifecycle's own notices); a row with a `key` already queued for
 * its game is ignored.
 */
function outboxInsert(db: Db, t: Tables, name: (n: string) => string = (n) => n) {
  const q = (n: string) => p(name(n));
  return db
    .insert(t.outbox)
    .values({
      gameId: q('gameId'),
      dest: q('dest'),
      op: q('op'),
      slot: q('slot'),
      payload: q('payload'),
      meta: q('meta'),
      key: q('key'),
      status: sql`CASE WHEN ${q('free')} = 0 AND EXISTS (SELECT 1 FROM suspensions WHERE game_id = ${q('gameId')}) THEN 'held' ELSE 'pending' END`,
      attempts: 0,
      nextAt: q('now'),
      createdAt: q('now'),
    })
    .onConflictDoNothing();
}

/**
 * A plan's slots: the thread's, the permissions', three more by key, the live stage messages and
 * night panels; `under`: and every slot whose key is LIKE the `under` placeholder.
 */
function planSlotsOf(db: Db, t: Tables, under: boolean) {
  const more = under ? sql` OR ${t.slots.key} LIKE ${p('under')}` : sql``;
  return db
    .select(slotFields(t))
    .from(t.slots)
    .where(
      sql`${t.slots.gameId} = ${p('gameId')} AND (${t.slots.key} IN ('thread', 'perms', ${p('key1')}, ${p('key2')}, ${p('key3')})${more} OR (${t.slots.state} = 'live' AND (${t.slots.key} LIKE 'stage:%' OR ${t.slots.key} LIKE 'panel:%')))`,
    );
}

/** A new slot, live, at version 1. */
function slotInsert(db: Db, t: Tables) {
  return db.insert(t.slots).values({
    gameId: p('gameId'),
    key: p('key'),
    kind: p('kind'),
    dest: p('dest'),
    payload: p('payload'),
    head: p('head'),
    version: 1,
    sentVersion: 0,
    repost: p('repost'),
    pin: p('pin'),
    state: 'live',
    updatedAt: p('now'),
    messageId: p('messageId'),
    channelId: p('channelId'),
  });
}

/** An outbox row to add, as the insert takes it. */
interface NewRow {
  gameId: number;
  dest: Dest;
  op: OutboxRow['op'];
  payload: unknown;
  now: number;
  slot: string | null;
  meta: PostMeta;
  key: string | null;
  free: boolean;
}

/** An outbox row's values, as `outboxInsert` names them (`name`: as it is given). */
function outboxValues(w: NewRow, name?: (n: string) => string): Record<string, unknown> {
  const values = {
    gameId: w.gameId,
    dest: w.dest,
    op: w.op,
    slot: w.slot,
    payload: JSON.stringify(w.payload ?? {}),
    meta: JSON.stringify(w.meta),
    key: w.key,
    free: w.free ? 1 : 0,
    now: w.now,
  };
  return name ? Object.fromEntries(Object.entries(values).map(([k, x]) => [name(k), x])) : values;
}

type Rows = OutboxRow[];
type Slots = SlotRow[];

export class OutboxStore {
  private readonly q;

  private guard: OutboxGuard | null = null;

  /** Every write passes `guard` first (the audience check). */
  setGuard(guard: OutboxGuard | null): void {
    this.guard = guard;
  }

  /** Built on the connection like the other stores (src/db/connection.ts). */
  constructor(private readonly c: Connection) {
    const owned = (gameId: SQLWrapper) => ownedGame(c, gameId);
    /** What the deliverer still has to edit: the partial index slots_to_edit's condition, as written there. */
    const toEdit = (t: Tables) =>
      sql`${t.slots.sentVersion} < ${t.slots.version} AND ${t.slots.messageId} IS NOT NULL AND ${t.slots.state} NOT IN ('gone', 'stale')`;
    const slotKey = (t: Tables) => and(eq(t.slots.gameId, p('gameId')), eq(t.slots.key, p('key')));
    const st = c.statement.bind(c);
    this.q = {
      // Issue 20: a row of a suspended game is held from the start (but the lifecycle's own notices).
      // A row with a `key` already queued for its game is ignored.
      insert: st((db, t) => outboxInsert(db, t)),
      // The head of each destination, channels and threads apart from DMs (what a whole table
      // watches is launched before DMs). Issue 22: only rows of games whose guild this process
      // owns; a channel holds one guild's rows, a DM channel may hold rows of games of guilds owned
      // by other processes, so its head is this process's first row there.
      channelHeads: st((db, t) =>
        db
          .select(outboxFields(t))
          .from(t.outbox)
          .where(
            sql`${t.outbox.status} = 'pending' AND ${t.outbox.nextAt} <= ${p('now')} AND ${t.outbox.dest} NOT LIKE 'dm:%'
              AND ${t.outbox.id} = (SELECT min(o2.id) FROM outbox o2 WHERE o2.dest = ${t.outbox.dest} AND o2.status = 'pending')
              AND ${owned(t.outbox.gameId)}`,
          )
          .orderBy(asc(t.outbox.id))
          .limit(p('limit')),
      ),
      dmHeads: st((db, t) =>
        db
          .select(outboxFields(t))
          .from(t.outbox)
          .where(
            sql`${t.outbox.status} = 'pending' AND ${t.outbox.nextAt} <= ${p('now')} AND ${t.outbox.dest} LIKE 'dm:%'
              AND ${t.outbox.id} = (SELECT min(o2.id) FROM outbox o2 WHERE o2.dest = ${t.outbox.dest} AND o2.status = 'pending' AND ${owned(sql`o2.game_id`)})
              AND ${owned(t.outbox.gameId)}`,
          )
          .orderBy(asc(t.outbox.id))
          .limit(p('limit')),
      ),
      nextDue: st((db, t) =>
        db
          .select({ at: sql<number | null>`min(${t.outbox.nextAt})`.mapWith(Number) })
          .from(t.outbox)
          .where(sql`${t.outbox.status} = 'pending' AND ${owned(t.outbox.gameId)}`),
      ),
      pendingCount: st((db, t) =>
        db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(t.outbox)
          .where(sql`${t.outbox.status} = 'pending' AND ${owned(t.outbox.gameId)}`),
      ),
      backlog: st((db, t) =>
        db
          .select({
            n: sql<number>`count(*)`.mapWith(Number),
            oldest: sql<number | null>`min(${t.outbox.createdAt})`.mapWith(Number),
          })
          .from(t.outbox)
          .where(sql`${t.outbox.status} = 'pending' AND ${owned(t.outbox.gameId)}`),
      ),
      done: st((db, t) =>
        db
          .update(t.outbox)
          .set({ status: 'done', messageId: v('messageId'), doneAt: v('now'), error: null })
          .where(eq(t.outbox.id, p('id'))),
      ),
      retry: st((db, t) =>
        db
          .update(t.outbox)
          .set({ attempts: sql`${t.outbox.attempts} + 1`, nextAt: v('nextAt'), error: v('error') })
          .where(eq(t.outbox.id, p('id'))),
      ),
      fail: st((db, t) =>
        db
          .update(t.outbox)
          .set({ status: 'failed', attempts: sql`${t.outbox.attempts} + 1`, error: v('error'), doneAt: v('now') })
          .where(eq(t.outbox.id, p('id'))),
      ),
      setMeta: st((db, t) =>
        db
          .update(t.outbox)
          .set({ meta: v('meta') })
          .where(eq(t.outbox.id, p('id'))),
      ),
      failDest: st((db, t) =>
        db
          .update(t.outbox)
          .set({ status: 'failed', error: v('error'), doneAt: v('now') })
          .where(
            sql`${t.outbox.dest} = ${p('dest')} AND ${t.outbox.status} = 'pending' AND ${t.outbox.gameId} = ${p('gameId')}`,
          ),
      ),
      getSlot: st((db, t) => db.select(slotFields(t)).from(t.slots).where(slotKey(t))),
      slotByMessage: st((db, t) =>
        db
          .select(slotFields(t))
          .from(t.slots)
          .where(eq(t.slots.messageId, p('messageId'))),
      ),
      insertSlot: st((db, t) => slotInsert(db, t)),
      // PostgreSQL: a new message slot and the outbox row that posts it, one statement (a
      // data-modifying WITH; the row's values named `o_…`). SQLite runs the two.
      insertSlotPosted:
        c.dialect === 'postgres'
          ? c.sqlStatement(
              // (getSQL: a builder put in `sql` as it is would be put in parentheses, as a subquery.)
              () =>
                sql`with slot_added as (${slotInsert(c.db, c.t).getSQL()}) ${outboxInsert(c.db, c.t, (n) => `o_${n}`).getSQL()}`,
            )
          : null,
      bumpSlot: st((db, t) =>
        db
          .update(t.slots)
          .set({
            payload: v('payload'),
            version: sql`${t.slots.version} + 1`,
            state: v('state'),
            updatedAt: v('now'),
            repost: ph<boolean>('repost'),
          })
          .where(slotKey(t)),
      ),
      sentSlot: st((db, t) =>
        db
          .update(t.slots)
          .set({
            sentVersion: c.greatest(t.slots.sentVersion, p('version')),
            messageId: sql`coalesce(${p('messageId')}, ${t.slots.messageId})`,
            channelId: sql`coalesce(${p('channelId')}, ${t.slots.channelId})`,
          })
          .where(slotKey(t)),
      ),
      shownSlot: st((db, t) =>
        db
          .update(t.slots)
          .set({
            sentVersion: sql`CASE WHEN ${t.slots.messageId} = ${p('messageId')} THEN ${p('version')} ELSE ${c.greatest(t.slots.sentVersion, p('version'))} END`,
          })
          .where(slotKey(t))
          .returning({
            behind: sql<unknown>`${t.slots.messageId} = ${p('messageId')} AND ${t.slots.sentVersion} < ${t.slots.version}`,
          }),
      ),
      rewriteSlot: st((db, t) =>
        db
          .update(t.slots)
          .set({ payload: v('payload') })
          .where(and(slotKey(t), eq(t.slots.version, p('version')))),
      ),
      slotGone: st((db, t) =>
        db
          .update(t.slots)
          .set({ messageId: null, channelId: null, sentVersion: 0, state: v('state') })
          .where(slotKey(t)),
      ),
      // (A suspended game's messages are not edited: its channel is out of reach, issue 20.)
      dirty: st((db, t) =>
        db
          .select(slotFields(t))
          .from(t.slots)
          .where(
            sql`${toEdit(t)} AND ${t.slots.updatedAt} <= ${p('before')}
              AND ${t.slots.gameId} NOT IN (SELECT game_id FROM suspensions) AND ${owned(t.slots.gameId)}`,
          )
          .orderBy(asc(t.slots.updatedAt))
          .limit(p('limit')),
      ),
      nextDirty: st((db, t) =>
        db
          .select({ at: sql<number | null>`min(${t.slots.updatedAt})`.mapWith(Number) })
          .from(t.slots)
          .where(
            sql`${toEdit(t)} AND ${t.slots.gameId} NOT IN (SELECT game_id FROM suspensions) AND ${owned(t.slots.gameId)}`,
          ),
      ),
      hold: st((db, t) =>
        db
          .update(t.outbox)
          .set({ status: 'held' })
          .where(sql`${t.outbox.gameId} = ${p('gameId')} AND ${t.outbox.status} = 'pending'`),
      ),
      release: st((db, t) =>
        db
          .update(t.outbox)
          .set({ status: 'pending', nextAt: v('now') })
          .where(sql`${t.outbox.gameId} = ${p('gameId')} AND ${t.outbox.status} = 'held'`),
      ),
      dropHeld: st((db, t) =>
        db
          .update(t.outbox)
          .set({ status: 'failed', error: v('error'), doneAt: v('now') })
          .where(sql`${t.outbox.gameId} = ${p('gameId')} AND ${t.outbox.status} = 'held'`),
      ),
      setState: st((db, t) =>
        db
          .update(t.slots)
          .set({ state: v('state') })
          .where(slotKey(t)),
      ),
      wakeStale: st((db, t) =>
        db
          .update(t.slots)
          .set({ state: 'closed' })
          .where(
            sql`${t.slots.state} = 'stale' AND ${t.slots.sentVersion} < ${t.slots.version}
              AND ${t.slots.gameId} IN (SELECT id FROM games WHERE status IN ('running', 'post-game') AND ${c.ownsGuild(sql`guild_id`)})`,
          ),
      ),
      touchKept: st((db, t) =>
        db
          .update(t.slots)
          .set({ version: sql`${t.slots.version} + 1`, updatedAt: v('now') })
          .where(
            sql`${t.slots.key} IN ('table', 'lobby') AND ${eq(t.slots.repost, true)} AND ${t.slots.state} = 'live' AND ${t.slots.messageId} IS NOT NULL
              AND ${t.slots.gameId} IN (SELECT id FROM games WHERE status IN ('lobby', 'running', 'post-game') AND ${c.ownsGuild(sql`guild_id`)})`,
          ),
      ),
      wakeStaleGame: st((db, t) =>
        db
          .update(t.slots)
          .set({ state: 'closed' })
          .where(
            sql`${t.slots.state} = 'stale' AND ${t.slots.sentVersion} < ${t.slots.version} AND ${t.slots.gameId} = ${p('gameId')}`,
          ),
      ),
      wakeStaleKey: st((db, t) =>
        db
          .update(t.slots)
          .set({ state: 'closed' })
          .where(
            sql`${t.slots.state} = 'stale' AND ${t.slots.sentVersion} < ${t.slots.version} AND ${t.slots.gameId} = ${p('gameId')} AND ${t.slots.key} = ${p('key')}`,
          ),
      ),
      liveSlots: st((db, t) =>
        db
          .select(slotFields(t))
          .from(t.slots)
          .where(
            sql`${t.slots.gameId} = ${p('gameId')} AND ${t.slots.state} = 'live' AND (${t.slots.key} LIKE 'stage:%' OR ${t.slots.key} LIKE 'panel:%')`,
          )
          .orderBy(asc(t.slots.key)),
      ),
      // A plan's slots (primeSlots); with `under`, also those under a prefix (a new night's panels:
      // its own statement, so the other plans do not test every slot of the game against it).
      planSlots: st((db, t) => planSlotsOf(db, t, false)),
      planSlotsUnder: st((db, t) => planSlotsOf(db, t, true)),
      gameSlots: st((db, t) =>
        db
          .select(slotFields(t))
          .from(t.slots)
          .where(eq(t.slots.gameId, p('gameId'))),
      ),
      dmGet: st((db, t) =>
        db
          .select({
            userId: t.dmChannels.userId,
            channelId: t.dmChannels.channelId,
            okAt: t.dmChannels.okAt,
            closedAt: t.dmChannels.closedAt,
          })
          .from(t.dmChannels)
          .where(eq(t.dmChannels.userId, p('userId'))),
      ),
      dmSetChannel: st((db, t) =>
        db
          .insert(t.dmChannels)
          .values({ userId: p('userId'), channelId: p('channelId'), updatedAt: p('now') })
          .onConflictDoUpdate({
            target: t.dmChannels.userId,
            set: { channelId: sql`excluded.channel_id`, updatedAt: sql`excluded.updated_at` },
          }),
      ),
      dmOk: st((db, t) =>
        db
          .insert(t.dmChannels)
          .values({ userId: p('userId'), okAt: p('now'), updatedAt: p('now') })
          .onConflictDoUpdate({
            target: t.dmChannels.userId,
            set: { okAt: sql`excluded.ok_at`, closedAt: sql`NULL`, updatedAt: sql`excluded.updated_at` },
          }),
      ),
      dmClosed: st((db, t) =>
        db
          .insert(t.dmChannels)
          .values({ userId: p('userId'), closedAt: p('now'), updatedAt: p('now') })
          .onConflictDoUpdate({
            target: t.dmChannels.userId,
            set: { closedAt: sql`excluded.closed_at`, updatedAt: sql`excluded.updated_at` },
          }),
      ),
      permHolds: st((db, t) =>
        db
          .select({
            channelId: t.permHolds.channelId,
            userId: t.permHolds.userId,
            gameId: t.permHolds.gameId,
            hadAllow: t.permHolds.hadAllow,
            hadDeny: t.permHolds.hadDeny,
            existed: t.permHolds.existed,
          })
          .from(t.permHolds)
          .where(eq(t.permHolds.channelId, p('channelId'))),
      ),
      setPermHold: st((db, t) =>
        db
          .insert(t.permHolds)
          .values({
            channelId: p('channelId'),
            userId: p('userId'),
            gameId: p('gameId'),
            hadAllow: p('hadAllow'),
            hadDeny: p('hadDeny'),
            existed: p('existed'),
            updatedAt: p('now'),
          })
          .onConflictDoUpdate({
            target: [t.permHolds.channelId, t.permHolds.userId],
            set: {
              gameId: sql`excluded.game_id`,
              hadAllow: sql`excluded.had_allow`,
              hadDeny: sql`excluded.had_deny`,
              existed: sql`excluded.existed`,
              updatedAt: sql`excluded.updated_at`,
            },
          }),
      ),
      dropPermHold: st((db, t) =>
        db
          .delete(t.permHolds)
          .where(and(eq(t.permHolds.channelId, p('channelId')), eq(t.permHolds.userId, p('userId')))),
      ),
      rowsOf: st((db, t) =>
        db
          .select(outboxFields(t))
          .from(t.outbox)
          .where(eq(t.outbox.gameId, p('gameId')))
          .orderBy(asc(t.outbox.id)),
      ),
      threadGet: st((db, t) =>
        db
          .select({ threadId: t.threadSync.threadId, locked: t.threadSync.locked, members: t.threadSync.members })
          .from(t.threadSync)
          .where(and(eq(t.threadSync.gameId, p('gameId')), eq(t.threadSync.slot, p('slot')))),
      ),
      threadSet: st((db, t) =>
        db
          .insert(t.threadSync)
          .values({
            gameId: p('gameId'),
            slot: p('slot'),
            threadId: p('threadId'),
            locked: p('locked'),
            members: p('members'),
            updatedAt: p('now'),
          })
          .onConflictDoUpdate({
            target: [t.threadSync.gameId, t.threadSync.slot],
            set: {
              threadId: sql`excluded.thread_id`,
              locked: sql`excluded.locked`,
              members: sql`excluded.members`,
              updatedAt: sql`excluded.updated_at`,
            },
          }),
      ),
      pendingOf: st((db, t) =>
        db
          .select(outboxFields(t))
          .from(t.outbox)
          .where(sql`${t.outbox.dest} = ${p('dest')} AND ${t.outbox.status} = 'pending'`)
          .orderBy(asc(t.outbox.id))
          .limit(p('limit')),
      ),
    };
  }

  /** Runs `fn` in one transaction (nested calls become savepoints): the deliverer's bookkeeping. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.c.transaction(fn);
  }

  // -------------------------------------------------------------------------------------------
  // Writes from the planner (inside the change's own transaction)

  /** Queues a one-shot operation; with `key`, at most once per game (later ones are ignored). */
  async add(
    gameId: number,
    dest: Dest,
    op: OutboxRow['op'],
    payload: unknown,
    now: number,
    opts: { slot?: string; meta?: PostMeta; key?: string; free?: boolean } = {},
  ): Promise<void> {
    const meta = this.guard
      ? await this.guard({ gameId, dest, op, payload, meta: opts.meta ?? {} })
      : (opts.meta ?? {});
    if (meta === false) return;
    await this.c.queue(
      this.q.insert(),
      outboxValues({
        gameId,
        dest,
        op,
        payload,
        now,
        slot: opts.slot ?? null,
        meta,
        key: opts.key ?? null,
        free: opts.free ?? false,
      }),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Issue 20: a suspended game's rows wait (`held`), neither sent nor dropped. A row added with
  // `free` (the lifecycle's own notice to the host) is sent even so.

  /** Every pending row of the game waits from now on (rows added later wait from the start). */
  hold(gameId: number): Promise<number> {
    return this.c.run(this.q.hold(), { gameId });
  }

  /** The game's held rows are sent after all, at once and in their order. */
  release(gameId: number, now: number): Promise<number> {
    return this.c.run(this.q.release(), { gameId, now });
  }

  /** The game was voided: what it held is given up (recorded as failed with `error`). */
  dropHeld(gameId: number, error: string, now: number): Promise<number> {
    return this.c.run(this.q.dropHeld(), { gameId, error, now });
  }

  /**
   * Sets the desired state of a slot. A new slot of kind `message` is posted (in order with the
   * destination's other posts); an existing one gets a new version only when its payload changed.
   * Returns whether anything changed.
   */
  async setSlot(
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
      /** The slot's row as the caller has just read it in this transaction (saves reading it again). */
      current?: SlotRow | null;
    } = {},
  ): Promise<boolean> {
    let meta = opts.meta ?? {};
    if (this.guard) {
      const checked = await this.guard({ gameId, dest, op: 'slot', slot: { key, kind }, payload, meta });
      if (checked === false) return false;
      meta = checked;
    }
    const json = JSON.stringify(payload);
    const cur = opts.current !== undefined ? opts.current : await this.slot(gameId, key);
    if (!cur) {
      const row: SlotRow = {
        gameId,
        key,
        kind,
        dest,
        messageId: opts.messageId ?? null,
        channelId: null,
        version: 1,
        sentVersion: 0,
        payload: json,
        head: opts.head === undefined ? null : JSON.stringify(opts.head),
        repost: opts.repost ?? false,
        pin: opts.pin ?? false,
        state: 'live',
        updatedAt: now,
      };
      // The outbox row that posts a new message slot.
      const post: NewRow = { gameId, dest, op: 'post', payload: {}, now, slot: key, meta, key: null, free: false };
      const slotValues = {
        gameId,
        key,
        kind,
        dest,
        payload: json,
        head: row.head,
        repost: row.repost,
        pin: row.pin,
        now,
        messageId: row.messageId,
        channelId: null,
      };
      if (kind === 'message' && this.q.insertSlotPosted) {
        await this.c.queue(this.q.insertSlotPosted(), {
          ...slotValues,
          ...outboxValues(post, (n) => `o_${n}`),
        });
      } else {
        await this.c.queue(this.q.insertSlot(), slotValues);
        if (kind === 'message') await this.c.queue(this.q.insert(), outboxValues(post));
      }
      this.remember(gameId, key, row);
      return true;
    }
    const state = opts.state ?? cur.state;
    const repost = opts.repost ?? cur.repost;
    if (cur.payload === json && cur.state === state && cur.repost === repost) return false;
    await this.c.queue(this.q.bumpSlot(), { gameId, key, payload: json, state, now, repost });
    this.remember(gameId, key, { ...cur, payload: json, state, repost, version: cur.version + 1, updatedAt: now });
    return true;
  }

  /**
   * A slot's row. Inside a transaction, a row this transaction has read or written already is not
   * read again (Connection.txCache): a plan reads the thread's, the stage's and the panels' slots
   * several times over (a round trip each on PostgreSQL). Only setSlot changes a slot's row without
   * forgetting the transaction's copies (it updates them as it writes).
   */
  async slot(gameId: number, key: string): Promise<SlotRow | null> {
    const cache = this.c.txCache();
    const k = `slot:${gameId}:${key}`;
    if (cache?.has(k)) return cache.get(k) as SlotRow | null;
    // Every slot under the primed prefix was read with the others: this one is not there.
    const under = cache?.get(`slots-under:${gameId}`) as string | undefined;
    if (under !== undefined && key.startsWith(under)) {
      cache!.set(k, null);
      return null;
    }
    const row = ((await this.c.get(this.q.getSlot(), { gameId, key })) as SlotRow | undefined) ?? null;
    cache?.set(k, row);
    return row;
  }

  private remember(gameId: number, key: string, row: SlotRow): void {
    this.c.txCache()?.set(`slot:${gameId}:${key}`, row);
  }

  /** Another write to slots: the transaction's copies are forgotten (read again when asked). */
  private forgetSlots(): void {
    const cache = this.c.txCache();
    if (cache)
      for (const k of [...cache.keys()])
        if (k.startsWith('slot:') || k.startsWith('slots-live:') || k.startsWith('slots-under:')) cache.delete(k);
  }

  async slotByMessage(messageId: string): Promise<SlotRow | null> {
    return ((await this.c.get(this.q.slotByMessage(), { messageId })) as SlotRow | undefined) ?? null;
  }

  /** The stage messages and night panels still open in a game. */
  async liveSlots(gameId: number): Promise<SlotRow[]> {
    const cache = this.c.txCache();
    if (cache?.has(`slots-live:${gameId}`)) {
      // Primed (primeSlots) and kept up to date by setSlot since: the same rows, in the key's order.
      const prefix = `slot:${gameId}:`;
      const out: SlotRow[] = [];
      for (const [k, v] of cache) {
        const r = v as SlotRow | null;
        if (k.startsWith(prefix) && r && isLiveStageOrPanel(r)) out.push(r);
      }
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    }
    const rows = (await this.c.all(this.q.liveSlots(), { gameId })) as Slots;
    for (const r of rows) this.remember(gameId, r.key, r);
    return rows;
  }

  /**
   * Inside a transaction about to plan a game's messages: its live stage messages and night panels,
   * its mafia thread and its permissions, up to three more slots the plan will ask for whatever
   * their state (`keys`: the next stage's message, the actor's panel, the table), and every slot
   * whose key starts with `under` (a new night's panels, `panel:<seq>:`), read in one query and
   * kept for the rest of the transaction (slot, liveSlots), instead of one read each (a round trip
   * each on PostgreSQL). A key named or under the prefix that is not there is known to be absent.
   */
  async primeSlots(gameId: number, keys: readonly string[] = [], under?: string): Promise<void> {
    if (keys.length > 3) throw new Error('primeSlots: at most three more keys');
    if (under !== undefined && !/^[a-z]+:[0-9]+:$/.test(under)) throw new Error(`primeSlots: bad prefix ${under}`);
    const cache = this.c.txCache();
    if (!cache || cache.has(`slots-live:${gameId}`)) return;
    const [key1 = 'thread', key2 = 'thread', key3 = 'thread'] = keys;
    const rows = (
      under === undefined
        ? await this.c.all(this.q.planSlots(), { gameId, key1, key2, key3 })
        : await this.c.all(this.q.planSlotsUnder(), { gameId, key1, key2, key3, under: `${under}%` })
    ) as Slots;
    for (const key of ['thread', 'perms', ...keys]) cache.set(`slot:${gameId}:${key}`, null);
    for (const r of rows) cache.set(`slot:${gameId}:${r.key}`, r);
    if (under !== undefined) cache.set(`slots-under:${gameId}`, under);
    cache.set(`slots-live:${gameId}`, true);
  }

  async gameSlots(gameId: number): Promise<SlotRow[]> {
    return (await this.c.all(this.q.gameSlots(), { gameId })) as Slots;
  }

  async rows(gameId: number): Promise<OutboxRow[]> {
    return (await this.c.all(this.q.rowsOf(), { gameId })) as Rows;
  }

  // -------------------------------------------------------------------------------------------
  // The deliverer's side

  async heads(now: number, limit: number, of: 'channels' | 'dms'): Promise<OutboxRow[]> {
    return (await this.c.all(of === 'channels' ? this.q.channelHeads() : this.q.dmHeads(), { now, limit })) as Rows;
  }

  /** The first pending operations to one destination, in order. */
  async pendingOf(dest: Dest, limit: number): Promise<OutboxRow[]> {
    return (await this.c.all(this.q.pendingOf(), { dest, limit })) as Rows;
  }

  async nextDue(): Promise<number | null> {
    return (await this.c.get(this.q.nextDue()))?.at ?? null;
  }

  async pendingCount(): Promise<number> {
    return (await this.c.get(this.q.pendingCount()))?.n ?? 0;
  }

  /** What is still to send (operators' health and metrics): how many rows, and since when the oldest waits. */
  async backlog(): Promise<{ pending: number; oldestAt: number | null }> {
    const r = await this.c.get(this.q.backlog());
    return { pending: r?.n ?? 0, oldestAt: r?.oldest ?? null };
  }

  async done(id: number, messageId: string | null, now: number): Promise<void> {
    await this.c.run(this.q.done(), { id, messageId, now });
  }

  async retry(id: number, nextAt: number, error: string): Promise<void> {
    await this.c.run(this.q.retry(), { id, nextAt, error });
  }

  async fail(id: number, error: string, now: number): Promise<void> {
    await this.c.run(this.q.fail(), { id, error, now });
  }

  async setMeta(id: number, meta: unknown): Promise<void> {
    await this.c.run(this.q.setMeta(), { id, meta: JSON.stringify(meta) });
  }

  /**
   * What the deliverer has applied to a game's thread (its slot `key`): null if nothing is known
   * for this thread (never synced, or the slot now names another thread).
   */
  async threadApplied(gameId: number, key: string, threadId: string): Promise<ThreadApplied | null> {
    const r = await this.c.get(this.q.threadGet(), { gameId, slot: key });
    if (!r || r.threadId !== threadId) return null;
    return {
      threadId,
      locked: r.locked === null ? null : Number(r.locked) === 1,
      members: JSON.parse(r.members) as string[],
    };
  }

  /** Records what the deliverer has applied to a game's thread (after each call). */
  async setThreadApplied(gameId: number, key: string, applied: ThreadApplied, now: number): Promise<void> {
    await this.c.run(this.q.threadSet(), {
      gameId,
      slot: key,
      threadId: applied.threadId,
      locked: applied.locked === null ? null : applied.locked ? 1 : 0,
      members: JSON.stringify(applied.members),
      now,
    });
  }

  /** Gives up on every pending operation of a game to one destination (a DM that cannot be sent). */
  async failDest(gameId: number, dest: Dest, error: string, now: number): Promise<void> {
    await this.c.run(this.q.failDest(), { gameId, dest, error, now });
  }

  async sentSlot(
    gameId: number,
    key: string,
    version: number,
    messageId: string | null = null,
    channelId: string | null = null,
  ): Promise<void> {
    this.forgetSlots();
    await this.c.run(this.q.sentSlot(), { gameId, key, version, messageId, channelId });
  }

  /**
   * A write to the slot's message (`messageId`) is done: the message shows `version` now, even if
   * a newer version's write finished first. Writes in flight together (two clicks' answers, a click
   * and an edit) finish in the order Discord applied them, so the last one to finish is what the
   * message shows; an older one that finished last leaves the slot dirty, and it is edited again.
   * (For a message the slot no longer has, only as `sentSlot`.) True when the message is behind.
   */
  async shownSlot(gameId: number, key: string, version: number, messageId: string): Promise<boolean> {
    this.forgetSlots();
    const r = await this.c.get(this.q.shownSlot(), { gameId, key, version, messageId });
    return flag(r?.behind);
  }

  /** The payload a version was actually sent with (its deadline moved), without a new version. */
  async rewriteSlot(gameId: number, key: string, version: number, payload: string): Promise<void> {
    this.forgetSlots();
    await this.c.run(this.q.rewriteSlot(), { gameId, key, version, payload });
  }

  /** Its message is gone: it is posted again if it should be (`live`), else dropped (`gone`). */
  async slotGone(slot: SlotRow, now: number): Promise<void> {
    await this.transaction(async () => {
      const again = slot.repost && slot.state === 'live';
      this.forgetSlots();
      await this.c.run(this.q.slotGone(), { gameId: slot.gameId, key: slot.key, state: again ? 'live' : 'gone' });
      if (again) await this.add(slot.gameId, slot.dest, 'post', {}, now, { slot: slot.key, meta: { what: 'repost' } });
    });
  }

  /** Posts a slot's message anew (e.g. `/mafia table`): the old message is deleted first. */
  async repostSlot(gameId: number, key: string, now: number): Promise<void> {
    const slot = await this.slot(gameId, key);
    if (!slot) return;
    if (slot.messageId && slot.channelId)
      await this.add(gameId, `ch:${slot.channelId}`, 'delete', { messageId: slot.messageId }, now, {
        meta: { what: 'repost' },
      });
    this.forgetSlots();
    await this.c.run(this.q.slotGone(), { gameId, key, state: 'live' });
    await this.add(gameId, slot.dest, 'post', {}, now, { slot: key, meta: { what: 'repost' } });
  }

  /**
   * After a restart: every open table and lobby is sent once more, so one deleted while the bot
   * was down (its delete event missed) is found (404) and posted again.
   */
  touchKept(now: number): Promise<number> {
    this.forgetSlots();
    return this.c.run(this.q.touchKept(), { now });
  }

  /** A new state without a new version (nothing to send: the message already looks right). */
  async setState(gameId: number, key: string, state: SlotState): Promise<void> {
    this.forgetSlots();
    await this.c.run(this.q.setState(), { gameId, key, state });
  }

  /** After a restart: the closed stages of running games get their controls turned off for real. */
  wakeStale(gameId?: number, key?: string): Promise<number> {
    this.forgetSlots();
    if (gameId === undefined) return this.c.run(this.q.wakeStale());
    return key === undefined
      ? this.c.run(this.q.wakeStaleGame(), { gameId })
      : this.c.run(this.q.wakeStaleKey(), { gameId, key });
  }

  async dirty(before: number, limit: number): Promise<SlotRow[]> {
    return (await this.c.all(this.q.dirty(), { before, limit })) as Slots;
  }

  async nextDirty(): Promise<number | null> {
    return (await this.c.get(this.q.nextDirty()))?.at ?? null;
  }

  async dm(userId: string): Promise<{ channelId: string | null; okAt: number | null; closedAt: number | null } | null> {
    return (await this.c.get(this.q.dmGet(), { userId })) ?? null;
  }

  async dmChannel(userId: string, channelId: string, now: number): Promise<void> {
    await this.c.run(this.q.dmSetChannel(), { userId, channelId, now });
  }

  async dmOk(userId: string, now: number): Promise<void> {
    await this.c.run(this.q.dmOk(), { userId, now });
  }

  async dmClosed(userId: string, now: number): Promise<void> {
    await this.c.run(this.q.dmClosed(), { userId, now });
  }

  // -------------------------------------------------------------------------------------------
  // The bot's own changes to a channel's member overwrites (M-1, M-3)

  /** Every Send Messages deny the bot holds in a channel, with what was there before it. */
  async permHolds(channelId: string): Promise<PermHold[]> {
    return this.c.all(this.q.permHolds(), { channelId });
  }

  /** Records (before the write to Discord) that the bot holds a member's deny, or its new prior bits. */
  async setPermHold(h: PermHold, now: number): Promise<void> {
    await this.c.run(this.q.setPermHold(), { ...h, now });
  }

  /** The bot's deny is taken back (after Discord has the restored overwrite). */
  async dropPermHold(channelId: string, userId: string): Promise<void> {
    await this.c.run(this.q.dropPermHold(), { channelId, userId });
  }
}
