import { describe, expect, test } from 'vitest';
import { DEFAULT_TREND_THRESHOLDS } from '../../../server/analysis/compute-trend.js';
import type { DigestClaim } from '../../../server/store/records/digest-record.js';
import { loadDigest } from '../../../server/views/load-digest.js';
import type { TallyCell } from '../../../server/tally/tally-cell.js';
import { planInput } from '../../support/plan-input.js';
import { BACKENDS, cell, DAY, NOON, sighting, sumOf, useStores, writeCells } from './backends.js';

const claim = (overrides: Partial<DigestClaim> = {}): DigestClaim => ({
  key: 'scheduled:2026-11-30T09:00:00.000Z',
  kind: 'scheduled',
  node: 'node-a',
  requestedBy: 'schedule',
  periodFrom: NOON - 7 * DAY,
  periodTo: NOON,
  summary: 'Week …',
  content: { share: { current: 0.5 } },
  ...overrides,
});

const LINKS = { dashboard: 'https://sunset.example/', print: 'https://sunset.example/digest.html' };

describe.each(BACKENDS)('%s store: digests', (_dialect, backend) => {
  const { open, freshLocation } = useStores(backend);

  test('a digest is claimed once under its key, finished once, and listed newest first', async () => {
    const store = await open();
    const claimed = await store.claimDigest(claim(), NOON);
    expect(claimed).toMatchObject({ ...claim(), claimedAt: NOON, finishedAt: null, status: 'sending', deliveries: [] });
    expect(await store.claimDigest(claim({ node: 'node-b' }), NOON + 1)).toBeUndefined();
    const deliveries = [{ webhook: 'pm', format: 'json' as const, status: 'failed' as const, attempts: 3, lastError: 'HTTP 500' }];
    expect(await store.finishDigest(claimed!.id, { status: 'failed', deliveries }, NOON + 2)).toMatchObject({ status: 'failed', deliveries, finishedAt: NOON + 2 });
    // Only a digest still being sent can be finished.
    expect(await store.finishDigest(claimed!.id, { status: 'delivered', deliveries: [] }, NOON + 3)).toBeUndefined();
    const second = await store.claimDigest(claim({ key: 'on-demand:node-a:2026-11-30T12:00:00.000Z', kind: 'on-demand', requestedBy: 'token:pm' }), NOON + 4);
    expect((await store.listDigests()).map((d) => d.id)).toEqual([second!.id, claimed!.id]);
    expect((await store.listDigests({ limit: 1 })).map((d) => d.id)).toEqual([second!.id]);
    expect((await store.listDigests({ before: second!.id })).map((d) => d.id)).toEqual([claimed!.id]);
    expect((await store.listDigests())[1]!.content).toEqual({ share: { current: 0.5 } });
  });

  test('nodes claiming the same scheduled digest at once: exactly one takes it', async () => {
    const location = await freshLocation();
    const stores = await Promise.all([open(location), open(location), open(location)]);
    const results = await Promise.all(stores.flatMap((store, i) => [store.claimDigest(claim({ node: `node-${i}` }), NOON), store.claimDigest(claim({ node: `node-${i}` }), NOON)]));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await stores[0]!.listDigests()).toHaveLength(1);
  });

  test('the digest reads the same numbers from either store: share week on week, who moved, who is left', async () => {
    const store = await open();
    const now = NOON;
    const lastWeek = NOON - 9 * DAY;
    const cells: TallyCell[] = [
      // Moved: legacy last week, modern only this week.
      cell({ minute: lastWeek, integration: 'tok_moved', count: 40 }),
      cell({ minute: NOON, integration: 'tok_moved', era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 25 }),
      // Started: legacy only last week, both this week.
      cell({ minute: lastWeek, integration: 'tok_started', count: 20 }),
      cell({ minute: NOON, integration: 'tok_started', count: 15 }),
      cell({ minute: NOON, integration: 'tok_started', era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 5 }),
      // Left on legacy, the largest.
      cell({ minute: lastWeek, integration: 'tok_left', count: 60 }),
      cell({ minute: NOON - DAY, integration: 'tok_left', count: 70 }),
      // Quiet this week.
      cell({ minute: lastWeek, integration: 'tok_quiet', count: 9 }),
      // The unknown installed base, and a negotiation the share never counts.
      cell({ minute: NOON, integration: 'anonymous', count: 12 }),
      cell({ minute: NOON, integration: 'tok_left', method: 'initialize', count: 4 }),
    ];
    await writeCells(
      store,
      cells,
      ['tok_moved', 'tok_started', 'tok_left', 'tok_quiet'].map((key) => sighting({ key, lastLegacySeen: lastWeek })),
    );
    await store.updateIntegration('tok_left', { displayName: 'Data export', owner: 'Data team', contact: 'data@example.com' }, now);
    await store.insertPlan(planInput({ name: 'Retire legacy', retireDate: '2027-03-01' }), now);

    const digest = await loadDigest(store, { now, thresholds: DEFAULT_TREND_THRESHOLDS, top: 10, links: LINKS });
    const thisWeek = (c: TallyCell) => c.minute >= digest.period.from && c.minute < digest.period.to && c.method !== 'initialize';
    const previousWeek = (c: TallyCell) => c.minute >= digest.previous.from && c.minute < digest.previous.to && c.method !== 'initialize';
    const legacyNow = sumOf(cells, (c) => thisWeek(c) && c.era === 'legacy');
    expect(digest.share.legacyRequests).toBe(legacyNow);
    expect(digest.share.servedRequests).toBe(sumOf(cells, thisWeek));
    expect(digest.share.current).toBe(legacyNow / sumOf(cells, thisWeek));
    expect(digest.share.previous).toBe(sumOf(cells, (c) => previousWeek(c) && c.era === 'legacy') / sumOf(cells, previousWeek));
    expect(digest.callers.moved.map((c) => c.integration)).toEqual(['tok_moved']);
    expect(digest.callers.startedMigrating.map((c) => c.integration)).toEqual(['tok_started']);
    expect(digest.callers.wentQuiet.map((c) => c.integration)).toEqual(['tok_quiet']);
    expect(digest.callers.remaining.map((c) => [c.integration, c.legacyRequests])).toEqual([
      ['tok_left', sumOf(cells, (c) => thisWeek(c) && c.integration === 'tok_left')],
      ['tok_started', sumOf(cells, (c) => thisWeek(c) && c.integration === 'tok_started' && c.era === 'legacy')],
    ]);
    expect(digest.callers.remaining[0]).toMatchObject({ displayName: 'Data export', owner: 'Data team', contact: 'data@example.com', migration: 'legacy-only' });
    // No credential in this traffic names people.
    expect(digest.callers.legacy).toEqual({ identifiable: legacyNow - 12, unknown: 12, total: legacyNow, people: { thisWeek: 0, lastWeek: 0 } });
    expect(digest.plans.map((p) => [p.name, p.retireDate, p.nextStage?.kind])).toEqual([['Retire legacy', '2027-03-01', 'retire']]);
    expect(digest.summary.at(-1)).toBe(`Dashboard: ${LINKS.dashboard} · Print view: ${LINKS.print}`);
  });
});
