CREATE TABLE "relayed_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"interaction_id" text NOT NULL,
	"guild_id" text NOT NULL,
	"payload" text NOT NULL,
	"created_at" bigint NOT NULL,
	"taken_at" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "relayed_clicks_interaction" ON "relayed_clicks" USING btree ("interaction_id");--> statement-breakpoint
CREATE INDEX "relayed_clicks_waiting" ON "relayed_clicks" USING btree ("taken_at","id");