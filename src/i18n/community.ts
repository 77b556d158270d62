// What community servers ask of the bot beyond the rules (issue 24): rated or casual games, lobby
// pings. en
// defines the keys, uk and ru have them all (spread into en.ts, uk.ts and ru.ts). Glossary: a
// casual game is «нерейтингова гра» / «нерейтинговая игра», a rated one «рейтингова» / «рейтинговая».

import type { Entry } from './entry';

export const communityEn = {
  'cmd.opt.rated.name': 'rated',
  'cmd.opt.rated.desc': 'True: the game counts for the rating and standings; false: a casual game',
  'cmd.settings.rated.name': 'rated',
  'cmd.settings.rated.desc': 'Whether new games count for the rating and standings by default',
  'settings.rated': 'New games',
  'settings.rated.on': 'rated (count for the rating and standings)',
  'settings.rated.off': 'casual (do not count)',
  'lobby.rated': '🏆 Rated game: the result counts for the rating and standings.',
  'lobby.casual': '🎲 Casual game: the result does not count for the rating or standings.',
  'result.casual': '🎲 A casual game: these points do not count for the rating or standings.',
  'st.game.notCounted.casual': 'A casual game: it does not count for the rating or standings.',
  'cmd.settings.lobbyPing.name': 'lobby_ping',
  'cmd.settings.lobbyPing.desc': 'A role new lobbies ping (members opt in by taking it); empty: none',
  'cmd.opt.pingCooldown.name': 'cooldown',
  'cmd.opt.pingCooldown.desc': 'Minutes after a ping before a new lobby pings again (0–1440)',
  'settings.lobbyPing': 'New lobbies ping',
  'settings.lobbyPingValue': '{role}, at most once per {cooldown}',
  'settings.lobbyPingEvery': '{role}, every lobby',
  'settings.lobbyPingMuted':
    'Discord will show {role} in lobbies but notify nobody: make the role mentionable (Server Settings → Roles) or give the bot Mention @everyone, @here, and All Roles.',
  'refusal.settings/lobbyEveryone': 'Choose a role members take to be told of new games, not @everyone.',
  'lobby.ping': '🔔 {role} — a new game is looking for players.',
} as const satisfies Record<string, Entry>;

type Keys = keyof typeof communityEn;

export const communityUk: Record<Keys, Entry> = {
  'cmd.opt.rated.name': 'рейтингова',
  'cmd.opt.rated.desc': 'Так — гра враховується в рейтингу й таблиці; ні — нерейтингова гра',
  'cmd.settings.rated.name': 'рейтингові',
  'cmd.settings.rated.desc': 'Чи враховуються нові ігри в рейтингу й таблиці за замовчуванням',
  'settings.rated': 'Нові ігри',
  'settings.rated.on': 'рейтингові (враховуються в рейтингу й таблиці)',
  'settings.rated.off': 'нерейтингові (не враховуються)',
  'lobby.rated': '🏆 Рейтингова гра: результат враховується в рейтингу й таблиці.',
  'lobby.casual': '🎲 Нерейтингова гра: результат не враховується ні в рейтингу, ні в таблиці.',
  'result.casual': '🎲 Нерейтингова гра: ці бали не враховуються ні в рейтингу, ні в таблиці.',
  'st.game.notCounted.casual': 'Нерейтингова гра: не враховується ні в рейтингу, ні в таблиці.',
  'cmd.settings.lobbyPing.name': 'сповіщення_лобі',
  'cmd.settings.lobbyPing.desc': 'Роль, яку згадують нові лобі (учасники беруть її самі); порожньо — нікого',
  'cmd.opt.pingCooldown.name': 'перерва',
  'cmd.opt.pingCooldown.desc': 'Скільки хвилин після згадки нове лобі не згадує роль знову (0–1440)',
  'settings.lobbyPing': 'Нові лобі згадують',
  'settings.lobbyPingValue': '{role}, не частіше ніж раз на {cooldown}',
  'settings.lobbyPingEvery': '{role}, кожне лобі',
  'settings.lobbyPingMuted':
    'Discord показуватиме {role} у лобі, але нікого не сповістить: зробіть роль доступною для згадок (Налаштування сервера → Ролі) або дайте боту право «Згадувати @everyone, @here і всі ролі».',
  'refusal.settings/lobbyEveryone': 'Оберіть роль, яку учасники беруть, щоб дізнаватися про нові ігри, а не @everyone.',
  'lobby.ping': '🔔 {role} — нова гра набирає гравців.',
};

export const communityRu: Record<Keys, Entry> = {
  'cmd.opt.rated.name': 'рейтинговая',
  'cmd.opt.rated.desc': 'Да — игра учитывается в рейтинге и таблице; нет — нерейтинговая игра',
  'cmd.settings.rated.name': 'рейтинговые',
  'cmd.settings.rated.desc': 'Учитываются ли новые игры в рейтинге и таблице по умолчанию',
  'settings.rated': 'Новые игры',
  'settings.rated.on': 'рейтинговые (учитываются в рейтинге и таблице)',
  'settings.rated.off': 'нерейтинговые (не учитываются)',
  'lobby.rated': '🏆 Рейтинговая игра: результат учитывается в рейтинге и таблице.',
  'lobby.casual': '🎲 Нерейтинговая игра: результат не учитывается ни в рейтинге, ни в таблице.',
  'result.casual': '🎲 Нерейтинговая игра: эти баллы не учитываются ни в рейтинге, ни в таблице.',
  'st.game.notCounted.casual': 'Нерейтинговая игра: не учитывается ни в рейтинге, ни в таблице.',
  'cmd.settings.lobbyPing.name': 'оповещение_лобби',
  'cmd.settings.lobbyPing.desc': 'Роль, которую упоминают новые лобби (участники берут её сами); пусто — никого',
  'cmd.opt.pingCooldown.name': 'перерыв',
  'cmd.opt.pingCooldown.desc': 'Сколько минут после упоминания новое лобби не упоминает роль снова (0–1440)',
  'settings.lobbyPing': 'Новые лобби упоминают',
  'settings.lobbyPingValue': '{role}, не чаще раза в {cooldown}',
  'settings.lobbyPingEvery': '{role}, каждое лобби',
  'settings.lobbyPingMuted':
    'Discord будет показывать {role} в лобби, но никого не оповестит: сделайте роль доступной для упоминания (Настройки сервера → Роли) или дайте боту право «Упоминание @everyone, @here и всех ролей».',
  'refusal.settings/lobbyEveryone':
    'Выберите роль, которую участники берут, чтобы узнавать о новых играх, а не @everyone.',
  'lobby.ping': '🔔 {role} — новая игра набирает игроков.',
};
