-- legacy_caller_day gains the node, so a flush touches its own node's rows only and nodes never wait on each other's locks. It is rebuilt from traffic_day (kept forever, with the node and the method) as the writer files it: served legacy work requests only (server/protocol/served.ts).
DELETE FROM "legacy_caller_day";--> statement-breakpoint
ALTER TABLE "legacy_caller_day" ADD COLUMN "node" text NOT NULL;--> statement-breakpoint
ALTER TABLE "legacy_caller_day" DROP CONSTRAINT "legacy_caller_day_pk";
--> statement-breakpoint
ALTER TABLE "legacy_caller_day" ADD CONSTRAINT "legacy_caller_day_pk" PRIMARY KEY("day","node","integration");--> statement-breakpoint
INSERT INTO "legacy_caller_day"("day", "node", "integration", "count") SELECT "bucket_start", "node", "integration", sum("count") FROM "traffic_day" WHERE "kind" = 'request' AND "method" NOT IN ('initialize', 'server/discover', 'ping', 'logging/setLevel') AND ("outcome" = 'served-as-legacy' OR ("era" = 'legacy' AND "outcome" = 'served')) GROUP BY 1, 2, 3;