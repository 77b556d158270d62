// A game action's buttons and menus (`v1:a:…`): votes, nominations, shots, checks, heals, the
// best move, in the channel, in a DM panel or in a private panel. The clicking user is checked
// against the seat: a custom id grants nothing by itself.
import { MessageFlags } from 'discord.js';
import type { DispatchResult, GameService } from '../../app/game-service';
import { NO_TURN, type Turn } from '../../app/keyed-queue';
import type { GameRow, Store } from '../../db/store';
import type { Action, RefusalCode, Seat } from '../../engine/types';
import { seatView } from '../../engine/view';
import { t, toLocale, type Locale, type MessageKey } from '../../i18n';
import type { ClickAnswers, Slot } from '../click-answers';
import { seatOfUser, userLocale, type Contexts } from '../context';
import type { CustomId } from '../custom-id';
import { row, seatSelect, type GameCtx } from '../render/common';
import { confirmation, panelPayload } from '../render/panel';
import { refusalText } from '../render/words';
import { refuse, say, timely, toReply, type Component } from '../reply';

type ActId = Extract<CustomId, { kind: 'act' }>;

/** Engine action for a component, or a refusal code. */
export function actionFor(id: ActId, seat: Seat, values: readonly string[], players: number): Action | RefusalCode {
  const seq = id.seq;
  const one = (): Seat | null => {
    if (values.length !== 1 || !/^\d{1,2}$/.test(values[0]!)) return null;
    const v = Number(values[0]);
    return v >= 1 && v <= players ? v : null;
  };
  switch (id.verb) {
    case 'pass':
    case 'askDon':
    case 'skip':
      return { kind: id.verb, seat, seq };
    case 'vote':
      return typeof id.arg === 'number' && id.arg <= players
        ? { kind: 'vote', seat, target: id.arg, seq }
        : 'input/forged';
    case 'voteAll':
      return id.arg === 'y' || id.arg === 'n' ? { kind: 'voteAll', seat, choice: id.arg === 'y', seq } : 'input/forged';
    case 'nominate':
    case 'shoot':
    case 'check':
    case 'heal':
    case 'freeze':
    case 'kill':
    case 'take':
    case 'best': {
      const target = one();
      return target === null ? 'input/bad-choice' : { kind: id.verb, seat, target, seq };
    }
    case 'checkNote': {
      const target = one();
      return target === null ? 'input/bad-choice' : { kind: 'check', seat, target, note: true, seq };
    }
    case 'guess': {
      if (values.length < 2 || values.length > 3 || values.some((v) => !/^\d{1,2}$/.test(v))) return 'input/bad-choice';
      const targets = values.map(Number);
      return targets.some((x) => x < 1 || x > players) ? 'input/bad-choice' : { kind: 'guess', seat, targets, seq };
    }
    case 'menu':
      return 'input/forged';
  }
}

/** A DM panel speaks the player's stored language; an ephemeral one the language of the click. */
function privateLoc(i: Component, ctx: GameCtx, loc: Locale): Locale {
  return i.inGuild() ? loc : (toLocale(i.locale) ?? userLocale(ctx, i.user.id));
}

export class ActControls {
  constructor(
    private readonly service: GameService,
    private readonly store: Store,
    private readonly contexts: Contexts,
    private readonly answers: ClickAnswers,
  ) {}

  /** `turn`: this click's place among its game's clicks (src/discord/router.ts); released once its action is queued. */
  async click(i: Component, loc: Locale, game: GameRow, id: ActId, turn: Turn = NO_TURN): Promise<void> {
    if (game.status !== 'running' && game.status !== 'post-game') {
      return refuse(i, refusalText(loc, game.status === 'lobby' ? 'game/not-started' : 'game/over'), turn);
    }
    const ctx = await this.contexts.fromRow(game);
    const seat = seatOfUser(ctx, i.user.id);
    if (seat === null) return refuse(i, t(loc, 'refusal.player/not-playing'), turn);
    if (id.verb === 'menu') {
      turn.release(); // a menu only opens: nothing is queued
      return this.menu(i, loc, ctx, seat, id);
    }
    const values = i.isStringSelectMenu() ? i.values : [];
    const action = actionFor(id, seat, values, ctx.seats.length);
    if (typeof action === 'string') return refuse(i, refusalText(loc, action), turn);
    // The message's slot; a click can come before the bot has recorded the new message's id.
    const slot = await this.answers.slotOfMessage(
      i,
      game.id,
      i.inGuild() ? `stage:${id.seq}` : `panel:${id.seq}:${seat}`,
    );
    const r = await timely(i, true, async () => {
      await turn.ready;
      const queued = this.service.dispatch(game.id, action, `user:${i.user.id}`);
      turn.release();
      return queued;
    });
    if (!r.ok) {
      const text = refusalText(loc, r.code);
      if (await this.answers.refuseClosed(i, slot, text)) return;
      return refuse(i, text);
    }
    const flush = await this.answers.claimPosts(i);
    try {
      await this.answer(i, loc, game, seat, id, action, r, slot);
    } finally {
      await flush();
    }
  }

  private async answer(
    i: Component,
    loc: Locale,
    game: GameRow,
    seat: Seat,
    id: ActId,
    action: Action,
    r: Extract<DispatchResult, { ok: true }>,
    slot: Slot | null,
  ): Promise<void> {
    const fresh = await this.contexts.fromRow((await this.store.getGame(game.id)) ?? game);
    fresh.state = r.state;
    const note = confirmation(fresh, privateLoc(i, fresh, loc), seat, action, r.events);
    const shown = slot && slot.gameId === game.id ? slot.key : null;
    await this.answers.settle(game.id, [`stage:${id.seq}`, `panel:${id.seq}:${seat}`], shown);
    if (slot && slot.gameId === game.id) {
      // A public stage message or a DM panel: it shows the result itself (who has voted, the
      // nomination, the check's answer, the turn closed).
      if (!(await this.answers.showNewest(i, slot)) && !i.deferred) await i.deferUpdate();
      // A vote is secret until the tally: the voter alone is told what he chose.
      if (i.inGuild() && (action.kind === 'vote' || action.kind === 'voteAll' || action.kind === 'best')) {
        await i.followUp({ content: note, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
      }
      return;
    }
    // An ephemeral panel ("My actions", for players without DMs) or a one-choice menu.
    const privateMsg = i.message.flags.has(MessageFlags.Ephemeral);
    if (!privateMsg) return say(i, note);
    const menuOnly = i.message.components.length === 1 && ['nominate', 'guess', 'take'].includes(id.verb);
    const panel = !menuOnly && fresh.state.stage.kind !== 'over';
    const body = panel
      ? toReply(panelPayload(fresh, seat, privateLoc(i, fresh, loc), note))
      : { ...toReply({ content: note }), components: [] };
    if (i.deferred) await i.editReply(body);
    else await i.update(body);
  }

  /** An ephemeral menu for one choice (nominate, best move, take), for the player who may make it. */
  private async menu(i: Component, loc: Locale, ctx: GameCtx, seat: Seat, id: ActId): Promise<void> {
    const s = ctx.state!;
    if (id.seq !== s.seq) return refuse(i, refusalText(loc, 'stage/stale'));
    const verb = id.arg;
    const prompt = seatView(s, seat).prompts.find((p) => p.kind === verb);
    if (!prompt || !('targets' in prompt)) {
      return refuse(i, refusalText(loc, verb === 'nominate' ? 'nominate/not-your-turn' : 'action/not-now'));
    }
    const range: [number, number] = prompt.kind === 'guess' ? [2, 3] : [1, 1];
    const customId = { kind: 'act', game: ctx.game.id, seq: s.seq, verb: prompt.kind as never } as const;
    const menu = seatSelect(ctx, customId, t(loc, `prompt.${prompt.kind}` as MessageKey), prompt.targets, range);
    const content = t(loc, `menu.${prompt.kind}` as MessageKey);
    await i.reply({ content, components: [row(menu)], flags: MessageFlags.Ephemeral });
  }
}
