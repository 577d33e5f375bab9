CREATE TABLE "bridge_revocations" (
	"session_id" text PRIMARY KEY NOT NULL,
	"revoked_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE INDEX "bridge_revocations_expires_at_idx" ON "bridge_revocations" USING btree ("expires_at");