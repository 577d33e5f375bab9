CREATE TABLE `plan_pauses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`reason` text NOT NULL,
	`started_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`resumed_at` integer,
	`paused_by` text NOT NULL,
	`resumed_by` text,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `plan_pauses_plan_idx` ON `plan_pauses` (`plan_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `plan_pauses_ends_at_idx` ON `plan_pauses` (`ends_at`);