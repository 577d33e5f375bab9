CREATE TABLE `claimed_client_day` (
	`day` integer NOT NULL,
	`node` text NOT NULL,
	`era` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`version` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `node`, `era`, `kind`, `name`, `version`)
);
