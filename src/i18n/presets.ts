// Presets (issue 24): a server's house variants saved under a name. en defines the keys, uk and ru
// have them all (spread into en.ts, uk.ts and ru.ts). Glossary: a preset is «формат» in both
// languages, as clubs name a variant of play («граємо у форматі…», «играем в формате…»); the
// gamer's «пресет» is not used. The option names in `rules:` are the bot's own identifiers
// (askDon=false), the same in every language, listed in the rules document: they are «опції» /
// «опции»; a slash command's option is a «параметр», as Discord says.

import type { Entry } from './entry';

export const presetsEn = {
  'cmd.settings.preset.name': 'preset',
  'cmd.settings.preset.desc': 'Save, change, show or delete a named house variant that new games can use',
  'cmd.opt.presetName.name': 'name',
  'cmd.opt.presetName.desc': 'The preset’s name: letters, digits, - and _ (up to 24)',
  'cmd.opt.presetRules.name': 'rules',
  'cmd.opt.presetRules.desc': 'Option changes, e.g. askDon=false tieAgain=nobody; option=default undoes one',
  'cmd.opt.presetDelete.name': 'delete',
  'cmd.opt.presetDelete.desc': 'True: delete the preset (games played with it keep their rules)',
  'cmd.opt.preset.name': 'preset',
  'cmd.opt.preset.desc': 'One of this server’s presets: its rule set, pace, options and timers',
  'cmd.opt.statsPreset.name': 'preset',
  'cmd.opt.statsPreset.desc': 'Only the games played with this server preset',
  'preset.saved': '✅ Preset **{name}** saved.',
  'preset.deleted': '🗑️ Preset **{name}** deleted. Games played with it keep their rules and its name.',
  'preset.title': 'Preset “{name}”',
  'preset.base': '{ruleset}, {pace}',
  'preset.changes': 'Changed from the rule set: {list}',
  'preset.noChanges': 'The rule set’s own options, unchanged.',
  'preset.timers': 'Timers: {list}',
  'preset.savedBy': 'Saved by {user} {when}.',
  'preset.use': 'To play it: {cmd:mafia create} with preset: **{name}**. The rules it plays by:',
  'settings.presets': 'Presets',
  'settings.presetsValue': '**{name}** ({ruleset}, {pace})',
  'lobby.preset': '🧩 Preset: **{name}**',
  'result.preset': '🧩 Played with the server’s preset **{name}**.',
  'st.game.preset': 'Preset: {name}',
  'st.top.preset': 'preset {name}',
  'preset.values.boolean': 'true or false',
  'preset.values.number': 'a whole number from {min} to {max}',
  'refusal.preset/name': 'A preset’s name is 1 to 24 letters, digits, - or _, starting with a letter or a digit.',
  'refusal.preset/unknown': 'This server has no preset “{name}”. Its presets: {list}.',
  'refusal.preset/none': 'This server has no presets yet: a host saves one with {cmd:mafia settings preset}.',
  'refusal.preset/option':
    '“{item}” is not an option change. Write option=value, separated by spaces; the options: {list}.',
  'refusal.preset/value': '“{item}”: {option} takes {values}.',
  'refusal.preset/ruleset-needed':
    'A new preset needs a rule set: choose one in the ruleset option (the server has no default).',
  'refusal.preset/invalid': 'These changes do not make a valid preset; nothing was saved.',
  'refusal.preset/full': 'A server keeps at most {count} presets: delete one first.',
  'refusal.preset/fixed':
    'Preset **{name}** plays {ruleset}, {pace}: leave ruleset and pace out, or save another preset.',
  'refusal.stats/preset-elo': 'Elo is one per rule set, not per preset: a preset’s standings go by points.',
} as const satisfies Record<string, Entry>;

type Keys = keyof typeof presetsEn;

export const presetsUk: Record<Keys, Entry> = {
  'cmd.settings.preset.name': 'формат',
  'cmd.settings.preset.desc': 'Зберегти, змінити, показати чи видалити формат сервера (варіант правил для нових ігор)',
  'cmd.opt.presetName.name': 'назва',
  'cmd.opt.presetName.desc': 'Назва формату: літери, цифри, - і _ (до 24 символів)',
  'cmd.opt.presetRules.name': 'зміни',
  'cmd.opt.presetRules.desc':
    'Зміни опцій через пробіл, напр. askDon=false tieAgain=nobody; askDon=default скасовує зміну',
  'cmd.opt.presetDelete.name': 'видалити',
  'cmd.opt.presetDelete.desc': 'Так — видалити формат (зіграні в ньому ігри зберігають свої правила)',
  'cmd.opt.preset.name': 'формат',
  'cmd.opt.preset.desc': 'Формат цього сервера: його правила, темп, опції й таймери',
  'cmd.opt.statsPreset.name': 'формат',
  'cmd.opt.statsPreset.desc': 'Лише ігри, зіграні в цьому форматі сервера',
  'preset.saved': '✅ Формат **{name}** збережено.',
  'preset.deleted': '🗑️ Формат **{name}** видалено. Зіграні в ньому ігри зберігають свої правила й назву формату.',
  'preset.title': 'Формат «{name}»',
  'preset.base': '{ruleset}, {pace}',
  'preset.changes': 'Відмінності від базових правил: {list}',
  'preset.noChanges': 'Базові правила без змін.',
  'preset.timers': 'Таймери: {list}',
  'preset.savedBy': 'Останні зміни: {user}, {when}.',
  'preset.use': 'Щоб зіграти: {cmd:mafia create} з параметром формат: **{name}**. Правила гри в цьому форматі:',
  'settings.presets': 'Формати',
  'settings.presetsValue': '**{name}** ({ruleset}, {pace})',
  'lobby.preset': '🧩 Формат: **{name}**',
  'result.preset': '🧩 Зіграно у форматі сервера **{name}**.',
  'st.game.preset': 'Формат: {name}',
  'st.top.preset': 'формат {name}',
  'preset.values.boolean': 'true або false',
  'preset.values.number': 'ціле число від {min} до {max}',
  'refusal.preset/name': 'Назва формату — від 1 до 24 символів: літери, цифри, - чи _; починається з літери або цифри.',
  'refusal.preset/unknown': 'На цьому сервері немає формату «{name}». Формати сервера: {list}.',
  'refusal.preset/none':
    'На цьому сервері ще немає форматів: ведучий може створити формат через {cmd:mafia settings preset}.',
  'refusal.preset/option': '«{item}» — не зміна опції. Пишіть опція=значення через пробіл; доступні опції: {list}.',
  'refusal.preset/value': '«{item}»: значення {option} — {values}.',
  'refusal.preset/ruleset-needed':
    'Новому формату потрібні правила: оберіть їх у параметрі «правила» (на сервері не задано правил за замовчуванням).',
  'refusal.preset/invalid': 'З такими змінами формат недійсний: нічого не збережено.',
  'refusal.preset/full': 'На сервері може бути не більше {count} форматів: спершу видаліть якийсь.',
  'refusal.preset/fixed':
    'Формат **{name}** — це {ruleset}, {pace}: не вказуйте правила й темп або збережіть інший формат.',
  'refusal.stats/preset-elo': 'Ело рахують для набору правил, а не для формату: таблиця формату — лише за балами.',
};

export const presetsRu: Record<Keys, Entry> = {
  'cmd.settings.preset.name': 'формат',
  'cmd.settings.preset.desc': 'Сохранить, изменить, показать или удалить формат сервера (вариант правил для новых игр)',
  'cmd.opt.presetName.name': 'название',
  'cmd.opt.presetName.desc': 'Название формата: буквы, цифры, - и _ (до 24 символов)',
  'cmd.opt.presetRules.name': 'изменения',
  'cmd.opt.presetRules.desc':
    'Изменения опций через пробел, напр. askDon=false tieAgain=nobody; askDon=default отменяет изменение',
  'cmd.opt.presetDelete.name': 'удалить',
  'cmd.opt.presetDelete.desc': 'Да — удалить формат (сыгранные в нём игры сохраняют свои правила)',
  'cmd.opt.preset.name': 'формат',
  'cmd.opt.preset.desc': 'Формат этого сервера: его правила, темп, опции и таймеры',
  'cmd.opt.statsPreset.name': 'формат',
  'cmd.opt.statsPreset.desc': 'Только игры, сыгранные в этом формате сервера',
  'preset.saved': '✅ Формат **{name}** сохранён.',
  'preset.deleted': '🗑️ Формат **{name}** удалён. Сыгранные в нём игры сохраняют свои правила и название формата.',
  'preset.title': 'Формат «{name}»',
  'preset.base': '{ruleset}, {pace}',
  'preset.changes': 'Отличия от базовых правил: {list}',
  'preset.noChanges': 'Базовые правила без изменений.',
  'preset.timers': 'Таймеры: {list}',
  'preset.savedBy': 'Последние изменения: {user}, {when}.',
  'preset.use': 'Чтобы сыграть: {cmd:mafia create} с параметром формат: **{name}**. Правила игры в этом формате:',
  'settings.presets': 'Форматы',
  'settings.presetsValue': '**{name}** ({ruleset}, {pace})',
  'lobby.preset': '🧩 Формат: **{name}**',
  'result.preset': '🧩 Сыграно в формате сервера **{name}**.',
  'st.game.preset': 'Формат: {name}',
  'st.top.preset': 'формат {name}',
  'preset.values.boolean': 'true или false',
  'preset.values.number': 'целое число от {min} до {max}',
  'refusal.preset/name': 'Название формата — от 1 до 24 символов: буквы, цифры, - или _; начинается с буквы или цифры.',
  'refusal.preset/unknown': 'На этом сервере нет формата «{name}». Форматы сервера: {list}.',
  'refusal.preset/none':
    'На этом сервере ещё нет форматов: ведущий может создать формат через {cmd:mafia settings preset}.',
  'refusal.preset/option':
    '«{item}» — не изменение опции. Пишите опция=значение через пробел; доступные опции: {list}.',
  'refusal.preset/value': '«{item}»: значение {option} — {values}.',
  'refusal.preset/ruleset-needed':
    'Новому формату нужны правила: выберите их в параметре «правила» (правила по умолчанию на сервере не заданы).',
  'refusal.preset/invalid': 'С такими изменениями формат некорректен: ничего не сохранено.',
  'refusal.preset/full': 'На сервере может быть не больше {count} форматов: сначала удалите какой-нибудь.',
  'refusal.preset/fixed':
    'Формат **{name}** — это {ruleset}, {pace}: не указывайте правила и темп или сохраните другой формат.',
  'refusal.stats/preset-elo': 'Эло считается для набора правил, а не для формата: таблица формата — только по баллам.',
};
