// `/mafia settings …` (issue 11): the server's settings, one subcommand each, validated with the
// zod schema of src/app/settings.ts and shown back as one embed. Changing them needs Manage
// Server; a game keeps the settings it was created with (/mafia create snapshots them).
import { ChannelType, MessageFlags, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { APIEmbed } from 'discord-api-types/v10';
import {
  DEFAULT_SETTINGS,
  readSettings,
  writeSettings,
  type ServerSettings,
  type SettingKey,
} from '../../app/settings';
import type { Store } from '../../db/store';
import type { Timers } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { timerChanges } from './timer-options';
import { durationText, rulesetName } from '../render/words';
import { conductSettingText } from '../conduct';
import type { SlashCommandSubcommandGroupBuilder } from '@discordjs/builders';
import { choice, loc, TIMERS } from './builder';
import { ratingSettingsSubcommands } from './rating-settings';
import { PresetCommand, presetSubcommand, TIMER_ORDER } from './presets';

/** The settings as one embed, in the reader's language. */
export function settingsEmbed(loc: Locale, s: ServerSettings): APIEmbed {
  const none = t(loc, 'settings.none');
  const timers = (pace: 'live' | 'async') => {
    const set = TIMER_ORDER.filter((k) => s.timers[pace][k] !== undefined).map(
      (k) => `${t(loc, `timer.${k}` as MessageKey)}: ${durationText(loc, s.timers[pace][k]!)}`,
    );
    return set.length > 0 ? set.join(', ') : t(loc, 'settings.timersDefault');
  };
  return {
    title: t(loc, 'settings.title'),
    color: 0x5865f2,
    fields: [
      { name: t(loc, 'settings.language'), value: t(loc, `lang.${s.language}` as MessageKey), inline: true },
      {
        name: t(loc, 'settings.ruleset'),
        value: s.ruleset ? rulesetName(loc, s.ruleset) : t(loc, 'settings.rulesetAsk'),
        inline: true,
      },
      { name: t(loc, 'settings.pace'), value: t(loc, `pace.${s.pace}` as MessageKey), inline: true },
      {
        name: t(loc, 'settings.rated'),
        value: t(loc, s.rated ? 'settings.rated.on' : 'settings.rated.off'),
        inline: true,
      },
      { name: t(loc, 'settings.timers', { pace: t(loc, 'pace.live') }), value: timers('live') },
      { name: t(loc, 'settings.timers', { pace: t(loc, 'pace.async') }), value: timers('async') },
      { name: t(loc, 'settings.hostRole'), value: s.hostRole ? `<@&${s.hostRole}>` : none, inline: true },
      {
        name: t(loc, 'settings.lobbyPing'),
        value: !s.lobbyRole
          ? none
          : s.lobbyCooldown > 0
            ? t(loc, 'settings.lobbyPingValue', {
                role: `<@&${s.lobbyRole}>`,
                cooldown: durationText(loc, s.lobbyCooldown * 60),
              })
            : t(loc, 'settings.lobbyPingEvery', { role: `<@&${s.lobbyRole}>` }),
        inline: true,
      },
      {
        name: t(loc, 'settings.resultsChannel'),
        value: s.resultsChannel ? `<#${s.resultsChannel}>` : none,
        inline: true,
      },
      { name: t(loc, 'settings.mafiaTalk'), value: t(loc, `mafiaTalk.${s.mafiaTalk}` as MessageKey) },
      { name: t(loc, 'settings.speakingOrder'), value: t(loc, `speakingOrder.${s.speakingOrder}` as MessageKey) },
      // Issue 10: asynchronous play.
      { name: t(loc, 'settings.pings'), value: t(loc, `pings.${s.pings}` as MessageKey), inline: true },
      { name: t(loc, 'settings.reminders'), value: t(loc, `reminders.${s.reminders}` as MessageKey), inline: true },
      {
        name: t(loc, 'settings.quietHours'),
        value: s.quietHours ? t(loc, 'settings.quietHoursValue', { ...s.quietHours }) : none,
        inline: true,
      },
      {
        name: t(loc, 'settings.absent'),
        value:
          s.absentAfter > 0 ? t(loc, 'settings.absentValue', { count: s.absentAfter }) : t(loc, 'settings.absentNever'),
        inline: true,
      },
      {
        name: t(loc, 'settings.autoSubstitute'),
        value: t(loc, s.autoSubstitute ? 'settings.autoSubstitute.on' : 'settings.autoSubstitute.off'),
        inline: true,
      },
      {
        name: t(loc, 'settings.autoEnd'),
        value: t(loc, s.autoEnd ? 'settings.autoEnd.on' : 'settings.autoEnd.off'),
        inline: true,
      },
      { name: t(loc, 'settings.conduct'), value: conductSettingText(loc, s.conduct) },
      {
        name: t(loc, 'settings.spectators'),
        value: t(loc, s.spectatorRoles ? 'settings.spectators.on' : 'settings.spectators.off'),
        inline: true,
      },
      // Issue 24: the presets by name (each shown whole by `/mafia settings preset name:`).
      { name: t(loc, 'settings.presets'), value: presetsValue(loc, s) },
    ],
    footer: { text: t(loc, 'settings.footer') },
  };
}

/** The presets' names with their base, within an embed field's 1,024 characters. */
function presetsValue(loc: Locale, s: ServerSettings): string {
  const items = Object.entries(s.presets).map(([name, p]) =>
    t(loc, 'settings.presetsValue', {
      name,
      ruleset: rulesetName(loc, p.ruleset),
      pace: t(loc, `pace.${p.pace}` as MessageKey),
    }),
  );
  if (items.length === 0) return t(loc, 'settings.none');
  let out = '';
  for (const item of items) {
    const next = out ? `${out}, ${item}` : item;
    if (next.length > 1000) return `${out}, …`;
    out = next;
  }
  return out;
}

export class SettingsCommand {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    this.presets = new PresetCommand(store, now);
  }

  private readonly presets: PresetCommand;

  private async reply(
    i: ChatInputCommandInteraction,
    content: string,
    settings?: ServerSettings,
    loc: Locale = 'en',
  ): Promise<void> {
    await i.reply({
      content,
      ...(settings ? { embeds: [settingsEmbed(loc, settings)] } : {}),
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    });
  }

  async handle(i: ChatInputCommandInteraction, loc: Locale, sub: string): Promise<void> {
    const guildId = i.guildId!;
    if (sub === 'show') return this.reply(i, '', await readSettings(this.store, guildId), loc);
    if (sub === 'preset') return this.presets.handle(i, loc);
    if (!i.memberPermissions?.has(PermissionFlagsBits.ManageGuild))
      return this.reply(i, `⛔ ${t(loc, 'refusal.settings/permission')}`);
    let patch:
      Partial<Record<SettingKey, unknown>> | ((current: ServerSettings) => Partial<Record<SettingKey, unknown>>);
    /** Said under the confirmation (a setting saved that may not work as meant). */
    let note: string | null = null;
    switch (sub) {
      case 'language':
        patch = { language: i.options.getString('language', true) };
        break;
      case 'ruleset':
        patch = { ruleset: i.options.getString('ruleset') };
        break;
      case 'pace':
        patch = { pace: i.options.getString('pace', true) };
        break;
      case 'mafia_talk':
        patch = { mafiaTalk: i.options.getString('mafia_talk', true) };
        break;
      case 'speaking_order':
        patch = { speakingOrder: i.options.getString('speaking_order', true) };
        break;
      case 'host_role':
        patch = { hostRole: i.options.getRole('role')?.id ?? null };
        break;
      case 'results_channel': {
        const ch = i.options.getChannel('channel');
        if (ch && ch.type !== ChannelType.GuildText && ch.type !== ChannelType.GuildAnnouncement)
          return this.reply(i, `⛔ ${t(loc, 'refusal.settings/channel')}`);
        patch = { resultsChannel: ch?.id ?? null };
        break;
      }
      case 'timers': {
        const pace = i.options.getString('pace', true);
        if (pace !== 'live' && pace !== 'async') return this.reply(i, `⛔ ${t(loc, 'refusal.create/pace')}`);
        // What each timer option says: a number of seconds, or `default` (back to the rule set).
        const given = timerChanges(i);
        if ('bad' in given) return this.reply(i, `⛔ ${t(loc, 'refusal.settings/timer', given.bad)}`);
        // Applied to the timers as they are when the change is written.
        patch = (cur) => {
          const next: Partial<Timers> = { ...cur.timers[pace] };
          for (const [key, v] of given) {
            if (v === 'default') delete next[key];
            else next[key] = v;
          }
          return { timers: { ...cur.timers, [pace]: next } };
        };
        break;
      }
      case 'pings':
        patch = { pings: i.options.getString('pings', true) };
        break;
      case 'reminders':
        patch = { reminders: i.options.getString('reminders', true) };
        break;
      case 'quiet_hours': {
        const start = i.options.getString('start');
        const end = i.options.getString('end');
        const tz = i.options.getString('time_zone');
        const given = [start, end, tz].filter((x) => x !== null).length;
        if (given !== 0 && given !== 3) return this.reply(i, `⛔ ${t(loc, 'refusal.settings/quiet')}`);
        patch = { quietHours: given === 0 ? null : { start: start!.trim(), end: end!.trim(), tz: tz!.trim() } };
        break;
      }
      case 'absent':
        patch = { absentAfter: i.options.getInteger('after', true) };
        break;
      case 'auto_substitute':
        patch = { autoSubstitute: i.options.getBoolean('auto_substitute', true) };
        break;
      case 'auto_end':
        patch = { autoEnd: i.options.getBoolean('auto_end', true) };
        break;
      case 'rated':
        patch = { rated: i.options.getBoolean('rated', true) };
        break;
      case 'lobby_ping': {
        const role = i.options.getRole('role');
        // @everyone is every member, not an opt-in role.
        if (role && role.id === guildId) return this.reply(i, `⛔ ${t(loc, 'refusal.settings/lobbyEveryone')}`);
        const cooldown = i.options.getInteger('cooldown');
        patch = { lobbyRole: role?.id ?? null, ...(cooldown !== null ? { lobbyCooldown: cooldown } : {}) };
        // Discord pings a role only when it is mentionable or the bot may mention everyone.
        if (role && !role.mentionable && !i.appPermissions?.has(PermissionFlagsBits.MentionEveryone))
          note = t(loc, 'settings.lobbyPingMuted', { role: `<@&${role.id}>` });
        break;
      }
      case 'conduct': {
        // Issue 24: each option given changes its threshold; the others stay.
        const opt = (name: string) => i.options.getInteger(name);
        patch = (current) => {
          const c = { ...current.conduct };
          const given = {
            days: opt('within'),
            absences: opt('absences'),
            fouls: opt('fouls'),
            removals: opt('removals'),
            abandoned: opt('left'),
            pause: opt('pause'),
          };
          for (const [k, v] of Object.entries(given)) if (v !== null) c[k as keyof typeof c] = v;
          return { conduct: c };
        };
        break;
      }
      case 'spectators':
        patch = { spectatorRoles: i.options.getBoolean('roles', true) };
        break;
      case 'reset':
        // Everything back to its default but the presets: saved variants, not settings of the bot.
        patch = (cur) => ({ ...DEFAULT_SETTINGS, presets: cur.presets });
        break;
      default:
        return this.reply(i, `⛔ ${t(loc, 'refusal.input/unknown')}`);
    }
    const r = await writeSettings(this.store, guildId, patch, this.now());
    if (!r.ok)
      return this.reply(
        i,
        `⛔ ${t(loc, 'refusal.settings/invalid', { field: r.field, problem: r.problem.slice(0, 120) })}`,
      );
    await this.reply(i, `✅ ${t(loc, 'settings.saved')}${note ? `\n⚠️ ${note}` : ''}`, r.settings, loc);
  }
}

/** Issue 11: `/mafia settings …`, the server's general settings (each one a subcommand). */
export function settingsGroup(g: SlashCommandSubcommandGroupBuilder) {
  g.addSubcommand((s) => loc(s, 'settings.show'));
  g.addSubcommand((s) =>
    loc(s, 'settings.language').addStringOption((o) =>
      loc(o, 'opt.language')
        .setRequired(true)
        .addChoices(
          choice('auto', 'lang.auto'),
          choice('en', 'lang.en'),
          choice('uk', 'lang.uk'),
          choice('ru', 'lang.ru'),
        ),
    ),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.ruleset').addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false)
        .addChoices(
          choice('chnu-2016', 'ruleset.chnu-2016'),
          choice('classic-10', 'ruleset.classic-10'),
          choice('kiev-12', 'ruleset.kiev-12'),
        ),
    ),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.pace').addStringOption((o) =>
      loc(o, 'opt.pace').setRequired(true).addChoices(choice('live', 'pace.live'), choice('async', 'pace.async')),
    ),
  );
  g.addSubcommand((s) => loc(s, 'settings.rated').addBooleanOption((o) => loc(o, 'opt.rated').setRequired(true)));
  g.addSubcommand((s) => {
    loc(s, 'settings.timers');
    s.addStringOption((o) =>
      loc(o, 'opt.settingsPace')
        .setRequired(true)
        .addChoices(choice('live', 'pace.live'), choice('async', 'pace.async')),
    );
    for (const timer of TIMERS)
      s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  g.addSubcommand((s) => loc(s, 'settings.hostRole').addRoleOption((o) => loc(o, 'opt.role').setRequired(false)));
  g.addSubcommand((s) =>
    loc(s, 'settings.lobbyPing')
      .addRoleOption((o) => loc(o, 'opt.role').setRequired(false))
      .addIntegerOption((o) => loc(o, 'opt.pingCooldown').setRequired(false).setMinValue(0).setMaxValue(1440)),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.mafiaTalk').addStringOption((o) =>
      loc(o, 'opt.mafiaTalk')
        .setRequired(true)
        .addChoices(choice('night-0', 'mafiaTalk.night-0'), choice('every-night', 'mafiaTalk.every-night')),
    ),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.speakingOrder').addStringOption((o) =>
      loc(o, 'opt.speakingOrder')
        .setRequired(true)
        .addChoices(choice('free', 'speakingOrder.free'), choice('enforced', 'speakingOrder.enforced')),
    ),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.resultsChannel').addChannelOption((o) =>
      loc(o, 'opt.channel').setRequired(false).addChannelTypes(ChannelType.GuildText),
    ),
  );
  asyncSettingsSubcommands(g);
  // Issue 24: the thresholds of conduct (src/app/conduct.ts).
  g.addSubcommand((s) => {
    loc(s, 'settings.conduct');
    const n = (key: string, max: number, min = 0) =>
      s.addIntegerOption((o) => loc(o, key).setRequired(false).setMinValue(min).setMaxValue(max));
    n('opt.conductAbsences', 50);
    n('opt.conductFouls', 50);
    n('opt.conductRemovals', 50);
    n('opt.conductLeft', 50);
    n('opt.conductWindow', 365, 1);
    n('opt.conductPause', 365);
    return s;
  });
  g.addSubcommand((s) => loc(s, 'settings.reset'));
  g.addSubcommand((s) => presetSubcommand(s));
  ratingSettingsSubcommands(g);
  return g;
}

/** Issue 10: the settings of asynchronous play. */
function asyncSettingsSubcommands(g: SlashCommandSubcommandGroupBuilder) {
  g.addSubcommand((s) =>
    loc(s, 'settings.pings').addStringOption((o) =>
      loc(o, 'opt.pings').setRequired(true).addChoices(choice('on', 'pings.on'), choice('off', 'pings.off')),
    ),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.reminders').addStringOption((o) =>
      loc(o, 'opt.reminders')
        .setRequired(true)
        .addChoices(
          choice('auto', 'reminders.auto'),
          choice('off', 'reminders.off'),
          choice('halfway', 'reminders.halfway'),
          choice('hour', 'reminders.hour'),
          choice('both', 'reminders.both'),
        ),
    ),
  );
  g.addSubcommand((s) => {
    loc(s, 'settings.quietHours');
    s.addStringOption((o) => loc(o, 'opt.quietStart').setRequired(false).setMaxLength(5));
    s.addStringOption((o) => loc(o, 'opt.quietEnd').setRequired(false).setMaxLength(5));
    s.addStringOption((o) => loc(o, 'opt.timeZone').setRequired(false).setMaxLength(64));
    return s;
  });
  g.addSubcommand((s) =>
    loc(s, 'settings.absent').addIntegerOption((o) =>
      loc(o, 'opt.absentAfter').setRequired(true).setMinValue(0).setMaxValue(10),
    ),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.autoSubstitute').addBooleanOption((o) => loc(o, 'opt.autoSubstitute').setRequired(true)),
  );
  g.addSubcommand((s) => loc(s, 'settings.autoEnd').addBooleanOption((o) => loc(o, 'opt.autoEnd').setRequired(true)));
  g.addSubcommand((s) =>
    loc(s, 'settings.spectators').addBooleanOption((o) => loc(o, 'opt.spectatorRoles').setRequired(true)),
  );
}
