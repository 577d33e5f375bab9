CREATE TABLE "caller_people_day" (
	"day" bigint NOT NULL,
	"integration" text NOT NULL,
	"era" text NOT NULL,
	"transport" text NOT NULL,
	"version" text NOT NULL,
	"subject" text NOT NULL,
	CONSTRAINT "caller_people_day_pk" PRIMARY KEY("day","integration","era","transport","version","subject")
);
--> statement-breakpoint
CREATE INDEX "caller_people_day_integration_idx" ON "caller_people_day" USING btree ("integration","day");