/**
 * The unknown base by what its clients claim to be, on the dashboard, in headless Chromium against
 * the real service over seeded claims: the panel's totals, rows and shares are GET /unknown-base's,
 * claims are said as claims, a hostile claimed name stays text, and past ten rows a toggle shows all.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ClaimCell } from '../../server/tally/tally-cell.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { trafficCell } from '../store/temp-database.js';
import { pageErrors, saveScreenshot } from './browser.js';
import { DAY_MS, openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const TODAY = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const HOSTILE = '<img src=x onerror="globalThis.pwned=1">';

function claim(kind: ClaimCell['kind'], name: string, version: string, count: number, era: ClaimCell['era'] = 'legacy', day = TODAY - DAY_MS): ClaimCell {
  return { day, node: 'node-1', era, kind, name, version, count };
}

/** 100 anonymous legacy work requests (55 from one desktop host) and 15 modern ones, under twelve claims. */
const CLAIMS: ClaimCell[] = [
  claim('client-info', 'Claude Desktop', '0.9.2', 40),
  claim('client-info', 'Claude Desktop', '0.9.2', 15, 'legacy', TODAY - 2 * DAY_MS),
  claim('client-info', 'Claude Desktop', '0.9.2', 10, 'modern'),
  claim('user-agent', 'python-httpx', '0.28.1', 22),
  claim('none', '', '', 10),
  claim('none', '', '', 5, 'modern'),
  claim('client-info', HOSTILE, '1.0', 5),
  ...Array.from({ length: 8 }, (_, i) => claim('user-agent', `script-${i + 1}`, '', 1)),
];

interface ClaimJson {
  claim: { kind: string; name: string; version: string };
  legacy: number;
  modern: number;
  legacyShare: number | null;
}

/** What each row of the panel says, and the share it was drawn from. */
const shownRows = (page: Page) =>
  page.locator('[data-testid="unknown-claim"]').evaluateAll((rows) =>
    rows.map((r) => {
      const text = (id: string) => r.querySelector(`[data-testid="${id}"]`)!.textContent;
      const share = r.querySelector('[data-testid="claim-share"]')!.getAttribute('data-share');
      return { kind: r.getAttribute('data-kind'), name: text('claim-name'), version: text('claim-version'), legacy: text('claim-legacy'), share: share === '' ? null : Number(share), shareText: text('claim-share'), modern: text('claim-modern'), hidden: r.hasAttribute('hidden') };
    }),
  );

describe('the unknown base, by what it claims to be, on the dashboard', () => {
  let rig: DashboardRig;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
  }, 120_000);
  afterAll(() => rig?.close());

  test('with no anonymous traffic the panel says so; with some, it lists what the API answers, claims said as claims, ten rows and a toggle for all', async () => {
    const page = await rig.browser.newPage();
    await openDashboard(page, rig.service.apiUrl);
    await page.locator('[data-testid="unknown-base"][data-loaded="true"]').waitFor();
    expect(await page.textContent('[data-testid="unknown-base-empty"]')).toBe('No anonymous traffic in the last 30 days.');

    // The same work counted as the anonymous caller's, as the sidecar would, beside the claims.
    createTallyWriter(rig.service.database().db)({
      cells: [trafficCell({ minute: TODAY - DAY_MS, integration: 'anonymous', count: 100 }), trafficCell({ minute: TODAY - DAY_MS, integration: 'anonymous', count: 15, era: 'modern', reason: 'modern-meta', version: '2026-07-28' })],
      integrations: [],
      claims: CLAIMS,
    });
    await page.reload();
    await page.locator('[data-testid="unknown-base-table"]').waitFor();

    const { body } = await rig.service.api('/api/v1/unknown-base');
    expect(body.totals).toEqual({ legacy: 100, modern: 15 });
    const claims = body.claims as ClaimJson[];
    expect(claims.slice(0, 4).map((c) => [c.claim.kind, c.claim.name, c.legacy, c.modern, c.legacyShare])).toEqual([
      ['client-info', 'Claude Desktop', 55, 10, 0.55],
      ['user-agent', 'python-httpx', 22, 0, 0.22],
      ['none', '', 10, 5, 0.1],
      ['client-info', HOSTILE, 5, 0, 0.05],
    ]);
    expect(claims).toHaveLength(12);

    expect(await page.textContent('[data-testid="unknown-base-legacy"]')).toBe('100');
    expect(await page.textContent('[data-testid="unknown-base-modern"]')).toBe('15');
    const rows = await shownRows(page);
    // Row for row the API's claims, in its order, with its shares.
    expect(rows.map((r) => [r.kind, r.share])).toEqual(claims.map((c) => [c.claim.kind, c.legacyShare]));
    expect(rows.slice(0, 4).map(({ name, version, legacy, shareText, modern }) => [name, version, legacy, shareText, modern])).toEqual([
      ['Claude Desktop', '0.9.2', '55', '55.00%', '10'],
      ['python-httpx (User-Agent)', '0.28.1', '22', '22.00%', '0'],
      ['claims nothing', '—', '10', '10.00%', '5'],
      [HOSTILE, '1.0', '5', '5.00%', '0'],
    ]);
    expect(await page.textContent('#unknown-base-panel thead')).toContain('Claims to be');

    // A claimed name is the client's text: shown as written, never run.
    expect(await page.locator('[data-testid="unknown-base"] img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();

    // Ten rows at first; the toggle shows all twelve, and the first ten again.
    expect(rows.map((r) => r.hidden)).toEqual([...Array(10).fill(false), true, true]);
    const toggle = page.locator('[data-testid="unknown-base-toggle"]');
    expect(await toggle.textContent()).toBe('Show all 12 claims');
    await page.locator('#unknown-base-panel').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'unknown-base');
    await toggle.click();
    expect((await shownRows(page)).every((r) => !r.hidden)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.textContent()).toBe('Show the first 10');
    await page.locator('#unknown-base-panel').screenshot({ path: 'test-artifacts/screenshots/unknown-base-all.png' });
    await toggle.click();
    expect((await shownRows(page)).filter((r) => !r.hidden)).toHaveLength(10);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
