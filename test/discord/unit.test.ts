// Pieces of the Discord shell that need no Discord: the custom-id codec, durations, the crypto
// shuffle, and the catalog (every key in three languages, every refusal code translated).
import { describe, expect, it } from 'vitest';
import { decodeId, encodeId, type CustomId } from '../../src/discord/custom-id';
import { cryptoShuffle } from '../../src/app/dealer';
import { parseDuration } from '../../src/discord/duration';
import { allCommands } from '../../src/discord/commands/definitions';
import { hostCommand, HOST_SUBCOMMANDS } from '../../src/discord/commands/definitions';
import { TOOLKIT_SUBS } from '../../src/discord/host-tools';
import { en } from '../../src/i18n/en';
import { ru } from '../../src/i18n/ru';
import { uk } from '../../src/i18n/uk';
import { catalog, LOCALES, t, toLocale } from '../../src/i18n';
import { isRefusalCode, REFUSAL_CODES } from '../../src/engine/refusal-codes';
import { refusalText } from '../../src/discord/render/words';

describe('custom ids', () => {
  const samples: CustomId[] = [
    { kind: 'lobby', game: 12, op: 'join' },
    { kind: 'panel', game: 7, panel: 'actions' },
    { kind: 'act', game: 99999, seq: 123, verb: 'vote', arg: 12 },
    { kind: 'act', game: 1, seq: 4, verb: 'voteAll', arg: 'y' },
    { kind: 'act', game: 1, seq: 4, verb: 'menu', arg: 'guess' },
    { kind: 'act', game: 1, seq: 0, verb: 'pass' },
  ];
  it('round-trip, versioned, at most 100 characters', () => {
    for (const id of samples) {
      const s = encodeId(id);
      expect(s.startsWith('v1:')).toBe(true);
      expect(s.length).toBeLessThanOrEqual(100);
      expect(decodeId(s)).toEqual(id);
    }
  });
  it('anything malformed decodes to null', () => {
    for (const bad of [
      '',
      'v1',
      'v2:l:1:join',
      'v1:l:0:join',
      'v1:l:01:join',
      'v1:l:1:jump',
      'v1:a:1:x:vote',
      'v1:a:1:2:vote:0',
      'v1:a:1:2:vote:101',
      'v1:a:1:2:vote:abc',
      'v1:a:1:2:dance',
      'v1:p:1:secret',
      'v1:a:1:2:pass:3:4',
      'v1:l:99999999999999999999:join',
      'x'.repeat(101),
      42,
      null,
    ]) {
      expect(decodeId(bad), String(bad)).toBeNull();
    }
  });
});

describe('durations and the deal', () => {
  it('parses 90, 90s, 15m, 12h, 2d; rejects the rest', () => {
    expect([
      parseDuration('90'),
      parseDuration('90s'),
      parseDuration(' 15m '),
      parseDuration('12H'),
      parseDuration('2d'),
    ]).toEqual([90, 90, 900, 43_200, 172_800]);
    for (const bad of ['', 'soon', '1.5h', '-5s', '5 lightyears', '12hh']) expect(parseDuration(bad), bad).toBeNull();
  });

  it('G-1: the crypto shuffle is a permutation and spreads positions evenly', () => {
    const counts = Array.from({ length: 10 }, () => new Array<number>(10).fill(0));
    const n = 20_000;
    for (let k = 0; k < n; k++) {
      const p = cryptoShuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(new Set(p).size).toBe(10);
      p.forEach((v, i) => counts[v]![i]!++);
    }
    for (const row of counts) for (const c of row) expect(Math.abs(c - n / 10)).toBeLessThan(n / 10 / 5); // within 20 %
  });
});

describe('the catalog', () => {
  it('uk and ru have every key of en, with the same placeholders', () => {
    for (const cat of [uk, ru]) {
      expect(Object.keys(cat)).toEqual(Object.keys(en));
      for (const [k, v] of Object.entries(en)) {
        // The set of placeholders, over every plural form (an entry may be plural in one language only).
        const ph = (x: unknown) =>
          [...new Set([...JSON.stringify(x).matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join();
        expect(ph(cat[k as keyof typeof en]), k).toBe(ph(v));
      }
    }
  });

  // That every code has its `refusal.<code>` key is checked by the compiler (i18n/en.ts keys its
  // texts by RefusalCode; uk and ru have every key of en); this checks the texts themselves.
  it('every refusal code has a non-empty text of its own in each language', () => {
    expect(REFUSAL_CODES.length).toBeGreaterThan(150);
    expect(new Set(REFUSAL_CODES).size).toBe(REFUSAL_CODES.length);
    for (const loc of LOCALES) {
      for (const code of REFUSAL_CODES) {
        const entry = catalog(loc)[`refusal.${code}`];
        expect(typeof entry === 'string' && entry.trim().length > 0, `${loc} refusal.${code}`).toBe(true);
        expect(refusalText(loc, code), `${loc} ${code}`).toBe(t(loc, `refusal.${code}`));
      }
    }
  });

  it('the refusal texts are exactly those of the codes (no text left without its code)', () => {
    const keys = Object.keys(en).filter((k) => /^refusal\.[^/]+\/./.test(k));
    expect(keys.filter((k) => !isRefusalCode(k.slice('refusal.'.length))).sort()).toEqual([]);
    expect(keys.length).toBe(REFUSAL_CODES.length);
  });

  it('plural forms follow each language', () => {
    expect(t('en', 'event.tally', { seat: '#1', count: 1, foul: '' })).toBe('#1: 1 vote');
    expect(t('uk', 'event.tally', { seat: '#1', count: 3, foul: '' })).toMatch(/3 голоси/);
    expect(t('ru', 'event.tally', { seat: '#1', count: 5, foul: '' })).toMatch(/5 голосов/);
  });

  it("Discord's locales map to ours", () => {
    expect([toLocale('uk'), toLocale('ru'), toLocale('en-GB'), toLocale('de'), toLocale(undefined)]).toEqual([
      'uk',
      'ru',
      'en',
      null,
      null,
    ]);
  });

  it("/host has exactly the typed subcommands (HOST_SUBCOMMANDS), the toolkit's among them", () => {
    const names = hostCommand()
      .toJSON()
      .options!.map((o) => o.name);
    expect([...names].sort()).toEqual([...HOST_SUBCOMMANDS].sort());
    for (const sub of TOOLKIT_SUBS) expect(HOST_SUBCOMMANDS).toContain(sub);
  });

  it('slash commands are valid for Discord in every language', () => {
    for (const cmd of allCommands()) {
      const names = [cmd.name, ...Object.values(cmd.name_localizations ?? {})];
      for (const n of names) expect(n).toMatch(/^[-_\p{L}\p{N}]{1,32}$/u);
      for (const d of [cmd.description, ...Object.values(cmd.description_localizations ?? {})])
        expect(d!.length).toBeLessThanOrEqual(100);
    }
  });
});

describe('scores as each language writes them (issue 21)', () => {
  it('a decimal comma in uk and ru, a true minus, a plus only where a change is shown', async () => {
    const { scoreText } = await import('../../src/discord/render/words');
    expect(scoreText('en', 4.5)).toBe('4.5');
    expect(scoreText('uk', 4.5)).toBe('4,5');
    expect(scoreText('ru', -1)).toBe('−1');
    expect(scoreText('ru', 0.5, true)).toBe('+0,5');
    expect(scoreText('uk', -1.5, true)).toBe('−1,5');
    expect(scoreText('en', 0, true)).toBe('0');
    expect(scoreText('en', 2)).toBe('2');
  });

  it('/stats figures too: one decimal at most, a decimal comma in uk and ru, a true minus', async () => {
    const { fmt } = await import('../../src/discord/render/stats');
    expect(fmt('en', 12.25)).toBe('12.3');
    expect(fmt('uk', 12.25)).toBe('12,3');
    expect(fmt('ru', -0.5)).toBe('−0,5');
    expect(fmt('uk', 3)).toBe('3');
    expect(fmt('en', -0.04)).toBe('0');
  });
});
