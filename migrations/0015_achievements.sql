CREATE TABLE `achievements` (
	`guild_id` text NOT NULL,
	`ruleset` text NOT NULL,
	`user_id` text NOT NULL,
	`code` text NOT NULL,
	`game_id` integer NOT NULL,
	`earned_at` integer NOT NULL,
	PRIMARY KEY(`guild_id`, `user_id`, `ruleset`, `code`)
);
--> statement-breakpoint
CREATE INDEX `achievements_game` ON `achievements` (`game_id`);--> statement-breakpoint
CREATE INDEX `achievements_ruleset` ON `achievements` (`guild_id`,`ruleset`);--> statement-breakpoint
ALTER TABLE `results` ADD `feats` text;