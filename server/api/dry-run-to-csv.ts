import type { DryRunJson } from './dry-run-json.js';

const HEADER = ['integration', 'display_name', 'owner', 'contact', 'identifiable', 'requests_per_day', 'people', 'last_seen', 'versions', 'transports', 'saved_until', 'migration', 'notices_delivered', 'last_notice_at', 'last_contact_at'];

/**
 * One field as RFC 4180 wants it. Text that a spreadsheet would run as a formula gets a leading
 * apostrophe: names and contacts are typed by operators and keys come from callers' credentials.
 */
function field(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The callers of a dry run as CSV for outreach: a header row, then one row per caller in the report's order. */
export function dryRunToCsv(report: DryRunJson): string {
  const rows = report.callers.map((c) => [
    c.integration,
    c.displayName,
    c.owner,
    c.contact,
    c.identifiable,
    Math.round(c.requestsPerDay * 100) / 100,
    c.people,
    c.lastSeen,
    c.versions.join(' '),
    c.transports.join(' '),
    c.savedBy?.until ?? null,
    c.migration,
    c.told.notices,
    c.told.lastNoticeAt,
    c.told.lastContactAt,
  ]);
  return [HEADER, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
