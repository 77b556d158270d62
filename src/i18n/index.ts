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

function fill(text: string, params: Params | undefined): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** The text for `key` in `locale`; plural entries use `params.count`. */
export function t(locale: Locale, key: MessageKey, params?: Params): string {
  const entry: Entry = catalogs[locale][key] ?? catalogs.en[key];
  if (typeof entry === 'string') return fill(entry, params);
  const count = Number(params?.count ?? 0);
  const form = pluralRules[locale].select(count) as keyof PluralForms;
  return fill(entry[form] ?? entry.other, params);
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
