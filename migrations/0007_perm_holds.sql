CREATE TABLE `perm_holds` (
	`channel_id` text NOT NULL,
	`user_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`had_allow` integer NOT NULL,
	`had_deny` integer NOT NULL,
	`existed` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`channel_id`, `user_id`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `perm_holds_game` ON `perm_holds` (`game_id`);