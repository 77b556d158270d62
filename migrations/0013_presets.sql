ALTER TABLE `games` ADD `preset` text;--> statement-breakpoint
CREATE INDEX `games_guild_preset` ON `games` (`guild_id`,`preset`);