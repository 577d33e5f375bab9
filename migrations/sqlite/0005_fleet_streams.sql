CREATE TABLE `tally_streams` (
	`stream` text PRIMARY KEY NOT NULL,
	`node` text NOT NULL,
	`last_seq` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_share_day` (
	`day` integer NOT NULL,
	`node` text NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`version` text NOT NULL,
	`outcome` text NOT NULL,
	`request_class` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `node`, `era`, `transport`, `version`, `outcome`, `request_class`)
);
--> statement-breakpoint
-- share_day gains the node: it is rebuilt from traffic_day (kept forever, with the node and the method), each client request filed as work, negotiation or plumbing as server/protocol/work-request.ts does.
INSERT INTO `__new_share_day`("day", "node", "era", "transport", "version", "outcome", "request_class", "count") SELECT "bucket_start", "node", "era", "transport", "version", "outcome", CASE WHEN "method" IN ('initialize', 'server/discover') THEN 'negotiation' WHEN "method" IN ('ping', 'logging/setLevel') THEN 'plumbing' ELSE 'work' END, sum("count") FROM `traffic_day` WHERE "kind" = 'request' GROUP BY 1, 2, 3, 4, 5, 6, 7;--> statement-breakpoint
DROP TABLE `share_day`;--> statement-breakpoint
ALTER TABLE `__new_share_day` RENAME TO `share_day`;--> statement-breakpoint
PRAGMA foreign_keys=ON;