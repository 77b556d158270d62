CREATE TABLE `server_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` text NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`user_id` text NOT NULL,
	`game_id` integer,
	`until` integer,
	`reason` text
);
--> statement-breakpoint
CREATE INDEX `server_audit_member` ON `server_audit` (`guild_id`,`user_id`,`at`);--> statement-breakpoint
CREATE INDEX `server_audit_guild` ON `server_audit` (`guild_id`,`at`);