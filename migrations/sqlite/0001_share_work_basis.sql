ALTER TABLE `plans` ADD `basis` text DEFAULT 'work-requests' NOT NULL;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_share_day` (
	`day` integer NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`version` text NOT NULL,
	`outcome` text NOT NULL,
	`request_class` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `era`, `transport`, `version`, `outcome`, `request_class`)
);
--> statement-breakpoint
-- share_day is rebuilt from traffic_day (kept forever, and it has the method): each client request is filed as work, negotiation (initialize, server/discover) or plumbing (ping, logging/setLevel), as server/protocol/work-request.ts does.
INSERT INTO `__new_share_day`("day", "era", "transport", "version", "outcome", "request_class", "count") SELECT "bucket_start", "era", "transport", "version", "outcome", CASE WHEN "method" IN ('initialize', 'server/discover') THEN 'negotiation' WHEN "method" IN ('ping', 'logging/setLevel') THEN 'plumbing' ELSE 'work' END, sum("count") FROM `traffic_day` WHERE "kind" = 'request' GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
DROP TABLE `share_day`;--> statement-breakpoint
ALTER TABLE `__new_share_day` RENAME TO `share_day`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- A caller is a legacy caller for served legacy work only: legacy_caller_day is rebuilt the same way, without handshakes, plumbing and refused probes.
DELETE FROM `legacy_caller_day`;--> statement-breakpoint
INSERT INTO `legacy_caller_day`("day", "integration", "count") SELECT "bucket_start", "integration", sum("count") FROM `traffic_day` WHERE "kind" = 'request' AND "method" NOT IN ('initialize', 'server/discover', 'ping', 'logging/setLevel') AND ("outcome" = 'served-as-legacy' OR ("era" = 'legacy' AND "outcome" = 'served')) GROUP BY 1, 2;--> statement-breakpoint
-- last_legacy_seen keeps its minute where the caller's last legacy work was that day, is moved back to the end of the last day with legacy work otherwise, and is cleared when the caller never had any.
UPDATE `integrations` SET "last_legacy_seen" = (SELECT min("integrations"."last_legacy_seen", max("day") + 86399999) FROM `legacy_caller_day` WHERE "integration" = "integrations"."key") WHERE "last_legacy_seen" IS NOT NULL;
