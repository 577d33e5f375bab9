import { bigint, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ERAS, TRANSPORTS } from '../../../protocol/vocabulary.js';

/** The people behind each caller of the SQLite schema, on Postgres: each row written once by whichever node sees it first. */
export const callerPeopleDayTable = pgTable(
  'caller_people_day',
  {
    day: bigint('day', { mode: 'number' }).notNull(),
    integration: text('integration').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    transport: text('transport', { enum: TRANSPORTS }).notNull(),
    version: text('version').notNull(),
    subject: text('subject').notNull(),
  },
  (t) => [
    primaryKey({ name: 'caller_people_day_pk', columns: [t.day, t.integration, t.era, t.transport, t.version, t.subject] }),
    index('caller_people_day_integration_idx').on(t.integration, t.day),
  ],
);
