import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../server/store/records/plan-record.js';
import { updateIntegration } from '../../server/store/sqlite/update-integration.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { loadDryRun } from '../../server/views/load-dry-run.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2027, 2, 20, 15, 0);
const CUT = '2027-03-01';
const CUT_AT = Date.UTC(2027, 2, 1);

const PLAN: PlanInput = {
  name: 'Retire legacy',
  scopeKind: 'era',
  scopeValue: 'legacy',
  announceDate: '2027-01-01',
  retireDate: CUT,
  targetShare: 0.005,
  basis: 'work-requests',
  policyUrl: 'https://example.test/sunset',
  brownouts: [],
  action: 'dryrun',
  blockNewCallersFrom: null,
  quietDays: 10,
  gate: null,
  exemptions: [{ integration: 'tok_exempt', until: '2027-03-31', note: 'vendor fix in April' }],
  declaredKey: null,
};

// Written out here rather than taken from the code under test: what counts as served legacy work.
const NOT_WORK = new Set(['initialize', 'server/discover', 'ping', 'logging/setLevel']);
function isServedLegacyWork(cell: TallyCell): boolean {
  if (cell.kind !== 'request' || NOT_WORK.has(cell.method)) return false;
  return cell.outcome === 'served-as-legacy' || (cell.era === 'legacy' && cell.outcome === 'served');
}
function isServedWork(cell: TallyCell): boolean {
  return cell.kind === 'request' && !NOT_WORK.has(cell.method) && (cell.outcome === 'served' || cell.outcome === 'served-as-legacy');
}

/** Forty days of mixed traffic around the cut, from a fixed seed. */
function mixedCells(): TallyCell[] {
  const random = createSeededRandom(7);
  const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const cells: TallyCell[] = [];
  for (let i = 0; i < 600; i += 1) {
    const minute = Math.floor((CUT_AT - 25 * DAY + random() * 40 * DAY) / 60_000) * 60_000;
    const era = pick(['legacy', 'legacy', 'modern'] as const);
    const count = 1 + Math.floor(random() * 20);
    cells.push(
      trafficCell({
        minute,
        node: pick(['node-1', 'node-2']),
        era,
        reason: era === 'legacy' ? 'session-header' : 'modern-meta',
        transport: era === 'legacy' ? pick(['streamable-http', 'http+sse'] as const) : 'streamable-http',
        version: era === 'legacy' ? pick(['2025-06-18', '2025-03-26', '2024-11-05']) : '2026-07-28',
        method: pick(['tools/call', 'tools/call', 'resources/read', 'initialize', 'ping']),
        outcome: pick(['served', 'served', 'served', 'server-error', 'served-as-legacy', 'blocked'] as const),
        integration: pick(['tok_a', 'tok_b', 'tok_exempt', 'tok_modern', 'anonymous']),
        count,
        wouldBlockCount: Math.floor(random() * (count + 1)),
      }),
    );
  }
  return cells;
}

describe('loadDryRun', () => {
  let db: TempDatabase;
  beforeEach(() => {
    db = openTempDatabase();
  });
  afterEach(() => db.dispose());

  test('reports, for a past cut date, exactly the stored served legacy work of the quiet days before it, caller by caller', async () => {
    const cells = mixedCells();
    const sighting = { key: 'tok_a', source: 'bearer-fingerprint', firstSeen: CUT_AT - 25 * DAY, lastSeen: NOW, lastLegacySeen: NOW, clientInfo: undefined };
    createTallyWriter(db.store.db)({ cells, integrations: [sighting] });
    updateIntegration(db.store.db, 'tok_a', { displayName: 'Acme sync', owner: 'Acme', contact: 'ops@acme.test' }, NOW);
    const plan = insertPlan(db.store.db, PLAN, NOW);

    const report = await loadDryRun(db.backend, plan, CUT, NOW);

    const from = CUT_AT - 10 * DAY;
    const inWindow = cells.filter((c) => c.minute >= from && c.minute < CUT_AT);
    const expected = new Map<string, { requests: number; wouldBlock: number; versions: Set<string>; transports: Set<string>; lastDay: number }>();
    for (const cell of inWindow.filter(isServedLegacyWork)) {
      const entry = expected.get(cell.integration) ?? { requests: 0, wouldBlock: 0, versions: new Set(), transports: new Set(), lastDay: 0 };
      entry.requests += cell.count;
      entry.wouldBlock += cell.wouldBlockCount ?? 0;
      entry.versions.add(cell.version);
      entry.transports.add(cell.transport);
      entry.lastDay = Math.max(entry.lastDay, Math.floor(cell.minute / DAY) * DAY);
      expected.set(cell.integration, entry);
    }
    const served = inWindow.filter(isServedWork).reduce((sum, c) => sum + c.count, 0);
    expect(expected.size).toBeGreaterThan(3);

    expect(report.window).toEqual({ from, to: CUT_AT, days: 10 });
    const byKey = new Map(report.callers.map((c) => [c.integration, c]));
    expect([...byKey.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, want] of expected) {
      const got = byKey.get(key)!;
      expect({ key, requests: got.requests, perDay: got.requestsPerDay, lastSeen: got.lastSeen, versions: got.versions, transports: got.transports }).toEqual({
        key,
        requests: want.requests,
        perDay: want.requests / 10,
        lastSeen: want.lastDay,
        versions: [...want.versions].sort(),
        transports: [...want.transports].sort(),
      });
      expect(report.live!.byCaller.get(key)).toBe(want.wouldBlock);
    }
    expect(byKey.get('tok_a')).toMatchObject({ displayName: 'Acme sync', owner: 'Acme', contact: 'ops@acme.test', identifiable: true });
    expect(byKey.get('anonymous')!.identifiable).toBe(false);
    expect(report.callers.at(-1)!.integration).toBe('anonymous');
    expect(byKey.get('tok_exempt')!.savedBy).toEqual({ until: '2027-03-31', note: 'vendor fix in April' });

    const refused = [...expected].filter(([key]) => key !== 'tok_exempt').reduce((sum, [, e]) => sum + e.requests, 0);
    // No credential named a person in this traffic.
    expect(report.totals).toEqual({ callers: expected.size, refusedCallers: expected.size - 1, savedCallers: 1, refusedRequests: refused, servedRequests: served, refusedPeople: 0 });
    expect(report.callers.every((c) => c.people === null)).toBe(true);
    expect(report.refusedShare).toBe(refused / served);
    expect(report.live!.wouldBlock).toBe([...expected.values()].reduce((sum, e) => sum + e.wouldBlock, 0));
  });

  test('names how many people each caller would lose, and in all the people behind the refused callers, each once, the exempt caller\'s left out', async () => {
    const day = CUT_AT - 2 * DAY;
    const person = (integration: string, subject: string, era: 'legacy' | 'modern' = 'legacy') => ({ day, integration, era, transport: 'streamable-http' as const, version: era === 'legacy' ? '2025-06-18' : '2026-07-28', subject });
    createTallyWriter(db.store.db)({
      cells: ['oauth:desk', 'oauth:reports', 'tok_exempt'].map((integration) => trafficCell({ minute: day + 60_000, integration, count: 3 })),
      integrations: [],
      people: [
        person('oauth:desk', 'alice'),
        person('oauth:desk', 'bob'),
        // carol uses desk from the modern era only: a legacy cut does not refuse her.
        person('oauth:desk', 'carol', 'modern'),
        person('oauth:reports', 'alice'),
        person('oauth:reports', 'dave'),
        person('tok_exempt', 'erin'),
        // Before the window: not counted.
        { ...person('oauth:reports', 'frank'), day: CUT_AT - 20 * DAY },
      ],
    });
    const plan = insertPlan(db.store.db, PLAN, NOW);
    const report = await loadDryRun(db.backend, plan, CUT, NOW);
    const people = new Map(report.callers.map((c) => [c.integration, c.people]));
    expect(Object.fromEntries(people)).toEqual({ 'oauth:desk': 2, 'oauth:reports': 2, tok_exempt: 1 });
    // alice, bob and dave: alice is behind two refused callers and counts once; erin's caller is exempt.
    expect(report.totals.refusedPeople).toBe(3);
  });

  test('a cut date after now reads up to now, today included, and a plan not in dry run has no live counts', async () => {
    const today = Math.floor(NOW / DAY) * DAY;
    createTallyWriter(db.store.db)({
      cells: [
        trafficCell({ minute: today + 60_000, integration: 'tok_a', count: 4 }),
        trafficCell({ minute: today - 9 * DAY, integration: 'tok_a', count: 6 }),
        // The day before the window's first: out.
        trafficCell({ minute: today - 10 * DAY, integration: 'tok_a', count: 100 }),
      ],
      integrations: [],
    });
    const plan = insertPlan(db.store.db, { ...PLAN, action: 'deny', retireDate: '2027-06-01' }, NOW);
    const report = await loadDryRun(db.backend, plan, '2027-06-01', NOW);
    expect(report.window).toEqual({ from: today - 9 * DAY, to: NOW, days: (NOW - (today - 9 * DAY)) / DAY });
    expect(report.callers.map((c) => [c.integration, c.requests, c.lastSeen])).toEqual([['tok_a', 10, today]]);
    expect(report.refusedShare).toBe(1);
    expect(report.live).toBeNull();
  });
});
