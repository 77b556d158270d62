// Who may write in the game channel (M-1, M-3) and the mafia's private thread (M-2), as desired
// states in the outbox: the member overwrites the bot sets, the thread, its lock and its members.
import type { OutboxStore } from '../db/outbox-store';
import type { GameState } from '../engine/types';
import { channelWriters, inMafiaCircle, mafiaTalkOpen } from '../engine/view';
import { t } from '../i18n';
import { channelDest, threadOpsDest } from './destinations';
import { mentions, seatTag, userOf, type GameCtx, type Payload } from './render/common';

/** What the bot may do in a channel (from the gateway cache); null when unknown. */
export interface ChannelCaps {
  manageRoles: boolean;
  threads: boolean;
}

export class ChannelAccess {
  constructor(
    private readonly outbox: OutboxStore,
    private readonly caps: (channelId: string) => ChannelCaps | null,
    private readonly now: () => number,
  ) {}

  /** M-2: a private thread for the black players who know each other (G-4), open on night 0. */
  async mafiaThread(ctx: GameCtx): Promise<void> {
    const s = ctx.state!;
    if (this.caps(ctx.game.channelId)?.threads !== true) return;
    const members = s.players.filter((p) => inMafiaCircle(s, p.role));
    const users = members.map((p) => userOf(ctx, p.seat)).filter((u): u is string => u !== null);
    const lines = members.map((p) => `${seatTag(ctx, p.seat)} — ${t(ctx.pub, `role.${p.role}` as never)}`);
    const when = s.options.mafiaTalk === 'every-night' ? t(ctx.pub, 'thread.everyNight') : t(ctx.pub, 'thread.night0');
    const welcome: Payload = {
      content: `${t(ctx.pub, 'thread.welcome')}\n${lines.join('\n')}\n\n${when}`,
      allowed_mentions: mentions(users),
    };
    const now = this.now();
    // The thread is made once; who is in it is the slot's desired state (threadLock), which the
    // deliverer applies as soon as the thread exists.
    await this.outbox.add(
      ctx.game.id,
      threadOpsDest(ctx.game.channelId),
      'thread',
      { name: t(ctx.pub, 'thread.name', { id: ctx.game.id }), welcome },
      now,
      { meta: { what: 'thread' } },
    );
    const payload = { locked: false, members: mafiaThreadMembers(s, ctx) };
    await this.outbox.setSlot(ctx.game.id, 'thread', 'thread', `th:${ctx.game.id}`, payload, now);
    await this.outbox.sentSlot(ctx.game.id, 'thread', 1);
  }

  /**
   * M-1, M-3: who may write in the game channel, as the desired set of member overwrites. The bot
   * only takes away (a Send Messages deny) and never allows: a player writes when the channel's own
   * settings let him and the bot does not deny him, so a mute role or a moderator's deny still holds.
   */
  async permissions(ctx: GameCtx, finished = false): Promise<void> {
    const caps = this.caps(ctx.game.channelId);
    if (!caps?.manageRoles) {
      if (caps && !finished) {
        await this.outbox.add(
          ctx.game.id,
          channelDest(ctx.game.channelId),
          'notice',
          {
            content: t(ctx.pub, 'perm.cannotManage', { host: `<@${ctx.game.hostId}>` }),
            allowed_mentions: mentions([ctx.game.hostId]),
          },
          this.now(),
          { key: 'perm-warning' },
        );
      }
      return;
    }
    const members: Record<string, 'deny' | null> = {};
    const s = ctx.state;
    const writers = s && !finished ? channelWriters(s) : { mode: 'everyone' as const };
    const allowed = new Set(writers.mode === 'seats' ? writers.seats : []);
    // Coarse by default (a speaking order is kept by the turn messages, not by one call per turn):
    // by day the living may write, at night nobody, the dead never, a dead player's last words yes.
    // A server may enforce the order: then every seat but the speaker's (or the open window's
    // players') is denied; the speaker is not denied, and writes by the channel's own settings.
    const day =
      s && !finished && s.clock.phase === 'day' && writers.mode !== 'everyone' && !ctx.game.lobby.enforceTurns;
    for (const seat of ctx.seats) {
      if (writers.mode === 'everyone') members[seat.userId] = null;
      else if (day) {
        const p = s!.players[seat.seat - 1]!;
        members[seat.userId] = p.alive || allowed.has(seat.seat) ? null : 'deny';
      } else members[seat.userId] = allowed.has(seat.seat) ? null : 'deny';
    }
    await this.outbox.setSlot(
      ctx.game.id,
      'perms',
      'perms',
      channelDest(ctx.game.channelId),
      { channelId: ctx.game.channelId, members },
      this.now(),
      { messageId: ctx.game.channelId },
    );
  }

  /**
   * M-2: the mafia thread is open while the mafia may talk, and holds the living holders of the
   * mafia's seats (see mafiaThreadMembers). Called after every change of the game (an action, an
   * undo, a substitution, a transfer, its end): the slot changes only when this does.
   */
  async threadLock(ctx: GameCtx, forceLocked = false): Promise<void> {
    const s = ctx.state;
    const slot = await this.outbox.slot(ctx.game.id, 'thread');
    if (!slot || !s) return;
    const locked = forceLocked || !mafiaTalkOpen(s);
    const payload = { locked, members: mafiaThreadMembers(s, ctx) };
    await this.outbox.setSlot(ctx.game.id, 'thread', 'thread', slot.dest, payload, this.now(), { current: slot });
  }
}

/**
 * M-2 with G-4 and G-5: who may read the mafia's thread — the users now holding the seats of the
 * mafia's circle (kiev-12's prostitute only where she knows them) who are still at the table. One
 * who leaves the table takes no further part (G-5) and is taken out; one brought back (G-7) comes
 * back; a substitute comes in and the one he replaced goes. A host who plays is a player like any.
 * At the end the thread is locked and keeps who it holds then (nothing secret is left).
 */
export function mafiaThreadMembers(s: GameState, ctx: Pick<GameCtx, 'seats'>): string[] {
  const out: string[] = [];
  for (const p of s.players) {
    if (!p.alive || !inMafiaCircle(s, p.role)) continue;
    const u = ctx.seats.find((x) => x.seat === p.seat)?.userId;
    if (u) out.push(u);
  }
  return out;
}
