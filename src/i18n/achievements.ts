// Achievements (issue 24): their names and one-line meanings, the announcement when a game earns
// some, and the /stats player field. en defines the keys, uk and ru have them all (spread into
// en.ts, uk.ts and ru.ts). Glossary: an achievement is «досягнення» / «достижение»; «кращий хід» /
// «лучший ход», «найкращий гравець» / «лучший игрок», «повний склад» / «полный состав» as the rules say.

import type { Entry } from './entry';

export const achievementsEn = {
  'ach.clear-sight.name': 'Clear sight',
  'ach.clear-sight.desc': 'as the Sheriff or the Commissioner, every black player found by the checks, and red won',
  'ach.sharp-nose.name': "Don's nose",
  'ach.sharp-nose.desc': 'as the Don, the Sheriff found with the check on the first night',
  'ach.three-of-three.name': 'Three of three',
  'ach.three-of-three.desc': 'a best move naming three black players',
  'ach.full-strength.name': 'Full strength',
  'ach.full-strength.desc': 'a win with the whole team still at the table',
  'ach.every-role.name': 'Every role',
  'ach.every-role.desc': 'wins as a civilian, as the Sheriff, as a mafioso and as the Don',
  'ach.best-player-3.name': 'Best player three times',
  'ach.best-player-3.desc': 'chosen best player of the game three times',
  'ach.announce': '🏅 Achievements in game #{id}',
  'ach.announce.line': '{user} — **{name}**: {desc}',
  'ach.field': 'Achievements',
  'ach.line': '🏅 **{name}** — {desc}',
} as const satisfies Record<string, Entry>;

type Keys = keyof typeof achievementsEn;

export const achievementsUk: Record<Keys, Entry> = {
  'ach.clear-sight.name': 'Зірке око',
  'ach.clear-sight.desc': 'Шериф (чи Комісар) перевірками знаходить усіх чорних, і червоні перемагають',
  'ach.sharp-nose.name': 'Нюх Дона',
  'ach.sharp-nose.desc': 'Дон знаходить Шерифа першої ж ночі',
  'ach.three-of-three.name': 'Три з трьох',
  'ach.three-of-three.desc': 'кращий хід: усі троє названих — чорні',
  'ach.full-strength.name': 'Повний склад',
  'ach.full-strength.desc': 'перемога, коли вся команда ще за столом',
  'ach.every-role.name': 'Усі ролі',
  'ach.every-role.desc': 'перемоги за мирного жителя, Шерифа, мафіозі й Дона',
  'ach.best-player-3.name': 'Тричі найкращий',
  'ach.best-player-3.desc': 'звання найкращого гравця гри — тричі',
  'ach.announce': '🏅 Досягнення в грі #{id}',
  'ach.announce.line': '{user} — **{name}**: {desc}',
  'ach.field': 'Досягнення',
  'ach.line': '🏅 **{name}** — {desc}',
};

export const achievementsRu: Record<Keys, Entry> = {
  'ach.clear-sight.name': 'Зоркий глаз',
  'ach.clear-sight.desc': 'Шериф (или Комиссар) проверками находит всех чёрных, и красные побеждают',
  'ach.sharp-nose.name': 'Нюх Дона',
  'ach.sharp-nose.desc': 'Дон находит Шерифа в первую же ночь',
  'ach.three-of-three.name': 'Три из трёх',
  'ach.three-of-three.desc': 'лучший ход: все трое названных — чёрные',
  'ach.full-strength.name': 'Полный состав',
  'ach.full-strength.desc': 'победа, когда вся команда ещё за столом',
  'ach.every-role.name': 'Все роли',
  'ach.every-role.desc': 'победы за мирного жителя, Шерифа, мафиози и Дона',
  'ach.best-player-3.name': 'Трижды лучший',
  'ach.best-player-3.desc': 'звание лучшего игрока игры — трижды',
  'ach.announce': '🏅 Достижения в игре #{id}',
  'ach.announce.line': '{user} — **{name}**: {desc}',
  'ach.field': 'Достижения',
  'ach.line': '🏅 **{name}** — {desc}',
};
