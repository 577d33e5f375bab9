CREATE TABLE `bridge_revocations` (
	`session_id` text PRIMARY KEY NOT NULL,
	`revoked_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`reason` text
);
--> statement-breakpoint
CREATE INDEX `bridge_revocations_expires_at_idx` ON `bridge_revocations` (`expires_at`);