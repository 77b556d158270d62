// The catalogs against docs/glossary.md (issue 21): every value of every catalog (the main ones and
// the feature catalogs, all three languages, every plural form) is free of rule ids, internal rule
// set ids, the variants the glossary bans (docs/glossary-banned.json), and mixed number signs; and
// no key is defined by two catalogs of one language (a later spread silently wins: that is how
// `/host transfer`'s `member` option came to read "Whose record (default: yours)").
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalog, LOCALES, type Entry, type Locale } from '../../src/i18n';
import { hostToolkitEn, hostToolkitRu, hostToolkitUk } from '../../src/i18n/host-toolkit';
import { asyncPlayEn, asyncPlayRu, asyncPlayUk } from '../../src/i18n/async-play';
import { tournamentEn, tournamentRu, tournamentUk } from '../../src/i18n/tournament';
import { statsEn, statsRu, statsUk } from '../../src/i18n/stats';
import { rulesEn, rulesRu, rulesUk } from '../../src/i18n/rules';
import { exportEn, exportRu, exportUk } from '../../src/i18n/export';
import { achievementsEn, achievementsRu, achievementsUk } from '../../src/i18n/achievements';
import { hostCommand } from '../../src/discord/commands/definitions';

const I18N = 'src/i18n';

/** Every catalog object by language: the merged main catalog and each feature catalog on its own. */
const sources: { name: string; lang: Locale; entries: Record<string, Entry> }[] = [
  ...LOCALES.map((lang) => ({ name: `${lang} (merged)`, lang, entries: catalog(lang) as Record<string, Entry> })),
  { name: 'hostToolkitEn', lang: 'en', entries: hostToolkitEn },
  { name: 'hostToolkitUk', lang: 'uk', entries: hostToolkitUk },
  { name: 'hostToolkitRu', lang: 'ru', entries: hostToolkitRu },
  { name: 'asyncPlayEn', lang: 'en', entries: asyncPlayEn },
  { name: 'asyncPlayUk', lang: 'uk', entries: asyncPlayUk },
  { name: 'asyncPlayRu', lang: 'ru', entries: asyncPlayRu },
  { name: 'tournamentEn', lang: 'en', entries: tournamentEn },
  { name: 'tournamentUk', lang: 'uk', entries: tournamentUk },
  { name: 'tournamentRu', lang: 'ru', entries: tournamentRu },
  { name: 'statsEn', lang: 'en', entries: statsEn },
  { name: 'statsUk', lang: 'uk', entries: statsUk },
  { name: 'statsRu', lang: 'ru', entries: statsRu },
  { name: 'rulesEn', lang: 'en', entries: rulesEn },
  { name: 'rulesUk', lang: 'uk', entries: rulesUk },
  { name: 'rulesRu', lang: 'ru', entries: rulesRu },
  { name: 'exportEn', lang: 'en', entries: exportEn },
  { name: 'exportUk', lang: 'uk', entries: exportUk },
  { name: 'exportRu', lang: 'ru', entries: exportRu },
  { name: 'achievementsEn', lang: 'en', entries: achievementsEn },
  { name: 'achievementsUk', lang: 'uk', entries: achievementsUk },
  { name: 'achievementsRu', lang: 'ru', entries: achievementsRu },
];

/** Every text of an entry: the string, or each plural form. */
const texts = (e: Entry): string[] => (typeof e === 'string' ? [e] : Object.values(e).filter((v) => v !== undefined));

/** `lang:key: text` for every value of `lang` (all languages when omitted) that `bad` flags. */
function offenders(bad: (text: string, key: string) => boolean, lang?: Locale): string[] {
  const out = new Set<string>();
  for (const s of sources) {
    if (lang && s.lang !== lang) continue;
    for (const [key, entry] of Object.entries(s.entries))
      for (const text of texts(entry)) if (bad(text, key)) out.add(`${s.lang}:${key}: ${text}`);
  }
  return [...out];
}

describe('catalogs and the glossary (docs/glossary.md)', () => {
  it('no rule id (G-5, (M-3), T-1, ...) in any value: players do not read the rule book', () => {
    const ruleId = /\b[GNDMFESTP]-\d+\b/;
    expect(offenders((text) => ruleId.test(text))).toEqual([]);
  });

  it('no command written as text (/host skip): a command is {cmd:host skip}, a mention the reader can click', () => {
    // Discord shows a command in the reader's language (`/ведучий пропустити`); typed English syntax
    // is a command the reader's client does not list. Command descriptions cannot hold a mention
    // either: they say what the command does without naming another.
    const typed = /(^|[\s(«"'“])\/\p{L}{2,}/u;
    expect(offenders((text) => typed.test(text.replace(/\{cmd:[^}]*\}/g, '')))).toEqual([]);
  });

  it('no internal rule set id (chnu-2016, classic-10, kiev-12) in any value: rule sets are shown by name', () => {
    // No key needs one: a rule set is always named by its ruleset.* entry (for example in the
    // /mafia create and /settings choices, which carry the id as the hidden value, not as text).
    const internal = /\b(chnu-2016|classic-10|kiev-12)\b/;
    expect(offenders((text) => internal.test(text))).toEqual([]);
  });

  it('no variant the glossary bans', () => {
    const { banned } = JSON.parse(readFileSync('docs/glossary-banned.json', 'utf8')) as {
      banned: { lang: Locale; term: string; pattern: string; use: string; onlyKeys?: string }[];
    };
    expect(banned.length).toBeGreaterThan(0);
    const glossary = readFileSync('docs/glossary.md', 'utf8');
    const found: string[] = [];
    for (const b of banned) {
      // Every ban comes from a glossary entry that names it.
      expect(glossary, `docs/glossary.md has no entry "${b.term}"`).toContain(`**${b.term}**`);
      const re = new RegExp(b.pattern, 'iu');
      const only = b.onlyKeys ? new RegExp(b.onlyKeys) : null;
      for (const o of offenders((text, key) => (!only || only.test(key)) && re.test(text), b.lang))
        found.push(`${o}  → use ${b.use}`);
    }
    expect(found).toEqual([]);
  });

  it('one number sign per language: "#" and "№" are not mixed (channel mentions <#id> aside)', () => {
    for (const lang of LOCALES) {
      const hash = offenders((text) => /(^|[^<&])#/.test(text), lang);
      const numero = offenders((text) => text.includes('№'), lang);
      expect(hash.length === 0 || numero.length === 0, `${lang}: # in ${hash[0]} and № in ${numero[0]}`).toBe(true);
    }
  });

  it('no key is defined by two catalogs of one language', () => {
    // The keys each exported object literal of src/i18n defines itself (spreads are not counted),
    // read from the source, since a spread that overrides a key leaves no trace at run time.
    const owners = new Map<string, string[]>(); // `${lang} ${key}` -> objects defining it
    for (const file of readdirSync(I18N).filter((f) => f.endsWith('.ts'))) {
      const src = ts.createSourceFile(file, readFileSync(join(I18N, file), 'utf8'), ts.ScriptTarget.Latest, true);
      for (const st of src.statements) {
        if (!ts.isVariableStatement(st)) continue;
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name) || !d.initializer) continue;
          let init: ts.Expression = d.initializer;
          while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
          if (!ts.isObjectLiteralExpression(init)) continue;
          const name = d.name.text;
          const lang = /(^en|En)$/.test(name)
            ? 'en'
            : /(^uk|Uk)$/.test(name)
              ? 'uk'
              : /(^ru|Ru)$/.test(name)
                ? 'ru'
                : null;
          if (!lang) continue;
          for (const p of init.properties) {
            if (!ts.isPropertyAssignment(p)) continue;
            const key = ts.isStringLiteral(p.name) || ts.isIdentifier(p.name) ? p.name.text : null;
            if (!key) continue;
            const k = `${lang} ${key}`;
            owners.set(k, [...(owners.get(k) ?? []), `${file}:${name}`]);
          }
        }
      }
    }
    expect(owners.size).toBeGreaterThan(1000);
    const dup = [...owners].filter(([, o]) => o.length > 1).map(([k, o]) => `${k}: ${o.join(', ')}`);
    expect(dup).toEqual([]);
  });

  it("/host transfer's member option describes the new host, not a stats record", () => {
    type Opt = {
      name: string;
      description: string;
      description_localizations?: Record<string, string>;
      options?: Opt[];
    };
    const transfer = (hostCommand().toJSON() as { options: Opt[] }).options.find((o) => o.name === 'transfer');
    const member = transfer?.options?.find((o) => o.name === 'member');
    expect(member?.description).toBe('The new host');
    expect(member?.description_localizations).toEqual({ uk: 'Новий ведучий', ru: 'Новый ведущий' });
  });
});
