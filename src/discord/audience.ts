// Who may see what the bot writes (issue 20). Every write to the outbox — a post, a slot's desired
// state (an edit, a member overwrite, a thread's lock), a thread's making or members, a notice — is
// addressed to an audience, and passes one check of what that audience may know at that moment
// before it is stored. The renderers already see only the views the engine allows (N-13, G-4,
// G-6); this check catches what they cannot: where a row goes, what kind of message it is, who
// holds the seat now, what caused it, who is in a thread.
//
// The audience of a row follows from its destination and its meta:
//   `ch:`                    public      (the game channel, a results channel: anyone in the server)
//   `dm:` + meta.seat        seat        (the seat's current holder)
//   `dm:` the host           host        (host notices; a host who plays is also a seat)
//   `dm:` anyone else        member      (a lobby member, a volunteer, a player who was replaced)
//   `th:`, `tm:…:thread`     team        (the black players who know each other, G-4, M-2)
//   `tm:…:spectators`        spectators  (never a living player, M-3)
//
// A violation is a bug in the shell, never a player's doing: in tests it throws (the change is
// undone); in production the row is dropped and logged (nothing leaks, the game goes on).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GameEffect } from '../app/game-service';
import type { OutboxWrite, PostMeta } from '../db/outbox-store';
import type { Action, GameState, Role, Seat } from '../engine/types';
import { inMafiaCircle } from '../engine/view';
import type { Contexts } from './context';
import type { GameCtx } from './render/common';

export type Audience =
  | { kind: 'public' }
  | { kind: 'seat'; seat: Seat; userId: string }
  | { kind: 'team' }
  | { kind: 'host'; userId: string }
  | { kind: 'spectators' }
  | { kind: 'member'; userId: string };

/**
 * Kinds of message (`meta.what`) whose content depends on the recipient's role or seat: never
 * public, never to someone who does not hold the seat.
 */
const PRIVATE_KINDS = new Set(['card', 'panel', 'sleep', 'check', 'frozen', 'gesture', 'reminder']);
/** Kinds that tell the host who still owes an action (N-13: never to a host who plays, at night). */
const OWED_KINDS = new Set(['absent', 'overdue']);
/** Who may be told a check's answer (N-5, N-6, kiev-12's commissioner). */
const CHECKERS: ReadonlySet<Role> = new Set(['sheriff', 'don', 'commissioner']);
/** Whose night DMs every living player gets alike (a failure of one may be said in public). */
export const UNIFORM_DM_KINDS: ReadonlySet<string> = new Set(['card', 'panel', 'sleep']);

export class AudienceError extends Error {}

export interface AudienceLogger {
  error(msg: string, e?: unknown): void;
}

/** The context (seats, state) of a write's game, built when a check needs it (once). */
type LazyCtx = () => Promise<GameCtx | null>;

/** What a change is, while its effects are planned. */
interface Moment {
  gameId: number;
  /** The context (seats, state), built when a check needs it. */
  ctx: LazyCtx;
  /** A player's secret act: a night action, whatever it caused. */
  secret: boolean;
  /** A night action that did not end the night: nothing public at all (N-13). */
  quiet: boolean;
}

/** A player's act at night (not the host's, not a timer's): secret, and so is what it causes. */
export function isSecretAct(prev: GameState, action: Action): boolean {
  return !action.kind.startsWith('host-') && 'seat' in action && prev.stage.kind === 'night';
}

export class AudienceGate {
  /**
   * The change being planned, by flow: planning awaits storage, and on a server database two
   * games' changes may be planned at once.
   */
  private readonly moments = new AsyncLocalStorage<Moment | null>();

  constructor(
    private readonly contexts: Contexts,
    private readonly log: AudienceLogger,
    /** Throw on a violation (tests) instead of dropping the row. */
    private readonly strict: boolean,
    /** Whether a user sits or sat at the game's table (app/hosts.ts playedIn); current seats by default. */
    private readonly played: (ctx: GameCtx, userId: string) => boolean | Promise<boolean> = (c, u) =>
      c.seats.some((s) => s.userId === u),
  ) {}

  /** Plans a change's effects with its moment known (the game service's `around` hook). */
  around(e: GameEffect, plan: () => Promise<void>): Promise<void> {
    const ctx = once(async () => {
      const built = await this.contexts.fromRow(e.game);
      if ('state' in e && e.state) built.state = e.state;
      return built;
    });
    const secret = e.kind === 'action' && isSecretAct(e.prev, e.action);
    const quiet = secret && e.kind === 'action' && e.state.seq === e.prev.seq;
    return this.moments.run({ gameId: e.game.id, ctx, secret, quiet }, plan);
  }

  /** The outbox's guard: the meta to store, or false to drop the write. */
  readonly guard = async (w: OutboxWrite): Promise<PostMeta | false> => {
    const moment = this.moments.getStore();
    const m = moment && moment.gameId === w.gameId ? moment : null;
    const ctx = m?.ctx ?? once(() => this.contexts.build(w.gameId));
    const checked = withSlotKind(w);
    const to = await audienceOf(checked, ctx);
    const why = await violation(checked, to, ctx, m, this.played);
    if (why) {
      const msg = `audience: game ${w.gameId}: ${w.op} ${w.slot?.key ?? w.meta.what ?? ''} to ${w.dest} (${to.kind}): ${why}`;
      if (this.strict) throw new AudienceError(msg);
      this.log.error(`${msg}; not sent`);
      return false;
    }
    return m?.secret && to.kind === 'public' ? { ...w.meta, origin: 'secret' } : w.meta;
  };
}

/** A lazy context built at most once. */
function once(build: LazyCtx): LazyCtx {
  let built: Promise<GameCtx | null> | undefined;
  return () => (built ??= build());
}

/** The audience a write reaches, from its destination and meta. */
export async function audienceOf(w: OutboxWrite, ctx: LazyCtx): Promise<Audience> {
  const d = w.dest;
  if (d.startsWith('ch:')) return { kind: 'public' };
  if (d.startsWith('th:') || d.startsWith('tm:')) {
    // A game's private threads: the mafia's (slot `thread`) and the spectators' (slot `spectators`).
    const slot = w.slot?.key ?? (w.payload as { slot?: unknown } | null)?.slot;
    return d.endsWith(':spectators') || slot === 'spectators' ? { kind: 'spectators' } : { kind: 'team' };
  }
  const userId = d.slice(3);
  if (w.meta.seat !== undefined) return { kind: 'seat', seat: w.meta.seat, userId };
  const c = await ctx();
  if (c && c.game.hostId === userId && !PRIVATE_KINDS.has(w.meta.what ?? '')) return { kind: 'host', userId };
  const held = c?.seats.find((s) => s.userId === userId);
  return held ? { kind: 'seat', seat: held.seat, userId } : { kind: 'member', userId };
}

/**
 * A slot's later versions carry no meta: a night panel's kind and seat are in its key
 * (`panel:<seq>:<seat>`), so its every edit is checked like its first post.
 */
function withSlotKind(w: OutboxWrite): OutboxWrite {
  if (w.op !== 'slot' || w.meta.what !== undefined || !w.slot) return w;
  const m = /^panel:\d+:(\d+)$/.exec(w.slot.key);
  return m ? { ...w, meta: { ...w.meta, what: 'panel', seat: Number(m[1]) } } : w;
}

/** Why this audience may not get this write now, or null. */
async function violation(
  w: OutboxWrite,
  to: Audience,
  ctx: LazyCtx,
  m: Moment | null,
  played: (ctx: GameCtx, userId: string) => boolean | Promise<boolean>,
): Promise<string | null> {
  const what = w.meta.what ?? '';
  switch (to.kind) {
    case 'public':
      if (PRIVATE_KINDS.has(what) || OWED_KINDS.has(what)) return `a private kind (${what}) in public`;
      // N-13: a night action that did not end the night changes nothing anyone else sees.
      if (m?.quiet) return 'a public write caused by a night action';
      return null;
    case 'seat': {
      const c = await ctx();
      if (!c) return null;
      const holder = c.seats.find((s) => s.seat === to.seat);
      if (!holder || holder.userId !== to.userId) return `seat ${to.seat} is not held by ${to.userId}`;
      if (what === 'check' && !CHECKERS.has(holder.role)) return `a check's answer to a ${holder.role}`;
      if (what === 'gesture' && c.state && !inMafiaCircle(c.state, holder.role)) return `a gesture to a ${holder.role}`;
      return null;
    }
    case 'host': {
      const c = await ctx();
      const night = c?.state?.stage.kind === 'night' || c?.state?.stage.kind === 'night0';
      if (c && night && OWED_KINDS.has(what) && (await played(c, to.userId)))
        return 'who owes a night action, to a host who plays';
      return null;
    }
    case 'member':
      if (PRIVATE_KINDS.has(what)) return `a private kind (${what}) to someone not at the table`;
      return null;
    case 'team':
      return membersViolation(w, ctx, (c, userId) => {
        // The living holders of the black seats who know each other (G-4, M-2; G-5: who has left
        // takes no further part).
        const s = c.state;
        const seat = c.seats.find((x) => x.userId === userId);
        if (!s || !seat || !inMafiaCircle(s, seat.role)) return false;
        return s.result !== null || s.players[seat.seat - 1]!.alive;
      });
    case 'spectators':
      return membersViolation(w, ctx, (c, userId) => {
        const s = c.state;
        if (!s || s.result !== null) return true;
        const seat = c.seats.find((x) => x.userId === userId);
        return !seat || !s.players[seat.seat - 1]!.alive;
      });
  }
}

/** A thread's members being added (its making, or a change of members) must all be allowed there. */
async function membersViolation(
  w: OutboxWrite,
  ctx: LazyCtx,
  allowed: (c: GameCtx, userId: string) => boolean,
): Promise<string | null> {
  const p = w.payload as { members?: unknown; remove?: boolean } | null;
  if (!p || !Array.isArray(p.members) || p.remove) return null;
  const c = await ctx();
  if (!c) return null;
  const wrong = (p.members as string[]).filter((u) => !allowed(c, u));
  return wrong.length > 0 ? `may not be in this thread: ${wrong.join(', ')}` : null;
}
