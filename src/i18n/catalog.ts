// The catalog's types: en.ts defines the keys, every other language is a Catalog (all of them).
import type { en } from './en';
import type { Entry } from './entry';

export type { Entry, PluralForms } from './entry';
export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, Entry>;
