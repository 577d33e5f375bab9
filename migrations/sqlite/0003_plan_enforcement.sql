CREATE TABLE `plan_exemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`integration` text NOT NULL,
	`until` text NOT NULL,
	`note` text,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `plan_exemptions_plan_idx` ON `plan_exemptions` (`plan_id`);--> statement-breakpoint
ALTER TABLE `integrations` ADD `auto_closed_at` integer;--> statement-breakpoint
ALTER TABLE `integrations` ADD `status_before_close` text;--> statement-breakpoint
ALTER TABLE `integrations` ADD `reopened_at` integer;--> statement-breakpoint
ALTER TABLE `plans` ADD `action` text DEFAULT 'observe' NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `block_new_callers_from` text;--> statement-breakpoint
ALTER TABLE `plans` ADD `quiet_days` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `gate_backstop_date` text;--> statement-breakpoint
ALTER TABLE `plans` ADD `gate_max_share` real;--> statement-breakpoint
ALTER TABLE `plans` ADD `declared_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `plans_declared_key_unique` ON `plans` (`declared_key`);--> statement-breakpoint
ALTER TABLE `traffic_day` ADD `would_block_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `traffic_hour` ADD `would_block_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `traffic_minute` ADD `would_block_count` integer DEFAULT 0 NOT NULL;