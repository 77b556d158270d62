// `/mafia settings preset` (issue 24): a server's house variants under a name. Given the name alone
// it shows the preset (anyone may look); with changes it saves it, with delete:true it deletes it
// (both need Manage Server, as every setting). `/mafia create preset:<name>` plays it.
import { MessageFlags, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { SlashCommandSubcommandBuilder } from '@discordjs/builders';
import {
  applyPresetEdit,
  MAX_PRESETS,
  parseRuleChanges,
  PRESET_NAME_MAX,
  PRESET_OPTIONS,
  presetChanges,
  presetName,
  type Preset,
  type PresetEdit,
} from '../../app/presets';
import { readSettings, writeSettings, type ServerSettings } from '../../app/settings';
import type { Store } from '../../db/store';
import { optionOverridesSchema, resolveOptions } from '../../engine/options';
import { RULESET_IDS } from '../../engine/rulesets';
import type { RulesetId, Timers } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { rulesPayload } from '../render/rules';
import { durationText, rulesetName } from '../render/words';
import { toReply } from '../reply';
import { choice, loc, rulesetChoices, TIMER_OPTIONS } from './builder';
import { timerChanges } from './timer-options';

/** The stage timers in the order the rules say them. */
export const TIMER_ORDER: (keyof Timers)[] = [
  'night0',
  'night',
  'speech',
  'discussion',
  'accusation',
  'vote',
  'shootout',
  'lastWords',
  'postGame',
];

export function presetSubcommand(s: SlashCommandSubcommandBuilder) {
  loc(s, 'settings.preset');
  s.addStringOption((o) => loc(o, 'opt.presetName').setRequired(true).setMaxLength(40));
  s.addStringOption((o) =>
    loc(o, 'opt.ruleset')
      .setRequired(false)
      .addChoices(...rulesetChoices()),
  );
  s.addStringOption((o) =>
    loc(o, 'opt.pace').setRequired(false).addChoices(choice('live', 'pace.live'), choice('async', 'pace.async')),
  );
  s.addStringOption((o) => loc(o, 'opt.presetRules').setRequired(false).setMaxLength(600));
  for (const timer of TIMER_OPTIONS)
    s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
  s.addBooleanOption((o) => loc(o, 'opt.presetDelete').setRequired(false));
  return s;
}

/** What an option takes, said in a refusal: `true or false`, the choices, or the range. */
function valuesText(loc: Locale, key: (typeof PRESET_OPTIONS)[number]): string {
  const inner = optionOverridesSchema.shape[key].unwrap() as unknown as {
    type: string;
    options?: string[];
    minValue?: number | null;
    maxValue?: number | null;
  };
  if (inner.type === 'boolean') return t(loc, 'preset.values.boolean');
  if (inner.type === 'enum') return (inner.options ?? []).join(' / ');
  return t(loc, 'preset.values.number', { min: inner.minValue ?? 0, max: inner.maxValue ?? 0 });
}

/** A preset of the server by the name as typed, or the refusal's text. */
export function findPreset(
  settings: ServerSettings,
  raw: string,
  loc: Locale,
): { name: string; preset: Preset } | string {
  const names = Object.keys(settings.presets);
  if (names.length === 0) return t(loc, 'refusal.preset/none');
  const name = presetName(raw);
  const preset = name !== null ? settings.presets[name] : undefined;
  if (!name || !preset)
    return t(loc, 'refusal.preset/unknown', { name: raw.trim().slice(0, PRESET_NAME_MAX + 8), list: names.join(', ') });
  return { name, preset };
}

/** A preset in the reader's language: its base, its changes, its timers, who saved it; the rules it plays by. */
export function presetView(loc: Locale, name: string, p: Preset) {
  const changes = presetChanges(p);
  const timers = p.options.timers ?? {};
  const timerList = TIMER_ORDER.filter((k) => timers[k] !== undefined).map(
    (k) => `${t(loc, `timer.${k}` as MessageKey)}: ${durationText(loc, timers[k]!)}`,
  );
  const lines = [
    `**${t(loc, 'preset.title', { name })}** — ${t(loc, 'preset.base', {
      ruleset: rulesetName(loc, p.ruleset),
      pace: t(loc, `pace.${p.pace}` as MessageKey),
    })}`,
    changes.length > 0
      ? t(loc, 'preset.changes', { list: changes.map((c) => `\`${c}\``).join(', ') })
      : t(loc, 'preset.noChanges'),
    ...(timerList.length > 0 ? [t(loc, 'preset.timers', { list: timerList.join(', ') })] : []),
    t(loc, 'preset.savedBy', { user: `<@${p.by}>`, when: `<t:${Math.floor(p.at / 1000)}:R>` }),
    t(loc, 'preset.use', { name }),
  ];
  const rules = rulesPayload(loc, p.ruleset, p.pace, resolveOptions(p.ruleset, p.pace, p.options));
  return { ...rules, content: lines.join('\n') };
}

export class PresetCommand {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  private say(i: ChatInputCommandInteraction, content: string) {
    return i.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  async handle(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const guildId = i.guildId!;
    const raw = i.options.getString('name', true);
    const name = presetName(raw);
    if (!name) return void (await this.say(i, `⛔ ${t(loc, 'refusal.preset/name')}`));
    const edit: PresetEdit = {};
    const ruleset = i.options.getString('ruleset');
    if (ruleset !== null) {
      if (!(RULESET_IDS as string[]).includes(ruleset))
        return void (await this.say(i, `⛔ ${t(loc, 'refusal.create/ruleset')}`));
      edit.ruleset = ruleset as RulesetId;
    }
    const pace = i.options.getString('pace');
    if (pace !== null) {
      if (pace !== 'live' && pace !== 'async') return void (await this.say(i, `⛔ ${t(loc, 'refusal.create/pace')}`));
      edit.pace = pace;
    }
    const rules = i.options.getString('rules');
    if (rules !== null) {
      const r = parseRuleChanges(rules);
      if (!r.ok) {
        const item = r.token.slice(0, 60);
        const option = PRESET_OPTIONS.find((k) =>
          r.token.toLowerCase().replace(/[_-]/g, '').startsWith(k.toLowerCase()),
        );
        const text =
          r.known && option
            ? t(loc, 'refusal.preset/value', { item, option, values: valuesText(loc, option) })
            : t(loc, 'refusal.preset/option', { item, list: PRESET_OPTIONS.join(', ') });
        return void (await this.say(i, `⛔ ${text}`));
      }
      edit.rules = r.changes;
    }
    const timers = timerChanges(i);
    if ('bad' in timers) return void (await this.say(i, `⛔ ${t(loc, 'refusal.settings/timer', timers.bad)}`));
    if (timers.size > 0) edit.timers = timers;
    const remove = i.options.getBoolean('delete') === true;
    const changing = remove || Object.keys(edit).length > 0;
    if (!changing) {
      // The name alone: the preset shown, to anyone.
      const found = findPreset(await readSettings(this.store, guildId), raw, loc);
      if (typeof found === 'string') return void (await this.say(i, `⛔ ${found}`));
      const view = presetView(loc, found.name, found.preset);
      return void (await i.reply({ ...toReply(view), flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } }));
    }
    if (!i.memberPermissions?.has(PermissionFlagsBits.ManageGuild))
      return void (await this.say(i, `⛔ ${t(loc, 'refusal.settings/permission')}`));
    // Read and written in the settings' transaction: two hosts saving at once lose nothing.
    let refusal: string | null = null;
    let saved: Preset | null = null;
    const r = await writeSettings(
      this.store,
      guildId,
      (cur) => {
        const presets = { ...cur.presets };
        if (remove) {
          if (!presets[name]) {
            const names = Object.keys(presets);
            refusal =
              names.length === 0
                ? t(loc, 'refusal.preset/none')
                : t(loc, 'refusal.preset/unknown', { name, list: names.join(', ') });
            return {};
          }
          delete presets[name];
          return { presets };
        }
        const current = presets[name] ?? null;
        if (!current && Object.keys(presets).length >= MAX_PRESETS) {
          refusal = t(loc, 'refusal.preset/full', { count: MAX_PRESETS });
          return {};
        }
        const change = applyPresetEdit(current, edit, { ruleset: cur.ruleset, pace: cur.pace }, i.user.id, this.now());
        if (!change.ok) {
          refusal = t(loc, `refusal.${change.code}` as MessageKey);
          return {};
        }
        saved = change.preset;
        presets[name] = change.preset;
        return { presets };
      },
      this.now(),
    );
    if (refusal) return void (await this.say(i, `⛔ ${refusal}`));
    if (!r.ok) return void (await this.say(i, `⛔ ${t(loc, 'refusal.preset/invalid')}`));
    if (remove || !saved) return void (await this.say(i, t(loc, 'preset.deleted', { name })));
    const view = presetView(loc, name, saved);
    await i.reply({
      ...toReply({ ...view, content: `${t(loc, 'preset.saved', { name })}\n${view.content}` }),
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    });
  }
}
