CREATE TABLE `sidecar_nodes` (
	`node` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_flush_at` integer NOT NULL,
	`policy_version` integer NOT NULL,
	`started_at` integer NOT NULL
);
