CREATE TABLE `caller_aliases` (
	`alias` text PRIMARY KEY NOT NULL,
	`caller` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `caller_aliases_caller_idx` ON `caller_aliases` (`caller`);--> statement-breakpoint
ALTER TABLE `integrations` ADD `client_name` text;--> statement-breakpoint
ALTER TABLE `integrations` ADD `client_name_at` integer;