CREATE TABLE "claimed_client_day" (
	"day" bigint NOT NULL,
	"node" text NOT NULL,
	"era" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "claimed_client_day_pk" PRIMARY KEY("day","node","era","kind","name","version")
);
