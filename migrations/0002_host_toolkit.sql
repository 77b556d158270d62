ALTER TABLE `games` ADD `annulled_at` integer;--> statement-breakpoint
ALTER TABLE `games` ADD `tournament_id` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `settings` text DEFAULT '{}' NOT NULL;