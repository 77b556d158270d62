CREATE TABLE `actions` (
	`game_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `seq`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`detail` text DEFAULT '{}' NOT NULL,
	`reason` text,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_game` ON `audit` (`game_id`,`at`);--> statement-breakpoint
CREATE TABLE `deadlines` (
	`game_id` integer PRIMARY KEY NOT NULL,
	`stage_seq` integer NOT NULL,
	`due_at` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deadlines_due` ON `deadlines` (`due_at`);--> statement-breakpoint
CREATE TABLE `games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`host_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`pace` text NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	`status` text NOT NULL,
	`lobby` text DEFAULT '{"members":[]}' NOT NULL,
	`deal` text,
	`state` text,
	`moves` integer DEFAULT 0 NOT NULL,
	`winner` text,
	`ui` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `servers`(`guild_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `games_status` ON `games` (`status`);--> statement-breakpoint
CREATE INDEX `games_guild_status` ON `games` (`guild_id`,`status`);--> statement-breakpoint
CREATE INDEX `games_channel_status` ON `games` (`channel_id`,`status`);--> statement-breakpoint
CREATE TABLE `players` (
	`game_id` integer NOT NULL,
	`seat` integer NOT NULL,
	`guild_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`game_id`, `seat`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `players_guild_user` ON `players` (`guild_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `players_user` ON `players` (`user_id`);--> statement-breakpoint
CREATE TABLE `results` (
	`game_id` integer NOT NULL,
	`seat` integer NOT NULL,
	`guild_id` text NOT NULL,
	`user_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`role` text NOT NULL,
	`team` text NOT NULL,
	`outcome` text NOT NULL,
	`points` real NOT NULL,
	`breakdown` text NOT NULL,
	`best_player` integer NOT NULL,
	`killed_night1` integer NOT NULL,
	`finished_at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `seat`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `results_guild_ruleset_date` ON `results` (`guild_id`,`ruleset`,`finished_at`);--> statement-breakpoint
CREATE INDEX `results_user_ruleset` ON `results` (`user_id`,`ruleset`);--> statement-breakpoint
CREATE TABLE `servers` (
	`guild_id` text PRIMARY KEY NOT NULL,
	`locale` text,
	`mafia_talk_every_night` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
