ALTER TABLE "games" ADD COLUMN "preset" text;--> statement-breakpoint
CREATE INDEX "games_guild_preset" ON "games" USING btree ("guild_id","preset");