CREATE TABLE `replayed_spool_batches` (
	`batch_id` text PRIMARY KEY NOT NULL,
	`replayed_at` integer NOT NULL
);
