CREATE TABLE `reminders` (
	`game_id` integer NOT NULL,
	`stage_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`due_at` integer NOT NULL,
	`done_at` integer,
	PRIMARY KEY(`game_id`, `stage_seq`, `kind`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reminders_due` ON `reminders` (`done_at`,`due_at`);--> statement-breakpoint
CREATE TABLE `seat_holders` (
	`game_id` integer NOT NULL,
	`seat` integer NOT NULL,
	`user_id` text NOT NULL,
	`from_move` integer NOT NULL,
	`to_move` integer,
	`misses` integer DEFAULT 0 NOT NULL,
	`flagged_at` integer,
	PRIMARY KEY(`game_id`, `seat`, `from_move`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `seat_holders_user` ON `seat_holders` (`user_id`);--> statement-breakpoint
CREATE TABLE `substitute_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`seat` integer NOT NULL,
	`status` text NOT NULL,
	`volunteers` text DEFAULT '[]' NOT NULL,
	`names` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `substitute_calls_game` ON `substitute_calls` (`game_id`,`seat`,`status`);