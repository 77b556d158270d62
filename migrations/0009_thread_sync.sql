CREATE TABLE `thread_sync` (
	`game_id` integer NOT NULL,
	`slot` text NOT NULL,
	`thread_id` text NOT NULL,
	`locked` integer,
	`members` text DEFAULT '[]' NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `slot`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
