// Catalog entries of the newcomer's path (issue 21): "how to play" for a rule set (`/mafia rules`, the
// Rules button of the lobby and the table) and the lines role cards add (win condition, the Sheriff's
// "is it the Don?", the Don's take). Spread into en.ts, uk.ts and ru.ts. The words follow
// docs/glossary.md; no rule ids (test/i18n/glossary.test.ts).
import type { Entry } from './entry';

export const rulesEn = {
  'cmd.mafia.rules.name': 'rules',
  'cmd.mafia.rules.desc': 'How to play: this game’s rules or a rule set’s (only you see them)',
  'button.rules': 'Rules',

  'rules.title': 'How to play: {ruleset}',
  'rules.h.teams': 'Teams',
  'rules.h.night': 'Night',
  'rules.h.day': 'Day',
  'rules.h.end': 'End of the game',
  'rules.h.points': 'Points',
  'rules.teams.ten':
    'Red (town): 6 Civilians and the Sheriff. Black (mafia): 2 Mafia and the Don. Roles are dealt in secret; the mafia know each other, the town does not.',
  'rules.teams.kiev':
    'Red (town): 5 Civilians, the Commissioner, the Doctor and the Maniac. Black (mafia): 2 Mafia, the Don and the Prostitute. Roles are dealt in secret; the Prostitute does not know the mafia.',
  'rules.night0':
    'Night 0 is the acquaintance night: the mafia get to know each other; nobody shoots or checks. From night 1, each role acts once a night with the buttons in its private messages:',
  'rules.role.civilian': '**Civilian**: no night action; finds the mafia by day.',
  'rules.role.sheriff': '**Sheriff**: checks one seat: red or black.',
  'rules.role.sheriffAskDon':
    '**Sheriff**: checks one seat: red or black; after “black” may also ask “is it the Don?”.',
  'rules.role.donUnanimous': '**Don**: shoots with the mafia and checks one seat: is it the Sheriff?',
  'rules.role.mafiaUnanimous':
    '**Mafia**: every black player picks a target; the shot kills only if all living black players pick the same seat.',
  'rules.role.mafiaDecides':
    '**Mafia** and **Don**: each picks a target; the Don’s pick is the shot (without the Don, the mafia player with the lowest seat decides).',
  'rules.role.commissioner':
    '**Commissioner**: checks one seat, red or black, and gets the answer in the morning. Once per game may leave a note, read out to everyone if the Commissioner is killed that night.',
  'rules.role.doctor':
    '**Doctor**: heals one seat (their own too): it survives every kill that night, and a freeze on it is lifted. Not the same seat three nights in a row.',
  'rules.role.maniac': '**Maniac** (red, on their own): may kill one seat.',
  'rules.role.prostitute':
    '**Prostitute** (black): freezes one seat, whose night action then has no effect. Not the same seat three nights in a row. Once the Mafia and the Don are all gone, the Prostitute shoots.',
  'rules.morning.hidden': 'In the morning the host names who left the table during the night, never who shot.',
  'rules.morning.reveal':
    'In the morning the host names who left the table during the night, never who shot; everyone who leaves the table has their card shown.',
  'rules.day.speeches':
    'Every living player speaks once, in seat order ({speech}); each day the first speaker moves one seat on. “Thank you” ends a speech. During their own speech a player may nominate one player.',
  'rules.day.window':
    'The day is an open discussion ({discussion}): every living player may write, nominate one player, and press “I’m done”.',
  'rules.day.kiev':
    'Free discussion ({discussion}), then accusations: in turn, each living player has {accusation} and may accuse (nominate) one player.',
  'rules.day.kievWindow':
    'Free discussion ({discussion}), then open accusations ({accusation}): each living player may accuse (nominate) one player.',
  'rules.vote':
    'Vote ({vote}) on the candidates in nomination order: one vote each, and it cannot be changed. The candidate with the most votes leaves the table.',
  'rules.vote.self': 'You may vote for yourself.',
  'rules.vote.noSelf': 'Nobody may vote for themselves.',
  'rules.vote.last': 'Anyone who does not vote is counted for the last candidate.',
  'rules.vote.abstain': 'Anyone who does not vote abstains.',
  'rules.vote.day1Single': 'On day 1, a single candidate is not voted on.',
  'rules.vote.minVotes': {
    one: 'A candidate needs at least {count} vote to leave.',
    other: 'A candidate needs at least {count} votes to leave.',
  },
  'rules.tie.nobody':
    'A tie goes to a shootout: each tied candidate speaks ({shootout}), then a revote among them; another tie and nobody leaves.',
  'rules.tie.allLeave':
    'A tie goes to a shootout: each tied candidate speaks ({shootout}), then a revote among them. Another tie, and the table votes on whether they all leave: they do if more than half of the living players say yes.',
  'rules.tie.small': {
    one: 'With {count} player or fewer alive, a tie means nobody leaves.',
    other: 'With {count} players or fewer alive, a tie means nobody leaves.',
  },
  'rules.lastWords.all':
    'Last words ({lastWords}): for a player voted out or killed at night; none after a removal, or if their leaving ends the game.',
  'rules.lastWords.vote':
    'Last words ({lastWords}): only for a player voted out; players killed at night do not speak.',
  'rules.take':
    'If the Don is voted out, the Don may take one other living player along (not with two fouls or more); that player leaves without last words.',
  'rules.bestMove':
    'The player killed on night 1 may use their last words to name two or three seats they think are black (the best move).',
  'rules.fouls.warnings':
    'Warnings from the host: the 3rd costs the player their next speech, the 4th removes them from the game.',
  'rules.fouls.five':
    'Fouls from the host: the 1st is a warning; from the 2nd on, each adds a vote against the player the next time they are a candidate. 3 fouls: no discussion or accusation; 4: no vote either; 5: removed from the game. Talking at night costs 2 fouls.',
  'rules.end.parity':
    'Red wins when no black player is left. Black wins as soon as there are as many black players as red ones.',
  'rules.end.elimination':
    'A team wins when nobody from the other team is left (the Maniac counts as red, the Prostitute as black); if both go at once, it is a draw.',
  'rules.end.quiet': {
    one: 'If nobody leaves the table for {count} round in a row, the game is a draw.',
    other: 'If nobody leaves the table for {count} rounds in a row, the game is a draw.',
  },
  'rules.points.chnu':
    'Win: Civilian 4, Sheriff 5, Mafia 5, Don 6; a losing Sheriff or Don −1. Winning in full strength +1, best move (red only) up to +1, best player +3 (5 votes or more, the host’s included).',
  'rules.points.classic':
    'Win: Civilian 3, Sheriff 4, Mafia 4, Don 5; a losing Sheriff or Don −1 (not a Sheriff killed on night 1). Best move (red, not the Sheriff) up to +2, each right candidate +1, shooting the Sheriff +1, best player +2 (named by the host); each warning −0.5, a removal −1.',
  'rules.points.kiev':
    'After the game everyone votes for one other player: the top three get 3, 2 and 1 points (at least 2 votes to place); the host may add +1 or +2; at most 5 per game.',
  'rules.footer': 'Your card during a game: {cmd:mafia role}.',

  // Role cards: what they add to the role's line
  'roleDesc.sheriff.askDon': 'After a “black” answer you may also ask: is it the Don?',
  'roleDesc.don.take': 'If you are voted out, you may take one other living player with you.',
  'card.win.parity.red': 'The town wins when no black player is left at the table.',
  'card.win.parity.black': 'The mafia wins as soon as there are as many black players as red ones.',
  'card.win.elimination.red': 'The town wins when no black player (the Prostitute too) is left.',
  'card.win.elimination.black': 'The mafia wins when no red player (the Maniac too) is left.',
} as const satisfies Record<string, Entry>;

type Shape = { readonly [K in keyof typeof rulesEn]: Entry };

export const rulesUk: Shape = {
  'cmd.mafia.rules.name': 'правила',
  'cmd.mafia.rules.desc': 'Як грати: правила цієї гри або обраних правил (лише мені)',
  'button.rules': 'Правила',

  'rules.title': 'Як грати: {ruleset}',
  'rules.h.teams': 'Команди',
  'rules.h.night': 'Ніч',
  'rules.h.day': 'День',
  'rules.h.end': 'Кінець гри',
  'rules.h.points': 'Бали',
  'rules.teams.ten':
    'Червоні (місто): 6 мирних жителів і Шериф. Чорні (мафія): 2 мафіозі й Дон. Ролі роздають таємно; мафіозі знають одне одного, місто — ні.',
  'rules.teams.kiev':
    'Червоні (місто): 5 мирних жителів, Комісар, Лікар і Маніяк. Чорні (мафія): 2 мафіозі, Дон і Путана. Ролі роздають таємно; Путана не знає мафію.',
  'rules.night0':
    'Нульова ніч — ніч знайомства: мафія знайомиться між собою; ніхто не стріляє й не перевіряє. Починаючи з першої ночі, кожна роль діє раз за ніч кнопками в особистих повідомленнях:',
  'rules.role.civilian': '**Мирний житель**: уночі не діє; удень шукає чорних.',
  'rules.role.sheriff': '**Шериф**: перевіряє одного гравця: червоний чи чорний.',
  'rules.role.sheriffAskDon':
    '**Шериф**: перевіряє одного гравця: червоний чи чорний; після відповіді «чорний» може ще запитати: «це Дон?».',
  'rules.role.donUnanimous': '**Дон**: стріляє разом із мафією і перевіряє одного гравця: чи це Шериф?',
  'rules.role.mafiaUnanimous':
    '**Мафія**: кожен чорний гравець обирає ціль; постріл убиває, лише якщо всі живі чорні обрали те саме місце.',
  'rules.role.mafiaDecides':
    '**Мафія** і **Дон**: кожен обирає ціль; пострілом стає вибір Дона (без Дона вирішує мафіозі з найменшим номером місця).',
  'rules.role.commissioner':
    '**Комісар**: перевіряє одного гравця — червоний чи чорний, відповідь уранці. Раз за гру може залишити записку: її зачитають усім, якщо цієї ночі Комісара вб’ють.',
  'rules.role.doctor':
    '**Лікар**: лікує одного гравця (можна себе): той переживе будь-яке вбивство цієї ночі. Не те саме місце три ночі поспіль.',
  'rules.role.maniac': '**Маніяк** (червоний, грає сам за себе): може вбити одного гравця.',
  'rules.role.prostitute':
    '**Путана** (чорна): заморожує одного гравця — його нічна дія не спрацює. Не те саме місце три ночі поспіль. Коли мафії й Дона не залишиться, стріляє вона.',
  'rules.morning.hidden': 'Уранці ведучий називає, хто залишив стіл уночі, але ніколи — хто стріляв.',
  'rules.morning.reveal':
    'Уранці ведучий називає, хто залишив стіл уночі, але ніколи — хто стріляв; картку кожного, хто залишає стіл, відкривають.',
  'rules.day.speeches':
    'Кожен живий гравець виступає один раз, по черзі за номерами місць ({speech}); виступ завершує «Дякую». Під час свого виступу можна виставити одного гравця: «Я виставляю гравця номер…».',
  'rules.day.window':
    'День — відкрите обговорення ({discussion}): кожен живий гравець може писати, виставити одного гравця й натиснути «Готово».',
  'rules.day.kiev':
    'Вільне обговорення ({discussion}), потім звинувачення: по черзі кожен живий гравець має {accusation} і може звинуватити (виставити) одного гравця.',
  'rules.day.kievWindow':
    'Вільне обговорення ({discussion}), потім відкриті звинувачення ({accusation}): кожен живий гравець може звинуватити (виставити) одного гравця.',
  'rules.vote':
    'Голосування ({vote}): за кандидатів у порядку виставлення; у кожного один голос, змінити його не можна. Хто набрав найбільше голосів, залишає стіл.',
  'rules.vote.self': 'Голосувати за себе можна.',
  'rules.vote.noSelf': 'Голосувати за себе не можна.',
  'rules.vote.last': 'Голос того, хто не проголосував, зараховується останньому виставленому кандидатові.',
  'rules.vote.abstain': 'Хто не проголосував, той утримався.',
  'rules.vote.day1Single': 'Якщо першого дня виставлено лише одну кандидатуру, за неї не голосують.',
  'rules.vote.minVotes': {
    one: 'Щоб залишити стіл, кандидатові потрібен щонайменше {count} голос.',
    few: 'Щоб залишити стіл, кандидатові потрібно щонайменше {count} голоси.',
    many: 'Щоб залишити стіл, кандидатові потрібно щонайменше {count} голосів.',
    other: 'Щоб залишити стіл, кандидатові потрібно щонайменше {count} голосу.',
  },
  'rules.tie.nobody':
    'Порівну голосів: кожен із кандидатів говорить ({shootout}), потім переголосування між ними; знову порівну — ніхто не залишає стіл.',
  'rules.tie.allLeave':
    'Порівну голосів: кожен із кандидатів говорить ({shootout}), потім переголосування між ними; знову порівну — голосування «чи залишають стіл усі?»: усі йдуть, якщо «так» скаже більше половини живих гравців.',
  'rules.tie.small': {
    one: 'Коли живих гравців {count} або менше і голосів порівну, ніхто не залишає стіл.',
    few: 'Коли живих гравців {count} або менше і голосів порівну, ніхто не залишає стіл.',
    many: 'Коли живих гравців {count} або менше і голосів порівну, ніхто не залишає стіл.',
    other: 'Коли живих гравців {count} або менше і голосів порівну, ніхто не залишає стіл.',
  },
  'rules.lastWords.all':
    'Останнє слово ({lastWords}): тому, хто залишає стіл за результатами голосування, і тому, кого вбито вночі; не після видалення з гри і не тоді, коли цим гра закінчується.',
  'rules.lastWords.vote':
    'Останнє слово ({lastWords}): лише тому, хто залишає стіл за результатами голосування; убиті вночі не говорять.',
  'rules.take':
    'Дон, якого усунуто голосуванням, може забрати із собою одного живого гравця (якщо в нього менше двох фолів).',
  'rules.bestMove':
    'Кого вбито в першу ніч, той має право кращого ходу: в останньому слові називає два-три місця, які вважає чорними.',
  'rules.fouls.warnings': 'Попередження від ведучого: третє позбавляє найближчого виступу, четверте — видалення з гри.',
  'rules.fouls.five':
    'Фоли від ведучого: з другого кожен фол додає голос проти гравця на наступному голосуванні; 3 фоли — без виступу й звинувачення; 4 — без голосу; 5 — видалення з гри.',
  'rules.end.parity':
    'Червоні перемагають, коли за столом не залишилося чорних. Чорні перемагають, щойно чорних стає стільки ж, скільки червоних.',
  'rules.end.elimination':
    'Команда перемагає, коли за столом не залишилося нікого з іншої команди (Маніяк — червоний, Путана — чорна); якщо обидві команди вибувають одночасно — нічия.',
  'rules.end.quiet': {
    one: 'Якщо {count} коло поспіль ніхто не залишає стіл, гра закінчується нічиєю.',
    few: 'Якщо {count} кола поспіль ніхто не залишає стіл, гра закінчується нічиєю.',
    many: 'Якщо {count} кіл поспіль ніхто не залишає стіл, гра закінчується нічиєю.',
    other: 'Якщо {count} кола поспіль ніхто не залишає стіл, гра закінчується нічиєю.',
  },
  'rules.points.chnu':
    'Перемога: мирний 4, Шериф 5, мафія 5, Дон 6; при поразці Шериф і Дон −1. Перемога в повному складі +1; кращий хід (лише червоним): 3 чорні — +1, 2 — +0,5; найкращий гравець +3 (від 5 голосів разом із голосом ведучого).',
  'rules.points.classic':
    'Перемога: мирний 3, Шериф 4, мафія 4, Дон 5; при поразці Шериф і Дон −1. Кращий хід (червоним, крім Шерифа): 2 чорні — +1, 3 — +2; правильна кандидатура +1; найкращий гравець +2 (його називає ведучий); попередження −0,5, видалення −1.',
  'rules.points.kiev':
    'Після гри кожен голосує за найкращого гравця (не за себе): троє перших отримують 3, 2 і 1 бал (щонайменше 2 голоси); ведучий може додати +1 або +2; не більше 5 балів за гру.',
  'rules.footer': 'Ваша картка під час гри: {cmd:mafia role}.',

  'roleDesc.sheriff.askDon': 'Після відповіді «чорний» можете ще спитати: це Дон?',
  'roleDesc.don.take': 'Якщо вдень вас усунуть голосуванням, можете забрати із собою одного живого гравця.',
  'card.win.parity.red': 'Місто перемагає, коли за столом не залишилося жодного чорного гравця.',
  'card.win.parity.black': 'Мафія перемагає, щойно чорних гравців стає стільки ж, скільки червоних.',
  'card.win.elimination.red': 'Місто перемагає, коли не залишилося жодного чорного гравця (Путани теж).',
  'card.win.elimination.black': 'Мафія перемагає, коли не залишилося жодного червоного гравця (Маніяка теж).',
};

export const rulesRu: Shape = {
  'cmd.mafia.rules.name': 'правила',
  'cmd.mafia.rules.desc': 'Как играть: правила этой игры или выбранных правил (только мне)',
  'button.rules': 'Правила',

  'rules.title': 'Как играть: {ruleset}',
  'rules.h.teams': 'Команды',
  'rules.h.night': 'Ночь',
  'rules.h.day': 'День',
  'rules.h.end': 'Конец игры',
  'rules.h.points': 'Баллы',
  'rules.teams.ten':
    'Красные (город): 6 мирных жителей и Шериф. Чёрные (мафия): 2 мафиози и Дон. Роли раздают тайно; мафиози знают друг друга, город — нет.',
  'rules.teams.kiev':
    'Красные (город): 5 мирных жителей, Комиссар, Доктор и Маньяк. Чёрные (мафия): 2 мафиози, Дон и Путана. Роли раздают тайно; Путана и мафия не знают друг друга.',
  'rules.night0':
    'Нулевая ночь — ночь знакомства: мафия знакомится; никто не стреляет и не проверяет. С первой ночи каждая роль действует раз за ночь — кнопками в личных сообщениях:',
  'rules.role.civilian': '**Мирный житель**: ночью не действует; днём вычисляет мафию.',
  'rules.role.sheriff': '**Шериф**: проверяет одного игрока: красный или чёрный.',
  'rules.role.sheriffAskDon':
    '**Шериф**: проверяет одного игрока: красный или чёрный; после ответа «чёрный» может ещё спросить: «это Дон?».',
  'rules.role.donUnanimous': '**Дон**: стреляет вместе с мафией и проверяет одного игрока: Шериф ли это?',
  'rules.role.mafiaUnanimous':
    '**Мафия**: каждый чёрный игрок выбирает цель; выстрел убивает, только если все живые чёрные игроки выбрали одно и то же место.',
  'rules.role.mafiaDecides':
    '**Мафия** и **Дон**: каждый выбирает цель; засчитывается выбор Дона (без Дона решает мафиози с наименьшим номером места).',
  'rules.role.commissioner':
    '**Комиссар**: проверяет одного игрока — красный или чёрный, ответ утром. Раз за игру может оставить записку: её зачитают всем, если этой ночью Комиссара убьют.',
  'rules.role.doctor':
    '**Доктор**: лечит одного игрока (можно себя): тот переживёт любое убийство этой ночи. Одного и того же — не больше двух ночей подряд.',
  'rules.role.maniac': '**Маньяк** (играет за город, в одиночку): может убить одного игрока.',
  'rules.role.prostitute':
    '**Путана** (играет за мафию): замораживает одного игрока — его ночное действие не сработает. Одного и того же — не больше двух ночей подряд. Когда не останется мафии и Дона, стреляет она.',
  'rules.morning.hidden': 'Утром ведущий называет, кто покинул стол ночью, но никогда — кто стрелял.',
  'rules.morning.reveal':
    'Утром ведущий называет, кто покинул стол ночью, но никогда — кто стрелял; карту каждого, кто покидает стол, открывают.',
  'rules.day.speeches':
    'Каждый живой игрок выступает один раз, по порядку мест ({speech}); кнопка «Спасибо» завершает выступление. Во время своего выступления можно выставить одного игрока.',
  'rules.day.window':
    'День — открытое обсуждение ({discussion}): каждый живой игрок может писать, выставить одного игрока и нажать «Готово».',
  'rules.day.kiev':
    'Свободное обсуждение ({discussion}), потом обвинения: каждому живому игроку по очереди {accusation}, чтобы обвинить (выставить) одного игрока.',
  'rules.day.kievWindow':
    'Свободное обсуждение ({discussion}), потом открытые обвинения ({accusation}): каждый живой игрок может обвинить (выставить) одного игрока.',
  'rules.vote':
    'Голосование ({vote}): за кандидатов в порядке выставления; у каждого один голос, изменить его нельзя; набравший больше всех голосов покидает стол.',
  'rules.vote.self': 'Голосовать за себя можно.',
  'rules.vote.noSelf': 'Голосовать за себя нельзя.',
  'rules.vote.last': 'Голос того, кто не проголосовал, засчитывается за последнего выставленного кандидата.',
  'rules.vote.abstain': 'Кто не проголосовал, тот воздержался.',
  'rules.vote.day1Single': 'Если в первый день выставлен только один игрок, голосования нет.',
  'rules.vote.minVotes': {
    one: 'Чтобы покинуть стол, кандидату нужен хотя бы {count} голос.',
    few: 'Чтобы покинуть стол, кандидату нужно хотя бы {count} голоса.',
    many: 'Чтобы покинуть стол, кандидату нужно хотя бы {count} голосов.',
    other: 'Чтобы покинуть стол, кандидату нужно хотя бы {count} голоса.',
  },
  'rules.tie.nobody':
    'Поровну голосов — перестрелка: каждый из этих кандидатов говорит ({shootout}), потом переголосование между ними; снова поровну — никто не покидает стол.',
  'rules.tie.allLeave':
    'Поровну голосов — перестрелка: каждый из этих кандидатов говорит ({shootout}), потом переголосование между ними; снова поровну — стол голосует «покидают ли стол все?»: они уходят, если «да» скажет больше половины живых игроков.',
  'rules.tie.small': {
    one: 'Когда за столом {count} игрок или меньше, при равенстве голосов перестрелки нет: никто не покидает стол, наступает ночь.',
    few: 'Когда за столом {count} игрока или меньше, при равенстве голосов перестрелки нет: никто не покидает стол, наступает ночь.',
    many: 'Когда за столом {count} игроков или меньше, при равенстве голосов перестрелки нет: никто не покидает стол, наступает ночь.',
    other:
      'Когда за столом {count} игрока или меньше, при равенстве голосов перестрелки нет: никто не покидает стол, наступает ночь.',
  },
  'rules.lastWords.all':
    'Последнее слово ({lastWords}): тому, кто покидает стол по итогам голосования, и тому, кого убили ночью. Его нет после удаления из игры и когда этим игра заканчивается.',
  'rules.lastWords.vote':
    'Последнее слово ({lastWords}): только тому, кто покидает стол по итогам голосования; убитые ночью не говорят.',
  'rules.take':
    'Дон, покинувший стол по итогам голосования, может забрать с собой одного живого игрока (если у Дона меньше двух фолов).',
  'rules.bestMove':
    'Лучший ход: игрок, убитый в первую ночь, в последнем слове называет два или три места, которые считает чёрными.',
  'rules.fouls.warnings':
    'Фолы (предупреждения) даёт ведущий: третий лишает следующего выступления, четвёртый удаляет из игры.',
  'rules.fouls.five':
    'Фолы даёт ведущий (за разговор ночью — сразу два): первый — только предупреждение; со второго каждый фол добавляет игроку голос против на следующем голосовании; 3 фола — без обсуждения и обвинения; 4 — ещё и без права голоса; 5 — удаление из игры.',
  'rules.end.parity':
    'Красные побеждают, когда за столом не осталось чёрных. Чёрные побеждают, как только чёрных становится столько же, сколько красных.',
  'rules.end.elimination':
    'Команда побеждает, когда за столом не осталось никого из другой команды (Маньяк — красный, Путана — чёрная); если обе команды выбывают одновременно — ничья.',
  'rules.end.quiet': {
    one: 'Если {count} круг подряд никто не покидает стол, игра заканчивается ничьей.',
    few: 'Если {count} круга подряд никто не покидает стол, игра заканчивается ничьей.',
    many: 'Если {count} кругов подряд никто не покидает стол, игра заканчивается ничьей.',
    other: 'Если {count} круга подряд никто не покидает стол, игра заканчивается ничьей.',
  },
  'rules.points.chnu':
    'Победа: мирный житель 4, Шериф 5, мафиози 5, Дон 6; при поражении Шериф и Дон −1. Победа полным составом +1, лучший ход до +1, лучший игрок +3 (5 голосов и больше, считая голос ведущего).',
  'rules.points.classic':
    'Победа: мирный житель 3, Шериф 4, мафиози 4, Дон 5; при поражении Шериф и Дон −1. Лучший ход до +2, верная кандидатура +1, лучший игрок +2 (его называет ведущий); фол −0,5, удаление из игры −1.',
  'rules.points.kiev':
    'После игры все голосуют за лучшего игрока: трём лучшим — 3, 2 и 1 балл (нужно не меньше 2 голосов); ведущий может добавить +1 или +2; не больше 5 баллов за игру.',
  'rules.footer': 'Ваша карта во время игры: {cmd:mafia role}.',

  'roleDesc.sheriff.askDon': 'После ответа «чёрный» можете ещё спросить: это Дон?',
  'roleDesc.don.take': 'Если днём вы покинете стол по итогам голосования, можете забрать с собой одного живого игрока.',
  'card.win.parity.red': 'Город побеждает, когда за столом не осталось ни одного чёрного игрока.',
  'card.win.parity.black': 'Мафия побеждает, как только чёрных игроков становится столько же, сколько красных.',
  'card.win.elimination.red': 'Город побеждает, когда не осталось ни одного чёрного игрока (Путаны тоже).',
  'card.win.elimination.black': 'Мафия побеждает, когда не осталось ни одного красного игрока (Маньяка тоже).',
};
