// Tournaments on Discord (RULES T-1..T-4): /tournament create, draw, start, final, standings and
// the buttons of the tournament's messages. The rules (the draw, the tables, the final, the
// standings, one change at a time per tournament) are in src/app/tournaments.ts; what players see
// goes through the outbox (src/discord/tournament-messages.ts) or is an interaction response;
// starting a table is in src/discord/tournament-start.ts. Every input is untrusted: a refusal is
// an ephemeral message to the sender and changes nothing.
import {
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type InteractionReplyOptions,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { GameEffect, GameService } from '../app/game-service';
import { readSettings } from '../app/settings';
import { TournamentRules } from '../app/tournaments';
import type { Store } from '../db/store';
import type { TournamentRow, TournamentStore } from '../db/tournament-store';
import type { Deliverer, DeliveryLogger } from '../delivery/deliverer';
import type { OutboxStore } from '../db/outbox-store';
import { t, toLocale, type Locale } from '../i18n';
import type { ClickAnswers } from './click-answers';
import type { Contexts } from './context';
import type { CustomId } from './custom-id';
import { memberOf } from './host-tools';
import { timerOptions } from './commands/timer-options';
import type { Dealer } from '../app/dealer';
import type {} from './render/common';
import { TournamentMessages } from './tournament-messages';
import { fitLine } from './tournament-render';
import { refuse, say } from './reply';
import { canManageTournaments, csvFile, refusalLine, standingsReply } from './tournament-replies';
import { TournamentStart } from './tournament-start';
import { SlashCommandBuilder, type SlashCommandSubcommandBuilder } from '@discordjs/builders';
import { choice, loc, TIMERS } from './commands/builder';

export { TOURNAMENT_RULESETS } from '../app/tournaments';
export { canManageTournaments } from './tournament-replies';

type Component = ButtonInteraction | StringSelectMenuInteraction;
type Any = ChatInputCommandInteraction | Component;
type TourId = Extract<CustomId, { kind: 'tour' }>;

export interface TournamentDeps {
  service: GameService;
  store: Store;
  tstore: TournamentStore;
  outbox: OutboxStore;
  contexts: Contexts;
  deliverer: Deliverer;
  /** Answers a click with the newest version of the message it came from. */
  answers: ClickAnswers;
  client: Client;
  log: DeliveryLogger;
  dealer: Dealer;
  now: () => number;
  /** The head host's lot (the draw, a lot at the final's cut): crypto-random by default. */
  random?: () => number;
}

export class Tournaments {
  /** The rules (no discord.js): the game service's hook and the commands call them. */
  readonly rules: TournamentRules;
  private readonly starter: TournamentStart;

  constructor(private readonly d: TournamentDeps) {
    const { service, store, tstore, dealer, now, log, deliverer, client } = d;
    const view = new TournamentMessages(d.outbox);
    const kick = () => deliverer.kick();
    const random = d.random ? { random: d.random } : {};
    this.rules = new TournamentRules({ service, store, tstore, view, dealer, now, kick, log, ...random });
    this.starter = new TournamentStart({ rules: this.rules, service, deliverer, client, log });
  }

  /** Inside a game's own transaction (the planner's hook): the tournament's messages follow its games. */
  plan(e: GameEffect): Promise<void> {
    return this.rules.plan(e);
  }

  /** A tournament game changed outside the game service's effects (annulled): its tournament follows. */
  gameChanged(gameId: number): Promise<void> {
    return this.rules.gameChanged(gameId);
  }

  // -------------------------------------------------------------------------------------------
  // Replies

  private say(i: Any, content: string, extra: InteractionReplyOptions = {}): Promise<void> {
    return say(i, content, extra);
  }

  private refuse(i: Any, text: string): Promise<void> {
    return refuse(i, text);
  }

  private standings(i: Any, loc: Locale, tour: TournamentRow, page: number, csv: boolean, ephemeral: boolean) {
    return standingsReply(i, loc, this.rules, this.d.client, tour, { page, csv, ephemeral });
  }

  private async canRun(i: Any, tour: TournamentRow): Promise<boolean> {
    return i.user.id === tour.hostId || (await this.canManage(i));
  }

  /** Manage Server, or the server's host role (`/mafia settings host_role`). */
  private async canManage(i: Any): Promise<boolean> {
    const hostRole = (await readSettings(this.d.store, i.guildId!)).hostRole;
    return canManageTournaments(i.memberPermissions, memberOf(i).roles, hostRole);
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  async command(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const sub = i.options.getSubcommand(false);
    switch (sub) {
      case 'create':
        return this.create(i, loc);
      case 'draw':
      case 'final':
      case 'start':
      case 'remove':
      case 'standings': {
        const tour = await this.rules.pick(i.guildId!, i.options.getInteger('tournament'));
        if (!tour) return this.refuse(i, t(loc, 'refusal.tournament/none'));
        if (sub === 'standings') {
          const page = i.options.getInteger('page') ?? 1;
          return this.standings(i, loc, tour, page, i.options.getBoolean('csv') === true, false);
        }
        if (!(await this.canRun(i, tour))) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        if (sub === 'draw') return this.rules.serial(tour.id, () => this.draw(i, loc, tour.id));
        if (sub === 'final') return this.rules.serial(tour.id, () => this.final(i, loc, tour.id));
        if (sub === 'remove') {
          const userId = i.options.getUser('player', true).id;
          return this.rules.serial(tour.id, () => this.removePlayer(i, loc, tour.id, userId));
        }
        return this.startCommand(i, loc, tour);
      }
      default:
        return this.refuse(i, t(loc, 'refusal.input/unknown'));
    }
  }

  private async create(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    if (!(await this.canManage(i))) return this.refuse(i, t(loc, 'refusal.tournament/permission'));
    const name = i.options.getString('name', true);
    const ruleset = i.options.getString('ruleset', true);
    const checked = this.rules.checkCreate(name, ruleset);
    if (!checked.ok) return this.refuse(i, refusalLine(loc, checked));
    const timers = timerOptions(i);
    if ('bad' in timers) return this.refuse(i, t(loc, 'refusal.create/timer', timers.bad));
    const pub = await this.d.contexts.publicLocale(i.guildId!, i.guildLocale);
    const where = { guildId: i.guildId!, channelId: i.channelId, hostId: i.user.id };
    const r = await this.rules.create({ ...where, name, ruleset, timers, locale: pub });
    if (!r.ok) return this.refuse(i, refusalLine(loc, r));
    await this.say(i, t(loc, 'tour.created', { id: r.tour.id, name: r.name }));
  }

  /** T-1: the qualifying draw, shown as one message per round and stored. */
  private async draw(i: Any, loc: Locale, id: number): Promise<void> {
    const r = await this.rules.draw(id);
    if (!r.ok) {
      return this.refuse(i, 'fit' in r ? fitLine(loc, r.fit.players, r.fit.add, r.fit.remove) : refusalLine(loc, r));
    }
    await this.say(i, t(loc, 'tour.drawn', { count: r.tables }));
  }

  /** T-2: the 10 best after the qualifiers play the final (ties by S-5, then by lot). */
  private async final(i: Any, loc: Locale, id: number): Promise<void> {
    const r = await this.rules.final(id);
    if (!r.ok) return this.refuse(i, refusalLine(loc, r));
    await this.say(i, t(loc, 'tour.finalReady'));
  }

  private async startCommand(i: ChatInputCommandInteraction, loc: Locale, tour: TournamentRow): Promise<void> {
    const round = i.options.getInteger('round', true);
    const table = i.options.getInteger('table', true);
    const channel = i.options.getChannel('channel');
    const subs: Record<string, string> = {};
    for (const suffix of ['', '2']) {
      const missing = i.options.getUser(`missing${suffix}`);
      const sub = i.options.getUser(`substitute${suffix}`);
      if (!missing && !sub) continue;
      if (!missing || !sub) return this.refuse(i, t(loc, 'refusal.tournament/sub-pair'));
      if (sub.bot) return this.refuse(i, t(loc, 'refusal.substitute/bot'));
      subs[missing.id] = sub.id;
    }
    if (channel && channel.type !== 0) return this.refuse(i, t(loc, 'refusal.tournament/channel-kind'));
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    await this.rules.serial(tour.id, () => this.start(i, loc, tour.id, round, table, channel?.id ?? null, subs));
  }

  /** Starts one table's game (see TournamentStart) and answers the host. */
  private async start(
    i: Any,
    loc: Locale,
    id: number,
    round: number,
    table: number,
    channelId: string | null,
    subs: Record<string, string>,
  ): Promise<void> {
    const r = await this.starter.start(i.user.id, id, round, table, channelId, subs, refusalLine);
    return r.ok ? this.say(i, r.text(loc)) : this.refuse(i, r.text(loc));
  }

  // -------------------------------------------------------------------------------------------
  // Buttons

  async component(i: Component, id: TourId): Promise<void> {
    const loc = toLocale(i.locale) ?? 'en';
    const tour = await this.rules.get(id.tournament);
    if (!tour || !i.inGuild() || tour.guildId !== i.guildId) return this.refuse(i, t(loc, 'refusal.input/forged'));
    switch (id.op) {
      case 'page':
        return this.standings(i, loc, tour, id.a ?? 1, false, false);
      case 'mine':
        return this.standings(i, loc, tour, 1, false, true);
      case 'csv': {
        const file = await csvFile(this.rules, this.d.client, tour, await this.rules.views(tour));
        return this.say(i, t(loc, 'tour.standings.csvReady'), { files: [file] });
      }
      default:
        break;
    }
    // Everything else belongs to the tournament's own messages.
    if (i.channelId !== tour.channelId) return this.refuse(i, t(loc, 'refusal.input/forged'));
    switch (id.op) {
      case 'join':
      case 'leave':
        return this.rules.serial(tour.id, () => this.register(i, loc, tour.id, id.op === 'join'));
      case 'draw':
        if (!(await this.canRun(i, tour))) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        return this.rules.serial(tour.id, () => this.draw(i, loc, tour.id));
      case 'final':
        if (!(await this.canRun(i, tour))) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        return this.rules.serial(tour.id, () => this.final(i, loc, tour.id));
      case 'start': {
        if (!(await this.canRun(i, tour))) return this.refuse(i, t(loc, 'refusal.tournament/not-host'));
        if (id.a === undefined || id.b === undefined) return this.refuse(i, t(loc, 'refusal.input/forged'));
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        return this.rules.serial(tour.id, () => this.start(i, loc, tour.id, id.a!, id.b!, null, {}));
      }
    }
  }

  /** T-1: the head host takes a player off the list before the draw (a count that does not fit, a no-show). */
  private async removePlayer(i: ChatInputCommandInteraction, loc: Locale, id: number, userId: string): Promise<void> {
    const r = await this.rules.removePlayer(id, userId);
    if (!r.ok) return this.refuse(i, refusalLine(loc, r));
    await this.say(i, t(loc, 'tour.removed', { user: `<@${userId}>`, count: r.count }));
  }

  /** Join / Leave: the board itself shows the change (the click updates it for free). */
  private async register(i: Component, loc: Locale, id: number, join: boolean): Promise<void> {
    const member = i.member && 'displayName' in i.member ? i.member.displayName : null;
    const name = (member ?? i.user.displayName ?? i.user.username).slice(0, 60);
    const user = { userId: i.user.id, name, locale: i.locale, bot: i.user.bot };
    const r = await this.rules.register(id, join, user);
    if (!r.ok) return this.refuse(i, refusalLine(loc, r));
    const tour = r.tour;
    if (!(await this.d.answers.showSlot(i, tour.holderGameId, 'board'))) this.d.deliverer.kick();
  }
}

/** /tournament (T-1..T-4): create, draw, start, final, standings. */
export function tournamentCommand() {
  const b = loc(new SlashCommandBuilder(), 'tournament').setDMPermission(false);
  const which = (s: SlashCommandSubcommandBuilder) =>
    s.addIntegerOption((o) => loc(o, 'opt.tournamentId').setMinValue(1).setRequired(false));
  b.addSubcommand((s) => {
    loc(s, 'tournament.create');
    s.addStringOption((o) => loc(o, 'opt.tournamentName').setRequired(true).setMaxLength(60));
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(true)
        .addChoices(choice('chnu-2016', 'ruleset.chnu-2016'), choice('classic-10', 'ruleset.classic-10')),
    );
    for (const timer of TIMERS)
      s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  b.addSubcommand((s) => which(loc(s, 'tournament.draw')));
  b.addSubcommand((s) =>
    which(loc(s, 'tournament.remove').addUserOption((o) => loc(o, 'opt.tournamentPlayer').setRequired(true))),
  );
  b.addSubcommand((s) => {
    loc(s, 'tournament.start');
    s.addIntegerOption((o) => loc(o, 'opt.round').setMinValue(1).setMaxValue(4).setRequired(true));
    s.addIntegerOption((o) => loc(o, 'opt.table').setMinValue(1).setMaxValue(20).setRequired(true));
    s.addChannelOption((o) => loc(o, 'opt.tableChannel').addChannelTypes(0).setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.missing').setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.substitute').setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.missing2').setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.substitute2').setRequired(false));
    return which(s);
  });
  b.addSubcommand((s) => which(loc(s, 'tournament.final')));
  b.addSubcommand((s) => {
    loc(s, 'tournament.standings');
    which(s);
    s.addIntegerOption((o) => loc(o, 'opt.page').setMinValue(1).setMaxValue(100).setRequired(false));
    s.addBooleanOption((o) => loc(o, 'opt.csv').setRequired(false));
    return s;
  });
  return b;
}
