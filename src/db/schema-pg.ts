// GENERATED from src/db/schema.ts by `npm run db:pg-schema` (tools/pg-schema.ts): do not edit.
// The PostgreSQL schema (issue 23): the same tables, keys and indexes, PostgreSQL types.
// The database: every game, its deal, its append-only action log, its current state, deadlines,
// results and the host's audit trail. Times are milliseconds since the epoch.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** One row per Discord server (guild): its settings. */
export const servers = pgTable('servers', {
  guildId: text('guild_id').primaryKey(),
  /** Language of public messages: 'en' | 'uk' | 'ru'; null = the guild's own locale. */
  locale: text('locale'),
  /** M-2: mafia may talk in private every night (asynchronous play), not only on night 0. */
  mafiaTalkEveryNight: boolean('mafia_talk_every_night').notNull().default(false),
  /** M-1: the channel lets only the current speaker write (one permission change per turn). */
  enforceSpeakingOrder: boolean('enforce_speaking_order').notNull().default(false),
  /** Every other setting (JSON), validated with zod on read and write (src/app/settings.ts). */
  settings: text('settings').notNull().default('{}'),
  /** Issue 24: when a lobby last pinged the server's lobby role (its cooldown counts from here). */
  lobbyPingAt: bigint('lobby_ping_at', { mode: 'number' }),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export type GameStatus = 'lobby' | 'running' | 'post-game' | 'over' | 'archived' | 'expired' | 'cancelled';

export const games = pgTable(
  'games',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id')
      .notNull()
      .references(() => servers.guildId),
    channelId: text('channel_id').notNull(),
    hostId: text('host_id').notNull(),
    ruleset: text('ruleset').notNull(),
    pace: text('pace').notNull(),
    /** Option overrides for this game (JSON), validated before they are stored. */
    options: text('options').notNull().default('{}'),
    status: text('status').$type<GameStatus>().notNull(),
    /** Lobby: joined users in order and other lobby settings (JSON). */
    lobby: text('lobby').notNull().default('{"members":[]}'),
    /** The deal: roles by seat (JSON), set at start. */
    deal: text('deal'),
    /** The engine's GameState (JSON), set at start; replaying the log from the deal gives it. */
    state: text('state'),
    /** Number of accepted actions (= the last sequence number in the log). */
    moves: bigint('moves', { mode: 'number' }).notNull().default(0),
    winner: text('winner'),
    /** Discord message and thread ids the bot keeps editing (JSON). */
    ui: text('ui').notNull().default('{}'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    startedAt: bigint('started_at', { mode: 'number' }),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    annulledAt: bigint('annulled_at', { mode: 'number' }),
    tournamentId: bigint('tournament_id', { mode: 'number' }),
    /**
     * Issue 24: a rated game counts for Elo and the standings; a casual one (false, chosen when it
     * was created) is kept in the archive and the players' histories only.
     */
    rated: boolean('rated').notNull().default(true),
    /**
     * Issue 24: the name of the server's preset (a saved house variant) the game was created from,
     * or null. The game's own options are a copy: changing or deleting the preset later changes no
     * game. `/stats top preset:` filters by it (the standings' scope `p:<name>`).
     */
    preset: text('preset'),
  },
  (t) => [
    index('games_status').on(t.status),
    index('games_guild_status').on(t.guildId, t.status),
    index('games_channel_status').on(t.channelId, t.status),
    index('games_tournament').on(t.tournamentId),
    // Issue 24: a preset's games in a period (/stats top preset: period:), in the order they finished.
    index('games_guild_preset_finished').on(t.guildId, t.preset, t.finishedAt),
  ],
);

export const players = pgTable(
  'players',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    seat: bigint('seat', { mode: 'number' }).notNull(),
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    role: text('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.seat] }),
    index('players_guild_user').on(t.guildId, t.userId),
    index('players_user').on(t.userId),
  ],
);

/** The append-only log of accepted actions. */
export const actions = pgTable(
  'actions',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    /** The engine action (JSON). */
    action: text('action').notNull(),
    /** Who: `user:<id>`, `host:<id>`, `timer` or `system`. */
    actor: text('actor').notNull(),
    /** The time given to the engine for this action. */
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.seq] })],
);

/** The pending timer of each running game's current stage or turn. */
export const deadlines = pgTable(
  'deadlines',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .primaryKey()
      .references(() => games.id),
    stageSeq: bigint('stage_seq', { mode: 'number' }).notNull(),
    dueAt: bigint('due_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('deadlines_due').on(t.dueAt)],
);

/** Points per player of every finished game (S-1..S-4), for /stats and standings (S-5). */
export const results = pgTable(
  'results',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    seat: bigint('seat', { mode: 'number' }).notNull(),
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    ruleset: text('ruleset').notNull(),
    role: text('role').notNull(),
    team: text('team').notNull(),
    /** 'win' | 'loss' | 'draw' */
    outcome: text('outcome').notNull(),
    points: doublePrecision('points').notNull(),
    /** Points by item (JSON). */
    breakdown: text('breakdown').notNull(),
    bestPlayer: boolean('best_player').notNull(),
    killedNight1: boolean('killed_night1').notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }).notNull(),
    /** Whether the game counts in standings and ratings (not annulled, had a day vote, enough moves). */
    counts: boolean('counts').notNull().default(true),
    /** The host ended the game before any day vote (such a game does not count). */
    noDayVote: boolean('no_day_vote').notNull().default(false),
    /** The game's accepted actions (the minimum-moves setting). */
    moves: bigint('moves', { mode: 'number' }).notNull().default(0),
    /** Warnings (F-2) or fouls (F-3) of the seat. */
    fouls: bigint('fouls', { mode: 'number' }).notNull().default(0),
    /** Removed from the game for fouls or by disqualification. */
    removed: boolean('removed').notNull().default(false),
    /** D-10: black seats named in this seat's best move; null when it made none. */
    bestMoveBlack: bigint('best_move_black', { mode: 'number' }),
    /** Everyone who held the seat with his share of the game's moves (JSON), when a substitute played. */
    holders: text('holders'),
    /**
     * Issue 24: what the seat did in this game that an achievement rewards (codes, comma-separated,
     * src/stats/achievements.ts `gameFeats`); null for results stored before achievements.
     */
    feats: text('feats'),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.seat] }),
    index('results_guild_ruleset_date').on(t.guildId, t.ruleset, t.finishedAt),
    index('results_user_ruleset').on(t.userId, t.ruleset),
    index('results_guild_user_date').on(t.guildId, t.userId, t.finishedAt),
  ],
);

/** Every host override and moderator command (G-7, F-1), with its reason. */
export const audit = pgTable(
  'audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    at: bigint('at', { mode: 'number' }).notNull(),
    actorId: text('actor_id').notNull(),
    /** foul, remove, kill, skip, end, best, bonus, substitute, cancel, ... */
    action: text('action').notNull(),
    /** Parameters (JSON). */
    detail: text('detail').notNull().default('{}'),
    reason: text('reason'),
  },
  (t) => [index('audit_game').on(t.gameId, t.at)],
);

// ---------------------------------------------------------------------------------------------
// Delivery: what players must see, written in the same transaction as the change that caused it
// (the transactional outbox), and sent by the deliverer (src/delivery).

/**
 * One-shot operations, sent in order per destination: posts (role cards, announcements, stage
 * messages, check answers), pins, the mafia thread. A post carries a nonce derived from its id, so
 * a re-send after a crash returns the first message instead of posting a second one.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    /** `ch:<channelId>`, `dm:<userId>` or `th:<gameId>` (the game's mafia thread). */
    dest: text('dest').notNull(),
    /** `post` (payload, or the slot's newest version), `thread` (create the mafia thread), `notice`. */
    op: text('op').notNull(),
    /** A post that creates the message of a slot (its payload is the slot's newest version). */
    slot: text('slot'),
    /** The payload (JSON) or the operation's parameters. */
    payload: text('payload').notNull().default('{}'),
    /** Delivery hints (JSON): the stage clock this message starts, the seat a DM is for, ... */
    meta: text('meta').notNull().default('{}'),
    /** A key unique within the game (a notice surfaced once). */
    key: text('key'),
    /**
     * `pending`, `done`, `failed` (permanently, with `error`) or `held`: its game is suspended (issue 20:
     * the channel or the bot's access to it is lost), so it waits, neither sent nor dropped.
     */
    status: text('status').notNull().default('pending'),
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(0),
    nextAt: bigint('next_at', { mode: 'number' }).notNull(),
    error: text('error'),
    messageId: text('message_id'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    doneAt: bigint('done_at', { mode: 'number' }),
  },
  (t) => [
    index('outbox_pending').on(t.status, t.nextAt),
    index('outbox_dest').on(t.dest, t.status, t.id),
    uniqueIndex('outbox_game_key').on(t.gameId, t.key),
  ],
);

/**
 * Desired state of what the bot keeps editing (the table, the lobby, each stage's message, a
 * night panel, the channel's permissions, the mafia thread's lock): only the newest version is
 * sent; versions in between are dropped.
 */
export const slots = pgTable(
  'slots',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    /** `table`, `lobby`, `stage:<seq>`, `panel:<seq>:<seat>`, `perms`, `thread`. */
    key: text('key').notNull(),
    /** `message`, `perms` or `thread`. */
    kind: text('kind').notNull(),
    /** Where the message lives: `ch:<channelId>` or `dm:<userId>`. */
    dest: text('dest').notNull(),
    /** The Discord message (or thread) id once created. */
    messageId: text('message_id'),
    /** The channel the message is in, once created (a DM channel's id for `dm:`). */
    channelId: text('channel_id'),
    version: bigint('version', { mode: 'number' }).notNull().default(1),
    sentVersion: bigint('sent_version', { mode: 'number' }).notNull().default(0),
    payload: text('payload').notNull(),
    /** The planner's own part of the payload (the news a stage message opened with), JSON. */
    head: text('head'),
    /** Posted again if deleted (the table, the lobby), and pinned. */
    repost: boolean('repost').notNull().default(false),
    pin: boolean('pin').notNull().default(false),
    /** `live` until its game no longer needs it; `gone` when its message was deleted. */
    state: text('state').notNull().default('live'),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  // slots_to_edit: the messages the deliverer still has to edit, asked on every pass. Slots left
  // behind for good (gone, stale) are not in it: a long-running bot gathers thousands of them, and
  // the pass walked them all (issue 9's profile of 1,000 games after a restart).
  (t) => [
    primaryKey({ columns: [t.gameId, t.key] }),
    index('slots_to_edit')
      .on(t.updatedAt)
      .where(sql`sent_version < version AND message_id IS NOT NULL AND state NOT IN ('gone', 'stale')`),
    index('slots_message').on(t.messageId),
  ],
);

/**
 * M-1, M-3: the Send Messages deny the bot holds on a member's overwrite in a game channel, with
 * what that overwrite had before the bot touched it, so that the bot takes back exactly what it
 * added (never a moderator's deny, never other bits). One row per channel and member while the bot
 * holds the deny; the game that holds it (a later game in the channel may take it over).
 */
export const permHolds = pgTable(
  'perm_holds',
  {
    channelId: text('channel_id').notNull(),
    userId: text('user_id').notNull(),
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    /** The overwrite allowed Send Messages before (the bot cleared that allow; it is put back). */
    hadAllow: boolean('had_allow').notNull(),
    /** The overwrite denied Send Messages before (someone else's deny: never removed). */
    hadDeny: boolean('had_deny').notNull(),
    /** The member had an overwrite before (else the bot made it, and deletes it when it is empty again). */
    existed: boolean('existed').notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] }), index('perm_holds_game').on(t.gameId)],
);

/**
 * What the deliverer has applied to a game's private thread (M-2, M-3): its members and its lock.
 * The thread's slot holds the desired state; the difference between the two is all the deliverer
 * sends (one call per member in or out). Written after each call, so a crash repeats at most one
 * (adding or removing a thread member twice does no harm).
 */
export const threadSync = pgTable(
  'thread_sync',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    /** The thread's slot: `thread` (the mafia's) or `spectators`. */
    slot: text('slot').notNull(),
    /** The thread these apply to (another thread starts from nothing). */
    threadId: text('thread_id').notNull(),
    /** Locked and archived (1), open (0), unknown or in between (null). */
    locked: bigint('locked', { mode: 'number' }),
    /** The members the bot added and has not removed, JSON array of user ids. */
    members: text('members').notNull().default('[]'),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.slot] })],
);

/** DM channels by user: opened once and reused; when DMs last worked or failed. */
export const dmChannels = pgTable('dm_channels', {
  userId: text('user_id').primaryKey(),
  channelId: text('channel_id'),
  okAt: bigint('ok_at', { mode: 'number' }),
  closedAt: bigint('closed_at', { mode: 'number' }),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// Tournaments (RULES T-1..T-4): registration, the draw, the tables' games, the final.

export type TournamentStatus = 'registration' | 'running' | 'finished' | 'cancelled';

export const tournaments = pgTable(
  'tournaments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id')
      .notNull()
      .references(() => servers.guildId),
    /** Where the registration message and the draw are posted. */
    channelId: text('channel_id').notNull(),
    /** The head host (who created it). */
    hostId: text('host_id').notNull(),
    name: text('name').notNull(),
    ruleset: text('ruleset').notNull(),
    /** Option overrides for every game of the tournament (JSON): its timers. */
    options: text('options').notNull().default('{}'),
    /** Public language, fixed at creation. */
    locale: text('locale').notNull(),
    status: text('status').$type<TournamentStatus>().notNull(),
    /**
     * A game row that is never played (status `cancelled`), owning the tournament's messages in the
     * outbox (slots and posts belong to a game).
     */
    holderGameId: bigint('holder_game_id', { mode: 'number' }).references(() => games.id),
    /** The category the bot created for the tables' channels (when it may manage channels). */
    categoryId: text('category_id'),
    /** The lot of the final (T-2): players level across the cut and who went through (JSON). */
    finalLot: text('final_lot'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
  },
  (t) => [index('tournaments_guild').on(t.guildId, t.status)],
);

/** Registered players, in order of registration. */
export const tournamentPlayers = pgTable(
  'tournament_players',
  {
    tournamentId: bigint('tournament_id', { mode: 'number' })
      .notNull()
      .references(() => tournaments.id),
    userId: text('user_id').notNull(),
    /** Display name and Discord locale when he registered. */
    name: text('name').notNull(),
    locale: text('locale'),
    joinedAt: bigint('joined_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.userId] })],
);

/** The draw (rounds 1-3) and the final (round 4): who sits at each table, and its game. */
export const tournamentTables = pgTable(
  'tournament_tables',
  {
    tournamentId: bigint('tournament_id', { mode: 'number' })
      .notNull()
      .references(() => tournaments.id),
    round: bigint('round', { mode: 'number' }).notNull(),
    table: bigint('table_no', { mode: 'number' }).notNull(),
    /** The drawn players (JSON array of user ids). */
    seats: text('seats').notNull(),
    /** The table's channel, once known (created by the bot or named by the host). */
    channelId: text('channel_id'),
    /** Its current game (a cancelled one is replaced when the table is started again). */
    gameId: bigint('game_id', { mode: 'number' }).references(() => games.id),
    /** Substitutes at the start: missing user id -> substitute user id (JSON). */
    subs: text('subs').notNull().default('{}'),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.round, t.table] }), index('tournament_tables_game').on(t.gameId)],
);

// Ratings and /stats: maintained in the transaction that closes a game (src/stats).

/** A server's rating settings: the Elo constants and the minimum moves for a game to count. */
export const ratingSettings = pgTable('rating_settings', {
  guildId: text('guild_id').primaryKey(),
  eloWin: doublePrecision('elo_win').notNull().default(20),
  eloLoss: doublePrecision('elo_loss').notNull().default(15),
  eloStart: doublePrecision('elo_start').notNull().default(1000),
  minMoves: bigint('min_moves', { mode: 'number' }).notNull().default(0),
  /** Rule sets whose ratings are being rebuilt (comma-separated); a crash leaves it for the next start. */
  rebuilding: text('rebuilding'),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

/** Seasons a server defines: games finished in [startsAt, endsAt) belong to it. */
export const seasons = pgTable(
  'seasons',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    startsAt: bigint('starts_at', { mode: 'number' }).notNull(),
    /** null: still running. */
    endsAt: bigint('ends_at', { mode: 'number' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('seasons_guild_name').on(t.guildId, t.name)],
);

/** Current Elo per server, rule set and player. */
export const ratings = pgTable(
  'ratings',
  {
    guildId: text('guild_id').notNull(),
    ruleset: text('ruleset').notNull(),
    userId: text('user_id').notNull(),
    elo: doublePrecision('elo').notNull(),
    games: bigint('games', { mode: 'number' }).notNull().default(0),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.ruleset, t.userId] }),
    index('ratings_rank').on(t.guildId, t.ruleset, t.elo),
  ],
);

/** Each rated player's Elo before and after each counted game (the trend and the chart). */
export const ratingHistory = pgTable(
  'rating_history',
  {
    gameId: bigint('game_id', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull(),
    guildId: text('guild_id').notNull(),
    ruleset: text('ruleset').notNull(),
    seat: bigint('seat', { mode: 'number' }).notNull(),
    /** The part of the game he played (a substitute's share of the moves). */
    share: doublePrecision('share').notNull(),
    before: doublePrecision('before').notNull(),
    after: doublePrecision('after').notNull(),
    /** His rated games in this rule set so far, this one included (games in a period = a difference). */
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    finishedAt: bigint('finished_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.userId] }),
    index('rating_history_user').on(t.guildId, t.ruleset, t.userId, t.finishedAt),
  ],
);

/**
 * S-5 standings kept up to date game by game: scope `all` (all time) or `s<id>` (a season). Points
 * are stored in half points (every scoring item is a multiple of 0.5), so sums are exact.
 */
export const standingsTable = pgTable(
  'standings',
  {
    guildId: text('guild_id').notNull(),
    ruleset: text('ruleset').notNull(),
    scope: text('scope').notNull(),
    userId: text('user_id').notNull(),
    halfPoints: bigint('half_points', { mode: 'number' }).notNull().default(0),
    games: bigint('games', { mode: 'number' }).notNull().default(0),
    wins: bigint('wins', { mode: 'number' }).notNull().default(0),
    bestPlayer: bigint('best_player', { mode: 'number' }).notNull().default(0),
    winsDon: bigint('wins_don', { mode: 'number' }).notNull().default(0),
    winsSheriff: bigint('wins_sheriff', { mode: 'number' }).notNull().default(0),
    winsMafia: bigint('wins_mafia', { mode: 'number' }).notNull().default(0),
    killedNight1: bigint('killed_night1', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.ruleset, t.scope, t.userId] }),
    index('standings_rank').on(t.guildId, t.ruleset, t.scope, t.halfPoints),
  ],
);

/**
 * Each counted result with the player's running totals after it (all time): a period's standings
 * are the totals at its end minus the totals at its start, two index seeks per player, whatever
 * the period's length.
 */
export const standingsLog = pgTable(
  'standings_log',
  {
    guildId: text('guild_id').notNull(),
    ruleset: text('ruleset').notNull(),
    userId: text('user_id').notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }).notNull(),
    gameId: bigint('game_id', { mode: 'number' }).notNull(),
    halfPoints: bigint('half_points', { mode: 'number' }).notNull(),
    games: bigint('games', { mode: 'number' }).notNull(),
    wins: bigint('wins', { mode: 'number' }).notNull(),
    bestPlayer: bigint('best_player', { mode: 'number' }).notNull(),
    winsDon: bigint('wins_don', { mode: 'number' }).notNull(),
    winsSheriff: bigint('wins_sheriff', { mode: 'number' }).notNull(),
    winsMafia: bigint('wins_mafia', { mode: 'number' }).notNull(),
    killedNight1: bigint('killed_night1', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.ruleset, t.userId, t.finishedAt, t.gameId] })],
);

/**
 * Issue 24: achievements earned, per server, rule set and player, each once: derived from the
 * counted results (src/stats/achievements.ts) when a game closes and again by a rebuild, like the
 * standings. `game_id` is the game that earned it (its closing announces it).
 */
export const achievements = pgTable(
  'achievements',
  {
    guildId: text('guild_id').notNull(),
    ruleset: text('ruleset').notNull(),
    userId: text('user_id').notNull(),
    code: text('code').notNull(),
    gameId: bigint('game_id', { mode: 'number' }).notNull(),
    earnedAt: bigint('earned_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId, t.ruleset, t.code] }),
    index('achievements_game').on(t.gameId),
    index('achievements_ruleset').on(t.guildId, t.ruleset),
  ],
);

// ---------------------------------------------------------------------------------------------
// Asynchronous play (issue 10): reminders, who held each seat, substitute calls, spectators.

/** DM reminders before a stage's deadline (durable: re-armed at start-up like deadlines). */
export const reminders = pgTable(
  'reminders',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    stageSeq: bigint('stage_seq', { mode: 'number' }).notNull(),
    /** `half` (halfway through the stage) or `hour` (one hour before its end). */
    kind: text('kind').notNull(),
    dueAt: bigint('due_at', { mode: 'number' }).notNull(),
    /** When it was sent (or let go: the stage moved on, quiet hours); null while pending. */
    doneAt: bigint('done_at', { mode: 'number' }),
  },
  // reminders_game: a game's next pending reminder, asked on every commit (without it the query
  // walks every pending reminder of every game).
  (t) => [
    primaryKey({ columns: [t.gameId, t.stageSeq, t.kind] }),
    index('reminders_due').on(t.doneAt, t.dueAt),
    index('reminders_game').on(t.gameId, t.doneAt, t.dueAt),
  ],
);

/**
 * Who held each seat, from which move (the log's sequence number) to which: the ratings credit
 * each player for his part. `misses` counts the owed actions in a row he let pass.
 */
export const seatHolders = pgTable(
  'seat_holders',
  {
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    seat: bigint('seat', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull(),
    fromMove: bigint('from_move', { mode: 'number' }).notNull(),
    /** Null while he holds the seat. */
    toMove: bigint('to_move', { mode: 'number' }),
    misses: bigint('misses', { mode: 'number' }).notNull().default(0),
    /** When the host was told he is absent (once per run of misses). */
    flaggedAt: bigint('flagged_at', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.seat, t.fromMove] }), index('seat_holders_user').on(t.userId)],
);

/** A call for a substitute: members not in the game volunteer; the host picks (or the first takes it). */
export const substituteCalls = pgTable(
  'substitute_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gameId: bigint('game_id', { mode: 'number' })
      .notNull()
      .references(() => games.id),
    seat: bigint('seat', { mode: 'number' }).notNull(),
    /** `open`, `filled` or `closed`. */
    status: text('status').notNull(),
    /** Volunteers' user ids in order (JSON). */
    volunteers: text('volunteers').notNull().default('[]'),
    /** Their display names (JSON object), for the host's menu. */
    names: text('names').notNull().default('{}'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('substitute_calls_game').on(t.gameId, t.seat, t.status)],
);

// ---------------------------------------------------------------------------------------------
// A game's lifecycle follows its channel and server (issue 20).

/** Why a game was suspended: its channel was deleted, the bot may no longer see or post in it, or the bot left the server. */
export type LostReason = 'channel-deleted' | 'no-access' | 'bot-removed';

/**
 * A game whose channel (or the bot's access to it) is lost: it stops acting (no timers, no
 * reminders, its outbox rows `held`) until access returns (the row goes) or `void_at` passes (the
 * game is voided: cancelled, never rated). One row per game, at most.
 */
export const suspensions = pgTable('suspensions', {
  gameId: bigint('game_id', { mode: 'number' })
    .primaryKey()
    .references(() => games.id),
  reason: text('reason').$type<LostReason>().notNull(),
  since: bigint('since', { mode: 'number' }).notNull(),
  voidAt: bigint('void_at', { mode: 'number' }).notNull(),
  /** The stage that was open, and how much later than the engine's deadline its stored end was (a message seen late, quiet hours). */
  stageSeq: bigint('stage_seq', { mode: 'number' }),
  extraMs: bigint('extra_ms', { mode: 'number' }).notNull().default(0),
  /** Whether the suspension stopped the clock (false: the host had paused it already, or a lobby). */
  clockStopped: boolean('clock_stopped').notNull().default(false),
});

// ---------------------------------------------------------------------------------------------
// DM clicks between processes without the ShardingManager's IPC (issue 23).

/**
 * A click in a DM reaches the process holding shard 0 (Discord sends every DM event there). When
 * the game's guild belongs to another process and there is no ShardingManager between them (several
 * machines on one PostgreSQL, or SHARD_IDS by hand), the click is written here for its owner to
 * take (src/discord/db-relay.ts). A row is taken once (`taken_at`), and let go after Discord's 3 s.
 */
export const relayedClicks = pgTable(
  'relayed_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    interactionId: text('interaction_id').notNull(),
    guildId: text('guild_id').notNull(),
    /** The raw INTERACTION_CREATE payload (JSON). */
    payload: text('payload').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    takenAt: bigint('taken_at', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('relayed_clicks_interaction').on(t.interactionId),
    index('relayed_clicks_waiting').on(t.takenAt, t.id),
  ],
);

// ---------------------------------------------------------------------------------------------
// Conduct across games (issue 24).

/**
 * The server's own audit log (the `audit` table is per game): bans and unbans (who may not join
 * games), a host's pauses from rated games and their lifts, and the absences the bot flagged in
 * asynchronous games (the seat's run of misses is reset when he acts, so the flag is kept here).
 * A member's record is read from this table and `results` (fouls, removals) and `seat_holders`
 * (games he left to a substitute); nothing else about conduct is stored.
 */
export const serverAudit = pgTable(
  'server_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
    /** `host:<id>` (a host's command) or `system` (the bot). */
    actorId: text('actor_id').notNull(),
    /** `ban`, `unban`, `pause`, `lift` or `absent`. */
    action: text('action').notNull(),
    /** The member it is about. */
    userId: text('user_id').notNull(),
    /** The game of an absence. */
    gameId: bigint('game_id', { mode: 'number' }),
    /** A pause's end. */
    until: bigint('until', { mode: 'number' }),
    reason: text('reason'),
  },
  (t) => [index('server_audit_member').on(t.guildId, t.userId, t.at), index('server_audit_guild').on(t.guildId, t.at)],
);
