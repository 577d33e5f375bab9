import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildReport, formatReport } from '../../../server/cli/commands/build-report.js';
import { createTallyWriter } from '../../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../../server/tally/tally-cell.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../../store/temp-database.js';

const NOW = Date.UTC(2026, 10, 30, 12, 30);
const HOUR = 3_600_000;
const MODERN = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' } as const;

describe('buildReport', () => {
  let db: TempDatabase;
  const write = (cells: TallyCell[]) => createTallyWriter(db.store.db)({ cells, integrations: [] });
  beforeEach(() => {
    db = openTempDatabase();
  });
  afterEach(() => db.dispose());

  test('the legacy share is of served work requests, while the era table counts every message', async () => {
    const at = NOW - 2 * HOUR;
    write([
      // Legacy: a handshake, plumbing and a notification (not work), three served calls, two cancelled.
      trafficCell({ minute: at, method: 'initialize', reason: 'initialize', count: 1 }),
      trafficCell({ minute: at, method: 'notifications/initialized', kind: 'notification', outcome: 'accepted', count: 1 }),
      trafficCell({ minute: at, method: 'ping', count: 5 }),
      trafficCell({ minute: at, method: 'tools/call', count: 3 }),
      trafficCell({ minute: at, method: 'tools/call', outcome: 'cancelled', count: 2 }),
      // Modern: discovery (not work), four served calls, one a legacy leg answered, one failed.
      trafficCell({ minute: at, ...MODERN, method: 'server/discover', count: 1 }),
      trafficCell({ minute: at, ...MODERN, method: 'tools/call', count: 4 }),
      trafficCell({ minute: at, ...MODERN, method: 'tools/list', outcome: 'served-as-legacy', count: 1 }),
      trafficCell({ minute: at, ...MODERN, method: 'tools/call', outcome: 'server-error', count: 1 }),
      trafficCell({ minute: at, era: 'unknown', reason: 'invalid-json', version: '(none)', method: '(unparsed)', kind: 'other', outcome: 'client-error', count: 1 }),
      // Older than the window.
      trafficCell({ minute: NOW - 3 * 24 * HOUR, method: 'tools/call', count: 100 }),
    ]);
    const report = await buildReport(db.backend, NOW);
    expect(report.byEra).toEqual({ legacy: 12, modern: 7, unknown: 1 });
    expect(report.total).toBe(20);
    expect(report).toMatchObject({ servedWorkRequests: 8, legacyServedWorkRequests: 4, legacyShare: 0.5 });

    const table = formatReport(report, 'sunset.db');
    expect(table).toContain('legacy share of served work requests: 50.00% (4 of 8)');
    expect(table).toMatch(/legacy\s+12\s+60\.0%/);
    expect(table).toMatch(/modern\s+7\s+35\.0%/);
    expect(table).toMatch(/2025-06-18\s+legacy\s+12/);
  });

  test('with messages but no served work request, there is no share', async () => {
    write([
      trafficCell({ minute: NOW - HOUR, method: 'initialize', reason: 'initialize', count: 2 }),
      trafficCell({ minute: NOW - HOUR, method: 'tools/call', outcome: 'no-response', count: 3 }),
    ]);
    const report = await buildReport(db.backend, NOW);
    expect(report).toMatchObject({ total: 5, servedWorkRequests: 0, legacyServedWorkRequests: 0, legacyShare: null });
    expect(formatReport(report, 'sunset.db')).toContain('legacy share: no served work requests in this window');
  });
});
