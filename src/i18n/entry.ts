// One catalog entry: a text, or plural forms picked by `params.count` (Intl.PluralRules of the
// locale: en one/other; uk and ru one/few/many/other). Every catalog (the main ones and the feature
// catalogs spread into them) is typed with it, so any entry can hold plural forms.
export type PluralForms = { one: string; few?: string; many?: string; other: string };
export type Entry = string | PluralForms;
