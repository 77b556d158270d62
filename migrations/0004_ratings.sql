CREATE TABLE `rating_history` (
	`game_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`guild_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`seat` integer NOT NULL,
	`share` real NOT NULL,
	`before` real NOT NULL,
	`after` real NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	`finished_at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `rating_history_user` ON `rating_history` (`guild_id`,`ruleset`,`user_id`,`finished_at`);--> statement-breakpoint
CREATE TABLE `rating_settings` (
	`guild_id` text PRIMARY KEY NOT NULL,
	`elo_win` real DEFAULT 20 NOT NULL,
	`elo_loss` real DEFAULT 15 NOT NULL,
	`elo_start` real DEFAULT 1000 NOT NULL,
	`min_moves` integer DEFAULT 0 NOT NULL,
	`rebuilding` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ratings` (
	`guild_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`user_id` text NOT NULL,
	`elo` real NOT NULL,
	`games` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`guild_id`, `ruleset`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `ratings_rank` ON `ratings` (`guild_id`,`ruleset`,`elo`);--> statement-breakpoint
CREATE TABLE `seasons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` text NOT NULL,
	`name` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `seasons_guild_name` ON `seasons` (`guild_id`,`name`);--> statement-breakpoint
CREATE TABLE `standings_log` (
	`guild_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`user_id` text NOT NULL,
	`finished_at` integer NOT NULL,
	`game_id` integer NOT NULL,
	`half_points` integer NOT NULL,
	`games` integer NOT NULL,
	`wins` integer NOT NULL,
	`best_player` integer NOT NULL,
	`wins_don` integer NOT NULL,
	`wins_sheriff` integer NOT NULL,
	`wins_mafia` integer NOT NULL,
	`killed_night1` integer NOT NULL,
	PRIMARY KEY(`guild_id`, `ruleset`, `user_id`, `finished_at`, `game_id`)
);
--> statement-breakpoint
CREATE TABLE `standings` (
	`guild_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`scope` text NOT NULL,
	`user_id` text NOT NULL,
	`half_points` integer DEFAULT 0 NOT NULL,
	`games` integer DEFAULT 0 NOT NULL,
	`wins` integer DEFAULT 0 NOT NULL,
	`best_player` integer DEFAULT 0 NOT NULL,
	`wins_don` integer DEFAULT 0 NOT NULL,
	`wins_sheriff` integer DEFAULT 0 NOT NULL,
	`wins_mafia` integer DEFAULT 0 NOT NULL,
	`killed_night1` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`guild_id`, `ruleset`, `scope`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `standings_rank` ON `standings` (`guild_id`,`ruleset`,`scope`,`half_points`);--> statement-breakpoint
ALTER TABLE `results` ADD `counts` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `results` ADD `no_day_vote` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `results` ADD `moves` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `results` ADD `fouls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `results` ADD `removed` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `results` ADD `best_move_black` integer;--> statement-breakpoint
ALTER TABLE `results` ADD `holders` text;--> statement-breakpoint
CREATE INDEX `results_guild_user_date` ON `results` (`guild_id`,`user_id`,`finished_at`);--> statement-breakpoint
CREATE INDEX `games_tournament` ON `games` (`tournament_id`);