CREATE TABLE `relayed_clicks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`interaction_id` text NOT NULL,
	`guild_id` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`taken_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `relayed_clicks_interaction` ON `relayed_clicks` (`interaction_id`);--> statement-breakpoint
CREATE INDEX `relayed_clicks_waiting` ON `relayed_clicks` (`taken_at`,`id`);