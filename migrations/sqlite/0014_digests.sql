CREATE TABLE `digests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`kind` text NOT NULL,
	`node` text NOT NULL,
	`requested_by` text NOT NULL,
	`period_from` integer NOT NULL,
	`period_to` integer NOT NULL,
	`claimed_at` integer NOT NULL,
	`finished_at` integer,
	`status` text NOT NULL,
	`deliveries` text NOT NULL,
	`summary` text NOT NULL,
	`content` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `digests_key_idx` ON `digests` (`key`);--> statement-breakpoint
CREATE INDEX `digests_claimed_at_idx` ON `digests` (`claimed_at`);