DROP INDEX `games_guild_preset`;--> statement-breakpoint
CREATE INDEX `games_guild_preset_finished` ON `games` (`guild_id`,`preset`,`finished_at`);