// The planner: what players must see because of a change, written to the outbox inside the same
// SQLite transaction as the change itself (so "the game moved on" and "the message will go out"
// cannot disagree). It only renders and writes rows; the deliverer sends them.
//
// - One-shot posts (role cards, announcements, check answers) go to the outbox in order.
// - What the bot keeps editing is a slot with a desired state: the table, the lobby, each stage's
//   message, each night panel, the channel's permissions, the mafia thread's lock and members.
// - Announcements ride in the next stage's message when there is one (one message per stage).
// - Nothing public is written for a night action (N-13): not a message, not an edit.
import type { GameEffect } from '../app/game-service';
import type { GameRow } from '../db/store';
import type { OutboxStore } from '../db/outbox-store';
import type { Action, GameEvent, GameState, Seat } from '../engine/types';
import { channelWriters, mafiaTalkOpen } from '../engine/view';
import { t } from '../i18n';
import { type Contexts, userLocale } from './context';
import { mentions, seatTag, userOf, type GameCtx, type Payload } from './render/common';
import { announcement, endLine, pointsPayload, resultEmbed } from './render/news';
import { tablePayload } from './render/game';
import { checkLine, closedPanel, confirmation, panelPayload, roleCard } from './render/panel';
import { lobbyPayload } from './render/lobby';
import { achievementsPayload } from './render/achievements';
import { planHostNews, resultsElsewhere, undoNews } from './host-news';
import { ChannelAccess, type ChannelCaps } from './channel-access';
import { closedMessage, StageMessages } from './stage-messages';
import { channelDest, dmDest } from './destinations';

export type { ChannelCaps } from './channel-access';

export class Planner {
  private readonly access: ChannelAccess;
  private readonly stages: StageMessages;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    caps: (channelId: string) => ChannelCaps | null,
    private readonly now: () => number,
    /** Issue 24: the achievements a game earned (written by its closing, in this transaction). */
    private readonly earnedIn?: (gameId: number) => Promise<{ userId: string; code: string }[]>,
  ) {
    this.access = new ChannelAccess(outbox, caps, now);
    this.stages = new StageMessages(outbox, contexts, now);
  }

  /** Inside the change's transaction: awaits nothing but storage. */
  async plan(e: GameEffect): Promise<void> {
    switch (e.kind) {
      case 'lobby':
        await this.lobby(e.game);
        return;
      case 'started':
        await this.started(e.game, e.state);
        return;
      case 'action':
        await this.action(e.game, e.prev, e.state, e.events, e.action, e.undone, e.actor === 'system');
        return;
      case 'annulled':
      case 'transferred':
        await planHostNews(this.outbox, this.contexts, e, this.now());
        if (e.kind === 'transferred' && e.game.status === 'lobby') await this.lobby(e.game);
        else if (e.kind === 'transferred') await this.access.threadLock(await this.contexts.fromRow(e.game));
        return;
      case 'expired':
      case 'cancelled':
        await this.closed(e.game, e.kind);
        return;
      case 'substituted':
        await this.substituted(e.game, e.seat, e.from, e.to);
        return;
    }
  }

  // -------------------------------------------------------------------------------------------

  private async lobby(game: GameRow): Promise<void> {
    const ctx = await this.contexts.fromRow(game);
    const status =
      game.status === 'lobby'
        ? undefined
        : game.status === 'cancelled'
          ? 'cancelled'
          : game.status === 'expired'
            ? 'expired'
            : 'started';
    const payload = lobbyPayload(game, ctx.pub, {
      unreachable: game.lobby.unreachable ?? [],
      ...(status ? { status } : {}),
    });
    await this.outbox.setSlot(game.id, 'lobby', 'message', channelDest(game.channelId), payload, this.now(), {
      repost: game.status === 'lobby',
    });
  }

  /** The table: a pinned message, posted again if it is deleted. */
  private async table(ctx: GameCtx): Promise<void> {
    await this.outbox.setSlot(
      ctx.game.id,
      'table',
      'message',
      channelDest(ctx.game.channelId),
      tablePayload(ctx),
      this.now(),
      { repost: true, pin: true },
    );
  }

  private async started(game: GameRow, state: GameState): Promise<void> {
    // The slots this plan writes, read at once (the lobby's, the table's, the first stage's and its
    // panels; the thread's and the permissions'), with the seats.
    await Promise.all([
      this.outbox.primeSlots(game.id, ['lobby', 'table', `stage:${state.seq}`], `panel:${state.seq}:`),
      this.contexts.seats(game.id),
    ]);
    const ctx = await this.contexts.fromRow(game);
    ctx.state = state;
    const now = this.now();
    await this.lobby(game);
    await this.table(ctx);
    // Role cards by DM (G-4: the black players learn each other as the rules say).
    for (const seat of ctx.seats) {
      if ((game.lobby.fallback ?? []).includes(seat.userId)) continue;
      await this.outbox.add(
        game.id,
        dmDest(seat.userId),
        'post',
        roleCard(ctx, seat.seat, userLocale(ctx, seat.userId)),
        now,
        { meta: { seat: seat.seat, what: 'card' } },
      );
    }
    await this.access.mafiaThread(ctx);
    await this.stages.stage(ctx, []);
    await this.access.permissions(ctx);
  }

  /**
   * The reads of an action's plan, at once (ServiceHooks.prefetch; PostgreSQL: one round trip,
   * sent with the transaction's BEGIN and the game's row): the slots it reads (the thread's, the
   * permissions', the live stage messages and night panels, the next stage's message and the
   * actor's panel; the table when it is brought up to date, a night's panels when it opens) and
   * the seats.
   * Kept in the transaction's cache.
   */
  async prefetch(gameId: number, e: { prev: GameState; state: GameState; action: Action }): Promise<void> {
    const nightOpens = e.state.seq !== e.prev.seq && e.state.stage.kind === 'night';
    const keys = [
      `stage:${e.state.seq}`,
      ...('seat' in e.action ? [`panel:${e.prev.seq}:${e.action.seat}`] : []),
      ...(tableDue(e.prev, e.state) ? ['table'] : []),
    ];
    await Promise.all([
      this.outbox.primeSlots(gameId, keys, nightOpens ? `panel:${e.state.seq}:` : undefined),
      this.contexts.seats(gameId),
    ]);
  }

  private async action(
    game: GameRow,
    prev: GameState,
    state: GameState,
    events: readonly GameEvent[],
    action: Action,
    undone?: Action,
    system = false,
  ): Promise<void> {
    // What this plan reads (prefetch), when the service did not read it with the game's row.
    await this.prefetch(game.id, { prev, state, action });
    const ctx = await this.contexts.fromRow(game);
    ctx.state = state;
    const now = this.now();
    const stageChanged = state.seq !== prev.seq;
    // Public news, in order. It rides in the next stage's message when the stage changed.
    const lines: string[] = [];
    const embeds: NonNullable<Payload['embeds']> = [];
    let points = false;
    for (const ev of events) {
      if (ev.to.kind !== 'public') continue;
      // Issue 20: the clock a lost channel stopped is not "the host's pause" (the lifecycle says why).
      if (system && ev.body.type === 'clock') continue;
      if (ev.body.type === 'game-over') {
        // E-5: the end leads: who won and why first, then the news that led to it, roles and points.
        lines.unshift(endLine(ctx, ev.body));
        embeds.push(resultEmbed(ctx));
      } else if (ev.body.type === 'points') points = true;
      else {
        const line = announcement(ctx, ev.body, events);
        if (line) lines.push(line);
      }
    }
    // Private news: check answers the checker did not see in his own click, freezes.
    for (const ev of events) {
      if (ev.to.kind === 'seat') {
        const u = userOf(ctx, ev.to.seat);
        if (!u) continue;
        const loc = userLocale(ctx, u);
        const own = 'seat' in action && action.seat === ev.to.seat;
        if (ev.body.type === 'check-result' && !own) {
          await this.outbox.add(
            game.id,
            dmDest(u),
            'post',
            { content: `🔎 ${checkLine(ctx, loc, ev.body)}`, allowed_mentions: mentions() },
            now,
            { meta: { seat: ev.to.seat, what: 'check' } },
          );
        } else if (ev.body.type === 'frozen') {
          await this.outbox.add(
            game.id,
            dmDest(u),
            'post',
            { content: t(loc, 'dm.frozen'), allowed_mentions: mentions() },
            now,
            { meta: { seat: ev.to.seat, what: 'frozen' } },
          );
        }
      } else if (ev.to.kind === 'mafia' && ev.body.type === 'shot-picked') {
        await this.tellMafia(ctx, ev.body.seat, ev.body.target);
      }
    }
    // G-7: what players were told is corrected: a day's undo is said in public (the stage's message
    // is re-rendered below); a night's only in the actor's own panel (N-13).
    if (undone) await undoNews(this.outbox, ctx, prev, undone, lines, now);
    // The actor's own night panel shows what he did (and a check's answer).
    if ('seat' in action && prev.stage.kind === 'night') {
      const u = userOf(ctx, action.seat);
      const slot = await this.outbox.slot(game.id, `panel:${prev.seq}:${action.seat}`);
      // Only the seat's holder's own panel: one the seat had before a substitution is not his.
      if (u && slot && slot.dest === dmDest(u)) {
        const loc = userLocale(ctx, u);
        const note = confirmation(ctx, loc, action.seat, action, events);
        const payload = stageChanged
          ? closedPanel(ctx, loc, action.seat, prev, note)
          : panelPayload(ctx, action.seat, loc, note);
        await this.outbox.setSlot(
          game.id,
          slot.key,
          'message',
          slot.dest,
          payload,
          now,
          stageChanged ? { state: 'stale', current: slot } : { current: slot },
        );
      }
    }
    if (stageChanged) {
      await this.stages.closeStage(ctx, prev, action);
      await this.stages.stage(ctx, lines, embeds);
    } else {
      // Same stage: its own message shows what changed (a nomination, who has voted, who is done).
      // A night message never changes (N-13), so a night action writes nothing public.
      await this.stages.refreshStage(ctx, lines, action);
    }
    if (points) {
      await this.outbox.add(game.id, channelDest(game.channelId), 'post', pointsPayload(ctx), now, {
        meta: { what: 'points' },
      });
      await resultsElsewhere(this.outbox, ctx, pointsPayload(ctx), now);
      await this.achievements(ctx);
    }
    if (tableDue(prev, state)) await this.table(ctx);
    // M-1, M-3: who may write, whenever it changes (a new stage, a player who leaves or comes back
    // mid-stage, a window's pass, a foul that takes a right away); never because of a night action.
    if (stageChanged || writersKey(prev) !== writersKey(state)) await this.access.permissions(ctx);
    // M-2, G-5, G-7: the mafia thread's lock, and its members after any change of who is at the table.
    await this.access.threadLock(ctx);
  }

  /**
   * Issue 24: the achievements the game's closing earned, announced once in its channel: the rows
   * were written by the closing's own transaction (src/stats/record.ts), and so is this post, keyed
   * per game (the outbox's nonce keeps it to one message after a crash). A rebuild writes the rows
   * again without a planner: it never announces.
   */
  private async achievements(ctx: GameCtx): Promise<void> {
    if (!this.earnedIn) return;
    const payload = achievementsPayload(ctx.pub, ctx.game.id, await this.earnedIn(ctx.game.id));
    if (!payload) return;
    await this.outbox.add(ctx.game.id, channelDest(ctx.game.channelId), 'post', payload, this.now(), {
      meta: { what: 'achievements' },
      key: 'achievements',
    });
  }

  /** The other living shooters see a teammate's pick (the table's "gestures"). */
  private async tellMafia(ctx: GameCtx, seat: Seat, target: Seat): Promise<void> {
    const s = ctx.state!;
    const now = this.now();
    const thread = await this.outbox.slot(ctx.game.id, 'thread');
    if (thread?.messageId && mafiaTalkOpen(s)) {
      await this.outbox.add(
        ctx.game.id,
        `th:${ctx.game.id}`,
        'post',
        {
          content: t(ctx.pub, 'dm.shotPicked', { seat: seatTag(ctx, seat), target: seatTag(ctx, target) }),
          allowed_mentions: mentions(),
        },
        now,
        { meta: { what: 'gesture' } },
      );
      return;
    }
    // Only to those who have still to shoot tonight: they choose knowing it; the others have chosen.
    const shots = s.stage.kind === 'night' ? s.stage.acts.shots : [];
    for (const p of s.players) {
      if (!p.alive || p.seat === seat || (p.role !== 'mafia' && p.role !== 'don')) continue;
      if ((shots[p.seat - 1] ?? 0) !== 0) continue;
      const u = userOf(ctx, p.seat);
      if (u)
        await this.outbox.add(
          ctx.game.id,
          dmDest(u),
          'post',
          {
            content: t(userLocale(ctx, u), 'dm.shotPicked', { seat: seatTag(ctx, seat), target: seatTag(ctx, target) }),
            allowed_mentions: mentions(),
          },
          now,
          { meta: { seat: p.seat, what: 'gesture' } },
        );
    }
  }

  private async closed(game: GameRow, kind: 'expired' | 'cancelled'): Promise<void> {
    const ctx = await this.contexts.fromRow(game);
    const now = this.now();
    await this.lobby(game);
    if (!ctx.state) return;
    for (const slot of await this.outbox.liveSlots(game.id))
      await this.outbox.setSlot(game.id, slot.key, 'message', slot.dest, closedMessage(slot, ctx.pub), now, {
        state: 'closed',
      });
    await this.outbox.add(
      game.id,
      channelDest(game.channelId),
      'post',
      {
        content: t(ctx.pub, kind === 'cancelled' ? 'game.cancelled' : 'lobby.status.expired', { id: game.id }),
        allowed_mentions: mentions(),
      },
      now,
      { meta: { what: kind } },
    );
    await this.table(ctx);
    await this.access.permissions(ctx, true);
    await this.access.threadLock(ctx, true);
  }

  private async substituted(game: GameRow, seat: Seat, from: string, to: string): Promise<void> {
    const ctx = await this.contexts.fromRow(game);
    const now = this.now();
    // The seat's open night panel in the old holder's DMs is closed for good: what the seat does
    // from now on is the newcomer's (he plays it from "My actions"), never shown to the old holder.
    for (const slot of await this.outbox.liveSlots(game.id)) {
      if (!slot.key.startsWith('panel:') || !slot.key.endsWith(`:${seat}`) || slot.dest !== dmDest(from)) continue;
      const closed = {
        content: t(userLocale(ctx, from), 'sub.leftYou', { seat, id: game.id }),
        components: [],
        allowed_mentions: mentions(),
      };
      await this.outbox.setSlot(game.id, slot.key, 'message', slot.dest, closed, now, {
        state: 'closed',
        meta: { what: 'closed' },
      });
    }
    await this.outbox.add(
      game.id,
      channelDest(game.channelId),
      'post',
      {
        content: t(ctx.pub, 'event.substituted', { seat, from: `<@${from}>`, to: `<@${to}>` }),
        allowed_mentions: mentions([to]),
      },
      now,
      { meta: { what: 'substitute' } },
    );
    if (!ctx.state) return;
    await this.outbox.add(game.id, dmDest(to), 'post', roleCard(ctx, seat, userLocale(ctx, to)), now, {
      meta: { seat, what: 'card' },
    });
    await this.access.permissions(ctx);
    await this.access.threadLock(ctx); // M-2: the newcomer takes the seat's place in the mafia thread
    await this.table(ctx);
  }
}

/**
 * The pinned table is the round's register: it is brought up to date each morning and when the
 * game is over (what happens in between — votes, fouls, rulings — is told in the stage messages).
 * Never for a night action (N-13). (While the best-player vote is open, its message shows the
 * result and every role.) G-7: the table says when the host has stopped the clock.
 */
function tableDue(prev: GameState, state: GameState): boolean {
  const morning = prev.clock.phase === 'night' && state.clock.phase === 'day';
  const over = state.stage.kind === 'over' && prev.stage.kind !== 'over';
  const pause = !!state.paused !== !!prev.paused;
  return morning || over || pause;
}

/** Who may write in the channel and who is at the table: a change of either changes the overwrites. */
function writersKey(s: GameState): string {
  return `${JSON.stringify(channelWriters(s))}|${s.players.map((p) => (p.alive ? 1 : 0)).join('')}`;
}
