// The catalog's types: en.ts defines the keys, every other language is a Catalog (all of them).
import type { en } from './en';

export type PluralForms = { one: string; few?: string; many?: string; other: string };
export type Entry = string | PluralForms;
export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, Entry>;
