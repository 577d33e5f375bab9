import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeQuietCallers } from '../../server/alerts/close-quiet-callers.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { getIntegration } from '../../server/store/sqlite/get-integration.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../server/store/records/plan-record.js';
import { updateIntegration } from '../../server/store/sqlite/update-integration.js';
import { updatePlan } from '../../server/store/sqlite/update-plan.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { IntegrationSighting, TallyCell } from '../../server/tally/tally-cell.js';
import { loadIntegrationViews } from '../../server/views/load-integration-views.js';
import { listPlans } from '../../server/store/sqlite/list-plans.js';
import { integrationToJson } from '../../server/api/to-json.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';
import { planInput as storedPlan } from '../support/plan-input.js';

const TODAY = Date.UTC(2027, 0, 15);
const NOW = TODAY + 12 * 3_600_000;
const dayAgo = (n: number) => TODAY - n * DAY_MS;

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return storedPlan({ name: 'Legacy sunset', targetShare: 0.01, policyUrl: null, action: 'observe', ...overrides });
}

const modern: Partial<TallyCell> = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' };

describe('closeQuietCallers', () => {
  let temp: TempDatabase;
  let write: (cells: TallyCell[]) => void;
  const db = () => temp.store.db;
  const record = (key: string) => getIntegration(db(), key)!;

  beforeEach(() => {
    temp = openTempDatabase();
    const writer = createTallyWriter(temp.store.db);
    write = (cells) => {
      const keys = [...new Set(cells.map((c) => c.integration))];
      const integrations: IntegrationSighting[] = keys.map((key) => ({ key, source: 'bearer-fingerprint', firstSeen: cells[0]!.minute, lastSeen: cells.at(-1)!.minute, lastLegacySeen: undefined, clientInfo: undefined }));
      writer({ cells, integrations });
    };
  });
  afterEach(() => temp.dispose());

  test('a caller quiet in scope for the quiet days is marked done, keeping the status it had', async () => {
    insertPlan(db(), planInput(), dayAgo(100));
    // Its last served legacy day ended 30 days before today began: quiet for 30 whole days.
    write([trafficCell({ minute: dayAgo(31) + 3_600_000, integration: 'tok_quiet' })]);
    // Its last legacy day ended 29 days before today: one day short.
    write([trafficCell({ minute: dayAgo(30) + 23 * 3_600_000, integration: 'tok_near' })]);
    updateIntegration(db(), 'tok_quiet', { status: 'contacted' }, dayAgo(40));

    expect(await closeQuietCallers(temp.backend, NOW)).toEqual([{ kind: 'close', key: 'tok_quiet', statusBeforeClose: 'contacted' }]);
    expect(record('tok_quiet')).toMatchObject({ status: 'done', autoClosedAt: NOW, statusBeforeClose: 'contacted', reopenedAt: null, updatedAt: dayAgo(40) });
    expect(record('tok_near')).toMatchObject({ status: 'unknown', autoClosedAt: null });
    // A second run changes nothing.
    expect(await closeQuietCallers(temp.backend, NOW + 60_000)).toEqual([]);
  });

  test('callers never served in scope, or only refused there, are not closed', async () => {
    insertPlan(db(), planInput(), dayAgo(100));
    write([
      trafficCell({ minute: dayAgo(60), integration: 'tok_modern', ...modern }),
      trafficCell({ minute: dayAgo(60), integration: 'tok_refused', method: 'initialize', outcome: 'unsupported-version' }),
      trafficCell({ minute: dayAgo(60), integration: 'tok_blocked', outcome: 'blocked' }),
    ]);
    expect(await closeQuietCallers(temp.backend, NOW)).toEqual([]);
    expect(['tok_modern', 'tok_refused', 'tok_blocked'].map((k) => record(k).status)).toEqual(['unknown', 'unknown', 'unknown']);
  });

  test('a caller refused in scope every day since it was last served has not migrated: it stays open', async () => {
    insertPlan(db(), planInput({ action: 'deny' }), dayAgo(100));
    write([trafficCell({ minute: dayAgo(60), integration: 'tok_failing' })]);
    write([trafficCell({ minute: dayAgo(1), integration: 'tok_failing', outcome: 'blocked' })]);
    write([trafficCell({ minute: dayAgo(60), integration: 'tok_gone' })]);
    expect(await closeQuietCallers(temp.backend, NOW)).toEqual([{ kind: 'close', key: 'tok_gone', statusBeforeClose: 'unknown' }]);
    expect(record('tok_failing').status).toBe('unknown');
  });

  test('without an active plan nothing closes; an archived plan does not count', async () => {
    write([trafficCell({ minute: dayAgo(90), integration: 'tok_a' })]);
    expect(await closeQuietCallers(temp.backend, NOW)).toEqual([]);
    const plan = insertPlan(db(), planInput(), dayAgo(100));
    updatePlan(db(), plan.id, { archived: true }, dayAgo(1));
    expect(await closeQuietCallers(temp.backend, NOW)).toEqual([]);
    expect(record('tok_a').status).toBe('unknown');
  });

  test('with several plans, use in any scope keeps a caller open, and the largest quiet days applies', async () => {
    insertPlan(db(), planInput({ quietDays: 30 }), dayAgo(100));
    insertPlan(db(), planInput({ name: 'Drop 2025-06-18', scopeKind: 'version', scopeValue: '2025-06-18', quietDays: 60 }), dayAgo(100));
    // Legacy on 2025-06-18: in both scopes, 40 days ago. Quiet enough for the first plan, not the second.
    write([trafficCell({ minute: dayAgo(40), integration: 'tok_both', version: '2025-06-18' })]);
    // Legacy on 2025-11-25, 40 days ago: only the era plan's scope was used, so 30 days suffice.
    write([trafficCell({ minute: dayAgo(40), integration: 'tok_era', version: '2025-11-25' })]);
    // The era scope alone 40 days ago, then 2025-06-18 (both scopes) 5 days ago.
    write([trafficCell({ minute: dayAgo(40), integration: 'tok_recent', version: '2025-11-25' }), trafficCell({ minute: dayAgo(5), integration: 'tok_recent', version: '2025-06-18' })]);
    expect((await closeQuietCallers(temp.backend, NOW)).map((c) => c.key)).toEqual(['tok_era']);
    expect((await closeQuietCallers(temp.backend, NOW + 21 * DAY_MS)).map((c) => c.key)).toEqual(['tok_both']);
  });

  test('a closed caller that comes back gets its status again; the integrations view says when it closed and reopened', async () => {
    insertPlan(db(), planInput(), dayAgo(100));
    write([trafficCell({ minute: dayAgo(50), integration: 'tok_a' })]);
    updateIntegration(db(), 'tok_a', { status: 'migrating' }, dayAgo(49));
    await closeQuietCallers(temp.backend, NOW);

    const closedView = (await loadIntegrationViews(temp.backend, listPlans(db()), NOW)).integrations.find((i) => i.key === 'tok_a')!;
    expect(integrationToJson(closedView)).toMatchObject({ status: 'done', autoClosedAt: new Date(NOW).toISOString(), reopenedAt: null });

    // Modern traffic is not a return to the retiring scope.
    write([trafficCell({ minute: NOW + 3_600_000, integration: 'tok_a', ...modern })]);
    expect(await closeQuietCallers(temp.backend, NOW + 2 * 3_600_000)).toEqual([]);

    write([trafficCell({ minute: NOW + 3 * 3_600_000, integration: 'tok_a' })]);
    const later = NOW + 4 * 3_600_000;
    expect(await closeQuietCallers(temp.backend, later)).toEqual([{ kind: 'reopen', key: 'tok_a', status: 'migrating' }]);
    expect(record('tok_a')).toMatchObject({ status: 'migrating', autoClosedAt: null, statusBeforeClose: null, reopenedAt: later, updatedAt: dayAgo(49) });
    const view = (await loadIntegrationViews(temp.backend, listPlans(db()), later)).integrations.find((i) => i.key === 'tok_a')!;
    expect(integrationToJson(view)).toMatchObject({ status: 'migrating', autoClosedAt: null, reopenedAt: new Date(later).toISOString() });
  });

  test('a status the operator set after the close wins: it is neither closed again nor reopened', async () => {
    insertPlan(db(), planInput(), dayAgo(100));
    write([trafficCell({ minute: dayAgo(50), integration: 'tok_a' })]);
    await closeQuietCallers(temp.backend, NOW);
    updateIntegration(db(), 'tok_a', { status: 'contacted' }, NOW + 1_000);
    expect(await closeQuietCallers(temp.backend, NOW + DAY_MS)).toEqual([]);
    expect(record('tok_a').status).toBe('contacted');

    write([trafficCell({ minute: NOW + 2 * DAY_MS, integration: 'tok_a' })]);
    expect(await closeQuietCallers(temp.backend, NOW + 2 * DAY_MS + 60_000)).toEqual([{ kind: 'forget-close', key: 'tok_a' }]);
    expect(record('tok_a')).toMatchObject({ status: 'contacted', autoClosedAt: null, reopenedAt: null });
  });

  test('an operator who confirms done after the close keeps it done when the caller comes back', async () => {
    insertPlan(db(), planInput(), dayAgo(100));
    write([trafficCell({ minute: dayAgo(50), integration: 'tok_a' })]);
    await closeQuietCallers(temp.backend, NOW);
    updateIntegration(db(), 'tok_a', { status: 'done', notes: 'moved to the 2026 client' }, NOW + 1_000);
    write([trafficCell({ minute: NOW + DAY_MS, integration: 'tok_a' })]);
    await closeQuietCallers(temp.backend, NOW + DAY_MS + 60_000);
    expect(record('tok_a')).toMatchObject({ status: 'done', reopenedAt: null });
  });

  test('a caller marked done by hand is not closed automatically', async () => {
    insertPlan(db(), planInput(), dayAgo(100));
    write([trafficCell({ minute: dayAgo(50), integration: 'tok_a' })]);
    updateIntegration(db(), 'tok_a', { status: 'done' }, dayAgo(45));
    expect(await closeQuietCallers(temp.backend, NOW)).toEqual([]);
    expect(record('tok_a').autoClosedAt).toBeNull();
  });
});
