CREATE TABLE `alert_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` integer NOT NULL,
	`transition` text NOT NULL,
	`webhook` text NOT NULL,
	`format` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`last_error` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`alert_id`) REFERENCES `alerts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_deliveries_alert_idx` ON `alert_deliveries` (`alert_id`,`at`);--> statement-breakpoint
CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fingerprint` text NOT NULL,
	`rule` text NOT NULL,
	`subject` text NOT NULL,
	`state` text NOT NULL,
	`severity` text NOT NULL,
	`summary` text NOT NULL,
	`details` text NOT NULL,
	`consecutive_hits` integer DEFAULT 0 NOT NULL,
	`first_fired_at` integer,
	`last_fired_at` integer,
	`resolved_at` integer,
	`last_evaluated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_fingerprint_unique` ON `alerts` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `alerts_state_idx` ON `alerts` (`state`,`last_evaluated_at`);--> statement-breakpoint
CREATE TABLE `integrations` (
	`key` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`last_legacy_seen` integer,
	`client_info_name` text,
	`client_info_version` text,
	`display_name` text,
	`owner` text,
	`contact` text,
	`status` text DEFAULT 'unknown' NOT NULL,
	`notes` text,
	`updated_at` integer
);
--> statement-breakpoint
CREATE TABLE `brownouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`note` text,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `brownouts_plan_idx` ON `brownouts` (`plan_id`,`starts_at`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`scope_kind` text NOT NULL,
	`scope_value` text NOT NULL,
	`announce_date` text NOT NULL,
	`retire_date` text NOT NULL,
	`target_share` real DEFAULT 0.005 NOT NULL,
	`policy_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`archived_at` integer
);
--> statement-breakpoint
CREATE TABLE `probes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`node` text NOT NULL,
	`target` text NOT NULL,
	`era` text,
	`state` text NOT NULL,
	`evidence_class` text NOT NULL,
	`evidence_code` text NOT NULL,
	`detail` text NOT NULL,
	`version` text,
	`supported_versions` text NOT NULL,
	`legacy_accepted` integer,
	`server_info` text,
	`latency_ms` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `probes_node_at_idx` ON `probes` (`node`,`at`);--> statement-breakpoint
CREATE TABLE `legacy_caller_day` (
	`day` integer NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `integration`)
);
--> statement-breakpoint
CREATE INDEX `legacy_caller_day_integration_idx` ON `legacy_caller_day` (`integration`,`day`);--> statement-breakpoint
CREATE TABLE `share_day` (
	`day` integer NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`version` text NOT NULL,
	`outcome` text NOT NULL,
	`discover` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `era`, `transport`, `version`, `outcome`, `discover`)
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
	`kind` text NOT NULL,
	`outcome` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`bucket_start`, `node`, `era`, `transport`, `reason`, `version`, `method`, `kind`, `outcome`, `integration`)
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
	`kind` text NOT NULL,
	`outcome` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`bucket_start`, `node`, `era`, `transport`, `reason`, `version`, `method`, `kind`, `outcome`, `integration`)
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
	`kind` text NOT NULL,
	`outcome` text NOT NULL,
	`integration` text NOT NULL,
	`count` integer NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`bucket_start`, `node`, `era`, `transport`, `reason`, `version`, `method`, `kind`, `outcome`, `integration`)
);
--> statement-breakpoint
CREATE INDEX `traffic_minute_integration_idx` ON `traffic_minute` (`integration`,`bucket_start`);