// Asynchronous play (issue 10), the Discord side: durable DM reminders before deadlines, quiet
// hours, absent players flagged to the host, substitute calls with volunteers, and the "Game so
// far" summary. Everything players see is written to the outbox inside the change's transaction
// (or, for a reminder, in its own transaction with a key per seat and stage: exactly once).
import { ButtonStyle } from 'discord-api-types/v10';
import { MessageFlags, type ButtonInteraction, type StringSelectMenuInteraction } from 'discord.js';
import { StringSelectMenuBuilder } from '@discordjs/builders';
import type { GameEffect, GameService } from '../app/game-service';
import { owedIsSecret, owedSeats, quietDeadline, reminderTimes } from '../app/async-rules';
import { inQuietHours } from '../app/quiet-hours';
import { Scheduler, type TimerHost } from '../app/scheduler';
import { gameSettings } from '../app/async-play';
import type { AsyncStore, SubstituteCall } from '../db/async-store';
import type { GameRow, Store } from '../db/store';
import type { OutboxStore } from '../delivery/outbox-store';
import type { GameState, Seat } from '../engine/types';
import { prompts } from '../engine/view';
import { t, type Locale, type MessageKey } from '../i18n';
import { userLocale, type Contexts } from './context';
import { encodeId, type CustomId } from './custom-id';
import { channelDest, dmDest, threadOpsDest } from './planner';
import { button, mentions, row, seatTag, userOf, type GameCtx, type Payload } from './render/common';
import { refusalText, stageLine } from './render/game';
import { soFarReply } from './render/so-far';

export { gameSettings } from '../app/async-play';
export { soFarText } from './render/so-far';

type Component = ButtonInteraction | StringSelectMenuInteraction;
type AsyncId = Extract<CustomId, { kind: 'async' }>;

export class AsyncPlay {
  readonly scheduler: Scheduler;

  constructor(
    private readonly store: Store,
    private readonly astore: AsyncStore,
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    private readonly service: GameService,
    private readonly now: () => number,
    private readonly kick: () => void,
    timers?: TimerHost,
    /** Whether the bot may create private threads in a channel (null: unknown). */
    private readonly threads: (channelId: string) => boolean | null = () => null,
  ) {
    this.scheduler = new Scheduler((gameId) => this.fire(gameId), now, timers);
  }

  // -------------------------------------------------------------------------------------------
  // Inside the change's transaction

  /** Before the planner: the stage's deadline (quiet hours), reminders, absences. */
  before(e: GameEffect): void {
    switch (e.kind) {
      case 'started':
        for (const s of e.seats) this.astore.addHolder(e.game.id, s.seat, s.userId, 0);
        this.stageBegan(e.game, e.state);
        return;
      case 'action': {
        const { game, prev, state, action } = e;
        if ('seat' in action && action.kind !== 'best') this.astore.acted(game.id, action.seat);
        if (state.result && !prev.result) for (const c of this.astore.openCalls(game.id)) this.closeCall(game, c, null);
        // G-7: the host moved the stage's end (or resumed it): its reminders follow the new end.
        if (state.seq === prev.seq && (action.kind === 'host-resume' || action.kind === 'host-extend')) this.setStageReminders(game, state);
        if (state.seq === prev.seq) return;
        if (action.kind === 'timeout') this.missed(game, prev);
        if (state.stage.kind === 'over' || state.result) this.astore.clearReminders(game.id, this.now());
        else this.stageBegan(game, state);
        return;
      }
      case 'cancelled':
      case 'expired':
        this.astore.clearReminders(e.game.id, this.now());
        for (const c of this.astore.openCalls(e.game.id)) this.closeCall(e.game, c, null);
        return;
      default:
        return;
    }
  }

  /** After the planner (the newcomer's role card goes first; the table's messages before the thread). */
  after(e: GameEffect): void {
    if (e.kind === 'substituted') this.substituted(e.game, e.seat, e.from, e.to);
    else if (e.kind === 'started') this.spectatorsThread(e.game, e.state);
    else if (e.kind === 'action') {
      // M-3: who leaves the table joins the spectators; one brought back (G-7) leaves them.
      const ctx = this.ctx(e.game, e.state);
      const left: string[] = [];
      const back: string[] = [];
      for (const p of e.state.players) {
        const was = e.prev.players[p.seat - 1]!.alive;
        const u = userOf(ctx, p.seat);
        if (!u) continue;
        if (was && !p.alive) left.push(u);
        else if (!was && p.alive) back.push(u);
      }
      if (left.length > 0) this.members(e.game, left, false);
      if (back.length > 0) this.members(e.game, back, true);
    }
  }

  // -------------------------------------------------------------------------------------------
  // The spectators' thread (M-3): private, so living players cannot read it

  private spectatorsThread(game: GameRow, state: GameState): void {
    if (this.threads(game.channelId) !== true) return;
    const ctx = this.ctx(game, state);
    const loc = ctx.pub;
    const lines = [t(loc, 'spectators.welcome', { id: game.id })];
    if (gameSettings(game).spectatorRoles) {
      lines.push('', t(loc, 'spectators.roles'));
      for (const p of state.players) lines.push(`${seatTag(ctx, p.seat)} — ${t(loc, `role.${p.role}` as MessageKey)}`);
    } else lines.push(t(loc, 'spectators.publicOnly'));
    const now = this.now();
    const welcome: Payload = { content: lines.join('\n'), allowed_mentions: mentions() };
    this.outbox.add(game.id, threadOpsDest(game.channelId, 'spectators'), 'thread', { name: t(loc, 'spectators.name', { id: game.id }), members: [], welcome, slot: 'spectators' }, now, { meta: { what: 'spectators' }, key: 'spectators' });
    this.outbox.setSlot(game.id, 'spectators', 'thread', `th:${game.id}`, { locked: false }, now);
    this.outbox.sentSlot(game.id, 'spectators', 1);
  }

  private hasSpectators(gameId: number): boolean {
    return this.outbox.slot(gameId, 'spectators') !== null;
  }

  /** Adds (or removes) members of the spectators' thread, in order after its creation. */
  private members(game: GameRow, users: string[], remove: boolean, key?: string): void {
    if (!this.hasSpectators(game.id)) return;
    this.outbox.add(game.id, threadOpsDest(game.channelId, 'spectators'), 'thread', { members: users, slot: 'spectators', ...(remove ? { remove: true } : {}) }, this.now(), { meta: { what: 'spectators' }, ...(key ? { key } : {}) });
  }

  /** Whether a user pressed Watch in this game. */
  private watched(gameId: number, userId: string): boolean {
    return this.outbox.rows(gameId).some((r) => r.key === `watch:${userId}`);
  }

  /** A stage began: in async its deadline leaves quiet hours; its reminders are set. */
  private stageBegan(game: GameRow, state: GameState): void {
    const settings = gameSettings(game);
    if (state.deadline !== null && !state.paused) {
      const shifted = quietDeadline(state.deadline, state.pace, settings.quietHours);
      if (shifted !== null && shifted > state.deadline) this.store.extendDeadline(game.id, state.seq, shifted);
    }
    this.setStageReminders(game, state);
  }

  /** The reminders of the current stage, from now to its (stored) end. */
  private setStageReminders(game: GameRow, state: GameState): void {
    const settings = gameSettings(game);
    const now = this.now();
    const row = this.store.deadlineOf(game.id);
    const end = state.deadline === null || state.paused ? null : row && row.stageSeq === state.seq ? Math.max(row.dueAt, state.deadline) : state.deadline;
    const owes = owedSeats(state).length > 0;
    this.astore.setReminders(game.id, state.seq, owes ? reminderTimes(now, end, state.pace, settings.reminders, settings.quietHours) : [], now);
  }

  /** A stage's timer ran out: whoever still owed an action let one more pass. */
  private missed(game: GameRow, prev: GameState): void {
    const settings = gameSettings(game);
    // Live games are watched by their host in the moment; a speech left to its timer is no absence there.
    if (settings.absentAfter === 0 || prev.pace !== 'async') return;
    const seats = this.store.players(game.id);
    // N-13: a host who plays must not learn who acts at night from this.
    const hostPlays = seats.some((s) => s.userId === game.hostId);
    if (hostPlays && owedIsSecret(prev)) return;
    const now = this.now();
    for (const seat of owedSeats(prev)) {
      if (!prev.players[seat - 1]!.alive) continue; // last words left unsaid: he has left anyway
      const n = this.astore.miss(game.id, seat);
      const holder = this.astore.holder(game.id, seat);
      if (n < settings.absentAfter || !holder || holder.flaggedAt !== null) continue;
      this.astore.flag(game.id, seat, now);
      const ctx = this.ctx(game, prev);
      const loc = userLocale(ctx, game.hostId);
      const payload: Payload = {
        content: `${t(loc, 'absent.flag', { id: game.id, seat: seatTag(ctx, seat), count: n })}\n${t(loc, 'absent.hint')}`,
        components: [row(button({ kind: 'async', game: game.id, op: 'call', n: seat }, t(loc, 'absent.call', { seat }), ButtonStyle.Primary))],
        allowed_mentions: mentions(),
      };
      this.outbox.add(game.id, dmDest(game.hostId), 'post', payload, now, { key: `absent:${seat}:${prev.moves}`, meta: { what: 'absent' } });
    }
  }

  private ctx(game: GameRow, state?: GameState): GameCtx {
    const ctx = this.contexts.fromRow(game);
    if (state) ctx.state = state;
    return ctx;
  }

  private substituted(game: GameRow, seat: Seat, from: string, to: string): void {
    const state = this.service.state(game.id) ?? this.store.getState(game.id);
    const now = this.now();
    this.astore.replaceHolder(game.id, seat, from, to, state?.moves ?? game.moves);
    // The volunteer's name, for the menus that label seats by name.
    const name = this.astore.openCalls(game.id).find((c) => c.seat === seat)?.names[to];
    const fresh = this.store.getGame(game.id);
    if (name && fresh) this.store.setLobby(game.id, { ...fresh.lobby, names: { ...fresh.lobby.names, [to]: name } }, now);
    // A living player cannot read the spectators' thread: one who watched before taking the seat leaves it.
    if (this.watched(game.id, to) && state?.players[seat - 1]?.alive) this.members(game, [to], true);
    for (const c of this.astore.openCalls(game.id)) if (c.seat === seat) this.closeCall(game, c, to);
    if (!state) return;
    const ctx = this.ctx(game, state);
    const loc = userLocale(ctx, to);
    // The seat's private history: its checks are on the role card; its note (N-11) here.
    const lines = [t(loc, 'sub.welcome', { seat, id: game.id })];
    for (const n of state.notes.filter((x) => x.seat === seat)) lines.push(t(loc, 'sub.note', { target: n.target, night: n.at.n, answer: t(loc, `answer.${n.answer}` as MessageKey) }));
    const live = prompts(state, seat).length > 0;
    if (live) lines.push(t(loc, 'sub.yourMove'));
    const payload: Payload = { content: lines.join('\n'), allowed_mentions: mentions(), ...(live ? { components: [row(button({ kind: 'panel', game: game.id, panel: 'actions' }, t(loc, 'remind.open'), ButtonStyle.Primary))] } : {}) };
    this.outbox.add(game.id, dmDest(to), 'post', payload, now, { meta: { seat, what: 'substitute' } });
    this.outbox.add(game.id, dmDest(from), 'post', { content: t(userLocale(ctx, from), 'sub.leftYou', { seat, id: game.id }), allowed_mentions: mentions() }, now, { meta: { what: 'substitute' } });
  }

  /**
   * The server does not auto-end turns: a stage whose time is up while someone still owes an action
   * waits for the host, who is told (once) who is missing. A host who plays is never told who has
   * not acted at night (N-13): the night then ends by its timer as usual.
   */
  holdTimeout(gameId: number, seq: number): boolean {
    const game = this.store.getGame(gameId);
    const state = this.service.state(gameId);
    if (!game || !state || game.status !== 'running' || state.seq !== seq || gameSettings(game).autoEnd) return false;
    const owed = owedSeats(state);
    if (owed.length === 0) return false;
    const hostPlays = this.store.players(gameId).some((p) => p.userId === game.hostId);
    if (hostPlays && owedIsSecret(state)) return false;
    const ctx = this.ctx(game, state);
    const loc = userLocale(ctx, game.hostId);
    const payload: Payload = {
      content: t(loc, 'overdue.host', { id: game.id, stage: stageLine(ctx, loc, null), who: owed.map((x) => seatTag(ctx, x)).join(', ') }),
      components: [row(...owed.slice(0, 5).map((x) => button({ kind: 'async', game: game.id, op: 'call', n: x }, t(loc, 'absent.call', { seat: x }), ButtonStyle.Secondary)))],
      allowed_mentions: mentions(),
    };
    this.store.transaction(() => this.outbox.add(game.id, dmDest(game.hostId), 'post', payload, this.now(), { key: `overdue:${seq}:${this.store.deadlineOf(gameId)?.dueAt ?? 0}`, meta: { what: 'overdue' } }));
    this.kick();
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Reminders: durable rows, one timer per game for its earliest pending one

  /** After a commit: the game's next reminder is armed. */
  arm(gameId: number): void {
    const next = this.astore.nextReminder(gameId);
    if (next) this.scheduler.arm(gameId, next.stageSeq, next.dueAt);
    else this.scheduler.disarm(gameId);
  }

  /** At start-up: every pending reminder is armed again (overdue ones fire at once). */
  recover(): number {
    const ids = this.astore.gamesWithReminders();
    for (const id of ids) this.arm(id);
    return ids.length;
  }

  /** A reminder is due: whoever still owes an action gets a DM with a button straight to it. */
  fire(gameId: number): void {
    try {
      const game = this.store.getGame(gameId);
      const state = this.service.state(gameId);
      const now = this.now();
      if (!game || !state || game.status !== 'running') {
        this.astore.clearReminders(gameId, now);
        return;
      }
      const settings = gameSettings(game);
      const quiet = settings.quietHours !== null && inQuietHours(now, settings.quietHours);
      const due = this.astore.dueReminders(gameId, now);
      this.store.transaction(() => {
        for (const r of due) {
          this.astore.markReminder(gameId, r.stageSeq, r.kind, now);
          // A stale one (the stage moved on), a paused stage, quiet hours: nothing is sent.
          if (r.stageSeq !== state.seq || state.paused || quiet) continue;
          this.remind(game, state, r.kind, now);
        }
      });
      this.kick();
    } finally {
      this.arm(gameId);
    }
  }

  private remind(game: GameRow, state: GameState, kind: string, now: number): void {
    const ctx = this.ctx(game, state);
    const row0 = this.store.deadlineOf(game.id);
    const end = state.deadline === null ? null : row0 && row0.stageSeq === state.seq ? Math.max(row0.dueAt, state.deadline) : state.deadline;
    const fallback = new Set(game.lobby.fallback ?? []);
    for (const seat of owedSeats(state)) {
      const u = userOf(ctx, seat);
      if (!u || fallback.has(u)) continue;
      const loc = userLocale(ctx, u);
      const st = state.stage.kind;
      const what: MessageKey = st === 'vote' || st === 'voteAll' ? 'remind.vote' : st === 'night' ? 'remind.night' : st === 'window' ? 'remind.window' : st === 'turns' || st === 'shootout' || st === 'lastWords' ? 'remind.speak' : 'remind.other';
      const payload: Payload = {
        content: `${t(loc, 'remind.head', { id: game.id, stage: stageLine(ctx, loc, end) })}\n${t(loc, what)}`,
        components: [row(button({ kind: 'panel', game: game.id, panel: 'actions' }, t(loc, 'remind.open'), ButtonStyle.Primary))],
        allowed_mentions: mentions(),
      };
      // N-13: only by DM, never in public; keyed, so a reminder is sent once whatever happens.
      this.outbox.add(game.id, dmDest(u), 'post', payload, now, { key: `remind:${state.seq}:${kind}:${seat}`, meta: { seat, what: 'reminder' } });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Substitute calls

  private callPayload(game: GameRow, call: SubstituteCall, filledBy: string | null): Payload {
    const loc = this.ctx(game).pub;
    const settings = gameSettings(game);
    const lines = [t(loc, 'subcall.text', { seat: call.seat, id: game.id })];
    if (filledBy) lines.push(t(loc, 'subcall.filled', { seat: call.seat, user: `<@${filledBy}>` }));
    else if (call.status !== 'open') lines.push(t(loc, 'subcall.closed'));
    else {
      lines.push(t(loc, settings.autoSubstitute ? 'subcall.auto' : 'subcall.hostPicks'));
      lines.push(call.volunteers.length > 0 ? t(loc, 'subcall.volunteers', { who: call.volunteers.map((u) => `<@${u}>`).join(', ') }) : t(loc, 'subcall.noVolunteers'));
    }
    const open = call.status === 'open' && !filledBy;
    const components: NonNullable<Payload['components']> = [];
    if (open) {
      components.push(row(button({ kind: 'async', game: game.id, op: 'vol', n: call.id }, t(loc, 'subcall.volunteer'), ButtonStyle.Success)));
      if (!settings.autoSubstitute && call.volunteers.length > 0) {
        const menu = new StringSelectMenuBuilder()
          .setCustomId(encodeId({ kind: 'async', game: game.id, op: 'pick', n: call.id }))
          .setPlaceholder(t(loc, 'subcall.pick'))
          .addOptions(call.volunteers.slice(0, 25).map((u) => ({ label: (call.names[u] ?? u).slice(0, 100), value: u })));
        components.push(row(menu));
      }
    }
    return { content: lines.join('\n'), components, allowed_mentions: mentions() };
  }

  private closeCall(game: GameRow, call: SubstituteCall, filledBy: string | null): void {
    this.astore.closeCall(call.id, filledBy ? 'filled' : 'closed');
    const closed = { ...call, status: filledBy ? ('filled' as const) : ('closed' as const) };
    this.outbox.setSlot(game.id, `subcall:${call.id}`, 'message', channelDest(game.channelId), this.callPayload(game, closed, filledBy), this.now());
  }

  private async reply(i: Component, content: string): Promise<void> {
    const body = { content, flags: MessageFlags.Ephemeral as const, allowedMentions: { parse: [] as [] } };
    if (i.deferred || i.replied) await i.followUp(body);
    else await i.reply(body);
  }

  /** A click's answer showed this version of the slot's message; an older one that won the race is edited again. */
  private shown(gameId: number, key: string, version: number, messageId: string): void {
    if (this.outbox.shownSlot(gameId, key, version, messageId)) this.kick();
  }

  /** The message a click came from, brought to its slot's newest version (free: the interaction's answer). */
  private async show(i: Component, gameId: number, key: string): Promise<void> {
    const slot = this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id) return void (await i.deferUpdate());
    const p = JSON.parse(slot.payload) as Payload;
    await i.update({ content: p.content ?? '', embeds: p.embeds ?? [], components: p.components ?? [], allowedMentions: { parse: [] } });
    this.shown(gameId, key, slot.version, i.message.id);
  }

  async component(i: Component, loc: Locale, game: GameRow, id: AsyncId, isHost: () => boolean): Promise<void> {
    switch (id.op) {
      case 'sofar':
        return this.soFar(i, loc, game);
      case 'call':
        return this.call(i, loc, game, id.n ?? 0, isHost);
      case 'vol':
      case 'pick':
        return this.volunteer(i, loc, game, id.n ?? 0, id.op, isHost);
      case 'watch':
        return this.watch(i, loc, game);
    }
  }

  /** "Watch": a member who is not at the table joins the spectators' thread (M-3). */
  private async watch(i: Component, loc: Locale, game: GameRow): Promise<void> {
    if (!i.inGuild()) return this.reply(i, `⛔ ${t(loc, 'refusal.input/forged')}`);
    const state = this.service.state(game.id);
    if (!state || (game.status !== 'running' && game.status !== 'post-game')) return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/not-running')}`);
    const seat = this.store.players(game.id).find((p) => p.userId === i.user.id)?.seat;
    if (seat !== undefined && state.players[seat - 1]!.alive && !state.result) return this.reply(i, `⛔ ${t(loc, 'refusal.spectators/living')}`);
    if (!this.hasSpectators(game.id)) return this.reply(i, `⛔ ${t(loc, 'refusal.spectators/none')}`);
    this.store.transaction(() => this.members(game, [i.user.id], false, `watch:${i.user.id}`));
    this.kick();
    const thread = this.outbox.slot(game.id, 'spectators')?.messageId;
    return this.reply(i, `✅ ${t(loc, 'spectators.added', { id: game.id })}${thread ? ` <#${thread}>` : ''}`);
  }

  private async call(i: Component, loc: Locale, game: GameRow, seat: number, isHost: () => boolean): Promise<void> {
    if (!isHost()) return this.reply(i, `⛔ ${t(loc, 'refusal.host/not-host')}`);
    if (game.status !== 'running') return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/not-running')}`);
    if (!this.store.players(game.id).some((p) => p.seat === seat)) return this.reply(i, `⛔ ${refusalText(loc, 'seat/unknown')}`);
    if (this.astore.openCall(game.id, seat)) return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/open')}`);
    const now = this.now();
    this.store.transaction(() => {
      const c = this.astore.createCall(game.id, seat, now);
      this.outbox.setSlot(game.id, `subcall:${c.id}`, 'message', channelDest(game.channelId), this.callPayload(game, c, null), now, { meta: { what: 'subcall' } });
    });
    this.kick();
    return this.reply(i, `✅ ${t(loc, 'subcall.posted', { seat })}`);
  }

  private findCall(gameId: number, id: number): SubstituteCall | null {
    return this.astore.openCalls(gameId).find((c) => c.id === id) ?? null;
  }

  private async volunteer(i: Component, loc: Locale, game: GameRow, callId: number, op: 'vol' | 'pick', isHost: () => boolean): Promise<void> {
    if (!i.inGuild()) return this.reply(i, `⛔ ${t(loc, 'refusal.input/forged')}`);
    const call = this.findCall(game.id, callId);
    if (!call || game.status !== 'running') return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/closed')}`);
    const settings = gameSettings(game);
    const key = `subcall:${call.id}`;
    if (op === 'pick') {
      if (!isHost()) return this.reply(i, `⛔ ${t(loc, 'refusal.host/not-host')}`);
      const pick = i.isStringSelectMenu() ? i.values[0] : undefined;
      if (!pick || !call.volunteers.includes(pick)) return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/not-volunteer')}`);
      const r = await this.service.substitute(game.id, call.seat, pick, `host:${i.user.id}`, 'substitute call');
      if (!r.ok) return this.reply(i, `⛔ ${refusalText(loc, r.code)}`);
      await this.show(i, game.id, key);
      return this.reply(i, `✅ ${t(loc, 'subcall.picked', { seat: call.seat, user: `<@${pick}>` })}`);
    }
    const userId = i.user.id;
    // The host sees every role (his panel): he may not take a seat; players are already seated.
    if (userId === game.hostId || this.store.players(game.id).some((p) => p.userId === userId)) return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/playing')}`);
    if (call.volunteers.includes(userId)) return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/already')}`);
    // N-13: one who has seen every role in the spectators' thread may not play the game.
    if (settings.spectatorRoles && this.watched(game.id, userId)) return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/watched')}`);
    if (settings.autoSubstitute) {
      const r = await this.service.substitute(game.id, call.seat, userId, `user:${userId}`, 'first volunteer');
      if (!r.ok) return this.reply(i, `⛔ ${refusalText(loc, r.code)}`);
      return this.show(i, game.id, key);
    }
    const name = (i.member && 'displayName' in i.member ? i.member.displayName : null) ?? i.user.displayName ?? i.user.username;
    const next = { ...call, volunteers: [...call.volunteers, userId], names: { ...call.names, [userId]: String(name).slice(0, 60) } };
    this.store.transaction(() => {
      this.astore.setVolunteers(call.id, next.volunteers, next.names);
      this.outbox.setSlot(game.id, key, 'message', channelDest(game.channelId), this.callPayload(game, next, null), this.now());
    });
    await this.show(i, game.id, key);
    this.kick();
    return this.reply(i, `✅ ${t(loc, 'subcall.thanks')}`);
  }

  // -------------------------------------------------------------------------------------------
  // The game so far

  private async soFar(i: Component, loc: Locale, game: GameRow): Promise<void> {
    if (!game.deal || game.startedAt === null) return this.reply(i, `⛔ ${t(loc, 'refusal.game/not-started')}`);
    const ctx = this.ctx(game);
    await i.reply({ ...soFarReply(ctx, loc, game, this.store, this.astore.holders(game.id)), flags: MessageFlags.Ephemeral });
  }
}
