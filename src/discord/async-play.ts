// Asynchronous play (issue 10), the Discord side: the buttons of its messages (Game so far,
// substitute calls and their volunteers, Watch) and their answers. The rules (reminders, quiet
// hours, absences, substitute calls, the timers) are in src/app/async-play.ts; what players see
// is written by AsyncMessages (src/discord/async-messages.ts).
import { MessageFlags, type ButtonInteraction, type StringSelectMenuInteraction } from 'discord.js';
import type { GameEffect, GameService } from '../app/game-service';
import { AsyncPlayRules, type AsyncRefusal } from '../app/async-play';
import { joinRefusal } from '../app/conduct';
import type { Scheduler, TimerHost } from '../app/scheduler';
import type { AsyncStore } from '../db/async-store';
import type { GameRow, Store } from '../db/store';
import type { OutboxStore } from '../db/outbox-store';
import { t, type Locale } from '../i18n';
import { AsyncMessages } from './async-messages';
import type { ClickAnswers } from './click-answers';
import { conductRefusalText } from './conduct';
import type { Contexts } from './context';
import { refuse, say } from './reply';
import type { CustomId } from './custom-id';
import { refusalText } from './render/words';
import { soFarReply } from './render/so-far';

export { gameSettings } from '../app/async-play';
export { soFarText } from './render/so-far';

type Component = ButtonInteraction | StringSelectMenuInteraction;
type AsyncId = Extract<CustomId, { kind: 'async' }>;

export class AsyncPlay {
  /** The rules (no discord.js): what the game service's hooks and the buttons call. */
  readonly rules: AsyncPlayRules;
  readonly scheduler: Scheduler;
  private readonly messages: AsyncMessages;

  constructor(
    private readonly store: Store,
    astore: AsyncStore,
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    service: GameService,
    private readonly answers: ClickAnswers,
    private readonly now: () => number,
    private readonly kick: () => void,
    timers?: TimerHost,
    /** Whether the bot may create private threads in a channel (null: unknown). */
    threads: (channelId: string) => boolean | null = () => null,
  ) {
    this.messages = new AsyncMessages(outbox, contexts, threads);
    const view = this.messages;
    this.rules = new AsyncPlayRules({ store, astore, service, view, now, kick, ...(timers ? { timers } : {}) });
    this.scheduler = this.rules.scheduler;
  }

  // -------------------------------------------------------------------------------------------
  // The game service's hooks (the rules)

  /** Before the planner: the stage's deadline (quiet hours), reminders, absences. */
  before(e: GameEffect): Promise<void> {
    return this.rules.before(e);
  }

  /** After the planner (the newcomer's role card goes first; the table's messages before the thread). */
  after(e: GameEffect): Promise<void> {
    return this.rules.after(e);
  }

  /** A stage's time is up while someone still owes an action: held for the host (see the rules). */
  holdTimeout(gameId: number, seq: number): Promise<boolean> {
    return this.rules.holdTimeout(gameId, seq);
  }

  /** After a commit: the game's next reminder is armed. */
  arm(gameId: number): Promise<void> {
    return this.rules.arm(gameId);
  }

  /** At start-up: every pending reminder is armed again (overdue ones fire at once). */
  recover(): Promise<number> {
    return this.rules.recover();
  }

  /** A reminder is due: whoever still owes an action gets a DM with a button straight to it. */
  fire(gameId: number): Promise<void> {
    return this.rules.fire(gameId);
  }

  // -------------------------------------------------------------------------------------------
  // Buttons

  private reply(i: Component, content: string): Promise<void> {
    return say(i, content);
  }

  private refuse(i: Component, loc: Locale, r: AsyncRefusal): Promise<void> {
    return refuse(i, refusalText(loc, r.code));
  }

  /** The message a click came from, brought to its slot's newest version (free: the interaction's answer). */
  private async show(i: Component, gameId: number, key: string): Promise<void> {
    await this.answers.showSlot(i, gameId, key);
  }

  async component(
    i: Component,
    loc: Locale,
    game: GameRow,
    id: AsyncId,
    isHost: () => Promise<boolean>,
  ): Promise<void> {
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
    const refused = await this.rules.watch(game, i.user.id);
    if (refused) return this.refuse(i, loc, refused);
    const thread = (await this.outbox.slot(game.id, 'spectators'))?.messageId;
    return this.reply(i, `✅ ${t(loc, 'spectators.added', { id: game.id })}${thread ? ` <#${thread}>` : ''}`);
  }

  private async call(
    i: Component,
    loc: Locale,
    game: GameRow,
    seat: number,
    isHost: () => Promise<boolean>,
  ): Promise<void> {
    if (!(await isHost())) return this.reply(i, `⛔ ${t(loc, 'refusal.host/not-host')}`);
    const refused = await this.rules.callSubstitute(game, seat, i.user.id);
    if (refused) return this.refuse(i, loc, refused);
    const when = (await this.rules.callWaitsForDay(game)) ? 'subcall.atDaybreak' : 'subcall.posted';
    return this.reply(i, `✅ ${t(loc, when, { seat })}`);
  }

  private async volunteer(
    i: Component,
    loc: Locale,
    game: GameRow,
    callId: number,
    op: 'vol' | 'pick',
    isHost: () => Promise<boolean>,
  ): Promise<void> {
    if (!i.inGuild()) return this.reply(i, `⛔ ${t(loc, 'refusal.input/forged')}`);
    const call = await this.rules.openCall(game.id, callId);
    if (!call || game.status !== 'running') return this.reply(i, `⛔ ${t(loc, 'refusal.subcall/closed')}`);
    const key = `subcall:${call.id}`;
    if (op === 'pick') {
      if (!(await isHost())) return this.reply(i, `⛔ ${t(loc, 'refusal.host/not-host')}`);
      const pick = i.isStringSelectMenu() ? i.values[0] : undefined;
      const refused = await this.rules.pick(game, call, pick, i.user.id);
      if (refused) return this.refuse(i, loc, refused);
      await this.show(i, game.id, key);
      return this.reply(i, `✅ ${t(loc, 'subcall.picked', { seat: call.seat, user: `<@${pick}>` })}`);
    }
    const member = i.member && 'displayName' in i.member ? i.member.displayName : null;
    const name = member ?? i.user.displayName ?? i.user.username;
    // Issue 24: a member barred or paused is told why and until when (the service refuses him too).
    const barred = await joinRefusal(this.store, game.guildId, i.user.id, game.rated, this.now());
    if (barred) return this.reply(i, `⛔ ${conductRefusalText(loc, barred)}`);
    const r = await this.rules.volunteer(game, call, i.user.id, String(name));
    if (!r.ok) return this.refuse(i, loc, r);
    if (r.seated) return this.show(i, game.id, key);
    await this.show(i, game.id, key);
    this.kick();
    return this.reply(i, `✅ ${t(loc, 'subcall.thanks')}`);
  }

  // -------------------------------------------------------------------------------------------
  // The game so far

  private async soFar(i: Component, loc: Locale, game: GameRow): Promise<void> {
    if (!game.deal || game.startedAt === null) return this.reply(i, `⛔ ${t(loc, 'refusal.game/not-started')}`);
    const ctx = await this.contexts.fromRow(game);
    const reply = soFarReply(ctx, loc, game, await this.store.log(game.id), await this.rules.holders(game.id));
    await i.reply({ ...reply, flags: MessageFlags.Ephemeral });
  }
}
