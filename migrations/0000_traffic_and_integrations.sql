CREATE TABLE `integrations` (
	`key` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`last_legacy_seen` integer,
	`client_info_name` text,
	`client_info_version` text
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `traffic_day` (
	`bucket_start` integer NOT NULL,
	`node` text NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`reason` text NOT NULL,
	`version` text NOT NULL,
	`method` text NOT NULL,
	`outcome` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`bucket_start`, `node`, `era`, `transport`, `reason`, `version`, `method`, `outcome`, `integration`)
);
--> statement-breakpoint
CREATE INDEX `traffic_day_integration_idx` ON `traffic_day` (`integration`,`bucket_start`);--> statement-breakpoint
CREATE TABLE `traffic_hour` (
	`bucket_start` integer NOT NULL,
	`node` text NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`reason` text NOT NULL,
	`version` text NOT NULL,
	`method` text NOT NULL,
	`outcome` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`bucket_start`, `node`, `era`, `transport`, `reason`, `version`, `method`, `outcome`, `integration`)
);
--> statement-breakpoint
CREATE INDEX `traffic_hour_integration_idx` ON `traffic_hour` (`integration`,`bucket_start`);--> statement-breakpoint
CREATE TABLE `traffic_minute` (
	`bucket_start` integer NOT NULL,
	`node` text NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`reason` text NOT NULL,
	`version` text NOT NULL,
	`method` text NOT NULL,
	`outcome` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`bucket_start`, `node`, `era`, `transport`, `reason`, `version`, `method`, `outcome`, `integration`)
);
--> statement-breakpoint
CREATE INDEX `traffic_minute_integration_idx` ON `traffic_minute` (`integration`,`bucket_start`);