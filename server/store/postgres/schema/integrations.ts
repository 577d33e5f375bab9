import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { INTEGRATION_STATUSES } from '../../records/integration-record.js';

/** The integrations table of the SQLite schema, on Postgres. */
export const integrationsTable = pgTable('integrations', {
  key: text('key').primaryKey(),
  source: text('source').notNull(),
  firstSeen: bigint('first_seen', { mode: 'number' }).notNull(),
  lastSeen: bigint('last_seen', { mode: 'number' }).notNull(),
  lastLegacySeen: bigint('last_legacy_seen', { mode: 'number' }),
  clientInfoName: text('client_info_name'),
  clientInfoVersion: text('client_info_version'),
  displayName: text('display_name'),
  owner: text('owner'),
  contact: text('contact'),
  status: text('status', { enum: INTEGRATION_STATUSES }).notNull().default('unknown'),
  notes: text('notes'),
  updatedAt: bigint('updated_at', { mode: 'number' }),
  autoClosedAt: bigint('auto_closed_at', { mode: 'number' }),
  statusBeforeClose: text('status_before_close', { enum: INTEGRATION_STATUSES }),
  reopenedAt: bigint('reopened_at', { mode: 'number' }),
  clientName: text('client_name'),
  clientNameAt: bigint('client_name_at', { mode: 'number' }),
});
