CREATE TABLE `caller_contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`integration` text NOT NULL,
	`plan_id` integer,
	`kind` text NOT NULL,
	`note` text NOT NULL,
	`at` integer NOT NULL,
	`by` text NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `caller_contacts_integration_idx` ON `caller_contacts` (`integration`,`at`);--> statement-breakpoint
CREATE TABLE `caller_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`integration` text NOT NULL,
	`stage` text NOT NULL,
	`stage_at` integer NOT NULL,
	`days_before` integer NOT NULL,
	`status` text NOT NULL,
	`node` text NOT NULL,
	`claimed_at` integer NOT NULL,
	`finished_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`requests` integer NOT NULL,
	`versions` text NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `caller_notices_once_idx` ON `caller_notices` (`plan_id`,`integration`,`stage`,`stage_at`,`days_before`);--> statement-breakpoint
CREATE INDEX `caller_notices_integration_idx` ON `caller_notices` (`integration`,`claimed_at`);