// Durations typed in the letters of all three languages (issue 21): every unit word of en, uk and
// ru, any case, with or without spaces, a trailing dot, compound "1h 30m"; garbage refused. The
// same reader serves the timers (/mafia create, /mafia settings timers, /tournament create), /host
// extend (signed) and the /stats period (days).
import { describe, expect, it } from 'vitest';
import { parseDays, parseDuration, parseSignedDuration } from '../../src/discord/duration';
import { t, type Locale } from '../../src/i18n';

const S = 1;
const M = 60;
const H = 3_600;
const D = 86_400;

/** Every accepted unit word, by language, with the seconds it stands for. */
const UNITS: Record<Locale, [string, number][]> = {
  en: [
    ...['s', 'sec', 'secs', 'second', 'seconds'].map((u) => [u, S] as [string, number]),
    ...['m', 'min', 'mins', 'minute', 'minutes'].map((u) => [u, M] as [string, number]),
    ...['h', 'hr', 'hrs', 'hour', 'hours'].map((u) => [u, H] as [string, number]),
    ...['d', 'day', 'days'].map((u) => [u, D] as [string, number]),
  ],
  uk: [
    ...['с', 'сек', 'секунда', 'секунди', 'секунд', 'секунду'].map((u) => [u, S] as [string, number]),
    ...['хв', 'хвил', 'хвилина', 'хвилини', 'хвилин', 'хвилину'].map((u) => [u, M] as [string, number]),
    ...['г', 'год', 'година', 'години', 'годин', 'годину'].map((u) => [u, H] as [string, number]),
    ...['д', 'дн', 'день', 'дні', 'днів', 'доба', 'доби', 'діб'].map((u) => [u, D] as [string, number]),
  ],
  ru: [
    ...['с', 'сек', 'секунда', 'секунды', 'секунд', 'секунду'].map((u) => [u, S] as [string, number]),
    ...['м', 'мин', 'минута', 'минуты', 'минут', 'минуту'].map((u) => [u, M] as [string, number]),
    ...['ч', 'час', 'часа', 'часов'].map((u) => [u, H] as [string, number]),
    ...['д', 'дн', 'день', 'дня', 'дней', 'сут', 'сутки', 'суток'].map((u) => [u, D] as [string, number]),
  ],
};

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

describe('durations in en, uk and ru', () => {
  for (const loc of ['en', 'uk', 'ru'] as const) {
    it(`every ${loc} unit, glued, spaced, upper case, capitalised, with a dot`, () => {
      for (const [unit, secs] of UNITS[loc]) {
        for (const text of [
          `7${unit}`,
          `7 ${unit}`,
          ` 7  ${unit} `,
          `7${unit.toUpperCase()}`,
          `7 ${upperFirst(unit)}`,
          `7 ${unit}.`,
        ])
          expect(parseDuration(text), text).toBe(7 * secs);
        expect(parseSignedDuration(`+7 ${unit}`), `+7 ${unit}`).toBe(7 * secs);
        expect(parseSignedDuration(`-7${unit}`), `-7${unit}`).toBe(-7 * secs);
      }
    });
  }

  it('the forms players type: 15хв, 12ч, 30с, 2г, 1д, 15 мин, 2 год, 90s, 15m', () => {
    const cases: [string, number][] = [
      ['15хв', 15 * M],
      ['12ч', 12 * H],
      ['30с', 30],
      ['2г', 2 * H],
      ['1д', D],
      ['15 мин', 15 * M],
      ['2 год', 2 * H],
      ['2 години', 2 * H],
      ['5 хвилин', 5 * M],
      ['3 дня', 3 * D],
      ['90s', 90],
      ['15m', 15 * M],
      ['15М', 15 * M], // a Cyrillic capital М, like a Latin M
      ['90', 90], // a number alone is seconds
      ['1h30m', 90 * M],
      ['1 год 30 хв', 90 * M],
      ['1ч 30мин', 90 * M],
      ['1 Hour 30 Min', 90 * M],
    ];
    for (const [text, secs] of cases) expect(parseDuration(text), text).toBe(secs);
  });

  it('signed for /host extend: +, -, the minus sign, spaces after the sign', () => {
    expect(parseSignedDuration('+1хв')).toBe(60);
    expect(parseSignedDuration('- 30 сек')).toBe(-30);
    expect(parseSignedDuration('−2м')).toBe(-120); // U+2212 MINUS SIGN
    expect(parseSignedDuration('1 год')).toBe(3_600);
    expect(parseSignedDuration('-10')).toBe(-10);
  });

  it('garbage is refused', () => {
    const bad = [
      '',
      ' ',
      'soon',
      'хв',
      '15 хвилинок',
      '15x',
      '1.5h',
      '1,5 год',
      '12hh',
      '15 m m',
      '1h30',
      'h1',
      '15mins!',
      '-5s',
      '+5s',
      '5 lightyears',
      '12345678s',
      '10 років',
    ];
    for (const text of bad) expect(parseDuration(text), text).toBeNull();
    for (const text of ['', 'soon', '+', '-', '--5s', '+-5s', '5 s ago', '+ хв'])
      expect(parseSignedDuration(text), text).toBeNull();
  });

  it('/stats period: days in any of the three languages, no other unit', () => {
    for (const text of ['30', '30d', '30 days', '30д', '30 днів', '30 дней', '30 Дн.'])
      expect(parseDays(text), text).toBe(30);
    for (const text of ['30h', '30 хв', '30 минут', 'd30', 'thirty', '']) expect(parseDays(text), text).toBeNull();
  });

  it('the refusal names the accepted forms in the reader’s language', () => {
    const bad = { option: 'night', value: 'soon' };
    expect(t('uk', 'refusal.create/timer', bad)).toMatch(/15хв.*12год.*2д.*15 хвилин/);
    expect(t('ru', 'refusal.create/timer', bad)).toMatch(/15мин.*12ч.*2д.*15 минут/);
    expect(t('en', 'refusal.create/timer', bad)).toMatch(/90s.*15m.*12h.*2d.*15 min/);
    expect(t('uk', 'refusal.settings/timer', bad)).toBe(t('uk', 'refusal.create/timer', bad));
    expect(t('ru', 'refusal.settings/timer', bad)).toBe(t('ru', 'refusal.create/timer', bad));
    expect(t('uk', 'refusal.extend/bad-duration')).toMatch(/30с.*2хв.*-1хв/);
    expect(t('ru', 'refusal.extend/bad-duration')).toMatch(/30с.*2мин.*-1мин/);
    // Every example a refusal shows is itself accepted.
    for (const loc of ['en', 'uk', 'ru'] as const) {
      const text = t(loc, 'refusal.create/timer', bad) + ' ' + t(loc, 'refusal.extend/bad-duration');
      const examples = text.match(/[+-]?\d+ ?\p{L}+(?: \d+ ?\p{L}+)?/gu) ?? [];
      const durations = examples.filter((e) => !/^\d+ (seconds|days|секунд|днів|дней)$/.test(e));
      expect(durations.length, loc).toBeGreaterThan(5);
      for (const e of durations) expect(parseSignedDuration(e), `${loc}: ${e}`).not.toBeNull();
    }
  });
});
