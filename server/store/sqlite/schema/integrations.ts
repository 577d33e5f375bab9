import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { INTEGRATION_STATUSES } from '../../records/integration-record.js';

/** Callers identified by a trusted mechanism; the operator's notes about them sit beside what was measured. */
export const integrationsTable = sqliteTable('integrations', {
  key: text('key').primaryKey(), // trusted key: a fingerprint or configured name, never a raw secret
  source: text('source').notNull(), // how the key was obtained: bearer-fingerprint, gateway-header, static-map, mtls-subject, …
  firstSeen: integer('first_seen').notNull(),
  lastSeen: integer('last_seen').notNull(),
  lastLegacySeen: integer('last_legacy_seen'),
  // Self-reported clientInfo: shown as "claims to be …", never used to decide anything.
  clientInfoName: text('client_info_name'),
  clientInfoVersion: text('client_info_version'),
  // Edited by operators through the API and dashboard.
  displayName: text('display_name'),
  owner: text('owner'),
  contact: text('contact'),
  status: text('status', { enum: INTEGRATION_STATUSES }).notNull().default('unknown'),
  notes: text('notes'),
  updatedAt: integer('updated_at'),
  // Set when the caller was marked done on its own, after the quiet days with no traffic in a
  // retiring scope; the status it had then comes back if it returns (and reopenedAt says when).
  autoClosedAt: integer('auto_closed_at'),
  statusBeforeClose: text('status_before_close', { enum: INTEGRATION_STATUSES }),
  reopenedAt: integer('reopened_at'),
  // The application's own name, from the Client ID Metadata Document its OAuth client_id points at
  // (fetched only when the operator turns it on), and when it was last fetched.
  clientName: text('client_name'),
  clientNameAt: integer('client_name_at'),
});
