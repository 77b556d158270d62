// The database: every game, its deal, its append-only action log, its current state, deadlines,
// results and the host's audit trail. Times are milliseconds since the epoch.
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** One row per Discord server (guild): its settings. */
export const servers = sqliteTable('servers', {
  guildId: text('guild_id').primaryKey(),
  /** Language of public messages: 'en' | 'uk' | 'ru'; null = the guild's own locale. */
  locale: text('locale'),
  /** M-2: mafia may talk in private every night (asynchronous play), not only on night 0. */
  mafiaTalkEveryNight: integer('mafia_talk_every_night', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export type GameStatus = 'lobby' | 'running' | 'post-game' | 'over' | 'archived' | 'expired' | 'cancelled';

export const games = sqliteTable(
  'games',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
    moves: integer('moves').notNull().default(0),
    winner: text('winner'),
    /** Discord message and thread ids the bot keeps editing (JSON). */
    ui: text('ui').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
    startedAt: integer('started_at'),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    index('games_status').on(t.status),
    index('games_guild_status').on(t.guildId, t.status),
    index('games_channel_status').on(t.channelId, t.status),
  ],
);

export const players = sqliteTable(
  'players',
  {
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id),
    seat: integer('seat').notNull(),
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
export const actions = sqliteTable(
  'actions',
  {
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id),
    seq: integer('seq').notNull(),
    kind: text('kind').notNull(),
    /** The engine action (JSON). */
    action: text('action').notNull(),
    /** Who: `user:<id>`, `host:<id>`, `timer` or `system`. */
    actor: text('actor').notNull(),
    /** The time given to the engine for this action. */
    at: integer('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.seq] })],
);

/** The pending timer of each running game's current stage or turn. */
export const deadlines = sqliteTable(
  'deadlines',
  {
    gameId: integer('game_id')
      .primaryKey()
      .references(() => games.id),
    stageSeq: integer('stage_seq').notNull(),
    dueAt: integer('due_at').notNull(),
  },
  (t) => [index('deadlines_due').on(t.dueAt)],
);

/** Points per player of every finished game (S-1..S-4), for /stats and standings (S-5). */
export const results = sqliteTable(
  'results',
  {
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id),
    seat: integer('seat').notNull(),
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    ruleset: text('ruleset').notNull(),
    role: text('role').notNull(),
    team: text('team').notNull(),
    /** 'win' | 'loss' | 'draw' */
    outcome: text('outcome').notNull(),
    points: real('points').notNull(),
    /** Points by item (JSON). */
    breakdown: text('breakdown').notNull(),
    bestPlayer: integer('best_player', { mode: 'boolean' }).notNull(),
    killedNight1: integer('killed_night1', { mode: 'boolean' }).notNull(),
    finishedAt: integer('finished_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.seat] }),
    index('results_guild_ruleset_date').on(t.guildId, t.ruleset, t.finishedAt),
    index('results_user_ruleset').on(t.userId, t.ruleset),
  ],
);

/** Every host override and moderator command (G-7, F-1), with its reason. */
export const audit = sqliteTable(
  'audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id),
    at: integer('at').notNull(),
    actorId: text('actor_id').notNull(),
    /** foul, remove, kill, skip, end, best, bonus, substitute, cancel, ... */
    action: text('action').notNull(),
    /** Parameters (JSON). */
    detail: text('detail').notNull().default('{}'),
    reason: text('reason'),
  },
  (t) => [index('audit_game').on(t.gameId, t.at)],
);
