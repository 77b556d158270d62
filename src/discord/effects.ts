// Effects: what the bot sends to Discord after the game service has committed a change.
// Public messages go to the game channel in the game's language; private ones by DM in the
// player's language. Nothing public is sent for a night action (N-13): not a message, not an edit.
import { PermissionFlagsBits, Routes, type Client, type GuildTextBasedChannel } from 'discord.js';
import type { GameEffect } from '../app/game-service';
import type { GameRow } from '../db/store';
import type { Action, GameEvent, GameState, Seat } from '../engine/types';
import { channelWriters, inMafiaCircle, mafiaTalkOpen, publicView, seatView } from '../engine/view';
import { t } from '../i18n';
import { type Contexts, type LiveMessage, uiOf, userLocale } from './context';
import type { Deliver } from './deliver';
import { disableAll, mentions, seatTag, userOf, type GameCtx } from './render/common';
import { checkLine, eventLine, pointsPayload, promptPanel, resultPayload, roleCard, stageMessage, tablePayload } from './render/game';
import { lobbyPayload, type LobbyExtra } from './render/lobby';

const SEND = PermissionFlagsBits.SendMessages;

export class Effects {
  constructor(
    private readonly client: Client,
    private readonly deliver: Deliver,
    private readonly contexts: Contexts,
  ) {}

  async handle(e: GameEffect): Promise<void> {
    switch (e.kind) {
      case 'lobby':
        await this.lobby(e.game);
        return;
      case 'started':
        await this.started(e.game);
        return;
      case 'action':
        await this.action(e.game, e.prev, e.state, e.events, e.action);
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

  async lobby(game: GameRow, extra: LobbyExtra = {}): Promise<void> {
    const ctx = this.contexts.fromRow(game);
    const payload = lobbyPayload(game, ctx.pub, extra);
    const ui = uiOf(game);
    if (ui.lobbyMessageId) {
      const r = await this.deliver.edit(game.channelId, ui.lobbyMessageId, payload);
      if (r.ok || r.failure !== 'not-found') return;
    }
    const sent = await this.deliver.send(game.channelId, payload);
    if (sent.ok) this.contexts.saveUi(this.fresh(game), { lobbyMessageId: sent.value.id });
  }

  /** The game row as stored now (the effect's copy may predate later UI updates). */
  private fresh(game: GameRow): GameRow {
    return this.contexts.row(game.id) ?? game;
  }

  private async started(game: GameRow): Promise<void> {
    const ctx = this.contexts.fromRow(this.fresh(game));
    await this.lobby(ctx.game, { status: 'started' });
    const s = ctx.state!;
    // The table, pinned.
    const table = await this.deliver.send(game.channelId, tablePayload(ctx));
    if (table.ok) {
      this.contexts.saveUi(ctx.game, { tableMessageId: table.value.id });
      await this.deliver.pin(game.channelId, table.value.id);
    }
    // Role cards by DM (G-4: the black players learn each other as the rules say).
    const noDm: string[] = [];
    for (const seat of ctx.seats) {
      const r = await this.deliver.dm(seat.userId, roleCard(ctx, seat.seat, userLocale(ctx, seat.userId)));
      if (!r.ok) noDm.push(seat.userId);
    }
    if (noDm.length > 0) {
      this.contexts.saveUi(ctx.game, { noDm });
      const seats = ctx.seats.filter((x) => noDm.includes(x.userId)).map((x) => x.seat);
      await this.deliver.send(game.channelId, { content: t(ctx.pub, 'start.noDm', { seats: seats.map((x) => seatTag(ctx, x)).join(', ') }), allowed_mentions: mentions(noDm) });
    }
    await this.mafiaThread(ctx);
    await this.renderStage(ctx, s);
  }

  /** M-2: a private thread for the black players who know each other (G-4), open on night 0. */
  private async mafiaThread(ctx: GameCtx): Promise<void> {
    const s = ctx.state!;
    const channel = this.channel(ctx.game.channelId);
    const me = this.client.user;
    if (!channel || !me || !('threads' in channel)) return;
    const perms = channel.permissionsFor(me);
    if (!perms?.has(PermissionFlagsBits.CreatePrivateThreads) || !perms.has(PermissionFlagsBits.SendMessagesInThreads)) return;
    const members = s.players.filter((p) => inMafiaCircle(s, p.role));
    const thread = await this.deliver.createPrivateThread(ctx.game.channelId, t(ctx.pub, 'thread.name', { id: ctx.game.id }));
    if (!thread.ok) return;
    this.contexts.saveUi(ctx.game, { threadId: thread.value.id, threadLocked: false });
    for (const p of members) {
      const u = userOf(ctx, p.seat);
      if (u) await this.deliver.addThreadMember(thread.value.id, u);
    }
    const lines = members.map((p) => `${seatTag(ctx, p.seat)} — ${t(ctx.pub, `role.${p.role}` as never)}`);
    const when = s.options.mafiaTalk === 'every-night' ? t(ctx.pub, 'thread.everyNight') : t(ctx.pub, 'thread.night0');
    await this.deliver.send(thread.value.id, { content: `${t(ctx.pub, 'thread.welcome')}\n${lines.join('\n')}\n\n${when}`, allowed_mentions: mentions(members.map((p) => userOf(ctx, p.seat)!).filter(Boolean)) });
  }

  private async action(game: GameRow, prev: GameState, state: GameState, events: readonly GameEvent[], action: Action): Promise<void> {
    const ctx = this.contexts.fromRow(this.fresh(game));
    ctx.state = state;
    // Announcements (public events) in order, in as few messages as possible.
    const lines: string[] = [];
    for (const ev of events) {
      if (ev.to.kind !== 'public') continue;
      if (ev.body.type === 'game-over') {
        await this.flush(ctx, lines);
        await this.deliver.send(game.channelId, resultPayload(ctx));
        continue;
      }
      if (ev.body.type === 'points') {
        await this.flush(ctx, lines);
        await this.deliver.send(game.channelId, pointsPayload(ctx));
        continue;
      }
      const line = eventLine(ctx, ev.body);
      if (line) lines.push(line);
    }
    await this.flush(ctx, lines);
    // Private news: check answers (unless the checker's own click already showed it), freezes.
    for (const ev of events) {
      if (ev.to.kind === 'seat') {
        const u = userOf(ctx, ev.to.seat);
        if (!u) continue;
        const loc = userLocale(ctx, u);
        if (ev.body.type === 'check-result') {
          const shown = 'seat' in action && action.seat === ev.to.seat;
          if (!shown) await this.deliver.dm(u, { content: checkLine(ctx, loc, ev.body), allowed_mentions: mentions() });
        } else if (ev.body.type === 'frozen') {
          await this.deliver.dm(u, { content: t(loc, 'dm.frozen'), allowed_mentions: mentions() });
        }
      } else if (ev.to.kind === 'mafia' && ev.body.type === 'shot-picked') {
        await this.tellMafia(ctx, state, ev.body.seat, ev.body.target);
      }
    }
    if (state.seq !== prev.seq) await this.renderStage(ctx, state);
    // The table changes only when what the public may see changed (never for a night action).
    if (JSON.stringify(publicView(prev)) !== JSON.stringify(publicView(state))) await this.editTable(ctx);
  }

  /** The other living shooters see a teammate's pick (the table's "gestures"). */
  private async tellMafia(ctx: GameCtx, s: GameState, seat: Seat, target: Seat): Promise<void> {
    const ui = uiOf(ctx.game);
    if (ui.threadId && !ui.threadLocked) {
      await this.deliver.send(ui.threadId, { content: t(ctx.pub, 'dm.shotPicked', { seat: seatTag(ctx, seat), target: seatTag(ctx, target) }), allowed_mentions: mentions() });
      return;
    }
    for (const p of s.players) {
      if (!p.alive || p.seat === seat || (p.role !== 'mafia' && p.role !== 'don')) continue;
      const u = userOf(ctx, p.seat);
      if (u) await this.deliver.dm(u, { content: t(userLocale(ctx, u), 'dm.shotPicked', { seat: seatTag(ctx, seat), target: seatTag(ctx, target) }), allowed_mentions: mentions() });
    }
  }

  private async flush(ctx: GameCtx, lines: string[]): Promise<void> {
    if (lines.length === 0) return;
    let chunk = '';
    for (const line of lines.splice(0)) {
      if (chunk && chunk.length + line.length + 2 > 1900) {
        await this.deliver.send(ctx.game.channelId, { content: chunk, allowed_mentions: mentions() });
        chunk = '';
      }
      chunk = chunk ? `${chunk}\n\n${line}` : line.slice(0, 1900);
    }
    if (chunk) await this.deliver.send(ctx.game.channelId, { content: chunk, allowed_mentions: mentions() });
  }

  async editTable(ctx: GameCtx): Promise<void> {
    const id = uiOf(ctx.game).tableMessageId;
    if (!id) return;
    const r = await this.deliver.edit(ctx.game.channelId, id, tablePayload(ctx));
    if (!r.ok && r.failure === 'not-found') {
      const sent = await this.deliver.send(ctx.game.channelId, tablePayload(ctx));
      if (sent.ok) {
        this.contexts.saveUi(ctx.game, { tableMessageId: sent.value.id });
        await this.deliver.pin(ctx.game.channelId, sent.value.id);
      }
    }
  }

  /**
   * A new stage or turn: close the old one's buttons, post the new one's message, DM the night
   * prompts, and set who may write (M-1, M-3) and whether the mafia may talk (M-2).
   */
  async renderStage(ctx: GameCtx, s: GameState): Promise<void> {
    const ui = uiOf(ctx.game);
    for (const m of ui.live ?? []) await this.disable(m);
    const live: LiveMessage[] = [];
    const msg = stageMessage(ctx);
    if (msg) {
      const sent = await this.deliver.send(ctx.game.channelId, msg.payload);
      if (sent.ok && msg.interactive) {
        live.push({ channelId: ctx.game.channelId, messageId: sent.value.id });
        this.remember(sent.value.id, msg.payload.components);
      }
    }
    if (s.stage.kind === 'night') {
      for (const seat of ctx.seats) {
        if (seatView(s, seat.seat).prompts.length === 0) continue;
        const panel = promptPanel(ctx, seat.seat, userLocale(ctx, seat.userId));
        const sent = await this.deliver.dm(seat.userId, panel);
        if (sent.ok) {
          live.push({ channelId: sent.value.channel_id, messageId: sent.value.id });
          this.remember(sent.value.id, panel.components);
        }
      }
    }
    this.contexts.saveUi(ctx.game, { live, liveSeq: s.seq, renderedSeq: s.seq });
    await this.permissions(ctx, s);
    await this.thread(ctx, s);
  }

  private async disable(m: LiveMessage): Promise<void> {
    const components = this.sentComponents.get(m.messageId) ?? (await this.fetchComponents(m));
    this.sentComponents.delete(m.messageId);
    if (!components || components.length === 0) return;
    await this.deliver.edit(m.channelId, m.messageId, { components: disableAll(components) });
  }

  /** Components of the live messages we sent (so closing a stage needs no extra read). */
  private readonly sentComponents = new Map<string, unknown[]>();

  private remember(messageId: string, components: unknown[] | undefined): void {
    if (!components || components.length === 0) return;
    this.sentComponents.set(messageId, components);
    if (this.sentComponents.size > 5000) this.sentComponents.delete(this.sentComponents.keys().next().value!);
  }

  /** After a restart the components are read back from Discord. */
  private async fetchComponents(m: LiveMessage): Promise<unknown[] | null> {
    try {
      const raw = (await this.client.rest.get(Routes.channelMessage(m.channelId, m.messageId))) as { components?: unknown[] };
      return raw.components ?? [];
    } catch {
      return null;
    }
  }

  private channel(channelId: string): GuildTextBasedChannel | null {
    const ch = this.client.channels.cache.get(channelId);
    return ch && 'guild' in ch ? (ch as GuildTextBasedChannel) : null;
  }

  /** M-1, M-3: who may write in the game channel; without the permission, tell the host once. */
  async permissions(ctx: GameCtx, s: GameState | null): Promise<void> {
    const channel = this.channel(ctx.game.channelId);
    const me = this.client.user;
    const ui = uiOf(ctx.game);
    const can = channel && me && 'permissionOverwrites' in channel ? channel.permissionsFor(me)?.has(PermissionFlagsBits.ManageRoles) === true : false;
    if (!can) {
      if (!ui.permWarned && s && s.stage.kind !== 'over') {
        this.contexts.saveUi(ctx.game, { permWarned: true });
        await this.deliver.send(ctx.game.channelId, { content: t(ctx.pub, 'perm.cannotManage', { host: `<@${ctx.game.hostId}>` }), allowed_mentions: mentions([ctx.game.hostId]) });
      }
      return;
    }
    const current = { ...(ui.perms ?? {}) };
    const writers = s ? channelWriters(s) : { mode: 'everyone' as const };
    const done = !s || writers.mode === 'everyone' || ['cancelled', 'expired'].includes(ctx.game.status);
    if (done) {
      for (const u of Object.keys(current)) {
        await this.deliver.deleteOverwrite(ctx.game.channelId, u);
        delete current[u];
      }
    } else {
      const allowed = new Set(writers.mode === 'seats' ? writers.seats : []);
      for (const seat of ctx.seats) {
        const want = allowed.has(seat.seat);
        if (current[seat.userId] === want) continue;
        const r = await this.deliver.setMemberOverwrite(ctx.game.channelId, seat.userId, want ? SEND : 0n, want ? 0n : SEND);
        if (r.ok) current[seat.userId] = want;
      }
      for (const u of Object.keys(current)) {
        if (!ctx.seats.some((x) => x.userId === u)) {
          await this.deliver.deleteOverwrite(ctx.game.channelId, u);
          delete current[u];
        }
      }
    }
    this.contexts.saveUi(ctx.game, { perms: current });
  }

  /** M-2: open the mafia thread when they may talk, lock it when they may not. */
  private async thread(ctx: GameCtx, s: GameState): Promise<void> {
    const ui = uiOf(ctx.game);
    if (!ui.threadId) return;
    const open = mafiaTalkOpen(s);
    if (open === !ui.threadLocked) return;
    const r = await this.deliver.setThreadLocked(ui.threadId, !open);
    if (r.ok) this.contexts.saveUi(ctx.game, { threadLocked: !open });
  }

  private async closed(game: GameRow, kind: 'expired' | 'cancelled'): Promise<void> {
    const ctx = this.contexts.fromRow(this.fresh(game));
    if (ctx.state === null || game.status === 'lobby' || uiOf(ctx.game).tableMessageId === undefined) {
      await this.lobby(ctx.game, { status: kind });
      return;
    }
    for (const m of uiOf(ctx.game).live ?? []) await this.disable(m);
    this.contexts.saveUi(ctx.game, { live: [] });
    await this.deliver.send(game.channelId, { content: t(ctx.pub, kind === 'cancelled' ? 'game.cancelled' : 'lobby.status.expired', { id: game.id }), allowed_mentions: mentions() });
    await this.permissions(ctx, null);
    const threadId = uiOf(ctx.game).threadId;
    if (threadId) await this.deliver.setThreadLocked(threadId, true);
    const tableId = uiOf(ctx.game).tableMessageId;
    if (tableId) await this.deliver.edit(game.channelId, tableId, { components: [] });
  }

  private async substituted(game: GameRow, seat: Seat, from: string, to: string): Promise<void> {
    const ctx = this.contexts.fromRow(this.fresh(game));
    await this.deliver.send(game.channelId, { content: t(ctx.pub, 'event.substituted', { seat, from: `<@${from}>`, to: `<@${to}>` }), allowed_mentions: mentions([to]) });
    if (ctx.state) {
      await this.deliver.dm(to, roleCard(ctx, seat, userLocale(ctx, to)));
      await this.permissions(ctx, ctx.state);
      await this.editTable(ctx);
    }
  }

  /** After a restart: put the table right and send the current stage if it was never sent. */
  async recover(gameId: number): Promise<void> {
    const ctx = this.contexts.build(gameId);
    if (!ctx?.state) return;
    if (uiOf(ctx.game).renderedSeq !== ctx.state.seq) await this.renderStage(ctx, ctx.state);
    await this.editTable(ctx);
  }

}
