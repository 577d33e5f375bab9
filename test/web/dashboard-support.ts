/** What every dashboard browser test needs: a built dashboard, the real service, a browser, and ways to read the page. */
import type { ConfigInput } from '../../server/config/config-schema.js';
import type { Page } from 'playwright-core';
import { seedDemoHistory } from '../../server/demo/seed-demo-history.js';
import { buildDashboard } from '../../web/build.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';
import { launchBrowser, type TestBrowser } from './browser.js';

export const DAY_MS = 86_400_000;
// Alert rules run only on demand here (yearly at the latest), so inserted alert rows stay as written.
const QUIET_ALERTS = { alerts: { schedule: '0 0 1 1 *' } };

export interface DashboardRig {
  upstream: RawUpstream;
  service: TestService;
  browser: TestBrowser;
  /** The demo plan, when the history was seeded. */
  demoPlanId: number | null;
  close(): Promise<void>;
}

/** Builds the dashboard into dist/web (where the service looks), starts the service, seeds it and opens a browser. */
export async function startDashboardRig(options: { seed: boolean; adminToken?: string; config?: Partial<ConfigInput> }): Promise<DashboardRig> {
  await buildDashboard();
  const upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
  const service = await startTestService(new URL(upstream.origin), { ...QUIET_ALERTS, ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }), ...options.config });
  const demoPlanId = options.seed ? seedDemoHistory(service.database().db, Date.now()).planId : null;
  const browser = await launchBrowser();
  return {
    upstream,
    service,
    browser,
    demoPlanId,
    async close() {
      await browser.close();
      await service.dispose();
      await upstream.close();
    },
  };
}

export interface ChartSnapshot {
  datasets: { key: string; label: string; data: { x: number; y: number | null }[] }[];
  markers: { lines: { at: number; label: string }[]; points: { x: number; y: number; label: string }[] };
}

export function isoDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Reads a chart through the read-only handle the page exposes for tests. */
export function readChart(page: Page, name: 'share' | 'volume' | 'outcomes'): Promise<ChartSnapshot> {
  return page.evaluate((chartName) => {
    const chart = (globalThis as any).mcpSunsetCharts[chartName];
    return {
      datasets: chart.data.datasets.map((d: any) => ({ key: d.key, label: d.label, data: d.data.map((p: any) => ({ x: p.x, y: p.y })) })),
      markers: chart.options.plugins.sunsetMarkers || { lines: [], points: [] },
    };
  }, name);
}

/** Waits until the share curve, the volume chart and the integrations table have their data. */
export async function waitForData(page: Page): Promise<void> {
  await page.locator('[data-testid="share-panel"][data-loaded="true"]').waitFor();
  await page.locator('[data-testid="volume-panel"][data-loaded="true"]').waitFor();
  await page.locator('[data-testid="integrations"][data-loaded="true"]').waitFor();
}

export async function openDashboard(page: Page, url: URL): Promise<void> {
  await page.goto(url.href);
  await waitForData(page);
}

/** Remembers the last API URL the page asked for each path, to ask the same question from the test. */
export function recordApiCalls(page: Page): Map<string, string> {
  const calls = new Map<string, string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/')) calls.set(url.pathname, `${url.pathname}${url.search}`);
  });
  return calls;
}
