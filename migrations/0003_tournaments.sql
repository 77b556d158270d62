CREATE TABLE `tournament_players` (
	`tournament_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`locale` text,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`tournament_id`, `user_id`),
	FOREIGN KEY (`tournament_id`) REFERENCES `tournaments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `tournament_tables` (
	`tournament_id` integer NOT NULL,
	`round` integer NOT NULL,
	`table_no` integer NOT NULL,
	`seats` text NOT NULL,
	`channel_id` text,
	`game_id` integer,
	`subs` text DEFAULT '{}' NOT NULL,
	PRIMARY KEY(`tournament_id`, `round`, `table_no`),
	FOREIGN KEY (`tournament_id`) REFERENCES `tournaments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tournament_tables_game` ON `tournament_tables` (`game_id`);--> statement-breakpoint
CREATE TABLE `tournaments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`host_id` text NOT NULL,
	`name` text NOT NULL,
	`ruleset` text NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	`locale` text NOT NULL,
	`status` text NOT NULL,
	`holder_game_id` integer,
	`category_id` text,
	`final_lot` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `servers`(`guild_id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`holder_game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tournaments_guild` ON `tournaments` (`guild_id`,`status`);