CREATE TABLE "actions" (
	"game_id" bigint NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "actions_game_id_seq_pk" PRIMARY KEY("game_id","seq")
);
--> statement-breakpoint
CREATE TABLE "audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" bigint NOT NULL,
	"at" bigint NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"detail" text DEFAULT '{}' NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "deadlines" (
	"game_id" bigint PRIMARY KEY NOT NULL,
	"stage_seq" bigint NOT NULL,
	"due_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dm_channels" (
	"user_id" text PRIMARY KEY NOT NULL,
	"channel_id" text,
	"ok_at" bigint,
	"closed_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"host_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"pace" text NOT NULL,
	"options" text DEFAULT '{}' NOT NULL,
	"status" text NOT NULL,
	"lobby" text DEFAULT '{"members":[]}' NOT NULL,
	"deal" text,
	"state" text,
	"moves" bigint DEFAULT 0 NOT NULL,
	"winner" text,
	"ui" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"started_at" bigint,
	"updated_at" bigint NOT NULL,
	"finished_at" bigint,
	"annulled_at" bigint,
	"tournament_id" bigint
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" bigint NOT NULL,
	"dest" text NOT NULL,
	"op" text NOT NULL,
	"slot" text,
	"payload" text DEFAULT '{}' NOT NULL,
	"meta" text DEFAULT '{}' NOT NULL,
	"key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_at" bigint NOT NULL,
	"error" text,
	"message_id" text,
	"created_at" bigint NOT NULL,
	"done_at" bigint
);
--> statement-breakpoint
CREATE TABLE "perm_holds" (
	"channel_id" text NOT NULL,
	"user_id" text NOT NULL,
	"game_id" bigint NOT NULL,
	"had_allow" boolean NOT NULL,
	"had_deny" boolean NOT NULL,
	"existed" boolean NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "perm_holds_channel_id_user_id_pk" PRIMARY KEY("channel_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "players" (
	"game_id" bigint NOT NULL,
	"seat" bigint NOT NULL,
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "players_game_id_seat_pk" PRIMARY KEY("game_id","seat")
);
--> statement-breakpoint
CREATE TABLE "rating_history" (
	"game_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"guild_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"seat" bigint NOT NULL,
	"share" double precision NOT NULL,
	"before" double precision NOT NULL,
	"after" double precision NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"finished_at" bigint NOT NULL,
	CONSTRAINT "rating_history_game_id_user_id_pk" PRIMARY KEY("game_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "rating_settings" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"elo_win" double precision DEFAULT 20 NOT NULL,
	"elo_loss" double precision DEFAULT 15 NOT NULL,
	"elo_start" double precision DEFAULT 1000 NOT NULL,
	"min_moves" bigint DEFAULT 0 NOT NULL,
	"rebuilding" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"guild_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"user_id" text NOT NULL,
	"elo" double precision NOT NULL,
	"games" bigint DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "ratings_guild_id_ruleset_user_id_pk" PRIMARY KEY("guild_id","ruleset","user_id")
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"game_id" bigint NOT NULL,
	"stage_seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"due_at" bigint NOT NULL,
	"done_at" bigint,
	CONSTRAINT "reminders_game_id_stage_seq_kind_pk" PRIMARY KEY("game_id","stage_seq","kind")
);
--> statement-breakpoint
CREATE TABLE "results" (
	"game_id" bigint NOT NULL,
	"seat" bigint NOT NULL,
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"role" text NOT NULL,
	"team" text NOT NULL,
	"outcome" text NOT NULL,
	"points" double precision NOT NULL,
	"breakdown" text NOT NULL,
	"best_player" boolean NOT NULL,
	"killed_night1" boolean NOT NULL,
	"finished_at" bigint NOT NULL,
	"counts" boolean DEFAULT true NOT NULL,
	"no_day_vote" boolean DEFAULT false NOT NULL,
	"moves" bigint DEFAULT 0 NOT NULL,
	"fouls" bigint DEFAULT 0 NOT NULL,
	"removed" boolean DEFAULT false NOT NULL,
	"best_move_black" bigint,
	"holders" text,
	CONSTRAINT "results_game_id_seat_pk" PRIMARY KEY("game_id","seat")
);
--> statement-breakpoint
CREATE TABLE "seasons" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"starts_at" bigint NOT NULL,
	"ends_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_holders" (
	"game_id" bigint NOT NULL,
	"seat" bigint NOT NULL,
	"user_id" text NOT NULL,
	"from_move" bigint NOT NULL,
	"to_move" bigint,
	"misses" bigint DEFAULT 0 NOT NULL,
	"flagged_at" bigint,
	CONSTRAINT "seat_holders_game_id_seat_from_move_pk" PRIMARY KEY("game_id","seat","from_move")
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"locale" text,
	"mafia_talk_every_night" boolean DEFAULT false NOT NULL,
	"enforce_speaking_order" boolean DEFAULT false NOT NULL,
	"settings" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slots" (
	"game_id" bigint NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"dest" text NOT NULL,
	"message_id" text,
	"channel_id" text,
	"version" bigint DEFAULT 1 NOT NULL,
	"sent_version" bigint DEFAULT 0 NOT NULL,
	"payload" text NOT NULL,
	"head" text,
	"repost" boolean DEFAULT false NOT NULL,
	"pin" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'live' NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "slots_game_id_key_pk" PRIMARY KEY("game_id","key")
);
--> statement-breakpoint
CREATE TABLE "standings_log" (
	"guild_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"user_id" text NOT NULL,
	"finished_at" bigint NOT NULL,
	"game_id" bigint NOT NULL,
	"half_points" bigint NOT NULL,
	"games" bigint NOT NULL,
	"wins" bigint NOT NULL,
	"best_player" bigint NOT NULL,
	"wins_don" bigint NOT NULL,
	"wins_sheriff" bigint NOT NULL,
	"wins_mafia" bigint NOT NULL,
	"killed_night1" bigint NOT NULL,
	CONSTRAINT "standings_log_guild_id_ruleset_user_id_finished_at_game_id_pk" PRIMARY KEY("guild_id","ruleset","user_id","finished_at","game_id")
);
--> statement-breakpoint
CREATE TABLE "standings" (
	"guild_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"scope" text NOT NULL,
	"user_id" text NOT NULL,
	"half_points" bigint DEFAULT 0 NOT NULL,
	"games" bigint DEFAULT 0 NOT NULL,
	"wins" bigint DEFAULT 0 NOT NULL,
	"best_player" bigint DEFAULT 0 NOT NULL,
	"wins_don" bigint DEFAULT 0 NOT NULL,
	"wins_sheriff" bigint DEFAULT 0 NOT NULL,
	"wins_mafia" bigint DEFAULT 0 NOT NULL,
	"killed_night1" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "standings_guild_id_ruleset_scope_user_id_pk" PRIMARY KEY("guild_id","ruleset","scope","user_id")
);
--> statement-breakpoint
CREATE TABLE "substitute_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" bigint NOT NULL,
	"seat" bigint NOT NULL,
	"status" text NOT NULL,
	"volunteers" text DEFAULT '[]' NOT NULL,
	"names" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suspensions" (
	"game_id" bigint PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"since" bigint NOT NULL,
	"void_at" bigint NOT NULL,
	"stage_seq" bigint,
	"extra_ms" bigint DEFAULT 0 NOT NULL,
	"clock_stopped" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thread_sync" (
	"game_id" bigint NOT NULL,
	"slot" text NOT NULL,
	"thread_id" text NOT NULL,
	"locked" bigint,
	"members" text DEFAULT '[]' NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "thread_sync_game_id_slot_pk" PRIMARY KEY("game_id","slot")
);
--> statement-breakpoint
CREATE TABLE "tournament_players" (
	"tournament_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"locale" text,
	"joined_at" bigint NOT NULL,
	CONSTRAINT "tournament_players_tournament_id_user_id_pk" PRIMARY KEY("tournament_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "tournament_tables" (
	"tournament_id" bigint NOT NULL,
	"round" bigint NOT NULL,
	"table_no" bigint NOT NULL,
	"seats" text NOT NULL,
	"channel_id" text,
	"game_id" bigint,
	"subs" text DEFAULT '{}' NOT NULL,
	CONSTRAINT "tournament_tables_tournament_id_round_table_no_pk" PRIMARY KEY("tournament_id","round","table_no")
);
--> statement-breakpoint
CREATE TABLE "tournaments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"host_id" text NOT NULL,
	"name" text NOT NULL,
	"ruleset" text NOT NULL,
	"options" text DEFAULT '{}' NOT NULL,
	"locale" text NOT NULL,
	"status" text NOT NULL,
	"holder_game_id" bigint,
	"category_id" text,
	"final_lot" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit" ADD CONSTRAINT "audit_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deadlines" ADD CONSTRAINT "deadlines_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_guild_id_servers_guild_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."servers"("guild_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perm_holds" ADD CONSTRAINT "perm_holds_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "players" ADD CONSTRAINT "players_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_holders" ADD CONSTRAINT "seat_holders_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "substitute_calls" ADD CONSTRAINT "substitute_calls_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspensions" ADD CONSTRAINT "suspensions_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_sync" ADD CONSTRAINT "thread_sync_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_players" ADD CONSTRAINT "tournament_players_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_tables" ADD CONSTRAINT "tournament_tables_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_tables" ADD CONSTRAINT "tournament_tables_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_guild_id_servers_guild_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."servers"("guild_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_holder_game_id_games_id_fk" FOREIGN KEY ("holder_game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_game" ON "audit" USING btree ("game_id","at");--> statement-breakpoint
CREATE INDEX "deadlines_due" ON "deadlines" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "games_status" ON "games" USING btree ("status");--> statement-breakpoint
CREATE INDEX "games_guild_status" ON "games" USING btree ("guild_id","status");--> statement-breakpoint
CREATE INDEX "games_channel_status" ON "games" USING btree ("channel_id","status");--> statement-breakpoint
CREATE INDEX "games_tournament" ON "games" USING btree ("tournament_id");--> statement-breakpoint
CREATE INDEX "outbox_pending" ON "outbox" USING btree ("status","next_at");--> statement-breakpoint
CREATE INDEX "outbox_dest" ON "outbox" USING btree ("dest","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_game_key" ON "outbox" USING btree ("game_id","key");--> statement-breakpoint
CREATE INDEX "perm_holds_game" ON "perm_holds" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "players_guild_user" ON "players" USING btree ("guild_id","user_id");--> statement-breakpoint
CREATE INDEX "players_user" ON "players" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rating_history_user" ON "rating_history" USING btree ("guild_id","ruleset","user_id","finished_at");--> statement-breakpoint
CREATE INDEX "ratings_rank" ON "ratings" USING btree ("guild_id","ruleset","elo");--> statement-breakpoint
CREATE INDEX "reminders_due" ON "reminders" USING btree ("done_at","due_at");--> statement-breakpoint
CREATE INDEX "reminders_game" ON "reminders" USING btree ("game_id","done_at","due_at");--> statement-breakpoint
CREATE INDEX "results_guild_ruleset_date" ON "results" USING btree ("guild_id","ruleset","finished_at");--> statement-breakpoint
CREATE INDEX "results_user_ruleset" ON "results" USING btree ("user_id","ruleset");--> statement-breakpoint
CREATE INDEX "results_guild_user_date" ON "results" USING btree ("guild_id","user_id","finished_at");--> statement-breakpoint
CREATE UNIQUE INDEX "seasons_guild_name" ON "seasons" USING btree ("guild_id","name");--> statement-breakpoint
CREATE INDEX "seat_holders_user" ON "seat_holders" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "slots_to_edit" ON "slots" USING btree ("updated_at") WHERE sent_version < version AND message_id IS NOT NULL AND state NOT IN ('gone', 'stale');--> statement-breakpoint
CREATE INDEX "slots_message" ON "slots" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "standings_rank" ON "standings" USING btree ("guild_id","ruleset","scope","half_points");--> statement-breakpoint
CREATE INDEX "substitute_calls_game" ON "substitute_calls" USING btree ("game_id","seat","status");--> statement-breakpoint
CREATE INDEX "tournament_tables_game" ON "tournament_tables" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "tournaments_guild" ON "tournaments" USING btree ("guild_id","status");