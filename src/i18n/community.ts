// What community servers ask of the bot beyond the rules (issue 24): rated or casual games, lobby
// pings, the setup check. en
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
  'cmd.mafia.setup.name': 'setup',
  'cmd.mafia.setup.desc': 'Check that the bot is set up right on this server',
  'cmd.setup.check.name': 'check',
  'cmd.setup.check.desc': 'What the bot may do in this channel and what the settings need, with the fixes',
  'cmd.opt.checkDms.name': 'dms',
  'cmd.opt.checkDms.desc': 'Also check that the bot can DM the players of the lobby open here',
  'refusal.setup/permission': 'Only members with Manage Server or the host role can run the setup check.',
  'setup.title': 'Setup check: this channel and the server’s settings',
  'setup.or': ' or ',
  'setup.ok.play': 'Posts and updates the game’s messages here.',
  'setup.ok.pin': 'Pins the game table.',
  'setup.ok.speakers': 'Keeps order: only the speaker writes, nobody at night, the dead never.',
  'setup.ok.threads': 'Opens the mafia’s private thread and the spectators’ thread.',
  'setup.ok.files': 'Attaches the Elo charts and the tournament’s CSV.',
  'setup.ok.tables': 'Creates a channel for each tournament table.',
  'setup.missing.play': 'Cannot run a game here: give the bot {perms} in this channel (Edit Channel → Permissions).',
  'setup.missing.pin': 'Cannot pin the game table: give the bot {perms}.',
  'setup.missing.speakers':
    'Cannot keep the speaking order (anyone may write at any time): give the bot {perms} in this channel.',
  'setup.missing.threads':
    'Cannot open the mafia’s private thread (the mafia learn each other from their role cards only): give the bot {perms}.',
  'setup.missing.files': 'Cannot attach the Elo charts or the tournament’s CSV: give the bot {perms}.',
  'setup.missing.tables':
    'Tournaments: without {perms} the head host names a channel for each table (the bot cannot create them).',
  'setup.noRuleset': 'No default rule set: every {cmd:mafia create} must name one ({cmd:mafia settings ruleset}).',
  'setup.resultsGone': 'The results channel is gone: choose another with {cmd:mafia settings results_channel}.',
  'setup.resultsBlocked':
    'Results cannot be posted in {channel}: give the bot View Channel, Send Messages and Embed Links there.',
  'setup.resultsOk': 'Posts every game’s points in {channel} too.',
  'setup.hostRoleGone': 'The host role was deleted: choose another with {cmd:mafia settings host_role}.',
  'setup.lobbyRoleGone': 'The lobby ping’s role was deleted: choose another with {cmd:mafia settings lobby_ping}.',
  'setup.lobbyRoleSilent':
    'New lobbies show {role} but notify nobody: make the role mentionable (Server Settings → Roles) or give the bot {perms}.',
  'setup.lobbyRoleOk': 'New lobbies ping {role}.',
  'setup.dmsNoLobby': 'No lobby is open in this channel: the DM check is made for a lobby’s players.',
  'setup.dmsEmpty': 'Nobody has joined the lobby here yet: no DMs to check.',
  'setup.dmsOk': {
    one: 'The bot can DM the lobby’s {count} player.',
    other: 'The bot can DM all {count} players of the lobby.',
  },
  'setup.dmsClosed':
    'The bot cannot DM {users}: they should allow direct messages from server members (the server’s Privacy Settings), else they play from private panels in the channel.',
  'setup.footerOk': 'Everything the bot needs is in place.',
  'setup.footerFix': { one: '{count} thing to fix.', other: '{count} things to fix.' },
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
  'cmd.mafia.setup.name': 'налаштування_бота',
  'cmd.mafia.setup.desc': 'Перевірити, чи бот правильно налаштований на цьому сервері',
  'cmd.setup.check.name': 'перевірка',
  'cmd.setup.check.desc': 'Що бот може в цьому каналі і що потрібно налаштуванням, з виправленнями',
  'cmd.opt.checkDms.name': 'приватні',
  'cmd.opt.checkDms.desc': 'Ще перевірити, чи бот може писати в приватні гравцям лобі в цьому каналі',
  'refusal.setup/permission':
    'Перевірку налаштувань можуть запускати лише учасники з правом «Керувати сервером» або з роллю ведучого.',
  'setup.title': 'Перевірка налаштувань: цей канал і налаштування сервера',
  'setup.or': ' або ',
  'setup.ok.play': 'Публікує й оновлює повідомлення гри тут.',
  'setup.ok.pin': 'Закріплює ігровий стіл.',
  'setup.ok.speakers': 'Тримає порядок: пише лише той, хто виступає, уночі — ніхто, вибулі — ніколи.',
  'setup.ok.threads': 'Відкриває приватну гілку мафії та гілку глядачів.',
  'setup.ok.files': 'Додає графіки Elo і CSV турніру.',
  'setup.ok.tables': 'Створює канал для кожного столу турніру.',
  'setup.missing.play': 'Тут гру не провести: дайте боту {perms} у цьому каналі (Редагувати канал → Дозволи).',
  'setup.missing.pin': 'Бот не може закріпити ігровий стіл: дайте йому {perms}.',
  'setup.missing.speakers':
    'Бот не втримає черговість виступів (писати зможе будь-хто будь-коли): дайте йому {perms} у цьому каналі.',
  'setup.missing.threads':
    'Бот не відкриє приватну гілку мафії (мафія дізнається своїх лише з карток ролей): дайте йому {perms}.',
  'setup.missing.files': 'Бот не може додавати графіки Elo і CSV турніру: дайте йому {perms}.',
  'setup.missing.tables':
    'Турніри: без {perms} головний ведучий сам вказує канал для кожного столу (бот не може їх створити).',
  'setup.noRuleset':
    'Правила за замовчуванням не обрано: кожна {cmd:mafia create} має їх назвати ({cmd:mafia settings ruleset}).',
  'setup.resultsGone': 'Канал результатів видалено: оберіть інший через {cmd:mafia settings results_channel}.',
  'setup.resultsBlocked':
    'Бот не може публікувати результати в {channel}: дайте йому там «Переглядати канал», «Надсилати повідомлення» і «Вбудовувати посилання».',
  'setup.resultsOk': 'Бали кожної гри публікуються ще й у {channel}.',
  'setup.hostRoleGone': 'Роль ведучого видалено: оберіть іншу через {cmd:mafia settings host_role}.',
  'setup.lobbyRoleGone': 'Роль для сповіщень про лобі видалено: оберіть іншу через {cmd:mafia settings lobby_ping}.',
  'setup.lobbyRoleSilent':
    'Нові лобі показують {role}, але нікого не сповіщають: зробіть роль доступною для згадок (Налаштування сервера → Ролі) або дайте боту {perms}.',
  'setup.lobbyRoleOk': 'Нові лобі згадують {role}.',
  'setup.dmsNoLobby': 'У цьому каналі немає відкритого лобі: приватні повідомлення перевіряються для гравців лобі.',
  'setup.dmsEmpty': 'До лобі тут ще ніхто не приєднався: нікому перевіряти приватні.',
  'setup.dmsOk': {
    one: 'Бот може писати в приватні {count} гравцю лобі.',
    few: 'Бот може писати в приватні всім {count} гравцям лобі.',
    many: 'Бот може писати в приватні всім {count} гравцям лобі.',
    other: 'Бот може писати в приватні всім {count} гравцям лобі.',
  },
  'setup.dmsClosed':
    'Бот не може писати в приватні {users}: їм варто дозволити приватні повідомлення від учасників сервера (Налаштування приватності сервера), інакше вони гратимуть через приватні панелі в каналі.',
  'setup.footerOk': 'Усе, що потрібно боту, на місці.',
  'setup.footerFix': {
    one: 'Виправити: {count} пункт.',
    few: 'Виправити: {count} пункти.',
    many: 'Виправити: {count} пунктів.',
    other: 'Виправити: {count} пункту.',
  },
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
  'cmd.mafia.setup.name': 'настройка_бота',
  'cmd.mafia.setup.desc': 'Проверить, правильно ли бот настроен на этом сервере',
  'cmd.setup.check.name': 'проверка',
  'cmd.setup.check.desc': 'Что бот может в этом канале и что нужно настройкам, с исправлениями',
  'cmd.opt.checkDms.name': 'личные',
  'cmd.opt.checkDms.desc': 'Ещё проверить, может ли бот писать в личные игрокам лобби в этом канале',
  'refusal.setup/permission':
    'Проверку настроек могут запускать только участники с правом «Управлять сервером» или с ролью ведущего.',
  'setup.title': 'Проверка настроек: этот канал и настройки сервера',
  'setup.or': ' или ',
  'setup.ok.play': 'Публикует и обновляет сообщения игры здесь.',
  'setup.ok.pin': 'Закрепляет игровой стол.',
  'setup.ok.speakers': 'Держит порядок: пишет только выступающий, ночью — никто, выбывшие — никогда.',
  'setup.ok.threads': 'Открывает закрытую ветку мафии и ветку зрителей.',
  'setup.ok.files': 'Прикрепляет графики Elo и CSV турнира.',
  'setup.ok.tables': 'Создаёт канал для каждого стола турнира.',
  'setup.missing.play': 'Здесь игру не провести: дайте боту {perms} в этом канале (Настроить канал → Права доступа).',
  'setup.missing.pin': 'Бот не может закрепить игровой стол: дайте ему {perms}.',
  'setup.missing.speakers':
    'Бот не удержит очерёдность выступлений (писать сможет кто угодно когда угодно): дайте ему {perms} в этом канале.',
  'setup.missing.threads':
    'Бот не откроет закрытую ветку мафии (мафия узнает своих только из карточек ролей): дайте ему {perms}.',
  'setup.missing.files': 'Бот не может прикреплять графики Elo и CSV турнира: дайте ему {perms}.',
  'setup.missing.tables':
    'Турниры: без {perms} главный ведущий сам указывает канал для каждого стола (бот не может их создать).',
  'setup.noRuleset':
    'Правила по умолчанию не выбраны: каждая {cmd:mafia create} должна их назвать ({cmd:mafia settings ruleset}).',
  'setup.resultsGone': 'Канал результатов удалён: выберите другой через {cmd:mafia settings results_channel}.',
  'setup.resultsBlocked':
    'Бот не может публиковать результаты в {channel}: дайте ему там «Просматривать канал», «Отправлять сообщения» и «Встраивать ссылки».',
  'setup.resultsOk': 'Баллы каждой игры публикуются ещё и в {channel}.',
  'setup.hostRoleGone': 'Роль ведущего удалена: выберите другую через {cmd:mafia settings host_role}.',
  'setup.lobbyRoleGone': 'Роль для оповещений о лобби удалена: выберите другую через {cmd:mafia settings lobby_ping}.',
  'setup.lobbyRoleSilent':
    'Новые лобби показывают {role}, но никого не оповещают: сделайте роль доступной для упоминания (Настройки сервера → Роли) или дайте боту {perms}.',
  'setup.lobbyRoleOk': 'Новые лобби упоминают {role}.',
  'setup.dmsNoLobby': 'В этом канале нет открытого лобби: личные сообщения проверяются для игроков лобби.',
  'setup.dmsEmpty': 'В лобби здесь ещё никто не вошёл: некому проверять личные.',
  'setup.dmsOk': {
    one: 'Бот может писать в личные {count} игроку лобби.',
    few: 'Бот может писать в личные всем {count} игрокам лобби.',
    many: 'Бот может писать в личные всем {count} игрокам лобби.',
    other: 'Бот может писать в личные всем {count} игрокам лобби.',
  },
  'setup.dmsClosed':
    'Бот не может писать в личные {users}: им стоит разрешить личные сообщения от участников сервера (Настройки конфиденциальности сервера), иначе они будут играть через закрытые панели в канале.',
  'setup.footerOk': 'Всё, что нужно боту, на месте.',
  'setup.footerFix': {
    one: 'Исправить: {count} пункт.',
    few: 'Исправить: {count} пункта.',
    many: 'Исправить: {count} пунктов.',
    other: 'Исправить: {count} пункта.',
  },
};
