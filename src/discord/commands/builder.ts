// Shared pieces of the slash commands' definitions (@discordjs/builders): names and descriptions
// from the catalogs in en, uk and ru, choices, and the options several commands have.
import type { SlashCommandSubcommandBuilder } from '@discordjs/builders';
import { t, type MessageKey } from '../../i18n';

type Localizable = {
  setName(name: string): unknown;
  setDescription(d: string): unknown;
  setNameLocalizations(l: Record<string, string>): unknown;
  setDescriptionLocalizations(l: Record<string, string>): unknown;
};

/** Name and description from the catalog: `cmd.<path>.name` and `cmd.<path>.desc`. */
export function loc<T extends Localizable>(b: T, path: string): T {
  const name = `cmd.${path}.name` as MessageKey;
  const desc = `cmd.${path}.desc` as MessageKey;
  b.setName(t('en', name));
  b.setDescription(t('en', desc));
  b.setNameLocalizations({ uk: t('uk', name), ru: t('ru', name) });
  b.setDescriptionLocalizations({ uk: t('uk', desc), ru: t('ru', desc) });
  return b;
}

export const choice = (value: string, key: MessageKey) => ({
  name: t('en', key),
  value,
  name_localizations: { uk: t('uk', key), ru: t('ru', key) },
});

export const TIMERS = ['night', 'speech', 'discussion', 'accusation', 'vote', 'last_words', 'shootout'] as const;
export type TimerOption = (typeof TIMERS)[number];
export const TIMER_OPTIONS = TIMERS;

export function seatOption(s: SlashCommandSubcommandBuilder, required = true) {
  return s.addIntegerOption((o) => loc(o, 'opt.seat').setMinValue(1).setMaxValue(12).setRequired(required));
}
export function reasonOption(s: SlashCommandSubcommandBuilder) {
  return s.addStringOption((o) => loc(o, 'opt.reason').setMaxLength(200).setRequired(false));
}

export function gameOption(s: SlashCommandSubcommandBuilder) {
  return s.addIntegerOption((o) => loc(o, 'opt.game').setMinValue(1).setRequired(false));
}

export const rulesetChoices = () => [
  choice('chnu-2016', 'ruleset.chnu-2016'),
  choice('classic-10', 'ruleset.classic-10'),
  choice('kiev-12', 'ruleset.kiev-12'),
];
