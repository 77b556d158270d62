// The deliverer: sends what the outbox holds, in order per destination, and brings every slot
// (a message the bot keeps editing, the channel's permissions, the mafia thread's lock) to its
// newest version. It is the only code that calls Discord's REST API for game output.
//
// - A post carries a nonce derived from its row with `enforce_nonce`, so sending it again after a
//   crash returns the message Discord already has instead of a second one.
// - Edits are desired state: a slot is edited only to its newest version, after a short quiet time
//   (so a burst of changes costs one call), and a click on the message itself usually delivers it
//   for free through the interaction response first.
// - Transient failures (5xx, network, 429) are retried with backoff; permanent ones (closed DMs,
//   missing permissions) are recorded and surfaced once (see onPermanent).
// - A stage message that starts a clock reports when it became visible, so the turn's timer runs
//   from then (no queue eats a speaker's time).
import { Routes } from 'discord-api-types/v10';
import type { REST } from 'discord.js';
import { classify, isTransient, lostAccess, retryAfterMs, type Failure, type LostAccess } from './errors';
import { detached } from '../db/connection';
import type { Dest, OutboxRow, OutboxStore, PostMeta, SlotRow, ThreadApplied } from '../db/outbox-store';
import { applySteps, planPerms, type Overwrite, type Wish } from './perms';

/** Where the parts log; `fields` go on the line as they are (`gameId`, `guildId`: see src/log.ts). */
export interface DeliveryLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, e?: unknown, fields?: Record<string, unknown>): void;
}

export type { Overwrite } from './perms';

export interface DelivererOptions {
  now?: () => number;
  log: DeliveryLogger;
  /** Parallel calls in flight (discord.js paces them further by Discord's buckets). */
  concurrency?: number;
  /**
   * Calls per second the deliverer makes at most (Discord's global budget, less a margin):
   * game output is paced here, most urgent first (new posts before edits of old messages).
   */
  requestsPerSecond?: number;
  /** Quiet time before a changed slot is edited. */
  debounceMs?: number;
  /** A stage message became visible: its timer should end at `dueAt`. */
  onVisible?: (gameId: number, seq: number, dueAt: number) => void;
  /**
   * Issue 20: a call for a game failed because its channel is gone or out of the bot's reach
   * (errors.ts lostAccess). True when the game is suspended for it: the operation then waits (its
   * row is held, the slot keeps its version) instead of failing for good.
   */
  lost?: (gameId: number, dest: Dest, how: LostAccess) => boolean | Promise<boolean>;
  /** A permanent failure, once per operation: the place to tell the host or the player. */
  onPermanent?: (row: { gameId: number; dest: Dest; meta: PostMeta }, failure: Failure) => void | Promise<void>;
  /** The thread id of a game's mafia thread, once it exists. */
  threadOf?: (gameId: number, slot?: string) => string | null | Promise<string | null>;
  /** The bot's id, to avoid touching its own overwrite. */
  selfId?: () => string | null;
  /** Longest wait between two tries of a failing operation. */
  maxBackoffMs?: number;
  /** The window of Discord's per-channel post limit (5 per 5 s); a test Discord may be quicker. */
  postWindowMs?: number;
  /**
   * The least time between two passes started by kicks (default 20 ms). Every commit and every
   * finished send kicks: in a burst (a thousand clicks after a restart) a pass after each one
   * spent more time on the outbox's queries than the clicks on their work (issue 22's profile).
   */
  passGapMs?: number;
}

/** Told after Discord accepted a post, before it is recorded (fault injection in tests: testkit/crash.ts). */
export type SendWatcher = (how: 'post' | 'followup') => void;

/**
 * Discord's documented limit on message posts in one channel. The deliverer keeps to it itself,
 * so that a post is never held in discord.js's queue after its payload (with the deadline it
 * shows) was made: the delay before a message is seen is then all known, and given back.
 */
const POSTS_PER_WINDOW = 5;
const POST_WINDOW_MS = 5000;
const MAX_BACKOFF_MS = 60_000;
/** How long a DM to a user whose DMs are closed is not even tried again. */
const DM_CLOSED_FOR_MS = 30 * 60_000;

/** The pacing's burst at `rate` calls per second: a tenth of a second's budget (at least one call). */
export function burstOf(rate: number): number {
  return Math.max(1, Math.ceil(rate / 10));
}

/** The most calls the deliverer makes in any one second at `rate`: the rate and its burst. */
export function worstSecond(rate: number): number {
  return rate + burstOf(rate);
}

type Payload = Record<string, unknown>;

/**
 * How urgent a call is, for the request budget (lower goes first):
 * 0 what a whole table waits for now (a post in the game channel or a thread, who may speak);
 * 1 a player's DM (a role card, a night prompt, a check's answer) and the DM channel it needs, and
 *   the mafia's thread;
 * 2 the DM check of a lobby whose host pressed Start (after the cards of games already dealt, so
 *   deals finish one after another instead of all together at the end);
 * 3 a DM check when a player joins;
 * 4 the rest (edits of messages already seen, the spectators' thread and its members, pins).
 */
type Level = 0 | 1 | 2 | 3 | 4;

export class Deliverer {
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly debounceMs: number;
  /** Destinations being sent to, with how many tasks hold each (a post and the click that took it over). */
  private readonly busyDest = new Map<string, number>();
  /** Per destination, the post waiting for its turn in the budget or the channel's window. */
  private readonly waitingPost = new Map<string, { rowId: number; taken: boolean }>();
  private readonly busySlot = new Set<string>();
  /** Lanes sending to DMs now. */
  private dmBusy = 0;
  private running = 0;
  private timer: NodeJS.Timeout | null = null;
  private wakeAt = Infinity;
  private stopped = false;
  private passing = false;
  private again = false;
  private readonly idleWaiters: (() => void)[] = [];
  /**
   * While a pass reads the outbox (its queries are asynchronous): the destinations and slots whose
   * task ended meanwhile. Their rows as read may be done already: they are left to the next pass
   * (the task's end cues one).
   */
  private endedWhileReading: Set<string> | null = null;
  /** Channels whose pending posts a click is reading to take over (claim): no pass launches them meanwhile. */
  private readonly claiming = new Set<string>();
  /** Calls counted by route kind (for the benchmark and tests). */
  readonly counts = new Map<string, number>();
  /** Recent post times per channel (see POSTS_PER_WINDOW). */
  private readonly recentPosts = new Map<string, number[]>();

  constructor(
    private readonly store: OutboxStore,
    private readonly rest: REST,
    private readonly opts: DelivererOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.concurrency = opts.concurrency ?? 16;
    this.debounceMs = opts.debounceMs ?? 1200;
  }

  private readonly sendWatchers: SendWatcher[] = [];

  /** Adds a watcher of accepted posts (see SendWatcher). */
  watchSends(w: SendWatcher): void {
    this.sendWatchers.push(w);
  }

  private sent(how: 'post' | 'followup'): void {
    for (const w of this.sendWatchers) w(how);
  }

  /** Something was written to the outbox: look soon. */
  kick(): void {
    if (this.stopped) return;
    this.schedule(Math.max(0, this.lastPassAt + (this.opts.passGapMs ?? 20) - this.now()));
  }

  /** When the last pass started (passes started by kicks keep `passGapMs` apart). */
  private lastPassAt = -Infinity;

  private schedule(delay: number): void {
    const at = this.now() + Math.max(0, delay);
    if (this.timer && at >= this.wakeAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = at;
    // A cue given inside a transaction (a change's) must not hand the pass that transaction.
    this.timer = detached(() =>
      setTimeout(
        () => {
          this.timer = null;
          this.wakeAt = Infinity;
          void this.pass();
        },
        Math.max(0, delay),
      ),
    );
    this.timer.unref?.();
  }

  /** Passes that failed in a row (the database): each waits longer before the next (issue 20). */
  private passFailures = 0;
  /**
   * Destinations (`row.dest`) and slots (`slot:<game>/<key>`) whose last task failed with an error
   * of the bot's own (the database, not Discord: Discord's failures are retried through the
   * outbox): not launched again before `until`. In memory, as the store may be what failed.
   */
  private readonly resting = new Map<string, { until: number; n: number }>();

  /** The wait after `n` failures in a row: 1 s doubled each time, at most maxBackoffMs. */
  private backoff(n: number): number {
    return Math.min(this.opts.maxBackoffMs ?? MAX_BACKOFF_MS, 1000 * 2 ** Math.min(Math.max(0, n - 1), 6));
  }

  /**
   * One look at the outbox (a timer's callback: nothing may escape it). A storage error must not
   * stop delivery for good, nor end the process: it is logged and the pass tried again later, each
   * time a little later (a kick after a commit still looks at once).
   */
  private async pass(): Promise<void> {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    this.passing = true;
    this.lastPassAt = this.now();
    try {
      // (A pass asked for while this one waits for the outbox's answers runs as its next round.)
      do {
        this.again = false;
        await this.launch();
        if (!this.again) await this.planWake();
      } while (this.again);
      this.passFailures = 0;
    } catch (e) {
      this.passFailures++;
      const wait = this.backoff(this.passFailures);
      this.opts.log.error(
        `delivery: a pass failed (${this.passFailures} in a row); trying again in ${Math.round(wait / 1000)} s`,
        e,
      );
      this.schedule(wait);
    } finally {
      this.passing = false;
    }
  }

  /** Whether a destination or slot rests after a failed task (see resting). */
  private rests(key: string, now: number): boolean {
    const r = this.resting.get(key);
    return r !== undefined && r.until > now;
  }

  /** Reads the outbox with `read`, noting the tasks that end meanwhile (see endedWhileReading). */
  private async reading<T>(read: () => Promise<T>): Promise<{ rows: T; ended: ReadonlySet<string> }> {
    const ended = new Set<string>();
    this.endedWhileReading = ended;
    try {
      return { rows: await read(), ended };
    } finally {
      this.endedWhileReading = null;
    }
  }

  private async launch(): Promise<void> {
    const now = this.now();
    const room = this.concurrency - this.running;
    if (room <= 0) return;
    let launched = 0;
    // Channels first (a turn, a vote: a whole table waits for it), then DMs; DMs (a deal's role
    // cards by the hundred) never take the last lanes, so a channel's post always finds one.
    const dmLanes = Math.max(1, this.concurrency - 4);
    const heads = await this.reading(async () => [
      ...(await this.store.heads(now, room * 4, 'channels')),
      ...(await this.store.heads(now, room * 4, 'dms')),
    ]);
    for (const row of heads.rows) {
      if (launched >= room) break;
      if (this.busyDest.has(row.dest) || this.claiming.has(row.dest) || heads.ended.has(row.dest)) continue;
      if (this.rests(row.dest, now)) continue;
      const dm = row.dest.startsWith('dm:');
      if (dm && this.dmBusy >= dmLanes) continue;
      this.hold(row.dest);
      if (dm) this.dmBusy++;
      launched++;
      this.track(
        row.dest,
        this.sendRow(row).finally(() => {
          this.release(row.dest);
          if (dm) this.dmBusy--;
        }),
      );
    }
    const dirty = await this.reading(() => this.store.dirty(now - this.debounceMs, room * 4));
    for (const slot of dirty.rows) {
      // Edits (tables, closed stages, a repair after a restart) never take every lane: a new post
      // always finds one free.
      if (launched >= room || this.busySlot.size >= Math.ceil(this.concurrency / 2)) break;
      const k = `${slot.gameId}/${slot.key}`;
      if (this.busySlot.has(k) || dirty.ended.has(`slot:${k}`) || this.rests(`slot:${k}`, now)) continue;
      this.busySlot.add(k);
      launched++;
      this.track(
        `slot:${k}`,
        this.syncSlot(slot).finally(() => this.slotDone(k)),
      );
    }
  }

  private hold(dest: string): void {
    this.busyDest.set(dest, (this.busyDest.get(dest) ?? 0) + 1);
  }

  private release(dest: string): void {
    const n = (this.busyDest.get(dest) ?? 1) - 1;
    if (n > 0) this.busyDest.set(dest, n);
    else this.busyDest.delete(dest);
    this.endedWhileReading?.add(dest);
  }

  /** A slot's task ended. */
  private slotDone(k: string): void {
    this.busySlot.delete(k);
    this.endedWhileReading?.add(`slot:${k}`);
  }

  /**
   * Runs a task on a lane. One that fails (a storage error: Discord's failures are handled inside
   * it) is logged, and its destination or slot rests a while, longer at each failure in a row, so a
   * database that keeps failing is not asked again in a tight loop (nor Discord, for a post whose
   * recording failed: its nonce makes the next try return the same message).
   */
  private track(key: string, p: Promise<void>): void {
    this.running++;
    void p
      .then(
        () => void this.resting.delete(key),
        (e: unknown) => {
          const n = (this.resting.get(key)?.n ?? 0) + 1;
          const wait = this.backoff(n);
          this.resting.set(key, { until: this.now() + wait, n });
          this.opts.log.error(
            `delivery: a task for ${key} failed (${n} in a row); trying again in ${Math.round(wait / 1000)} s`,
            e,
          );
        },
      )
      .finally(() => {
        this.running--;
        this.kick();
      });
  }

  private async planWake(): Promise<void> {
    if (this.stopped) return;
    const due = await this.store.nextDue();
    const dirty = await this.store.nextDirty();
    const now = this.now();
    let next = Math.min(due ?? Infinity, dirty === null ? Infinity : dirty + this.debounceMs);
    // What is due now and was not launched rests after a failure, or waits for a lane or its
    // destination (whose task ends with a kick): look again when the first rest ends.
    if (next <= now && this.resting.size > 0) {
      let rest = Infinity;
      for (const r of this.resting.values()) if (r.until > now) rest = Math.min(rest, r.until);
      if (rest !== Infinity) next = rest;
    }
    if (next !== Infinity && this.running < this.concurrency) this.schedule(Math.max(10, next - now));
    if (this.running === 0 && this.probing.size === 0 && next === Infinity)
      for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when nothing is pending, in flight or waiting to be edited. */
  async idle(): Promise<void> {
    if (
      this.running === 0 &&
      this.probing.size === 0 &&
      (await this.store.nextDue()) === null &&
      (await this.store.nextDirty()) === null &&
      this.running === 0 &&
      this.probing.size === 0
    )
      return;
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.kick();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    this.pumpTimer = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private count(what: string, by = 1): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + by);
  }

  private tokens = 0;
  private refilledAt = 0;
  /** Calls waiting for the budget: per level (see Level), oldest operation first. */
  private readonly queues: Waiter[][] = [[], [], [], [], []];
  private pumpTimer: NodeJS.Timeout | null = null;
  /** Some waiting call's level was raised since the last pump. */
  private raised = false;

  private get rate(): number {
    return this.opts.requestsPerSecond ?? 45;
  }

  /** At most a tenth of a second's budget at once. */
  private get burst(): number {
    return burstOf(this.rate);
  }

  /**
   * Waits for a share of the request budget: a token bucket of `requestsPerSecond` with a burst of
   * a tenth of it, so that no window of one second (Discord counts in fixed ones) ever sees more
   * than the rate and a tenth. The most urgent level goes first, and within a level the oldest
   * operation (`since`: when it was committed), so a deal's role cards go out game by game, each
   * card's second call (after its DM channel was opened) before the next deal's first, not all
   * deals at once. A call's level may rise while it waits (a lobby's check once its host pressed Start).
   */
  private spend(at: Level | (() => Level), from: number | (() => number) = this.now()): Promise<void> {
    const level = typeof at === 'function' ? at : () => at;
    const since = typeof from === 'function' ? from : () => from;
    return new Promise<void>((go) => {
      enqueue(this.queues[level()]!, { level, go, since });
      this.pump();
    });
  }

  /** A share taken for a call that was not made goes back. */
  private refund(): void {
    this.tokens = Math.min(this.burst, this.tokens + 1);
    this.pump();
  }

  /**
   * How long discord.js still holds every counted call after a global 429 (it waits the 429's
   * Retry-After before it sends any): 0 when it does not.
   */
  private globalHoldMs(): number {
    const rest = this.rest as Partial<Pick<REST, 'globalRemaining' | 'globalReset'>>;
    if (typeof rest.globalRemaining !== 'number' || typeof rest.globalReset !== 'number') return 0;
    return rest.globalRemaining <= 0 ? Math.max(0, rest.globalReset - Date.now()) : 0;
  }

  private pump(): void {
    const now = this.now();
    // Issue 22: after a global 429 discord.js holds every counted call until the limit resets.
    // Shares given meanwhile would wait there and all leave at once when it ends, on top of the
    // next second's pace: past the limit again (with several processes on one budget, a 429 about
    // every 1.5 s for the rest of the run). So none is given while it holds, and the bucket starts
    // empty after it.
    const held = this.globalHoldMs();
    if (held > 0) {
      if (this.tokens > 0 || this.refilledAt < now) this.count('pauses for a global 429');
      this.tokens = 0;
      this.refilledAt = now + held;
      if (this.pumpTimer || this.stopped) return;
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = null;
        this.pump();
      }, held + 1);
      this.pumpTimer.unref?.();
      return;
    }
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.refilledAt) * this.rate) / 1000);
    this.refilledAt = Math.max(now, this.refilledAt);
    // Calls that became more urgent move up (in their place by age).
    for (let l = 1; this.raised && l < this.queues.length; l++) {
      const q = this.queues[l]!;
      if (q.length === 0 || !q.some((w) => w.level() !== l)) continue;
      this.queues[l] = q.filter((w) => {
        const want = w.level();
        if (want === l) return true;
        enqueue(this.queues[want]!, w);
        return false;
      });
    }
    this.raised = false;
    for (;;) {
      const q = this.queues.find((x) => x.length > 0);
      if (!q) return;
      if (this.tokens < 1) break;
      this.tokens -= 1;
      this.count(`level ${this.queues.indexOf(q)}`);
      q.shift()!.go();
    }
    if (this.pumpTimer || this.stopped) return;
    this.pumpTimer = setTimeout(
      () => {
        this.pumpTimer = null;
        this.pump();
      },
      Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.rate)),
    );
    this.pumpTimer.unref?.();
  }

  // -------------------------------------------------------------------------------------------
  // Destinations

  /** The channel id to post to, or a failure; a DM channel is opened once and stored. */
  private async channelOf(
    dest: Dest,
    level: Level | (() => Level) = 1,
    since?: number | (() => number),
  ): Promise<{ ok: true; id: string } | { ok: false; failure: Failure | 'wait' }> {
    if (dest.startsWith('ch:')) return { ok: true, id: dest.slice(3) };
    if (dest.startsWith('tm:')) return { ok: true, id: dest.slice(3).split(':')[0]! };
    if (dest.startsWith('th:')) {
      const id = (await this.opts.threadOf?.(Number(dest.slice(3)))) ?? null;
      return id ? { ok: true, id } : { ok: false, failure: 'wait' };
    }
    const userId = dest.slice(3);
    const known = await this.store.dm(userId);
    if (known?.closedAt != null && this.now() - known.closedAt < DM_CLOSED_FOR_MS)
      return { ok: false, failure: 'dm-closed' };
    if (known?.channelId) return { ok: true, id: known.channelId };
    try {
      await this.spend(level, since);
      this.count('POST /users/@me/channels');
      const ch = (await this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id: string };
      await this.store.dmChannel(userId, ch.id, this.now());
      return { ok: true, id: ch.id };
    } catch (e) {
      return { ok: false, failure: classify(e) };
    }
  }

  /**
   * Before a deal: can the bot DM this user? A user who got a DM from the bot in the last
   * `freshMs` is taken as reachable without another message. Not game output, so not in the outbox.
   */
  probeDm(
    userId: string,
    payload: Payload,
    freshMs = 6 * 3_600_000,
    opts: { startedAt?: number } = {},
  ): Promise<boolean> {
    // One check at a time per user (he joins, and the host starts while it is on its way).
    const inFlight = this.probing.get(userId);
    if (inFlight) {
      // The host pressed Start: the check he waits for goes before those of lobbies still filling.
      if (opts.startedAt !== undefined && inFlight.level > 2) {
        // In the order the lobbies started, each lobby's checks together (not by when each joined).
        inFlight.level = 2;
        inFlight.since = opts.startedAt;
        this.raised = true;
      }
      return inFlight.done;
    }
    const probe: Probe = {
      level: opts.startedAt !== undefined ? 2 : 3,
      since: opts.startedAt ?? this.now(),
      done: Promise.resolve(false),
    };
    // Not on a lane: the lanes are for the outbox (hundreds of checks waiting for the budget
    // must not keep a turn from being launched).
    probe.done = this.probeOnce(
      userId,
      payload,
      freshMs,
      () => probe.level,
      () => probe.since,
    ).finally(() => {
      this.probing.delete(userId);
      this.kick();
    });
    this.probing.set(userId, probe);
    return probe.done;
  }

  private readonly probing = new Map<string, Probe>();

  private async probeOnce(
    userId: string,
    payload: Payload,
    freshMs: number,
    level: () => Level,
    since: () => number,
  ): Promise<boolean> {
    const known = await this.store.dm(userId);
    if (known?.okAt != null && (known.closedAt ?? 0) < known.okAt && this.now() - known.okAt < freshMs) return true;
    // A hiccup (a 5xx, a 429, the network) says nothing about his DMs: it is tried again, a few
    // times, before he is named as one the bot cannot reach.
    for (let attempt = 0; ; attempt++) {
      const ch = await this.channelOf(`dm:${userId}`, level, since);
      let failure: Failure;
      let error: unknown = null;
      if (!ch.ok) failure = ch.failure === 'wait' ? 'bad-request' : ch.failure;
      else {
        try {
          await this.spend(level, since);
          this.count('POST /channels/:id/messages');
          await this.rest.post(Routes.channelMessages(ch.id), { body: payload });
          await this.store.dmOk(userId, this.now());
          return true;
        } catch (e) {
          failure = classify(e);
          error = e;
        }
      }
      if (failure === 'dm-closed') {
        await this.store.dmClosed(userId, this.now());
        return false;
      }
      if (!isTransient(failure) || attempt >= 3 || this.stopped) {
        this.opts.log.warn(`delivery: DM check for ${userId} failed (${failure})`);
        return false;
      }
      await sleep(Math.min(MAX_BACKOFF_MS, retryAfterMs(error) ?? 1000 * 2 ** attempt));
    }
  }

  /** A DM check may be tried again right away (the user says he opened his DMs). */
  async forgetClosed(userId: string): Promise<void> {
    const known = await this.store.dm(userId);
    if (known?.closedAt != null) await this.store.dmOk(userId, 0);
  }

  // -------------------------------------------------------------------------------------------
  // One-shot operations

  private async sendRow(row: OutboxRow): Promise<void> {
    const meta = JSON.parse(row.meta) as PostMeta & { step?: number; threadId?: string };
    const dest = await this.channelOf(row.dest, 1, row.createdAt);
    if (!dest.ok) {
      if (dest.failure === 'wait') {
        // The thread it goes to does not exist yet (or never will: give up after a while).
        if (row.attempts > 20) await this.store.fail(row.id, 'no-thread', this.now());
        else await this.store.retry(row.id, this.now() + 2000, 'no-thread-yet');
        return;
      }
      return this.failed(row, meta, dest.failure, null);
    }
    try {
      switch (row.op) {
        case 'post':
        case 'notice':
          await this.post(row, meta, dest.id);
          return;
        case 'thread':
          await this.thread(row, meta, dest.id);
          return;
        case 'delete':
          await this.remove(row, dest.id);
          return;
      }
    } catch (e) {
      return this.failed(row, meta, classify(e), e);
    }
  }

  private async post(row: OutboxRow, meta: PostMeta, channelId: string): Promise<void> {
    if (meta.via && (await this.sentVia(row, meta, channelId))) return;
    // While it waits, a click in the channel may take it over (claim): it then goes as a follow-up.
    const waiting = { rowId: row.id, taken: false };
    this.waitingPost.set(row.dest, waiting);
    try {
      await this.postSlotFree(channelId);
      if (waiting.taken) return;
      // The budget first, then the payload: the deadline it shows counts every wait so far.
      await this.spend(row.dest.startsWith('dm:') ? 1 : 0, row.createdAt);
      if (waiting.taken) {
        this.refund();
        return;
      }
    } finally {
      if (this.waitingPost.get(row.dest) === waiting) this.waitingPost.delete(row.dest);
    }
    this.notePost(channelId);
    const out = await this.prepare(row, meta);
    if (!out) return;
    const body = { ...out.body, nonce: nonceOf(row), enforce_nonce: true };
    this.count('POST /channels/:id/messages');
    this.count(`post ${meta.what ?? row.op}`);
    const msg = (await this.rest.post(Routes.channelMessages(channelId), { body })) as {
      id: string;
      channel_id: string;
    };
    this.sent('post');
    if (this.stopped) return;
    await this.record(row, meta, out, msg.id, msg.channel_id ?? channelId);
  }

  /** What a post sends now: its slot's newest version, with the deadline moved by the delay so far. */
  private async prepare(
    row: OutboxRow,
    meta: PostMeta,
  ): Promise<{ body: Payload; json: string; slot: SlotRow | null; shift: number } | null> {
    let slot: SlotRow | null = null;
    let json = row.payload;
    if (row.slot) {
      slot = await this.store.slot(row.gameId, row.slot);
      if (!slot || slot.state === 'gone' || slot.messageId) {
        // Already posted (a repost raced a redelivery) or no longer wanted.
        await this.store.done(row.id, slot?.messageId ?? null, this.now());
        return null;
      }
      json = slot.payload;
    }
    const shift = meta.clock ? Math.max(0, this.now() - row.createdAt) : 0;
    if (shift >= 1000 && meta.clock) json = shiftTimestamps(json, meta.clock.deadline, shift);
    return { body: JSON.parse(json) as Payload, json, slot, shift };
  }

  /** Discord has the message: the row is done, its slot knows its id, the turn's clock is moved. */
  private async record(
    row: OutboxRow,
    meta: PostMeta,
    out: { json: string; slot: SlotRow | null; shift: number },
    messageId: string,
    channelId: string,
  ): Promise<void> {
    const { slot, json, shift } = out;
    const seen = this.now();
    await this.store.transaction(async () => {
      await this.store.done(row.id, messageId, seen);
      if (slot) {
        // What was sent (with the moved deadline) is this version's payload from now on.
        if (json !== slot.payload) await this.store.rewriteSlot(row.gameId, slot.key, slot.version, json);
        await this.store.sentSlot(row.gameId, slot.key, slot.version, messageId, channelId);
      }
      if (row.dest.startsWith('dm:')) await this.store.dmOk(row.dest.slice(3), seen);
    });
    // The turn's clock starts when players see it: its timer ends as late as the message says.
    if (meta.clock && shift >= 1000) this.opts.onVisible?.(row.gameId, meta.clock.seq, meta.clock.deadline + shift);
    if (slot?.pin) await this.pin(channelId, messageId);
  }

  // -------------------------------------------------------------------------------------------
  // Posts a click delivers for free

  /**
   * A click in `dest`'s channel was accepted: the posts now waiting there (the next stage's
   * message, news) may go out as follow-ups of its interaction, which cost none of the bot's
   * request budget. Returns the rows handed over, in order (none if the deliverer is already
   * sending to that channel). The hand-over is written down first, so that after a crash the row
   * is looked for in the channel before it is posted again: nothing is sent twice.
   */
  async claim(dest: Dest, interactionId: string, max = 5): Promise<OutboxRow[]> {
    if (this.stopped || this.claiming.has(dest)) return [];
    // The channel is being sent to: only a post still waiting for its turn can be taken over.
    const waitingBefore = this.busyDest.has(dest) ? this.waitingPost.get(dest) : undefined;
    if (this.busyDest.has(dest) && (!waitingBefore || waitingBefore.taken)) return [];
    // While its rows are read no pass launches the channel; a task of it that moved on meanwhile
    // (its post sent, or past the wait) may have sent what was read: then nothing is taken.
    this.claiming.add(dest);
    let pending: OutboxRow[];
    try {
      pending = await this.store.pendingOf(dest, max);
    } finally {
      this.claiming.delete(dest);
    }
    const waiting = this.busyDest.has(dest) ? this.waitingPost.get(dest) : undefined;
    if (waiting !== waitingBefore || (this.busyDest.has(dest) && (!waiting || waiting.taken))) return [];
    const now = this.now();
    const rows: OutboxRow[] = [];
    for (const row of pending) {
      const meta = JSON.parse(row.meta) as PostMeta;
      if (rows.length === 0 && waiting && row.id !== waiting.rowId) break;
      if (row.op !== 'post' || row.attempts > 0 || row.nextAt > now || meta.via) break;
      // What a secret act caused (the morning after a night action) is never sent as a click's
      // follow-up: a follow-up names the user who clicked (issue 20).
      if (meta.origin === 'secret') break;
      rows.push(row);
    }
    if (rows.length === 0) return [];
    if (waiting) waiting.taken = true;
    this.hold(dest);
    await this.store.transaction(async () => {
      for (const [k, row] of rows.entries())
        await this.store.setMeta(row.id, { ...(JSON.parse(row.meta) as PostMeta), via: interactionId, viaIndex: k });
    });
    return rows.map((row, k) => ({
      ...row,
      meta: JSON.stringify({ ...(JSON.parse(row.meta) as PostMeta), via: interactionId, viaIndex: k }),
    }));
  }

  /** Sends claimed rows through `send` (the interaction's follow-up); what fails goes the usual way. */
  async deliverVia(
    dest: Dest,
    rows: OutboxRow[],
    send: (body: Payload) => Promise<{ id: string; channelId: string }>,
  ): Promise<void> {
    try {
      for (let k = 0; k < rows.length; k++) {
        const row = rows[k]!;
        const meta = JSON.parse(row.meta) as PostMeta;
        const out = await this.prepare(row, meta);
        if (!out) continue;
        let msg: { id: string; channelId: string };
        try {
          this.count('followup');
          this.count(`followup ${meta.what ?? row.op}`);
          msg = await send(out.body);
        } catch (e) {
          // Discord answered (it refused): nothing was created. No answer: it may have been, so
          // the row keeps its mark and is looked for before it is posted. Later rows were not sent.
          const f = classify(e);
          const answered = f === 'bad-request' || f === 'forbidden' || f === 'not-found';
          this.opts.log.warn(`delivery: follow-up for ${row.dest} failed (${f}); posting it instead`, {
            gameId: row.gameId,
          });
          await this.unclaim(rows.slice(answered ? k : k + 1));
          return;
        }
        this.sent('followup');
        if (this.stopped) return;
        this.notePost(msg.channelId);
        await this.record(row, meta, out, msg.id, msg.channelId);
      }
    } finally {
      this.release(dest);
      this.kick();
    }
  }

  private async unclaim(rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.store.transaction(async () => {
      for (const row of rows) {
        const { via: _v, viaIndex: _i, ...meta } = JSON.parse(row.meta) as PostMeta;
        await this.store.setMeta(row.id, meta);
      }
    });
  }

  /**
   * A row handed to an interaction is still pending (a crash, or no answer): if the follow-up is in
   * the channel, it is recorded, not posted again.
   */
  private async sentVia(row: OutboxRow, meta: PostMeta, channelId: string): Promise<boolean> {
    let found: { id: string; channel_id: string } | undefined;
    try {
      await this.spend(0, row.createdAt);
      this.count('GET /channels/:id/messages');
      const recent = (await this.rest.get(Routes.channelMessages(channelId), {
        query: new URLSearchParams({ limit: '100' }),
      })) as {
        id: string;
        channel_id: string;
        interaction_metadata?: { id?: string } | null;
        interaction?: { id?: string } | null;
      }[];
      const mine = recent
        .filter((m) => (m.interaction_metadata?.id ?? m.interaction?.id) === meta.via)
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      found = mine[meta.viaIndex ?? 0];
    } catch (e) {
      const f = classify(e);
      if (isTransient(f)) throw e;
      // Cannot read the channel: post (a duplicate is better than a lost message).
    }
    if (found) {
      const slot = row.slot ? await this.store.slot(row.gameId, row.slot) : null;
      await this.record(
        row,
        meta,
        { json: slot?.payload ?? row.payload, slot: slot && !slot.messageId ? slot : null, shift: 0 },
        found.id,
        found.channel_id ?? channelId,
      );
      return true;
    }
    await this.unclaim([row]);
    return false;
  }

  /** Waits until the channel may take another post within Discord's window. */
  private async postSlotFree(channelId: string): Promise<void> {
    const windowMs = this.opts.postWindowMs ?? POST_WINDOW_MS;
    const times = (this.recentPosts.get(channelId) ?? []).filter((t) => this.now() - t < windowMs);
    if (times.length >= POSTS_PER_WINDOW) {
      const wait = windowMs - (this.now() - times[times.length - POSTS_PER_WINDOW]!) + 20;
      if (wait > 0) {
        // (Counted: the metrics tell how often a post waited for its channel's window, and how long.)
        this.count('waits for a channel window');
        this.count('ms waited for channel windows', Math.round(wait));
        await sleep(wait);
      }
    }
    if (times.length > 0) this.recentPosts.set(channelId, times);
    else this.recentPosts.delete(channelId);
  }

  /** A message was created in the channel (counts towards its window). */
  private notePost(channelId: string): void {
    const times = this.recentPosts.get(channelId) ?? [];
    times.push(this.now());
    this.recentPosts.set(channelId, times.slice(-POSTS_PER_WINDOW));
    this.forgetQuietChannels();
  }

  private sweptAt = 0;

  /**
   * Drops the channels (a game's, a player's DMs) with no post in the last window, at most once a
   * window: the map holds only channels posted to lately, not every one since the start.
   */
  private forgetQuietChannels(): void {
    const windowMs = this.opts.postWindowMs ?? POST_WINDOW_MS;
    const now = this.now();
    if (now - this.sweptAt < windowMs) return;
    this.sweptAt = now;
    for (const [channelId, times] of this.recentPosts)
      if (times.length === 0 || now - times[times.length - 1]! >= windowMs) this.recentPosts.delete(channelId);
  }

  /**
   * How many entries the per-destination maps hold (tests: once nothing is being sent and a post
   * window has passed, none). `recentPosts` is swept when a post is made, a window after the last sweep.
   */
  sizes(): { busyDest: number; waitingPost: number; busySlot: number; recentPosts: number; probing: number } {
    this.forgetQuietChannels();
    return {
      busyDest: this.busyDest.size,
      waitingPost: this.waitingPost.size,
      busySlot: this.busySlot.size,
      recentPosts: this.recentPosts.size,
      probing: this.probing.size,
    };
  }

  private async pin(channelId: string, messageId: string): Promise<void> {
    try {
      await this.spend(4);
      this.count('PUT /channels/:id/pins/:mid');
      await this.rest.put(Routes.channelPin(channelId, messageId));
    } catch (e) {
      const f = classify(e);
      if (f !== 'forbidden') this.opts.log.warn(`delivery: pin ${messageId} failed (${f})`);
    }
  }

  private async remove(row: OutboxRow, channelId: string): Promise<void> {
    const { messageId } = JSON.parse(row.payload) as { messageId: string };
    try {
      await this.spend(4, row.createdAt);
      this.count('DELETE /channels/:id/messages/:mid');
      await this.rest.delete(Routes.channelMessage(channelId, messageId));
    } catch (e) {
      if (classify(e) !== 'not-found') throw e;
    }
    await this.store.done(row.id, null, this.now());
  }

  /**
   * M-2, M-3: a private thread of the game (the mafia's, slot `thread`; the spectators', slot
   * `spectators`) is made and welcomed here, resumable step by step after a crash. Its members are
   * its slot's desired state (see syncThread): brought in line right after the thread is made (the
   * mafia must be in before the night's talk), then whenever the slot changes. Rows written before
   * membership was desired state list members themselves (added or removed here, and recorded).
   */
  private async thread(
    row: OutboxRow,
    meta: PostMeta & { step?: number; threadId?: string },
    channelId: string,
  ): Promise<void> {
    const p = JSON.parse(row.payload) as {
      name: string;
      members?: string[];
      welcome?: Payload;
      slot?: string;
      remove?: boolean;
    };
    const key = p.slot ?? 'thread';
    const level = threadLevel(key);
    let threadId = meta.threadId ?? (await this.opts.threadOf?.(row.gameId, key)) ?? null;
    if (!threadId && !p.welcome) {
      // Members of a thread that was never made (the bot may not make threads there): nothing to do.
      await this.store.done(row.id, null, this.now());
      return;
    }
    if (!threadId) {
      await this.spend(level, row.createdAt);
      this.count('POST /channels/:id/threads');
      const th = (await this.rest.post(Routes.threads(channelId), {
        body: { name: p.name, type: 12, invitable: false, auto_archive_duration: 10080 },
      })) as { id: string };
      const id = (threadId = th.id);
      await this.store.transaction(async () => {
        await this.store.setMeta(row.id, { ...meta, threadId: id, step: 0 });
        await this.store.sentSlot(row.gameId, key, 0, id, id);
        // A new private thread is open and holds only the bot.
        await this.store.setThreadApplied(row.gameId, key, { threadId: id, locked: false, members: [] }, this.now());
      });
    }
    const members = p.members ?? [];
    for (let i = meta.step ?? 0; i < members.length; i++) {
      const applied = await this.applied(row.gameId, key, threadId);
      const how = p.remove ? 'out' : 'in';
      const ok = await this.memberCall(threadId, members[i]!, how, level, row.createdAt, applied);
      await this.store.transaction(async () => {
        const rest = applied.members.filter((u) => u !== members[i]);
        applied.members = how === 'in' && ok ? [...rest, members[i]!] : rest;
        await this.store.setThreadApplied(row.gameId, key, applied, this.now());
        await this.store.setMeta(row.id, { ...meta, threadId, step: i + 1 });
      });
    }
    if (!p.welcome) {
      await this.store.done(row.id, null, this.now());
      return;
    }
    try {
      await this.syncThreadNow(row.gameId, key);
    } catch (e) {
      // The welcome goes out anyway; the members are tried again at the slot's next change.
      if (isTransient(classify(e))) throw e;
      this.opts.log.warn(`delivery: members of ${key} of game ${row.gameId} failed (${classify(e)})`);
    }
    await this.spend(level, row.createdAt);
    this.count('POST /channels/:id/messages');
    const msg = (await this.rest.post(Routes.channelMessages(threadId), {
      body: { ...(await this.welcomeNow(row.gameId, key, p.welcome)), nonce: nonceOf(row), enforce_nonce: true },
    })) as { id: string };
    await this.store.done(row.id, msg.id, this.now());
  }

  /** Issue 20: the game's channel is out of reach: the game is suspended and this waits with it. */
  private async lostChannel(gameId: number, dest: Dest, e: unknown): Promise<boolean> {
    const how = lostAccess(e);
    if (!how || !this.opts.lost) return false;
    try {
      return await this.opts.lost(gameId, dest, how);
    } catch (err) {
      this.opts.log.error(`delivery: could not suspend game ${gameId}`, err);
      return false;
    }
  }

  /**
   * The welcome pings only who is to be in the thread now: a ping in a private thread adds the
   * user to it, and a seat may have changed hands since the welcome was written.
   */
  private async welcomeNow(gameId: number, key: string, welcome: Payload): Promise<Payload> {
    const slot = await this.store.slot(gameId, key);
    const members = slot ? (JSON.parse(slot.payload) as { members?: string[] }).members : undefined;
    const allowed = welcome.allowed_mentions as { users?: string[] } | undefined;
    if (!members || !allowed?.users) return welcome;
    return { ...welcome, allowed_mentions: { ...allowed, users: allowed.users.filter((u) => members.includes(u)) } };
  }

  /** What was applied to the thread (a thread the bot knows nothing of: unknown lock, no members). */
  private async applied(gameId: number, key: string, threadId: string): Promise<ThreadApplied> {
    return (await this.store.threadApplied(gameId, key, threadId)) ?? { threadId, locked: null, members: [] };
  }

  /** The thread's slot brought in line now, unless a sync of it is already on its way. */
  private async syncThreadNow(gameId: number, key: string): Promise<void> {
    const k = `${gameId}/${key}`;
    if (this.busySlot.has(k)) return;
    const slot = await this.store.slot(gameId, key);
    // (Asked again: a pass may have launched its sync while it was read.)
    if (!slot?.messageId || slot.kind !== 'thread' || this.busySlot.has(k)) return;
    this.busySlot.add(k);
    try {
      await this.syncThread(slot);
      await this.store.sentSlot(gameId, key, slot.version);
    } finally {
      this.slotDone(k);
    }
  }

  /**
   * M-2, M-3: a private thread brought to its slot's desired state ({ locked, members }): only
   * the members who differ from what was applied are added or removed, each recorded as soon as it
   * is done. Discord changes the members of an open (not archived) thread only: a locked thread is
   * opened for the change and locked again.
   */
  private async syncThread(slot: SlotRow): Promise<void> {
    const want = JSON.parse(slot.payload) as { locked: boolean; members?: string[] };
    const threadId = slot.messageId!;
    const level = threadLevel(slot.key);
    const applied = await this.applied(slot.gameId, slot.key, threadId);
    const save = () => this.store.setThreadApplied(slot.gameId, slot.key, applied, this.now());
    const lock = async (locked: boolean) => {
      await this.spend(level, slot.updatedAt);
      this.count('PATCH /channels/:id');
      await this.rest.patch(Routes.channel(threadId), { body: { locked, archived: locked } });
      applied.locked = locked;
      await save();
    };
    const wanted = want.members ?? null;
    const out = wanted ? applied.members.filter((u) => !wanted.includes(u)) : [];
    const into = wanted ? wanted.filter((u) => !applied.members.includes(u)) : [];
    if (!want.locked && applied.locked !== false) await lock(false);
    if (out.length + into.length > 0 && applied.locked !== false)
      await this.unarchive(threadId, level, slot.updatedAt, applied);
    // Out first: whoever must not read the thread loses it before anyone joins.
    for (const u of out) {
      await this.memberCall(threadId, u, 'out', level, slot.updatedAt, applied);
      applied.members = applied.members.filter((x) => x !== u);
      await save();
    }
    for (const u of into) {
      const added = await this.memberCall(threadId, u, 'in', level, slot.updatedAt, applied);
      if (!added) continue;
      applied.members = [...applied.members, u];
      await save();
    }
    if (want.locked && applied.locked !== true) await lock(true);
  }

  /**
   * Adds a member to a thread or removes him (both are idempotent on Discord's side). A thread
   * found archived (by Discord, after a week without a message) is opened and the call made again.
   * False when the user cannot be added (he left the server): he is tried again at the next change.
   */
  private async memberCall(
    threadId: string,
    userId: string,
    how: 'in' | 'out',
    level: Level,
    since: number,
    applied: { locked: boolean | null },
  ): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.spend(level, since);
        if (how === 'in') {
          this.count('PUT /channels/:id/thread-members/:uid');
          await this.rest.put(Routes.threadMembers(threadId, userId));
        } else {
          this.count('DELETE /channels/:id/thread-members/:uid');
          await this.rest.delete(Routes.threadMembers(threadId, userId));
        }
        return true;
      } catch (e) {
        const code = (e as { code?: unknown } | null)?.code;
        if (code === ARCHIVED && attempt === 0) {
          await this.unarchive(threadId, level, since, applied);
          continue;
        }
        // 10003: the thread itself is gone (the caller gives up); otherwise the member is unknown.
        if (classify(e) !== 'not-found' || code === 10003) throw e;
        return how === 'out';
      }
    }
  }

  /** Opens an archived thread (still locked) so its members can change; locked again after. */
  private async unarchive(
    threadId: string,
    level: Level,
    since: number,
    applied: { locked: boolean | null },
  ): Promise<void> {
    await this.spend(level, since);
    this.count('PATCH /channels/:id');
    await this.rest.patch(Routes.channel(threadId), { body: { archived: false } });
    applied.locked = null;
  }

  private async failed(row: OutboxRow, meta: PostMeta, failure: Failure, e: unknown): Promise<void> {
    if (!isTransient(failure) && (await this.lostChannel(row.gameId, row.dest, e))) {
      this.kick(); // the host's notice
      return;
    }
    const now = this.now();
    if (isTransient(failure)) {
      const wait =
        retryAfterMs(e) ?? Math.min(this.opts.maxBackoffMs ?? MAX_BACKOFF_MS, 1000 * 2 ** Math.min(row.attempts, 6));
      const jitter = Math.floor(wait * 0.2 * Math.random());
      await this.store.retry(row.id, now + wait + jitter, failure);
      if (row.attempts === 3)
        this.opts.log.warn(`delivery: ${row.op} to ${row.dest} keeps failing (${failure}); retrying`, {
          gameId: row.gameId,
        });
      return;
    }
    if (failure === 'bad-request')
      this.opts.log.error(`delivery: Discord refused ${row.op} to ${row.dest} (game ${row.gameId})`, e);
    await this.store.transaction(async () => {
      await this.store.fail(row.id, failure, now);
      if (failure === 'dm-closed' && row.dest.startsWith('dm:')) {
        await this.store.dmClosed(row.dest.slice(3), now);
        // Every DM still waiting for him in this game would fail the same way.
        await this.store.failDest(row.gameId, row.dest, failure, now);
      }
    });
    await this.opts.onPermanent?.({ gameId: row.gameId, dest: row.dest, meta }, failure);
    // What was written about it (a notice) goes out too.
    this.kick();
  }

  // -------------------------------------------------------------------------------------------
  // Desired state

  private async syncSlot(slot: SlotRow): Promise<void> {
    try {
      switch (slot.kind) {
        case 'message': {
          await this.spend(4, slot.updatedAt);
          // The newest version as of now: while this waited for the budget, a click's answer may
          // have shown a newer one, or the message may be gone, and an older payload sent now
          // would undo it.
          const now = await this.store.slot(slot.gameId, slot.key);
          if (!now || now.messageId !== slot.messageId || now.sentVersion >= now.version || now.state === 'gone') {
            this.refund();
            return;
          }
          this.count('PATCH /channels/:id/messages/:mid');
          this.count(`edit ${slot.key.replace(/:.*/, '')}`);
          await this.rest.patch(Routes.channelMessage(now.channelId!, now.messageId!), {
            body: JSON.parse(now.payload),
          });
          await this.store.shownSlot(now.gameId, now.key, now.version, now.messageId!);
          return;
        }
        case 'perms':
          await this.syncPerms(slot);
          break;
        case 'thread':
          await this.syncThread(slot);
          break;
      }
      await this.store.sentSlot(slot.gameId, slot.key, slot.version);
    } catch (e) {
      const failure = classify(e);
      if (await this.lostChannel(slot.gameId, slot.dest, e)) {
        this.kick();
        return;
      }
      if (failure === 'not-found' && slot.kind === 'message') {
        await this.store.slotGone(slot, this.now());
        return;
      }
      if (isTransient(failure)) {
        // Touch it so the next try comes after the quiet time again.
        await sleep(Math.min(MAX_BACKOFF_MS, retryAfterMs(e) ?? 1000));
        return;
      }
      // Permanent (no permission, a thread that is gone): stop trying this version.
      await this.store.sentSlot(slot.gameId, slot.key, slot.version);
      if (failure !== 'forbidden' && failure !== 'not-found')
        this.opts.log.warn(`delivery: ${slot.kind} ${slot.key} of game ${slot.gameId} failed (${failure})`);
    }
  }

  /**
   * M-1, M-3: who may write. The bot only adds and takes back its own Send Messages deny on member
   * overwrites, merged into each member's current overwrite (src/delivery/perms.ts): what it holds
   * is recorded before it writes (a crash in between is folded in on the next try) and dropped
   * after Discord has the restored overwrite.
   *
   * The channel's overwrites are read from Discord (GET) right before every write, never taken from
   * the gateway cache: the cache may not have heard yet of a moderator's change (or of the bot's
   * own last write), and a list written from it would undo that change. Both calls are paid for
   * before the read, so the write follows it at once. One changed member: his own overwrite alone
   * is written (PUT, or DELETE of one the bot made); more: the channel's whole list in one PATCH,
   * every other overwrite as just read. A wish with no deny, of a game that holds none here, needs
   * neither call. (Design notes: who may write, in docs/architecture.md.)
   */
  private async syncPerms(slot: SlotRow): Promise<void> {
    const want = JSON.parse(slot.payload) as { channelId: string; members: Record<string, Wish> };
    const denies = Object.values(want.members).some((x) => x === 'deny');
    if (!denies && !(await this.store.permHolds(want.channelId)).some((h) => h.gameId === slot.gameId)) return;
    await this.spend(0, slot.updatedAt);
    await this.spend(0, slot.updatedAt);
    this.count('GET /channels/:id');
    let ch: { permission_overwrites?: { id: string; type: number | string; allow: string; deny: string }[] };
    try {
      ch = (await this.rest.get(Routes.channel(want.channelId))) as typeof ch;
    } catch (e) {
      this.refund();
      throw e;
    }
    const current: Overwrite[] = (ch.permission_overwrites ?? []).map((o) => ({
      id: o.id,
      type: Number(o.type) === 1 || o.type === 'member' ? 1 : 0,
      allow: String(o.allow),
      deny: String(o.deny),
    }));
    // The holds as they are now (read after the channel: a crash's record is folded in).
    const steps = planPerms(
      slot.gameId,
      current,
      want.members,
      await this.store.permHolds(want.channelId),
      this.opts.selfId?.() ?? null,
    );
    const writes = steps.filter((st) => st.write !== null);
    if (writes.length === 0) this.refund();
    if (steps.length === 0) return;
    const now = this.now();
    await this.store.transaction(async () => {
      for (const st of steps)
        if (st.hold)
          await this.store.setPermHold(
            { channelId: want.channelId, userId: st.userId, gameId: slot.gameId, ...st.hold },
            now,
          );
    });
    if (writes.length === 1) await this.memberOverwrite(want.channelId, writes[0]!.userId, writes[0]!.write!);
    else if (writes.length > 1) {
      this.count('PATCH /channels/:id');
      await this.rest.patch(Routes.channel(want.channelId), {
        body: { permission_overwrites: applySteps(current, steps) },
      });
    }
    await this.store.transaction(async () => {
      for (const st of steps) if (!st.hold && st.before) await this.store.dropPermHold(want.channelId, st.userId);
    });
  }

  /** One member's overwrite, merged from what was just read (its share of the budget already taken). */
  private async memberOverwrite(channelId: string, userId: string, write: Overwrite | 'delete'): Promise<void> {
    if (write === 'delete') {
      this.count('DELETE /channels/:id/permissions/:oid');
      await this.rest.delete(Routes.channelPermission(channelId, userId)).catch((e: unknown) => {
        if (classify(e) !== 'not-found') throw e;
      });
      return;
    }
    this.count('PUT /channels/:id/permissions/:oid');
    await this.rest.put(Routes.channelPermission(channelId, userId), {
      body: { type: write.type, allow: write.allow, deny: write.deny },
    });
  }
}

interface Probe {
  level: Level;
  since: number;
  done: Promise<boolean>;
}

interface Waiter {
  level: () => Level;
  go: () => void;
  since: () => number;
}

/** Into its place by age, after those of the same age (first come, first served among equals). */
function enqueue(q: Waiter[], w: Waiter): void {
  const at = w.since();
  let lo = 0;
  let hi = q.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (q[mid]!.since() <= at) lo = mid + 1;
    else hi = mid;
  }
  if (lo === q.length) q.push(w);
  else q.splice(lo, 0, w);
}

/** Discord's code for an operation on an archived thread. */
const ARCHIVED = 50083;

/** The mafia's thread is theirs for the night; the spectators' can wait for the turns. */
function threadLevel(key: string): Level {
  return key === 'thread' ? 1 : 4;
}

/** At most 25 characters, unique per outbox row. */
export function nonceOf(row: Pick<OutboxRow, 'id' | 'createdAt'>): string {
  return `o${row.id.toString(36)}.${(row.createdAt % 2_176_782_336).toString(36)}`;
}

/** The stage's deadline, as shown (`<t:…:R>`, `<t:…:f>`), moved by the delivery delay. */
export function shiftTimestamps(json: string, deadline: number, shiftMs: number): string {
  const from = `<t:${Math.floor(deadline / 1000)}:`;
  const to = `<t:${Math.floor((deadline + shiftMs) / 1000)}:`;
  return json.split(from).join(to);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
