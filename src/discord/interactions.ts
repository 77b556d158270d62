// One interaction router: slash commands by name, components by their custom id (no collectors,
// so every button works after a restart). Every input is untrusted: the clicking user is checked
// against the seat, bad input gets an ephemeral answer to the one who sent it and changes nothing.
import { randomInt } from 'node:crypto';
import {
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type InteractionReplyOptions,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { GameService } from '../app/game-service';
import type { GameRow, Store } from '../db/store';
import { optionOverridesSchema } from '../engine/options';
import { RULESETS, RULESET_IDS, rolePool } from '../engine/rulesets';
import type { Action, OptionOverrides, RefusalCode, Role, RulesetId, Seat, Timers } from '../engine/types';
import { seatView } from '../engine/view';
import { t, toLocale, type Locale, type MessageKey } from '../i18n';
import { TIMER_OPTIONS, type TimerOption } from './commands/definitions';
import type { Deliverer, DeliveryLogger as Logger } from '../delivery/deliverer';
import type { OutboxStore } from '../delivery/outbox-store';
import { seatOfUser, uiOf, userLocale, type Contexts } from './context';
import { decodeId, type CustomId } from './custom-id';
import { StatsCommands } from './stats';
import { mentions, row, seatSelect, type GameCtx, type Payload } from './render/common';
import { confirmation, panelPayload, refusalText, roleCard, rulesetName } from './render/game';
import { HostTools } from './host-tools';
import { SettingsCommand } from './settings-command';
import { readSettings } from '../app/settings';
import type { Tournaments } from './tournament';
import type { AsyncPlay } from './async-play';

type Component = ButtonInteraction | StringSelectMenuInteraction;

/** How long to wait before deferring: Discord wants an answer within 3 seconds. */
const DEFER_AFTER_MS = 1500;

/**
 * The timer options of a slash command (`night:90s`, …) over `base`: 5 s to 30 days each, or the
 * first bad one (for the refusal's text).
 */
export function timerOptions(i: ChatInputCommandInteraction, base: Partial<Timers> = {}): Partial<Timers> | { bad: { option: string; value: string } } {
  const timers: Partial<Timers> = { ...base };
  for (const opt of TIMER_OPTIONS) {
    const raw = i.options.getString(opt);
    if (raw === null) continue;
    const secs = parseDuration(raw);
    if (secs === null || secs < 5 || secs > 30 * 86_400) return { bad: { option: opt, value: raw.slice(0, 20) } };
    for (const key of TIMER_KEYS[opt]) timers[key] = secs;
  }
  return timers;
}

export const TIMER_KEYS: Record<TimerOption, (keyof Timers)[]> = {
  night: ['night0', 'night'],
  speech: ['speech'],
  discussion: ['discussion'],
  accusation: ['accusation'],
  vote: ['vote'],
  last_words: ['lastWords'],
  shootout: ['shootout'],
};

/** "90", "90s", "15m", "12h", "2d" -> seconds; null when malformed. */
export function parseDuration(raw: string): number | null {
  const m = /^\s*(\d{1,7})\s*([smhd]?)\s*$/i.exec(raw);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  return n * (unit === 'd' ? 86_400 : unit === 'h' ? 3_600 : unit === 'm' ? 60 : 1);
}

/** G-1: a uniformly random permutation with a cryptographically strong RNG. */
export function cryptoShuffle<T>(xs: readonly T[]): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Seats and roles for a starting game: random by default (G-1); tests may fix the deal. */
export type Dealer = (members: readonly string[], ruleset: RulesetId) => { seats: string[]; roles: Role[] };

export const randomDealer: Dealer = (members, ruleset) => ({
  seats: cryptoShuffle(members), // G-1: random seats
  roles: cryptoShuffle(rolePool(ruleset)), // G-1: random roles
});

export class Interactions {
  /** /tournament and the tournament's buttons (src/discord/tournament.ts). */
  tournaments: Tournaments | null = null;
  /** Asynchronous play (src/discord/async-play.ts): Game so far, substitute calls. */
  asyncPlay: AsyncPlay | null = null;

  constructor(
    private readonly service: GameService,
    private readonly store: Store,
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    private readonly deliverer: Deliverer,
    private readonly log: Logger,
    private readonly dealer: Dealer = randomDealer,
    /** False once the bot is going down (or, in fault-injection tests, has "died"): say nothing more. */
    private readonly alive: () => boolean = () => true,
  ) {
    this.tools = new HostTools(service, store, contexts);
    this.settingsCmd = new SettingsCommand(store, () => service.now());
    this.statsUi = new StatsCommands(store, contexts, () => service.now());
  }

  private readonly tools: HostTools;
  private readonly settingsCmd: SettingsCommand;
  private readonly statsUi: StatsCommands;

  async handle(i: Interaction): Promise<void> {
    try {
      if (i.isChatInputCommand()) await this.command(i);
      else if (i.isButton() || i.isStringSelectMenu()) await this.component(i);
      else if (i.isRepliable()) await i.reply({ content: t(toLocale(i.locale) ?? 'en', 'refusal.input/unknown'), flags: MessageFlags.Ephemeral });
    } catch (e) {
      if (!this.alive()) return;
      this.log.error(`interaction ${i.id} failed`, e);
      if (i.isRepliable()) {
        const content = t(toLocale(i.locale) ?? 'en', 'refusal.internal');
        try {
          if (i.deferred || i.replied) await i.followUp({ content, flags: MessageFlags.Ephemeral });
          else await i.reply({ content, flags: MessageFlags.Ephemeral });
        } catch {
          // the interaction may have expired; nothing more to do
        }
      }
    }
  }

  private loc(i: Interaction, fallback: Locale = 'en'): Locale {
    return toLocale(i.locale) ?? fallback;
  }

  private async say(i: ChatInputCommandInteraction | Component, content: string, extra: InteractionReplyOptions = {}): Promise<void> {
    const body = { content, flags: MessageFlags.Ephemeral as const, allowedMentions: { parse: [] }, ...extra };
    if (i.deferred || i.replied) await i.followUp(body);
    else await i.reply(body);
  }

  /** A refusal: ephemeral, to the one who asked, marked so it cannot be mistaken for a confirmation. */
  private refuse(i: ChatInputCommandInteraction | Component, text: string): Promise<void> {
    return this.say(i, `⛔ ${text}`);
  }

  /** Runs `work`; if it takes longer than DEFER_AFTER_MS, acknowledges the interaction first. */
  private async timely<T>(i: ChatInputCommandInteraction | Component, update: boolean, work: () => Promise<T>): Promise<T> {
    let deferring: Promise<unknown> | null = null;
    const timer = setTimeout(() => {
      deferring = (update && !i.isChatInputCommand() ? (i as Component).deferUpdate() : i.deferReply({ flags: MessageFlags.Ephemeral })).catch(() => undefined);
    }, DEFER_AFTER_MS);
    try {
      return await work();
    } finally {
      clearTimeout(timer);
      // A deferral already on its way must land before the answer, or Discord sees two.
      if (deferring) await deferring;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Slash commands

  private async command(i: ChatInputCommandInteraction): Promise<void> {
    const loc = this.loc(i);
    if (!i.inGuild() || !i.channelId) return this.refuse(i, t(loc, 'refusal.input/guild-only'));
    if (i.commandName === 'tournament' && this.tournaments) return this.tournaments.command(i, loc);
    const sub = i.options.getSubcommand(false);
    if (i.commandName === 'mafia' && i.options.getSubcommandGroup(false) === 'settings') {
      // The ratings' seasons and constants belong to /stats; the rest are the server's settings.
      if (sub === 'season' || sub === 'rating') return this.statsUi.settings(i, loc, sub);
      return this.settingsCmd.handle(i, loc, sub ?? '');
    }
    switch (`${i.commandName}/${sub ?? ''}`) {
      case 'mafia/create':
        return this.create(i, loc);
      case 'mafia/role':
        return this.myRole(i, loc);
      case 'mafia/table':
        return this.repostTable(i, loc);
      case 'stats/player':
      case 'stats/top':
      case 'stats/game':
        return this.statsUi.command(i, loc, sub!);
      default:
        if (i.commandName === 'host') return this.host(i, loc, sub ?? '');
        return this.refuse(i, t(loc, 'refusal.input/unknown'));
    }
  }

  private activeGame(channelId: string): GameRow | null {
    return this.store.activeGamesInChannel(channelId)[0] ?? null;
  }

  private async create(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    // A game keeps the server's settings it was created with (a snapshot in the game's row).
    const settings = readSettings(this.store, i.guildId!);
    const ruleset = i.options.getString('ruleset') ?? settings.ruleset;
    if (ruleset === null) return this.refuse(i, t(loc, 'refusal.create/ruleset-needed'));
    if (!(RULESET_IDS as string[]).includes(ruleset)) return this.refuse(i, t(loc, 'refusal.create/ruleset'));
    const pace = i.options.getString('pace') ?? settings.pace;
    if (pace !== 'live' && pace !== 'async') return this.refuse(i, t(loc, 'refusal.create/pace'));
    const timers = timerOptions(i, { ...settings.timers[pace] });
    if ('bad' in timers) return this.refuse(i, t(loc, 'refusal.create/timer', timers.bad));
    if (this.activeGame(i.channelId)) return this.refuse(i, t(loc, 'refusal.create/busy'));
    const options: OptionOverrides = {};
    if (Object.keys(timers).length > 0) options.timers = timers;
    if (settings.mafiaTalk === 'every-night') options.mafiaTalk = 'every-night';
    const parsed = optionOverridesSchema.safeParse(options);
    if (!parsed.success) return this.refuse(i, t(loc, 'refusal.create/options'));
    const pub = this.contexts.publicLocale(i.guildId!, i.guildLocale);
    const game = this.service.createLobby({
      guildId: i.guildId!,
      channelId: i.channelId,
      hostId: i.user.id,
      ruleset: ruleset as RulesetId,
      pace,
      options: parsed.data as OptionOverrides,
      lobby: { members: [], names: {}, locales: {}, ...(settings.speakingOrder === 'enforced' ? { enforceTurns: true } : {}) },
      ui: { locale: pub, settings },
    });
    await this.say(i, t(loc, 'create.done', { id: game.id, ruleset: rulesetName(loc, ruleset), need: RULESETS[ruleset as RulesetId].players }));
  }

  private playerGame(i: Interaction, channelId: string): { game: GameRow; ctx: GameCtx; seat: Seat } | null {
    const game = this.activeGame(channelId);
    if (!game || game.status === 'lobby') return null;
    const ctx = this.contexts.fromRow(game);
    const seat = seatOfUser(ctx, i.user.id);
    return seat === null ? null : { game, ctx, seat };
  }

  private async myRole(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const pg = this.playerGame(i, i.channelId);
    if (!pg) return this.refuse(i, t(loc, 'refusal.player/not-playing'));
    await i.reply({ ...toReply(roleCard(pg.ctx, pg.seat, loc)), flags: MessageFlags.Ephemeral });
  }

  /** Posts the table again (and pins it); the old one is deleted, so no stale copy stays pinned. */
  private async repostTable(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const game = this.activeGame(i.channelId);
    if (!game || game.status === 'lobby') return this.refuse(i, t(loc, 'refusal.game/none-here'));
    this.store.transaction(() => this.outbox.repostSlot(game.id, 'table', this.service.now()));
    this.deliverer.kick();
    await this.say(i, t(loc, 'table.reposted'));
  }

  private isHost(i: Interaction, game: GameRow): boolean {
    return this.tools.isHost(i, game);
  }

  private async host(i: ChatInputCommandInteraction, loc: Locale, sub: string): Promise<void> {
    // The channel's game, or `game:`; the log and annul also read a finished one.
    const game = this.tools.resolve(i, sub);
    if (typeof game === 'string') return this.refuse(i, refusalText(loc, game));
    if (!this.isHost(i, game)) return this.refuse(i, t(loc, 'refusal.host/not-host'));
    const actor = `host:${i.user.id}` as const;
    const reason = i.options.getString('reason')?.slice(0, 200) ?? null;
    if (sub === 'cancel') {
      const r = await this.service.cancel(game.id, actor, reason);
      return this.say(i, r.ok ? t(loc, 'host.done') : refusalText(loc, r.code));
    }
    if (await this.tools.command(i, loc, sub, game, actor, reason)) return;
    if (game.status === 'lobby') return this.refuse(i, t(loc, 'refusal.game/not-started'));
    const n = RULESETS[game.ruleset].players;
    const seat = i.options.getInteger('seat');
    if (seat !== null && (seat < 1 || seat > n)) return this.refuse(i, t(loc, 'refusal.seat/unknown'));
    if (sub === 'substitute') {
      const user = i.options.getUser('user', true);
      if (user.bot) return this.refuse(i, t(loc, 'refusal.substitute/bot'));
      const r = await this.service.substitute(game.id, seat!, user.id, actor, reason);
      if (r.ok) {
        const names = { ...(game.lobby.names ?? {}), [user.id]: user.displayName ?? user.username };
        const fresh = this.store.getGame(game.id)!;
        this.store.setLobby(game.id, { ...fresh.lobby, names }, this.service.now());
      }
      return this.say(i, r.ok ? t(loc, 'host.done') : refusalText(loc, r.code));
    }
    let action: Action;
    switch (sub) {
      case 'foul':
        action = { kind: 'host-foul', target: seat!, count: i.options.getInteger('count') ?? 1, ...(reason ? { reason } : {}) };
        break;
      case 'remove':
        action = { kind: 'host-remove', target: seat!, ...(reason ? { reason } : {}) };
        break;
      case 'kill':
        action = { kind: 'host-kill', target: seat!, ...(reason ? { reason } : {}) };
        break;
      case 'skip':
        action = { kind: 'host-skip' };
        break;
      case 'end': {
        const winner = i.options.getString('winner', true);
        if (winner !== 'red' && winner !== 'black' && winner !== 'draw') return this.refuse(i, t(loc, 'refusal.input/bad-choice'));
        action = { kind: 'host-end', winner, ...(reason ? { reason } : {}) };
        break;
      }
      case 'best':
        action = { kind: 'host-best', target: seat! };
        break;
      case 'bonus': {
        const points = i.options.getInteger('points', true);
        action = { kind: 'host-bonus', target: seat!, points };
        break;
      }
      default:
        return this.refuse(i, t(loc, 'refusal.input/unknown'));
    }
    const r = await this.timely(i, false, () => this.service.dispatch(game.id, action, actor, reason));
    await this.say(i, r.ok ? t(loc, 'host.done') : refusalText(loc, r.code));
  }

  // -------------------------------------------------------------------------------------------
  // Components

  private async component(i: Component): Promise<void> {
    const loc = this.loc(i);
    if (i.customId.startsWith('v1:s:')) return i.isButton() ? this.statsUi.component(i, loc) : this.refuse(i, t(loc, 'refusal.input/forged'));
    const id = decodeId(i.customId);
    if (!id) return this.refuse(i, t(loc, 'refusal.input/forged'));
    if (id.kind === 'tour') return this.tournaments ? this.tournaments.component(i, id) : this.refuse(i, t(loc, 'refusal.input/forged'));
    const game = this.store.getGame(id.game);
    if (!game) return this.refuse(i, t(loc, 'refusal.game/unknown'));
    // The host's controls may be used in any channel of the game's server (`game:`); checked there.
    if (id.kind === 'host') return this.tools.component(i, loc, game, id);
    // A component in a server must belong to that channel's game; DMs are checked by seat below.
    if (i.inGuild() && i.channelId !== game.channelId) return this.refuse(i, t(loc, 'refusal.input/forged'));
    if (id.kind === 'async') return this.asyncPlay ? this.asyncPlay.component(i, loc, game, id, () => this.isHost(i, game)) : this.refuse(i, t(loc, 'refusal.input/forged'));
    switch (id.kind) {
      case 'lobby':
        return this.lobby(i, loc, game, id.op);
      case 'panel':
        return this.panel(i, loc, game, id.panel);
      case 'act':
        return this.act(i, loc, game, id);
    }
  }

  private async lobby(i: Component, loc: Locale, game: GameRow, op: Extract<CustomId, { kind: 'lobby' }>['op']): Promise<void> {
    if (!i.inGuild()) return this.refuse(i, t(loc, 'refusal.input/forged'));
    const need = RULESETS[game.ruleset].players;
    const userId = i.user.id;
    const name = (i.member && 'displayName' in i.member ? i.member.displayName : null) ?? i.user.displayName ?? i.user.username;
    switch (op) {
      case 'join': {
        const r = await this.service.updateLobby(game.id, (l) => {
          if (l.members.includes(userId)) return 'lobby/already-joined';
          if (l.members.length >= need) return 'lobby/full';
          return { ...l, members: [...l.members, userId], names: { ...l.names, [userId]: name.slice(0, 60) }, locales: { ...l.locales, [userId]: i.locale } };
        });
        // The lobby itself shows who joined (and that Start is ready): no reply to read.
        if (!r.ok) return this.refuseShowing(i, game.id, 'lobby', refusalText(loc, r.code));
        // His DMs are checked now, while the lobby fills, not all at once when the host starts:
        // Start then deals at once, and a player whose DMs are closed is named in the lobby early.
        void this.checkDmOnJoin(r.game, userId, uiOf(game).locale ?? loc);
        return this.showSlot(i, game.id, 'lobby');
      }
      case 'leave': {
        const r = await this.service.updateLobby(game.id, (l) => (l.members.includes(userId) ? { ...l, members: l.members.filter((m) => m !== userId), fallback: (l.fallback ?? []).filter((m) => m !== userId), unreachable: (l.unreachable ?? []).filter((m) => m !== userId) } : 'lobby/not-joined'));
        return r.ok ? this.showSlot(i, game.id, 'lobby') : this.refuseShowing(i, game.id, 'lobby', refusalText(loc, r.code));
      }
      case 'cancel': {
        if (!this.isHost(i, game)) return this.refuse(i, t(loc, 'refusal.host/not-host'));
        const r = await this.service.cancel(game.id, `host:${userId}`, null);
        return r.ok ? this.showSlot(i, game.id, 'lobby') : this.refuse(i, refusalText(loc, r.code));
      }
      case 'start':
      case 'fallback': {
        if (!this.isHost(i, game)) return this.refuse(i, t(loc, 'refusal.host/not-host'));
        if (game.status !== 'lobby') return this.refuse(i, refusalText(loc, 'lobby/closed'));
        if (game.lobby.members.length !== need) return this.refuse(i, t(loc, 'refusal.lobby/not-full', { count: game.lobby.members.length, need }));
        // Pressed again while the first press checks the players' DMs: nothing more to do.
        if (this.starting.has(game.id)) return i.deferUpdate().then(() => undefined);
        // The answer to Start is the lobby itself (free to update); the host is told in private only what he must act on.
        await i.deferUpdate();
        this.starting.add(game.id);
        try {
          const ctxLoc = uiOf(game).locale ?? loc;
          // Before dealing: can the bot DM every player? Checked concurrently; the host may let those it
          // cannot reach play through the channel's ephemeral buttons.
          const fallback = new Set(op === 'fallback' ? [...(game.lobby.fallback ?? []), ...(game.lobby.unreachable ?? [])] : []);
          const unreachable = await this.probeAll(game, game.lobby.members.filter((u) => !fallback.has(u)), ctxLoc);
          if (unreachable.length > 0 && op === 'start') {
            await this.service.updateLobby(game.id, (l) => ({ ...l, unreachable }));
            await this.editSlot(i, game.id, 'lobby');
            await i.followUp({ content: t(loc, 'lobby.unreachableHost', { users: unreachable.map((u) => `<@${u}>`).join(', ') }), flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
            return;
          }
          const fb = [...new Set([...fallback, ...unreachable])];
          await this.service.updateLobby(game.id, (l) => ({ ...l, fallback: fb, unreachable: [] }));
          const deal = this.dealer(game.lobby.members, game.ruleset);
          const r = await this.service.start(game.id, deal.seats, deal.roles);
          const flush = r.ok ? this.claimPosts(i) : null;
          try {
            if (r.ok) await this.editSlot(i, game.id, 'lobby');
            else await i.followUp({ content: refusalText(loc, r.code), flags: MessageFlags.Ephemeral });
          } finally {
            await flush?.();
          }
          return;
        } finally {
          this.starting.delete(game.id);
        }
      }
    }
  }

  /** A player's DM check when he joins, while the lobby fills (one the bot cannot reach is named in it). */
  private async checkDmOnJoin(game: GameRow, userId: string, fallbackLoc: Locale): Promise<void> {
    try {
      const ok = await this.deliverer.probeDm(userId, { content: t(toLocale(game.lobby.locales?.[userId]) ?? fallbackLoc, 'lobby.dmCheck', { id: game.id }), allowed_mentions: mentions() });
      if (ok) return;
      await this.service.updateLobby(game.id, (l) =>
        l.members.includes(userId) && !(l.unreachable ?? []).includes(userId) ? { ...l, unreachable: [...(l.unreachable ?? []), userId] } : 'lobby/unchanged',
      );
    } catch (e) {
      this.log.warn(`lobby ${game.id}: DM check of ${userId} failed (${(e as Error).message})`);
    }
  }

  private async probeAll(game: GameRow, users: readonly string[], fallbackLoc: Locale): Promise<string[]> {
    // All of this lobby's checks at once, as of this moment: the deliverer sends them together,
    // in the order lobbies started, at the pace its budget allows (that is the bound).
    const startedAt = this.service.now();
    const ok = await Promise.all(
      users.map((u) => {
        this.deliverer.forgetClosed(u);
        return this.deliverer.probeDm(u, { content: t(toLocale(game.lobby.locales?.[u]) ?? fallbackLoc, 'lobby.dmCheck', { id: game.id }), allowed_mentions: mentions() }, undefined, { startedAt });
      }),
    );
    const out = users.filter((_, k) => !ok[k]);
    return game.lobby.members.filter((u) => out.includes(u));
  }

  /** Lobbies whose host pressed Start and whose deal is on its way (the DM checks). */
  private readonly starting = new Set<number>();

  /** A click's answer showed this version of the slot's message; an older one that won the race is edited again. */
  private shown(gameId: number, key: string, version: number, messageId: string): void {
    if (this.outbox.shownSlot(gameId, key, version, messageId)) this.deliverer.kick();
  }

  /**
   * Answers a click by updating the message it came from to its slot's newest version (an
   * interaction response costs none of the bot's request budget), and records it as delivered.
   */
  private async showSlot(i: Component, gameId: number, key: string): Promise<void> {
    const slot = this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id) {
      await i.deferUpdate();
      return;
    }
    await i.update(toReply(JSON.parse(slot.payload) as Payload));
    this.shown(gameId, key, slot.version, i.message.id);
  }

  /**
   * A refusal that may come from an out-of-date message ("already joined" on a lobby that does not
   * list him yet): the message is brought to its newest version in the same answer (free), and
   * the refusal follows in private.
   */
  private async refuseShowing(i: Component, gameId: number, key: string, text: string): Promise<void> {
    const slot = this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id || slot.sentVersion >= slot.version) return this.refuse(i, text);
    await this.showSlot(i, gameId, key);
    await i.followUp({ content: `⛔ ${text}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  /** After a deferred update: the message the click came from, to its slot's newest version. */
  private async editSlot(i: Component, gameId: number, key: string): Promise<void> {
    const slot = this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id) return;
    await i.editReply(toReply(JSON.parse(slot.payload) as Payload));
    this.shown(gameId, key, slot.version, i.message.id);
  }

  private async panel(i: Component, loc: Locale, game: GameRow, panel: 'role' | 'actions'): Promise<void> {
    if (game.status === 'lobby') return this.refuse(i, t(loc, 'refusal.game/not-started'));
    const ctx = this.contexts.fromRow(game);
    const seat = seatOfUser(ctx, i.user.id);
    if (seat === null) return this.refuse(i, t(loc, 'refusal.player/not-playing'));
    const payload = panel === 'role' ? roleCard(ctx, seat, loc) : panelPayload(ctx, seat, loc);
    await i.reply({ ...toReply(payload), flags: MessageFlags.Ephemeral });
  }

  /** Engine action for a component, or a refusal code. */
  private actionFor(id: Extract<CustomId, { kind: 'act' }>, seat: Seat, values: readonly string[], players: number): Action | RefusalCode {
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
        return typeof id.arg === 'number' && id.arg <= players ? { kind: 'vote', seat, target: id.arg, seq } : 'input/forged';
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

  private async act(i: Component, loc: Locale, game: GameRow, id: Extract<CustomId, { kind: 'act' }>): Promise<void> {
    if (game.status !== 'running' && game.status !== 'post-game') return this.refuse(i, refusalText(loc, game.status === 'lobby' ? 'game/not-started' : 'game/over'));
    const ctx = this.contexts.fromRow(game);
    const seat = seatOfUser(ctx, i.user.id);
    if (seat === null) return this.refuse(i, t(loc, 'refusal.player/not-playing'));
    if (id.verb === 'menu') return this.menu(i, loc, ctx, seat, id);
    const values = i.isStringSelectMenu() ? i.values : [];
    const action = this.actionFor(id, seat, values, ctx.seats.length);
    if (typeof action === 'string') return this.refuse(i, refusalText(loc, action));
    // The message's slot; a click can come before the bot has recorded the new message's id.
    const known = this.outbox.slotByMessage(i.message.id);
    const byId = known ? null : this.outbox.slot(game.id, i.inGuild() ? `stage:${id.seq}` : `panel:${id.seq}:${seat}`);
    const slot = known ?? (byId && (byId.messageId === null || byId.messageId === i.message.id) ? byId : null);
    const r = await this.timely(i, true, () => this.service.dispatch(game.id, action, `user:${i.user.id}`));
    if (!r.ok) {
      // A control of a stage that is over: the click itself turns the old message's controls off
      // (free), and the player is told why.
      const closed = slot ? this.outbox.slot(slot.gameId, slot.key) : null;
      if (closed && closed.state !== 'live' && closed.version > closed.sentVersion && (closed.messageId === null || closed.messageId === i.message.id)) {
        const body = toReply(JSON.parse(closed.payload) as Payload);
        if (i.deferred) await i.editReply(body);
        else await i.update(body);
        this.shown(closed.gameId, closed.key, closed.version, i.message.id);
        await i.followUp({ content: `⛔ ${refusalText(loc, r.code)}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
        return;
      }
      return this.refuse(i, refusalText(loc, r.code));
    }
    const flush = this.claimPosts(i);
    try {
      await this.answerAct(i, loc, game, seat, id, action, r, slot);
    } finally {
      await flush();
    }
  }

  /**
   * The channel's posts waiting after this click's commit (the next turn's message, news) are
   * handed to the click: they go out as its follow-ups, outside the bot's request budget. Call it
   * right after the commit, before anything is awaited, and always call what it returns.
   */
  private claimPosts(i: Component): () => Promise<void> {
    if (!i.inGuild() || !i.channelId) return async () => undefined;
    const dest = `ch:${i.channelId}` as const;
    const rows = this.deliverer.claim(dest, i.id);
    if (rows.length === 0) return async () => undefined;
    return () =>
      this.deliverer.deliverVia(dest, rows, async (body) => {
        const m = await i.followUp(toFollowUp(body));
        return { id: m.id, channelId: m.channelId };
      });
  }

  private async answerAct(
    i: Component,
    loc: Locale,
    game: GameRow,
    seat: Seat,
    id: Extract<CustomId, { kind: 'act' }>,
    action: Action,
    r: Extract<Awaited<ReturnType<GameService['dispatch']>>, { ok: true }>,
    slot: ReturnType<OutboxStore['slot']>,
  ): Promise<void> {
    const fresh = this.contexts.fromRow(this.store.getGame(game.id) ?? game);
    fresh.state = r.state;
    const note = confirmation(fresh, privateLoc(i, fresh, loc), seat, action, r.events);
    if (slot && slot.gameId === game.id) {
      // A public stage message or a DM panel: it shows the result itself (who has voted, the
      // nomination, the check's answer, the turn closed).
      const now = this.outbox.slot(game.id, slot.key);
      if (now) {
        const body = toReply(JSON.parse(now.payload) as Payload);
        if (i.deferred) await i.editReply(body);
        else await i.update(body);
        this.shown(game.id, now.key, now.version, i.message.id);
      } else if (!i.deferred) await i.deferUpdate();
      // A vote is secret until the tally: the voter alone is told what he chose.
      if (i.inGuild() && (action.kind === 'vote' || action.kind === 'voteAll' || action.kind === 'best')) {
        await i.followUp({ content: note, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
      }
      return;
    }
    // An ephemeral panel ("My actions", for players without DMs) or a one-choice menu.
    const privateMsg = i.message.flags.has(MessageFlags.Ephemeral);
    if (!privateMsg) return this.say(i, note);
    const menuOnly = i.message.components.length === 1 && ['nominate', 'guess', 'take'].includes(id.verb);
    const body = !menuOnly && fresh.state.stage.kind !== 'over' ? toReply(panelPayload(fresh, seat, privateLoc(i, fresh, loc), note)) : { ...toReply({ content: note }), components: [] };
    if (i.deferred) await i.editReply(body);
    else await i.update(body);
  }

  /** An ephemeral menu for one choice (nominate, best move, take), for the player who may make it. */
  private async menu(i: Component, loc: Locale, ctx: GameCtx, seat: Seat, id: Extract<CustomId, { kind: 'act' }>): Promise<void> {
    const s = ctx.state!;
    if (id.seq !== s.seq) return this.refuse(i, refusalText(loc, 'stage/stale'));
    const verb = id.arg;
    const prompt = seatView(s, seat).prompts.find((p) => p.kind === verb);
    if (!prompt || !('targets' in prompt)) return this.refuse(i, refusalText(loc, verb === 'nominate' ? 'nominate/not-your-turn' : 'action/not-now'));
    const range: [number, number] = prompt.kind === 'guess' ? [2, 3] : [1, 1];
    const menu = seatSelect(ctx, { kind: 'act', game: ctx.game.id, seq: s.seq, verb: prompt.kind as never }, t(loc, `prompt.${prompt.kind}` as MessageKey), prompt.targets, range);
    await i.reply({ content: t(loc, `menu.${prompt.kind}` as MessageKey), components: [row(menu)], flags: MessageFlags.Ephemeral });
  }

}

/** Lines joined into messages of at most `max` characters, never cutting a line. */
export function chunkLines(lines: readonly string[], max: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of lines) {
    const line = raw.length > max ? `${raw.slice(0, max - 1)}…` : raw;
    if (cur && cur.length + 1 + line.length > max) {
      out.push(cur);
      cur = line;
    } else cur = cur ? `${cur}\n${line}` : line;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

/** A DM panel speaks the player's stored language; an ephemeral one the language of the click. */
function privateLoc(i: Component, ctx: GameCtx, loc: Locale): Locale {
  return i.inGuild() ? loc : toLocale(i.locale) ?? userLocale(ctx, i.user.id);
}

/** A renderer payload as discord.js reply options. */
/** A REST message payload as a follow-up: its mentions ping as the payload allows. */
export function toFollowUp(p: Payload): ReturnType<typeof toReply> | (Omit<ReturnType<typeof toReply>, 'allowedMentions'> & { allowedMentions: { parse: ('users' | 'roles' | 'everyone')[]; users?: string[]; roles?: string[] } }) {
  const am = (p as { allowed_mentions?: { parse?: ('users' | 'roles' | 'everyone')[]; users?: string[]; roles?: string[] } }).allowed_mentions;
  return {
    ...toReply(p),
    allowedMentions: { parse: am?.parse ?? [], ...(am?.users ? { users: am.users } : {}), ...(am?.roles ? { roles: am.roles } : {}) },
  };
}

export function toReply(p: Payload): { content?: string; embeds?: Payload['embeds']; components?: Payload['components']; allowedMentions: { parse: [] } } {
  return {
    ...(p.content !== undefined ? { content: p.content } : { content: '' }),
    ...(p.embeds ? { embeds: p.embeds } : { embeds: [] }),
    components: p.components ?? [],
    allowedMentions: { parse: [] },
  };
}
