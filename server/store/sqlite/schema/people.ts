/**
 * The people behind each caller: one row per UTC day, caller, path (era, transport, version) and
 * person, the person as a keyed digest of the subject a verified credential named (never the raw
 * subject). Rows are inserted once and never counted up, so nodes that see the same person write
 * the same row, and a distinct count over any span is exact.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ERAS, TRANSPORTS } from '../../../protocol/vocabulary.js';

export const callerPeopleDayTable = sqliteTable(
  'caller_people_day',
  {
    day: integer('day').notNull(),
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
