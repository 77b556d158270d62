CREATE TABLE `dm_channels` (
	`user_id` text PRIMARY KEY NOT NULL,
	`channel_id` text,
	`ok_at` integer,
	`closed_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`dest` text NOT NULL,
	`op` text NOT NULL,
	`slot` text,
	`payload` text DEFAULT '{}' NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`key` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` integer NOT NULL,
	`error` text,
	`message_id` text,
	`created_at` integer NOT NULL,
	`done_at` integer,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox` (`status`,`next_at`);--> statement-breakpoint
CREATE INDEX `outbox_dest` ON `outbox` (`dest`,`status`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_game_key` ON `outbox` (`game_id`,`key`);--> statement-breakpoint
CREATE TABLE `slots` (
	`game_id` integer NOT NULL,
	`key` text NOT NULL,
	`kind` text NOT NULL,
	`dest` text NOT NULL,
	`message_id` text,
	`channel_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`sent_version` integer DEFAULT 0 NOT NULL,
	`payload` text NOT NULL,
	`head` text,
	`repost` integer DEFAULT false NOT NULL,
	`pin` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'live' NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `key`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `slots_dirty` ON `slots` (`updated_at`) WHERE sent_version < version;--> statement-breakpoint
CREATE INDEX `slots_message` ON `slots` (`message_id`);--> statement-breakpoint
ALTER TABLE `servers` ADD `enforce_speaking_order` integer DEFAULT false NOT NULL;