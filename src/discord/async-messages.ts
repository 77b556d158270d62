// What players see of asynchronous play (issue 10), written to the outbox where the rules in
// src/app/async-play.ts say: the host's notices (absences, overdue stages), reminder DMs,
// substitute calls, the spectators' thread (M-3) and the substitute's welcome.
import { ButtonStyle } from 'discord-api-types/v10';
import { StringSelectMenuBuilder } from '@discordjs/builders';
import { gameSettings, type AsyncView, type ReminderTo } from '../app/async-play';
import type { SubstituteCall } from '../db/async-store';
import type { GameRow } from '../db/store';
import type { OutboxStore } from '../db/outbox-store';
import type { GameState, Seat } from '../engine/types';
import { prompts } from '../engine/view';
import { t, type MessageKey } from '../i18n';
import { userLocale, type Contexts } from './context';
import { encodeId } from './custom-id';
import { channelDest, dmDest, threadOpsDest } from './destinations';
import { button, mentions, row, seatTag, type GameCtx, type Payload } from './render/common';
import { stageLine } from './render/game';

/**
 * The spectators' thread's slot: its desired members (M-3, computed by the rules in
 * src/app/async-play.ts), and who pressed Watch (kept here, the thread's own record).
 */
interface SpectatorsSlot {
  locked: boolean;
  members: string[];
  watchers: string[];
}

export class AsyncMessages implements AsyncView {
  constructor(
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    /** Whether the bot may create private threads in a channel (null: unknown). */
    private readonly threads: (channelId: string) => boolean | null = () => null,
  ) {}

  private async ctx(game: GameRow, state?: GameState): Promise<GameCtx> {
    const ctx = await this.contexts.fromRow(game);
    if (state) ctx.state = state;
    return ctx;
  }

  // -------------------------------------------------------------------------------------------
  // The spectators' thread (M-3): private, so living players cannot read it

  async spectatorsThread(game: GameRow, state: GameState, now: number): Promise<void> {
    if (this.threads(game.channelId) !== true) return;
    const ctx = await this.ctx(game, state);
    const loc = ctx.pub;
    const lines = [t(loc, 'spectators.welcome', { id: game.id })];
    if (gameSettings(game).spectatorRoles) {
      lines.push('', t(loc, 'spectators.roles'));
      for (const p of state.players) {
        lines.push(`${seatTag(ctx, p.seat)} — ${t(loc, `role.${p.role}` as MessageKey)}`);
      }
    } else lines.push(t(loc, 'spectators.publicOnly'));
    const welcome: Payload = { content: lines.join('\n'), allowed_mentions: mentions() };
    const name = t(loc, 'spectators.name', { id: game.id });
    // Made once; who is in it is the slot's desired state (spectators), applied by the deliverer.
    const body = { name, welcome, slot: 'spectators' };
    const dest = threadOpsDest(game.channelId, 'spectators');
    await this.outbox.add(game.id, dest, 'thread', body, now, { meta: { what: 'spectators' }, key: 'spectators' });
    const payload: SpectatorsSlot = { locked: false, members: [], watchers: [] };
    await this.outbox.setSlot(game.id, 'spectators', 'thread', `th:${game.id}`, payload, now);
    await this.outbox.sentSlot(game.id, 'spectators', 1);
  }

  async watchers(gameId: number): Promise<string[] | null> {
    const slot = await this.outbox.slot(gameId, 'spectators');
    if (!slot) return null;
    const p = JSON.parse(slot.payload) as Partial<SpectatorsSlot>;
    if (p.watchers) return p.watchers;
    // A game begun before the watchers were kept in the slot: its Watch rows (`watch:<user>`).
    return (await this.outbox.rows(gameId))
      .filter((r) => r.key?.startsWith('watch:'))
      .map((r) => r.key!.slice('watch:'.length));
  }

  async spectators(game: GameRow, members: string[], watchers: string[], now: number): Promise<void> {
    const slot = await this.outbox.slot(game.id, 'spectators');
    if (!slot) return;
    const payload: SpectatorsSlot = { locked: false, members, watchers };
    await this.outbox.setSlot(game.id, 'spectators', 'thread', slot.dest, payload, now);
  }

  // -------------------------------------------------------------------------------------------
  // The host's notices and the players' reminders (N-13: only by DM)

  async absent(game: GameRow, state: GameState, seat: Seat, count: number, key: string, now: number): Promise<void> {
    const ctx = await this.ctx(game, state);
    const loc = userLocale(ctx, game.hostId);
    const call = { kind: 'async' as const, game: game.id, op: 'call' as const, n: seat };
    const payload: Payload = {
      content: `${t(loc, 'absent.flag', { id: game.id, seat: seatTag(ctx, seat), count })}\n${t(loc, 'absent.hint')}`,
      components: [row(button(call, t(loc, 'absent.call', { seat }), ButtonStyle.Primary))],
      allowed_mentions: mentions(),
    };
    await this.outbox.add(game.id, dmDest(game.hostId), 'post', payload, now, { key, meta: { what: 'absent' } });
  }

  async overdue(game: GameRow, state: GameState, owed: readonly Seat[], key: string, now: number): Promise<void> {
    const ctx = await this.ctx(game, state);
    const loc = userLocale(ctx, game.hostId);
    const who = owed.map((x) => seatTag(ctx, x)).join(', ');
    const calls = owed.slice(0, 5).map((x) => {
      const id = { kind: 'async' as const, game: game.id, op: 'call' as const, n: x };
      return button(id, t(loc, 'absent.call', { seat: x }), ButtonStyle.Secondary);
    });
    const payload: Payload = {
      content: t(loc, 'overdue.host', { id: game.id, stage: stageLine(ctx, loc, null), who }),
      components: [row(...calls)],
      allowed_mentions: mentions(),
    };
    await this.outbox.add(game.id, dmDest(game.hostId), 'post', payload, now, { key, meta: { what: 'overdue' } });
  }

  async reminders(
    game: GameRow,
    state: GameState,
    to: readonly ReminderTo[],
    end: number | null,
    now: number,
  ): Promise<void> {
    const ctx = await this.ctx(game, state);
    const st = state.stage.kind;
    const speech = st === 'turns' || st === 'shootout' || st === 'lastWords';
    const what: MessageKey =
      st === 'vote' || st === 'voteAll'
        ? 'remind.vote'
        : st === 'night'
          ? 'remind.night'
          : st === 'window'
            ? 'remind.window'
            : speech
              ? 'remind.speak'
              : 'remind.other';
    for (const { seat, userId, key } of to) {
      const loc = userLocale(ctx, userId);
      const open = { kind: 'panel' as const, game: game.id, panel: 'actions' as const };
      const payload: Payload = {
        content: `${t(loc, 'remind.head', { id: game.id, stage: stageLine(ctx, loc, end) })}\n${t(loc, what)}`,
        components: [row(button(open, t(loc, 'remind.open'), ButtonStyle.Primary))],
        allowed_mentions: mentions(),
      };
      await this.outbox.add(game.id, dmDest(userId), 'post', payload, now, { key, meta: { seat, what: 'reminder' } });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Substitute calls

  async callPayload(game: GameRow, call: SubstituteCall, filledBy: string | null): Promise<Payload> {
    const loc = (await this.ctx(game)).pub;
    const settings = gameSettings(game);
    const lines = [t(loc, 'subcall.text', { seat: call.seat, id: game.id })];
    if (filledBy) lines.push(t(loc, 'subcall.filled', { seat: call.seat, user: `<@${filledBy}>` }));
    else if (call.status !== 'open') lines.push(t(loc, 'subcall.closed'));
    else {
      lines.push(t(loc, settings.autoSubstitute ? 'subcall.auto' : 'subcall.hostPicks'));
      const who = call.volunteers.map((u) => `<@${u}>`).join(', ');
      lines.push(call.volunteers.length > 0 ? t(loc, 'subcall.volunteers', { who }) : t(loc, 'subcall.noVolunteers'));
    }
    const open = call.status === 'open' && !filledBy;
    const components: NonNullable<Payload['components']> = [];
    if (open) {
      const vol = { kind: 'async' as const, game: game.id, op: 'vol' as const, n: call.id };
      components.push(row(button(vol, t(loc, 'subcall.volunteer'), ButtonStyle.Success)));
      if (!settings.autoSubstitute && call.volunteers.length > 0) {
        const menu = new StringSelectMenuBuilder()
          .setCustomId(encodeId({ kind: 'async', game: game.id, op: 'pick', n: call.id }))
          .setPlaceholder(t(loc, 'subcall.pick'))
          .addOptions(
            call.volunteers.slice(0, 25).map((u) => ({ label: (call.names[u] ?? u).slice(0, 100), value: u })),
          );
        components.push(row(menu));
      }
    }
    return { content: lines.join('\n'), components, allowed_mentions: mentions() };
  }

  async call(
    game: GameRow,
    call: SubstituteCall,
    filledBy: string | null,
    now: number,
    created: boolean,
  ): Promise<void> {
    // A call made at night is posted at daybreak: one closed before then was never shown.
    if (!created && !(await this.outbox.slot(game.id, `subcall:${call.id}`))) return;
    const payload = await this.callPayload(game, call, filledBy);
    const opts = created ? { meta: { what: 'subcall' } } : undefined;
    await this.outbox.setSlot(
      game.id,
      `subcall:${call.id}`,
      'message',
      channelDest(game.channelId),
      payload,
      now,
      opts,
    );
  }

  async substituted(game: GameRow, state: GameState, seat: Seat, from: string, to: string, now: number): Promise<void> {
    const ctx = await this.ctx(game, state);
    const loc = userLocale(ctx, to);
    // The seat's private history: its checks are on the role card; its note (N-11) here.
    const lines = [t(loc, 'sub.welcome', { seat, id: game.id })];
    for (const n of state.notes.filter((x) => x.seat === seat)) {
      const answer = t(loc, `answer.${n.answer}` as MessageKey);
      lines.push(t(loc, 'sub.note', { target: n.target, night: n.at.n, answer }));
    }
    const live = prompts(state, seat).length > 0;
    if (live) lines.push(t(loc, 'sub.yourMove'));
    const open = { kind: 'panel' as const, game: game.id, panel: 'actions' as const };
    const panel = { components: [row(button(open, t(loc, 'remind.open'), ButtonStyle.Primary))] };
    const payload: Payload = { content: lines.join('\n'), allowed_mentions: mentions(), ...(live ? panel : {}) };
    await this.outbox.add(game.id, dmDest(to), 'post', payload, now, { meta: { seat, what: 'substitute' } });
    const leftYou = t(userLocale(ctx, from), 'sub.leftYou', { seat, id: game.id });
    const left = { content: leftYou, allowed_mentions: mentions() };
    await this.outbox.add(game.id, dmDest(from), 'post', left, now, { meta: { what: 'substitute' } });
  }
}
