// /mafia: create a game, my role, the table again, and the server's settings.
import { SlashCommandBuilder } from '@discordjs/builders';
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { GameService } from '../../app/game-service';
import { hostRight } from '../../app/hosts';
import { readSettings } from '../../app/settings';
import type { GameRow, Store } from '../../db/store';
import type { Deliverer } from '../../delivery/deliverer';
import type { OutboxStore } from '../../db/outbox-store';
import { optionOverridesSchema, resolveOptions } from '../../engine/options';
import { RULESETS, RULESET_IDS } from '../../engine/rulesets';
import type { OptionOverrides, RulesetId } from '../../engine/types';
import { t, type Locale } from '../../i18n';
import { seatOfUser, type Contexts } from '../context';
import { memberOf } from '../host-tools';
import { roleCard } from '../render/panel';
import { rulesPayload } from '../render/rules';
import { rulesetName } from '../render/words';
import type { Payload } from '../render/common';
import { refuse, say, toReply } from '../reply';

const reply = async (i: ChatInputCommandInteraction, payload: Payload) =>
  void (await i.reply({ ...toReply(payload), flags: MessageFlags.Ephemeral }));
import type { RatingSettingsCommand } from './rating-settings';
import { choice, loc, rulesetChoices, TIMERS } from './builder';
import type { SettingsCommand } from './settings';
import type { SetupCheck } from '../setup-check';
import { conductSubcommands, type ConductCommand } from '../conduct';
import { settingsGroup } from './settings';
import { findPreset } from './presets';
import { timerOptions } from './timer-options';

export function mafiaCommand() {
  const b = loc(new SlashCommandBuilder(), 'mafia').setDMPermission(false);
  b.addSubcommand((s) => {
    loc(s, 'mafia.create');
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false) // the server's default rule set when not given
        .addChoices(
          choice('chnu-2016', 'ruleset.chnu-2016'),
          choice('classic-10', 'ruleset.classic-10'),
          choice('kiev-12', 'ruleset.kiev-12'),
        ),
    );
    // Issue 24: a preset of the server (its rule set, pace, options and timers).
    s.addStringOption((o) => loc(o, 'opt.preset').setRequired(false).setMaxLength(40));
    s.addStringOption((o) =>
      loc(o, 'opt.pace').setRequired(false).addChoices(choice('live', 'pace.live'), choice('async', 'pace.async')),
    );
    // Issue 24: the server's default (`/mafia settings rated`) when not given.
    s.addBooleanOption((o) => loc(o, 'opt.rated').setRequired(false));
    for (const timer of TIMERS)
      s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  b.addSubcommand((s) => loc(s, 'mafia.role'));
  b.addSubcommand((s) => loc(s, 'mafia.table'));
  b.addSubcommand((s) =>
    loc(s, 'mafia.rules').addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false) // the game in this channel, else the server's default rule set
        .addChoices(...rulesetChoices()),
    ),
  );
  b.addSubcommandGroup((g) => settingsGroup(loc(g, 'mafia.settings')));
  // Issue 24: /mafia conduct record|ban|unban|pause|lift|bans.
  b.addSubcommandGroup((g) => conductSubcommands(loc(g, 'mafia.conduct')));
  // Issue 24: /mafia setup check [dms].
  b.addSubcommandGroup((g) =>
    loc(g, 'mafia.setup').addSubcommand((s) =>
      loc(s, 'setup.check').addBooleanOption((o) => loc(o, 'opt.checkDms').setRequired(false)),
    ),
  );
  return b;
}

/**
 * How long after a game's table was posted again the next repost is refused, whoever asks: each
 * costs a delete, a post and a pin from the request budget every server shares.
 */
export const TABLE_COOLDOWN_MS = 60_000;

/** What /mafia needs besides its own code: the settings group's two handlers. */
export interface MafiaSettingsHandlers {
  /** The server's settings (`/mafia settings …`). */
  settings: SettingsCommand;
  /** The ratings' seasons and constants belong to /stats (`/mafia settings season|rating`). */
  ratings: RatingSettingsCommand;
  /** Issue 24: `/mafia setup check`. */
  setup: SetupCheck;
  /** Issue 24: `/mafia conduct …`. */
  conduct: ConductCommand;
}

export class MafiaCommand {
  /** When each game's table was last posted again (entries older than the cooldown are dropped). */
  private readonly reposted = new Map<number, number>();

  constructor(
    private readonly service: GameService,
    private readonly store: Store,
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    private readonly deliverer: Deliverer,
    private readonly settings: MafiaSettingsHandlers,
  ) {}

  async run(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const sub = i.options.getSubcommand(false) ?? '';
    if (i.options.getSubcommandGroup(false) === 'setup') {
      if (sub === 'check') return this.settings.setup.run(i, loc);
      return refuse(i, t(loc, 'refusal.input/unknown'));
    }
    if (i.options.getSubcommandGroup(false) === 'conduct') return this.settings.conduct.run(i, loc, sub);
    if (i.options.getSubcommandGroup(false) === 'settings') {
      if (sub === 'season' || sub === 'rating') return this.settings.ratings.run(i, loc, sub);
      return this.settings.settings.handle(i, loc, sub);
    }
    switch (sub) {
      case 'create':
        return this.create(i, loc);
      case 'role':
        return this.myRole(i, loc);
      case 'table':
        return this.repostTable(i, loc);
      case 'rules':
        return this.rules(i, loc);
      default:
        return refuse(i, t(loc, 'refusal.input/unknown'));
    }
  }

  private async activeGame(channelId: string): Promise<GameRow | null> {
    return (await this.store.activeGamesInChannel(channelId))[0] ?? null;
  }

  private async create(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    // A game keeps the server's settings it was created with (a snapshot in the game's row).
    const settings = await readSettings(this.store, i.guildId!);
    // Issue 24: a preset fixes the rule set and the pace; its options and timers come over the
    // server's, and this command's timers and rated over the preset's.
    const presetRaw = i.options.getString('preset');
    const found = presetRaw === null ? null : findPreset(settings, presetRaw, loc);
    if (typeof found === 'string') return refuse(i, found);
    const preset = found?.preset ?? null;
    const askedRuleset = i.options.getString('ruleset');
    const askedPace = i.options.getString('pace');
    if (
      found &&
      ((askedRuleset ?? found.preset.ruleset) !== found.preset.ruleset ||
        (askedPace ?? found.preset.pace) !== found.preset.pace)
    )
      return refuse(
        i,
        t(loc, 'refusal.preset/fixed', {
          name: found.name,
          ruleset: rulesetName(loc, found.preset.ruleset),
          pace: t(loc, `pace.${found.preset.pace}`),
        }),
      );
    const ruleset = preset?.ruleset ?? askedRuleset ?? settings.ruleset;
    if (ruleset === null) return refuse(i, t(loc, 'refusal.create/ruleset-needed'));
    if (!(RULESET_IDS as string[]).includes(ruleset)) return refuse(i, t(loc, 'refusal.create/ruleset'));
    const pace = preset?.pace ?? askedPace ?? settings.pace;
    if (pace !== 'live' && pace !== 'async') return refuse(i, t(loc, 'refusal.create/pace'));
    const rated = i.options.getBoolean('rated') ?? settings.rated;
    const { timers: presetTimers, ...presetRules } = preset?.options ?? {};
    const timers = timerOptions(i, { ...settings.timers[pace], ...presetTimers });
    if ('bad' in timers) return refuse(i, t(loc, 'refusal.create/timer', timers.bad));
    if (await this.activeGame(i.channelId)) return refuse(i, t(loc, 'refusal.create/busy'));
    const options: OptionOverrides = {};
    if (settings.mafiaTalk === 'every-night') options.mafiaTalk = 'every-night';
    Object.assign(options, presetRules);
    if (Object.keys(timers).length > 0) options.timers = timers;
    const parsed = optionOverridesSchema.safeParse(options);
    if (!parsed.success) return refuse(i, t(loc, 'refusal.create/options'));
    const pub = await this.contexts.publicLocale(i.guildId!, i.guildLocale);
    // The channel asked again in the lobby's own transaction: two creates at once make one lobby.
    // Issue 24: the lobby pings the server's lobby role when its cooldown allows (claimed here too).
    const game = await this.store.transaction(async () =>
      (await this.activeGame(i.channelId))
        ? null
        : this.service.createLobby({
            guildId: i.guildId!,
            channelId: i.channelId,
            hostId: i.user.id,
            ruleset: ruleset as RulesetId,
            pace,
            options: parsed.data as OptionOverrides,
            rated,
            preset: found?.name ?? null,
            lobby: {
              members: [],
              names: {},
              // The host's language too: what he alone is told by DM (issue 20: his game paused) is in it.
              locales: { [i.user.id]: i.locale },
              ...(settings.speakingOrder === 'enforced' ? { enforceTurns: true } : {}),
              ...(settings.lobbyRole !== null &&
              (await this.store.claimLobbyPing(i.guildId!, this.service.now(), settings.lobbyCooldown * 60_000))
                ? { ping: settings.lobbyRole }
                : {}),
            },
            ui: { locale: pub, settings },
          }),
    );
    if (!game) return refuse(i, t(loc, 'refusal.create/busy'));
    const need = RULESETS[ruleset as RulesetId].players;
    await say(i, t(loc, 'create.done', { id: game.id, ruleset: rulesetName(loc, ruleset), need }));
  }

  private async myRole(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const game = await this.activeGame(i.channelId);
    const ctx = game && game.status !== 'lobby' ? await this.contexts.fromRow(game) : null;
    const seat = ctx ? seatOfUser(ctx, i.user.id) : null;
    if (!ctx || seat === null) return refuse(i, t(loc, 'refusal.player/not-playing'));
    await i.reply({ ...toReply(roleCard(ctx, seat, loc)), flags: MessageFlags.Ephemeral });
  }

  /**
   * /mafia rules [ruleset] (issue 21): how to play, privately. The game in this channel (with its
   * options and timers) when no rule set is named or it is that game's; else the named rule set, or
   * the server's default one, with the server's pace.
   */
  private async rules(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const asked = i.options.getString('ruleset');
    if (asked !== null && !(RULESET_IDS as string[]).includes(asked))
      return refuse(i, t(loc, 'refusal.create/ruleset'));
    const game = await this.activeGame(i.channelId);
    if (game && (asked === null || asked === game.ruleset)) {
      const options = resolveOptions(game.ruleset, game.pace, game.options);
      return reply(i, rulesPayload(loc, game.ruleset, game.pace, options));
    }
    const settings = await readSettings(this.store, i.guildId!);
    const ruleset = (asked ?? settings.ruleset) as RulesetId | null;
    if (ruleset === null) return refuse(i, t(loc, 'refusal.create/ruleset-needed'));
    const pace = settings.pace === 'async' ? 'async' : 'live';
    const options = resolveOptions(ruleset, pace, { timers: { ...settings.timers[pace] } });
    return reply(i, rulesPayload(loc, ruleset, pace, options));
  }

  /**
   * /mafia table. A game's host (G-7: its creator, Manage Server, the host role) may post the table
   * again (pinned; the old one is deleted, so no stale copy stays pinned), at most once a minute per
   * game, and only when it is missing: a table in its place is linked, not posted again. Anyone
   * else is shown where the table is.
   */
  private async repostTable(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const game = await this.activeGame(i.channelId);
    if (!game || game.status === 'lobby') return refuse(i, t(loc, 'refusal.game/none-here'));
    const slot = await this.outbox.slot(game.id, 'table');
    // The table is in place while the bot knows its message (a deleted one is forgotten and posted
    // again by itself, see the deliverer); its edits come on their own.
    const link =
      slot?.messageId && slot.channelId && slot.state !== 'gone'
        ? `https://discord.com/channels/${game.guildId}/${slot.channelId}/${slot.messageId}`
        : null;
    const hosts = hostRight(memberOf(i), game, (await readSettings(this.store, game.guildId)).hostRole) !== null;
    if (!hosts) return link ? say(i, t(loc, 'table.here', { link })) : refuse(i, t(loc, 'table.hostOnly'));
    if (link) return say(i, t(loc, 'table.inPlace', { link }));
    const now = this.service.now();
    for (const [id, at] of this.reposted) if (now - at >= TABLE_COOLDOWN_MS) this.reposted.delete(id);
    const last = this.reposted.get(game.id);
    if (last !== undefined) {
      const when = `<t:${Math.ceil((last + TABLE_COOLDOWN_MS) / 1000)}:R>`;
      return refuse(i, t(loc, 'table.cooldown', { when }));
    }
    this.reposted.set(game.id, now);
    await this.store.gameTransaction(game.id, () => this.outbox.repostSlot(game.id, 'table', now));
    this.deliverer.kick();
    await say(i, t(loc, 'table.reposted'));
  }

  /** How many games' reposts are remembered for the cooldown (tests: it does not grow for good). */
  get cooldowns(): number {
    return this.reposted.size;
  }
}
