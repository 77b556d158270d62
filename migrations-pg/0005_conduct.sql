CREATE TABLE "server_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"at" bigint NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"user_id" text NOT NULL,
	"game_id" bigint,
	"until" bigint,
	"reason" text
);
--> statement-breakpoint
CREATE INDEX "server_audit_member" ON "server_audit" USING btree ("guild_id","user_id","at");--> statement-breakpoint
CREATE INDEX "server_audit_guild" ON "server_audit" USING btree ("guild_id","at");