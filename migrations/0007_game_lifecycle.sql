CREATE TABLE `suspensions` (
	`game_id` integer PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`since` integer NOT NULL,
	`void_at` integer NOT NULL,
	`stage_seq` integer,
	`extra_ms` integer DEFAULT 0 NOT NULL,
	`clock_stopped` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
