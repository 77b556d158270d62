// One catalog in three languages. en.ts defines the keys; uk.ts and ru.ts must have every key
// (the compiler checks). `{name}` is replaced by a parameter; plural entries pick a form by count.
import { en } from './en';
import { ru } from './ru';
import { uk } from './uk';

export type Locale = 'en' | 'uk' | 'ru';
export const LOCALES: readonly Locale[] = ['en', 'uk', 'ru'];

export type { Catalog, Entry, MessageKey, PluralForms } from './catalog';
import type { Catalog, Entry, MessageKey, PluralForms } from './catalog';

const catalogs: Record<Locale, Catalog> = { en, uk, ru };
const pluralRules: Record<Locale, Intl.PluralRules> = {
  en: new Intl.PluralRules('en'),
  uk: new Intl.PluralRules('uk'),
  ru: new Intl.PluralRules('ru'),
};

export type Params = Record<string, string | number>;

/**
 * The ids of the registered slash commands by their (English) top-level name: the shell reads them
 * from Discord once at start-up (`setCommandIds`), so a catalog text's `{cmd:host skip}` becomes a
 * command mention, `</host skip:ID>`, which every client shows in its own language and makes
 * clickable. A command whose id is unknown is written as plain text in the reader's language.
 */
const commandIds = new Map<string, string>();

/** Replaces the known command ids (top-level name -> id). */
export function setCommandIds(ids: Iterable<readonly [string, string]>): void {
  commandIds.clear();
  for (const [name, id] of ids) commandIds.set(name, id);
}

/** `/host skip` as a command mention, or (its id unknown) as `/ведучий пропустити` in `locale`. */
export function commandMention(locale: Locale, path: string): string {
  const words = path.trim().split(/\s+/);
  const id = commandIds.get(words[0]!);
  if (id) return `</${words.join(' ')}:${id}>`;
  const cat = catalogs[locale] as Record<string, Entry | undefined>;
  // `cmd.host.skip.name`; a subcommand of a group (`/mafia settings ruleset`) is `cmd.settings.ruleset.name`.
  const names = words.map((w, i) => {
    const e =
      cat[`cmd.${words.slice(0, i + 1).join('.')}.name`] ?? (i > 0 ? cat[`cmd.${words[i - 1]}.${w}.name`] : undefined);
    return typeof e === 'string' ? e : w;
  });
  return `/${names.join(' ')}`;
}

function fill(locale: Locale, text: string, params: Params | undefined): string {
  const withCommands = text.includes('{cmd:')
    ? text.replace(/\{cmd:([a-z_ -]+)\}/g, (_, path: string) => commandMention(locale, path))
    : text;
  if (!params) return withCommands;
  return withCommands.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** The text for `key` in `locale`; plural entries use `params.count`; `{cmd:…}` is a command mention. */
export function t(locale: Locale, key: MessageKey, params?: Params): string {
  const entry: Entry = catalogs[locale][key] ?? catalogs.en[key];
  if (typeof entry === 'string') return fill(locale, entry, params);
  const count = Number(params?.count ?? 0);
  const form = pluralRules[locale].select(count) as keyof PluralForms;
  return fill(locale, entry[form] ?? entry.other, params);
}

/** Whether a key exists (refusal codes map to `refusal.<code>` when the catalog has one). */
export function hasKey(key: string): boolean {
  return key in catalogs.en;
}

/** Discord's locale ("uk", "ru", "en-US", ...) as one of ours, or null. */
export function toLocale(discordLocale: string | null | undefined): Locale | null {
  if (!discordLocale) return null;
  const base = discordLocale.toLowerCase().split('-')[0];
  if (base === 'uk') return 'uk';
  if (base === 'ru') return 'ru';
  if (base === 'en') return 'en';
  return null;
}

export function catalog(locale: Locale): Catalog {
  return catalogs[locale];
}
