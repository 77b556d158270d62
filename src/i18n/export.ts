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
    'Турнірна таблиця та завершені ігри файлами CSV або JSON — для таблиць чи рейтингового сайту',
  'cmd.opt.exportFormat.name': 'формат',
  'cmd.opt.exportFormat.desc': 'CSV (для таблиць; за замовчуванням) або JSON (для програм)',
  'cmd.opt.exportWhat.name': 'що',
  'cmd.opt.exportWhat.desc': 'Турнірна таблиця, ігри (рядок на кожного гравця) або все разом (за замовчуванням)',
  'export.format.csv': 'CSV (для таблиць)',
  'export.format.json': 'JSON (для програм)',
  'export.what.standings': 'турнірна таблиця',
  'export.what.games': 'ігри',
  'export.what.both': 'таблиця та ігри',
  'export.ready': {
    one: '📄 {ruleset}, {period}: у таблиці {players}, {count} завершена гра (нерейтингові й анульовані теж, із позначкою).',
    few: '📄 {ruleset}, {period}: у таблиці {players}, {count} завершені гри (нерейтингові й анульовані теж, із позначкою).',
    many: '📄 {ruleset}, {period}: у таблиці {players}, {count} завершених ігор (нерейтингові й анульовані теж, із позначкою).',
    other:
      '📄 {ruleset}, {period}: у таблиці {players}, {count} завершених ігор (нерейтингові й анульовані теж, із позначкою).',
  },
  'export.players': { one: '{count} гравець', few: '{count} гравці', many: '{count} гравців', other: '{count} гравця' },
  'export.empty': 'У «{ruleset}» ({period}) немає завершених ігор — експортувати нічого.',
  'refusal.export/cooldown': 'Ви щойно зробили експорт — спробуйте знову {when}.',
  'refusal.export/busy': 'Саме готується інший експорт цього сервера — спробуйте за хвилинку.',
  'refusal.export/too-large':
    '{file} вийде більшим за {size} — найбільший файл, який Discord тут приймає. Виберіть сезон чи менше днів або лише турнірну таблицю.',
};

export const exportRu: Record<Keys, Entry> = {
  'cmd.stats.export.name': 'экспорт',
  'cmd.stats.export.desc':
    'Турнирная таблица и завершённые игры файлами CSV или JSON — для таблиц или рейтингового сайта',
  'cmd.opt.exportFormat.name': 'формат',
  'cmd.opt.exportFormat.desc': 'CSV (для таблиц; по умолчанию) или JSON (для программ)',
  'cmd.opt.exportWhat.name': 'что',
  'cmd.opt.exportWhat.desc': 'Турнирная таблица, игры (строка на каждого игрока) или всё вместе (по умолчанию)',
  'export.format.csv': 'CSV (для таблиц)',
  'export.format.json': 'JSON (для программ)',
  'export.what.standings': 'турнирная таблица',
  'export.what.games': 'игры',
  'export.what.both': 'таблица и игры',
  'export.ready': {
    one: '📄 {ruleset}, {period}: в таблице {players}, {count} завершённая игра (нерейтинговые и аннулированные тоже, с пометкой).',
    few: '📄 {ruleset}, {period}: в таблице {players}, {count} завершённые игры (нерейтинговые и аннулированные тоже, с пометкой).',
    many: '📄 {ruleset}, {period}: в таблице {players}, {count} завершённых игр (нерейтинговые и аннулированные тоже, с пометкой).',
    other:
      '📄 {ruleset}, {period}: в таблице {players}, {count} завершённых игр (нерейтинговые и аннулированные тоже, с пометкой).',
  },
  'export.players': { one: '{count} игрок', few: '{count} игрока', many: '{count} игроков', other: '{count} игрока' },
  'export.empty': 'В «{ruleset}» ({period}) нет завершённых игр — экспортировать нечего.',
  'refusal.export/cooldown': 'Вы только что сделали экспорт — попробуйте снова {when}.',
  'refusal.export/busy': 'Сейчас готовится другой экспорт этого сервера — попробуйте через минутку.',
  'refusal.export/too-large':
    '{file} получится больше {size} — самого большого файла, который Discord здесь принимает. Выберите сезон или меньше дней либо только турнирную таблицу.',
};
