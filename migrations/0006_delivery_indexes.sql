DROP INDEX `slots_dirty`;--> statement-breakpoint
CREATE INDEX `slots_to_edit` ON `slots` (`updated_at`) WHERE sent_version < version AND message_id IS NOT NULL AND state NOT IN ('gone', 'stale');--> statement-breakpoint
CREATE INDEX `reminders_game` ON `reminders` (`game_id`,`done_at`,`due_at`);