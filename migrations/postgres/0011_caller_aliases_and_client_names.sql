CREATE TABLE "caller_aliases" (
	"alias" text PRIMARY KEY NOT NULL,
	"caller" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text NOT NULL,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "client_name" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "client_name_at" bigint;--> statement-breakpoint
CREATE INDEX "caller_aliases_caller_idx" ON "caller_aliases" USING btree ("caller");