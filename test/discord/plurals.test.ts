// Plural forms wherever a number stands next to a counted noun (issue 21): every catalog, the
// feature catalogs spread into en/uk/ru included, can hold them, and `t()` picks the form by
// `count` (Intl.PluralRules: uk and ru one/few/many/other, en one/other).
import { describe, expect, it } from 'vitest';
import { catalog, LOCALES, t, type Locale, type MessageKey } from '../../src/i18n';

const COUNTS = [1, 2, 5, 11, 21, 22] as const;

/** What `key` reads for each of COUNTS, with `count` and any other parameters it needs. */
const render = (loc: Locale, key: MessageKey, extra: Record<string, string | number> = {}) =>
  COUNTS.map((count) =>
    t(loc, key, { id: 7, seat: '#3', page: 1, pages: 2, win: 20, loss: 20, start: 1000, ...extra, count }),
  );

/** The noun after each count, in the order of COUNTS. */
const nouns = (texts: string[], re: RegExp) => texts.map((s) => re.exec(s)?.[1]);

describe('plural forms in the feature catalogs', () => {
  it('absent.flag: 1 хід, 2 ходи, 5 ходів, 11 ходів, 21 хід, 22 ходи; 1 ход, 2 хода, 5 ходов, 21 ход', () => {
    expect(nouns(render('uk', 'absent.flag'), /\d+ (\S+) поспіль/)).toEqual([
      'хід',
      'ходи',
      'ходів',
      'ходів',
      'хід',
      'ходи',
    ]);
    expect(nouns(render('ru', 'absent.flag'), /\d+ (\S+) подряд/)).toEqual([
      'ход',
      'хода',
      'ходов',
      'ходов',
      'ход',
      'хода',
    ]);
    expect(render('ru', 'absent.flag')[0]).toContain('пропущен 1 ход');
    expect(render('ru', 'absent.flag')[1]).toContain('пропущено 2 хода');
    expect(nouns(render('en', 'absent.flag'), /missed \d+ (\S+)/)).toEqual([
      'action',
      'actions',
      'actions',
      'actions',
      'actions',
      'actions',
    ]);
  });

  it('settings.absentValue: після 1 пропуску, 2 пропусків; после 1 пропуска, 5 пропусков', () => {
    expect(nouns(render('uk', 'settings.absentValue'), /\d+ (\S+)/)).toEqual([
      'пропуску',
      'пропусків',
      'пропусків',
      'пропусків',
      'пропуску',
      'пропусків',
    ]);
    expect(nouns(render('ru', 'settings.absentValue'), /\d+ (\S+)/)).toEqual([
      'пропуска',
      'пропусков',
      'пропусков',
      'пропусков',
      'пропуска',
      'пропусков',
    ]);
  });

  it('st.top.footer: 1 гравець, 2 гравці, 5 гравців; 1 игрок, 2 игрока, 5 игроков; 1 player', () => {
    expect(nouns(render('uk', 'st.top.footer'), /· \d+ (\S+)/)).toEqual([
      'гравець',
      'гравці',
      'гравців',
      'гравців',
      'гравець',
      'гравці',
    ]);
    expect(nouns(render('ru', 'st.top.footer'), /· \d+ (\S+)/)).toEqual([
      'игрок',
      'игрока',
      'игроков',
      'игроков',
      'игрок',
      'игрока',
    ]);
    expect(nouns(render('en', 'st.top.footer'), /· \d+ (\S+)/)).toEqual([
      'player',
      'players',
      'players',
      'players',
      'players',
      'players',
    ]);
  });

  it('st.rating.show: від 1 ходу, від 2 ходів; от 1 хода, от 5 ходов; at least 1 move', () => {
    expect(nouns(render('uk', 'st.rating.show'), /від \d+ (\S+)\./)).toEqual([
      'ходу',
      'ходів',
      'ходів',
      'ходів',
      'ходу',
      'ходів',
    ]);
    expect(nouns(render('ru', 'st.rating.show'), /от \d+ (\S+)\./)).toEqual([
      'хода',
      'ходов',
      'ходов',
      'ходов',
      'хода',
      'ходов',
    ]);
    expect(nouns(render('en', 'st.rating.show'), /at least \d+ (\S+) to count\./)).toEqual([
      'move',
      'moves',
      'moves',
      'moves',
      'moves',
      'moves',
    ]);
  });

  it('tour.winner: 1 point, 23 points', () => {
    const text = (points: number) =>
      t('en', 'tour.winner', { name: 'Cup', user: '@q', points, count: points, best: 1 });
    expect(text(1)).toContain(': 1 point over all games');
    expect(text(23)).toContain(': 23 points over all games');
  });
});

/**
 * Counted nouns after a placeholder, by language (a heuristic: the word right after `{x}`). A
 * plain-string entry with one of them cannot be right for every number in uk and ru (1 хід,
 * 2 ходи, 5 ходів), nor in en for 1 and 2.
 */
const COUNTED: Record<Locale, RegExp> = {
  en: /^(players?|moves?|actions?|tables?|days?|points?|votes?|wins?|loss(es)?|draws?|seconds?|minutes?|hours?|nights?|games?|rounds?|fouls?|speeches|speech|times?)$/,
  uk: /^(гравц|гравець|хід|ход|пропуск|стіл|стол|день|дн|бал|голос|перемог|поразк|поразок|нічи|секунд|хвилин|годин|ніч|ноч|ігор|гр[аиу]\b|фол|місц|раз|тур)/,
  ru: /^(игрок|ход|пропуск|стол|день|дн|дня|балл|голос|побед|поражени|ничь|секунд|минут|час|ноч|игр|фол|мест|раз|тур)/,
};

/** Placeholders that name or number a thing (seat #3, table 2, round 1, a user), never count one. */
const NOT_COUNTS = new Set([
  'seat',
  'target',
  'user',
  'users',
  'who',
  'id',
  'game',
  'round',
  'table',
  'channel',
  'name',
  'role',
  'stage',
  'by',
  'from',
  'to',
]);

/** Where the number is the table's size (10 or 12 seats): the form is the same for every size a rule set has. */
const TABLE_SIZE_KEYS = new Set(['create.done', 'refusal.lobby/not-full']);

describe('every catalog can hold plural forms and uses them', () => {
  it('no plain-string entry puts a number placeholder before a counted noun', () => {
    const offenders: string[] = [];
    for (const loc of LOCALES) {
      for (const [key, entry] of Object.entries(catalog(loc))) {
        if (typeof entry !== 'string' || TABLE_SIZE_KEYS.has(key)) continue;
        for (const m of entry.matchAll(/\{(\w+)\}\s+([\p{L}]+)/gu))
          if (!NOT_COUNTS.has(m[1]!) && COUNTED[loc].test(m[2]!.toLowerCase()))
            offenders.push(`${loc} ${key}: {${m[1]}} ${m[2]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the table-size exceptions still read right for 10 and 12 seats', () => {
    for (const loc of ['uk', 'ru'] as const)
      for (const need of [10, 12]) {
        const text = t(loc, 'create.done', { need, count: 1, id: 1 });
        expect(text, `${loc} ${need}`).toMatch(loc === 'uk' ? /\d+ гравців/ : /\d+ игроков/);
      }
  });

  it('plural entries have the forms their language needs', () => {
    for (const loc of LOCALES)
      for (const [key, entry] of Object.entries(catalog(loc))) {
        if (typeof entry === 'string') continue;
        expect(entry.one, `${loc} ${key}`).toBeTruthy();
        expect(entry.other, `${loc} ${key}`).toBeTruthy();
        if (loc !== 'en') {
          expect(entry.few, `${loc} ${key} few`).toBeTruthy();
          expect(entry.many, `${loc} ${key} many`).toBeTruthy();
        }
      }
  });
});
