CREATE TABLE "achievements" (
	"guild_id" text NOT NULL,
	"ruleset" text NOT NULL,
	"user_id" text NOT NULL,
	"code" text NOT NULL,
	"game_id" bigint NOT NULL,
	"earned_at" bigint NOT NULL,
	CONSTRAINT "achievements_guild_id_user_id_ruleset_code_pk" PRIMARY KEY("guild_id","user_id","ruleset","code")
);
--> statement-breakpoint
ALTER TABLE "results" ADD COLUMN "feats" text;--> statement-breakpoint
CREATE INDEX "achievements_game" ON "achievements" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "achievements_ruleset" ON "achievements" USING btree ("guild_id","ruleset");