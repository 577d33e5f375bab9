CREATE TABLE `caller_people_day` (
	`day` integer NOT NULL,
	`integration` text NOT NULL,
	`era` text NOT NULL,
	`transport` text NOT NULL,
	`version` text NOT NULL,
	`subject` text NOT NULL,
	PRIMARY KEY(`day`, `integration`, `era`, `transport`, `version`, `subject`)
);
--> statement-breakpoint
CREATE INDEX `caller_people_day_integration_idx` ON `caller_people_day` (`integration`,`day`);