PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_legacy_caller_day` (
	`day` integer NOT NULL,
	`node` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `node`, `integration`)
);
--> statement-breakpoint
-- legacy_caller_day gains the node, so a flush touches its own node's rows only: it is rebuilt from traffic_day (kept forever, with the node and the method) as the writer files it, served legacy work requests only (server/protocol/served.ts).
INSERT INTO `__new_legacy_caller_day`("day", "node", "integration", "count") SELECT "bucket_start", "node", "integration", sum("count") FROM `traffic_day` WHERE "kind" = 'request' AND "method" NOT IN ('initialize', 'server/discover', 'ping', 'logging/setLevel') AND ("outcome" = 'served-as-legacy' OR ("era" = 'legacy' AND "outcome" = 'served')) GROUP BY 1, 2, 3;--> statement-breakpoint
DROP TABLE `legacy_caller_day`;--> statement-breakpoint
ALTER TABLE `__new_legacy_caller_day` RENAME TO `legacy_caller_day`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `legacy_caller_day_integration_idx` ON `legacy_caller_day` (`integration`,`day`);