// /stats export (issue 24): the standings and finished games as CSV or JSON files. en defines the
// keys, uk and ru have them all (spread into en.ts, uk.ts and ru.ts). The files' column names are
// not here: they are a format for programs, in English whatever the reader's language
// (docs/export.md). Glossary: standings «турнірна таблиця» / «турнирная таблица», a casual game
// «нерейтингова гра» / «нерейтинговая игра».

import type { Entry } from './entry';

export const exportEn = {
  'cmd.stats.export.name': 'export',
  'cmd.stats.export.desc': 'The standings and finished games as CSV or JSON files, for a spreadsheet or a rating site',
  'cmd.opt.exportFormat.name': 'format',
  'cmd.opt.exportFormat.desc': 'CSV (spreadsheets; default) or JSON (programs)',
  'cmd.opt.exportWhat.name': 'what',
  'cmd.opt.exportWhat.desc': 'The standings, the games (one row per player) or both (default)',
  'export.format.csv': 'CSV (spreadsheets)',
  'export.format.json': 'JSON (programs)',
  'export.what.standings': 'standings',
  'export.what.games': 'games',
  'export.what.both': 'standings and games',
  'export.ready': {
    one: '📄 {ruleset}, {period}: {players} in the standings, {count} finished game (casual and annulled ones included, marked).',
    other:
      '📄 {ruleset}, {period}: {players} in the standings, {count} finished games (casual and annulled ones included, marked).',
  },
  'export.players': { one: '{count} player', other: '{count} players' },
  'export.empty': 'No finished games in {ruleset} ({period}): there is nothing to export.',
  'refusal.export/cooldown': 'You have just made an export: try again {when}.',
  'refusal.export/busy': 'Another export of this server is being prepared: try again in a moment.',
  'refusal.export/too-large':
    '{file} would be larger than {size}, the largest file Discord takes here. Choose a season or fewer days, or the standings alone.',
} as const satisfies Record<string, Entry>;

type Keys = keyof typeof exportEn;

export const exportUk: Record<Keys, Entry> = {
  'cmd.stats.export.name': 'експорт',
  'cmd.stats.export.desc':
    'Турнірна таблиця й завершені ігри в CSV чи JSON — для електронних таблиць і сайтів рейтингу',
  'cmd.opt.exportFormat.name': 'формат',
  'cmd.opt.exportFormat.desc': 'CSV (для електронних таблиць; за замовчуванням) або JSON (для програм)',
  'cmd.opt.exportWhat.name': 'що',
  'cmd.opt.exportWhat.desc': 'Турнірна таблиця, ігри (рядок на кожного гравця) або все разом (за замовчуванням)',
  'export.format.csv': 'CSV (для електронних таблиць)',
  'export.format.json': 'JSON (для програм)',
  'export.what.standings': 'турнірна таблиця',
  'export.what.games': 'ігри',
  'export.what.both': 'турнірна таблиця та ігри',
  'export.ready': {
    one: '📄 {ruleset}, {period}: у таблиці {players}, {count} завершена гра (разом із нерейтинговими й анульованими — вони позначені).',
    few: '📄 {ruleset}, {period}: у таблиці {players}, {count} завершені гри (разом із нерейтинговими й анульованими — вони позначені).',
    many: '📄 {ruleset}, {period}: у таблиці {players}, {count} завершених ігор (разом із нерейтинговими й анульованими — вони позначені).',
    other:
      '📄 {ruleset}, {period}: у таблиці {players}, {count} завершених ігор (разом із нерейтинговими й анульованими — вони позначені).',
  },
  'export.players': { one: '{count} гравець', few: '{count} гравці', many: '{count} гравців', other: '{count} гравця' },
  'export.empty': 'У «{ruleset}» ({period}) немає завершених ігор — експортувати нічого.',
  'refusal.export/cooldown': 'Ви щойно зробили експорт — спробуйте ще раз {when}.',
  'refusal.export/busy': 'Саме готується інший експорт цього сервера — спробуйте за хвилинку.',
  'refusal.export/too-large':
    '{file} перевищить {size} — це найбільший файл, який Discord тут приймає. Виберіть сезон, менше днів або лише турнірну таблицю.',
};

export const exportRu: Record<Keys, Entry> = {
  'cmd.stats.export.name': 'экспорт',
  'cmd.stats.export.desc':
    'Турнирная таблица и завершённые игры в CSV или JSON — для электронных таблиц и сайтов рейтинга',
  'cmd.opt.exportFormat.name': 'формат',
  'cmd.opt.exportFormat.desc': 'CSV (для электронных таблиц; по умолчанию) или JSON (для программ)',
  'cmd.opt.exportWhat.name': 'что',
  'cmd.opt.exportWhat.desc': 'Турнирная таблица, игры (строка на каждого игрока) или всё вместе (по умолчанию)',
  'export.format.csv': 'CSV (для электронных таблиц)',
  'export.format.json': 'JSON (для программ)',
  'export.what.standings': 'турнирная таблица',
  'export.what.games': 'игры',
  'export.what.both': 'турнирная таблица и игры',
  'export.ready': {
    one: '📄 {ruleset}, {period}: в таблице {players}, {count} завершённая игра (вместе с нерейтинговыми и аннулированными — они помечены).',
    few: '📄 {ruleset}, {period}: в таблице {players}, {count} завершённые игры (вместе с нерейтинговыми и аннулированными — они помечены).',
    many: '📄 {ruleset}, {period}: в таблице {players}, {count} завершённых игр (вместе с нерейтинговыми и аннулированными — они помечены).',
    other:
      '📄 {ruleset}, {period}: в таблице {players}, {count} завершённых игр (вместе с нерейтинговыми и аннулированными — они помечены).',
  },
  'export.players': { one: '{count} игрок', few: '{count} игрока', many: '{count} игроков', other: '{count} игрока' },
  'export.empty': 'В «{ruleset}» ({period}) нет завершённых игр — экспортировать нечего.',
  'refusal.export/cooldown': 'Вы только что сделали экспорт — попробуйте ещё раз {when}.',
  'refusal.export/busy': 'Сейчас готовится другой экспорт этого сервера — попробуйте через минутку.',
  'refusal.export/too-large':
    '{file} превысит {size} — это самый большой файл, который Discord здесь принимает. Выберите сезон, меньше дней или только турнирную таблицу.',
};
