import { describe, expect, test } from 'vitest';
import { computeMeteringHealth, type MeteringHealthInput } from '../../server/tally/compute-metering-health.js';

const HEALTHY: MeteringHealthInput = {
  node: 'n1',
  upstream: 'http://127.0.0.1:3000',
  startedAt: Date.UTC(2026, 11, 1, 12, 0, 0),
  now: Date.UTC(2026, 11, 1, 12, 1, 30, 400),
  store: { path: 'a.db', available: true, error: undefined },
  flush: { lastFlushAt: Date.UTC(2026, 11, 1, 12, 1, 30), lastAttemptAt: undefined, lastError: undefined, consecutiveFailures: 0, failedFlushes: 2, droppedEvents: 0, retainedEvents: 0, spilledEvents: 0, refusedEvents: 0, refusedCells: 0, lastDropReason: undefined },
  counts: { events: 10, overflowedEvents: 1, overflowedCallerEvents: 0, overflowedVersionEvents: 1, overflowedMethodEvents: 0, overflowedCellEvents: 0, pendingEvents: 3, cells: 2, overflowedPeople: 0 },
  meteringErrors: 0,
  openSessions: 4,
  pendingAnswers: 5,
  nonMcpRequests: 6,
};

describe('computeMeteringHealth', () => {
  test('reports ok with every count, ISO times and whole seconds of uptime', () => {
    const report = computeMeteringHealth(HEALTHY);
    expect(report.status).toBe('ok');
    expect(report.reason).toBeNull();
    expect(report.uptimeSeconds).toBe(90);
    expect(report.store).toEqual({ path: 'a.db', available: true, error: null });
    expect(report.metering).toMatchObject({ events: 10, pendingEvents: 3, overflowedEvents: 1, overflowedCallerEvents: 0, overflowedVersionEvents: 1, overflowedMethodEvents: 0, overflowedCellEvents: 0, failedFlushes: 2, lastFlushAt: '2026-12-01T12:01:30.000Z', lastFlushError: null, openSessions: 4, pendingAnswers: 5, nonMcpRequests: 6 });
  });

  test.each([
    ['no store', { store: { path: 'a.db', available: false, error: 'read-only' } }, 'database unavailable: read-only'],
    ['counts dropped', { flush: { ...HEALTHY.flush, droppedEvents: 1 } }, '1 counts dropped after failed flushes'],
    ['cells the store refused', { flush: { ...HEALTHY.flush, droppedEvents: 3, refusedEvents: 3, refusedCells: 1, lastDropReason: 'the store refused a cell: bad' } }, '3 counts dropped; the last because the store refused a cell: bad'],
    ['a flush failing now', { flush: { ...HEALTHY.flush, consecutiveFailures: 1, lastError: 'locked' } }, 'flushes failing (1 in a row): locked'],
    ['a fault in metering', { meteringErrors: 1 }, '1 metering errors'],
    ['spooled counts not yet stored', { spooledEvents: 12 }, '12 spooled counts not yet stored'],
  ] as const)('is degraded with %s, and says so in its reason', (_name, change, reason) => {
    const report = computeMeteringHealth({ ...HEALTHY, ...change });
    expect(report.status).toBe('degraded');
    expect(report.reason).toBe(reason);
  });
});
