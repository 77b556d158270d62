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
CREATE INDEX `perm_holds_game` ON `perm_holds` (`game_id`);--> statement-breakpoint
-- A game running when the bot is upgraded: the Send Messages denies the earlier version set (its
-- last wish, in the game's `perms` slot) are the bot's own, to be taken back when the game ends.
-- (That version deleted a member's overwrite when it was empty again, as an overwrite the bot made is.)
INSERT OR IGNORE INTO `perm_holds` (`channel_id`, `user_id`, `game_id`, `had_allow`, `had_deny`, `existed`, `updated_at`)
  SELECT json_extract(s.`payload`, '$.channelId'), m.`key`, s.`game_id`, 0, 0, 0, s.`updated_at`
  FROM `slots` s JOIN `games` g ON g.`id` = s.`game_id`, json_each(s.`payload`, '$.members') m
  WHERE s.`kind` = 'perms' AND m.`value` = 'deny' AND g.`status` IN ('running', 'post-game');
