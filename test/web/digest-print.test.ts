/**
 * The weekly digest's print view, in headless Chromium against the real service, over a seeded
 * fortnight in which every section has something to say: reached from the dashboard, it shows what
 * GET /api/v1/digest answers, the callers the seed moved, and it prints (and makes a PDF) without
 * its buttons, black on white. It asks for the admin token on a 401, and says so when a list is empty.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DigestResponseJson } from '../../server/api/api-json.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { trafficCell } from '../store/temp-database.js';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { DAY_MS, isoDay, openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const HOUR = 3_600_000;
const TOP_CALLERS = 2;
const PDF_DIR = resolve('test-artifacts', 'pdf');
const PAUSE_REASON = 'Partner migration window';

/** Served work requests per caller: `last` falls in the week before the digest's, `this` in its week. */
interface SeedCaller {
  key: string;
  last: { legacy?: number; modern?: number };
  this: { legacy?: number; modern?: number };
  legacyVersion?: string;
  registry?: { displayName?: string; owner?: string; contact?: string };
  /** The people (subject digests) its work came from, by week and era, as an OAuth deployment's tokens name them. */
  people?: { last?: { legacy?: string[] }; this?: { legacy?: string[]; modern?: string[] } };
}

const SEED: readonly SeedCaller[] = [
  // ana used crm-sync too, the week before: one person behind two callers.
  { key: 'crm-sync', last: { legacy: 40 }, this: { modern: 30 }, registry: { displayName: 'CRM sync', owner: 'Sales ops', contact: 'crm@example.com' }, people: { last: { legacy: ['ana', 'fay'] } } },
  {
    key: 'billing',
    last: { legacy: 50 },
    this: { legacy: 60, modern: 20 },
    registry: { displayName: 'Billing', owner: 'Finance', contact: 'billing@example.com' },
    // gus came by the modern path only: behind billing, but not behind its legacy work.
    people: { last: { legacy: ['ana', 'eve'] }, this: { legacy: ['ana', 'ben', 'cy', 'dee'], modern: ['gus'] } },
  },
  { key: 'reports', last: { legacy: 30 }, this: {}, legacyVersion: '2025-03-26', registry: { owner: 'BI team' } },
  { key: 'warehouse', last: { legacy: 100 }, this: { legacy: 100 }, legacyVersion: '2025-03-26', registry: { owner: 'Logistics', contact: '#logistics' } },
  { key: 'ledger', last: {}, this: { legacy: 25 } },
  { key: 'tiny-cron', last: {}, this: { legacy: 5 } },
  { key: 'new-agent', last: { modern: 60 }, this: { modern: 70 } },
  // Nobody can phone the anonymous installed base: never in a list, only in the split.
  { key: 'anonymous', last: { legacy: 20 }, this: { legacy: 45 } },
];

const sum = (pick: (caller: SeedCaller) => number | undefined) => SEED.reduce((total, caller) => total + (pick(caller) ?? 0), 0);

/** The shares and counts as the page writes them (web/src/format.ts), to read the page against the API's numbers. */
const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(2)}%`);
const points = (change: number | null) => (change === null ? '—' : `${change < 0 ? '−' : '+'}${Math.abs(change * 100).toFixed(2)} pp`);
const count = (n: number) => n.toLocaleString('en-US');
const utc = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;
const lastDay = (span: { to: string }) => isoDay(Date.parse(span.to) - 1);

function seedTraffic(service: TestService, today: number): void {
  // Mid-week days, so neither week's edge (today counts up to now) decides anything.
  const lastWeekDay = today - 9 * DAY_MS;
  const thisWeekDay = today - 2 * DAY_MS;
  const modern = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' } as const;
  const cells = SEED.flatMap((caller) => {
    const version = caller.legacyVersion ?? '2025-06-18';
    return [
      [lastWeekDay, caller.last],
      [thisWeekDay, caller.this],
    ].flatMap(([minute, use]) => {
      const { legacy, modern: modernCount } = use as SeedCaller['this'];
      return [
        legacy === undefined ? null : trafficCell({ minute: (minute as number) + 12 * HOUR, integration: caller.key, count: legacy, version }),
        modernCount === undefined ? null : trafficCell({ minute: (minute as number) + 12 * HOUR, integration: caller.key, count: modernCount, ...modern }),
      ].filter((cell) => cell !== null);
    });
  });
  const integrations = SEED.filter((caller) => caller.key !== 'anonymous').map((caller) => {
    const legacyDays = [caller.last.legacy === undefined ? null : lastWeekDay, caller.this.legacy === undefined ? null : thisWeekDay].filter((d) => d !== null);
    return { key: caller.key, source: 'static-map', firstSeen: lastWeekDay, lastSeen: thisWeekDay, lastLegacySeen: legacyDays.at(-1), clientInfo: undefined };
  });
  const people = SEED.flatMap((caller) =>
    (
      [
        [lastWeekDay, 'legacy', caller.people?.last?.legacy],
        [thisWeekDay, 'legacy', caller.people?.this?.legacy],
        [thisWeekDay, 'modern', caller.people?.this?.modern],
      ] as const
    ).flatMap(([day, era, subjects]) =>
      (subjects ?? []).map((subject) => ({ day, integration: caller.key, era, transport: 'streamable-http' as const, version: era === 'legacy' ? (caller.legacyVersion ?? '2025-06-18') : '2026-07-28', subject: `digest-${subject}` })),
    ),
  );
  createTallyWriter(service.database().db)({ cells, integrations, people });
}

/** Distinct subjects over every caller in one week on the legacy path, as the seed names them. */
const seededLegacyPeople = (week: 'last' | 'this') => new Set(SEED.flatMap((caller) => caller.people?.[week]?.legacy ?? [])).size;

async function call(service: TestService, method: 'POST' | 'PATCH', path: string, body: unknown): Promise<any> {
  const response = await fetch(new URL(path, service.apiUrl), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

const texts = (rows: Locator, testId: string) => rows.evaluateAll((els, id) => els.map((el) => el.querySelector(`[data-testid="${id}"]`)?.textContent ?? null), testId);
/** A data attribute of each row (testId null) or of the element with that test id inside it. */
const dataOf = (rows: Locator, testId: string | null, name: string) =>
  rows.evaluateAll((els, [id, key]) => els.map((el) => ((id === null ? el : el.querySelector(`[data-testid="${id}"]`)) as any)?.dataset[key!] ?? null), [testId, name] as const);
const keys = (rows: Locator) => dataOf(rows, null, 'integration');

async function watchCsp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as any).cspViolations = seen;
    (globalThis as any).document.addEventListener('securitypolicyviolation', (event: any) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}

describe('the weekly digest, print-ready', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;
  let eraPlanId: number;
  let pausedPlanId: number;

  beforeAll(async () => {
    // The schedule fires yearly at most: the test sends the one digest it reads back, on demand.
    rig = await startDashboardRig({ seed: false, config: { alerts: { schedule: '0 0 1 1 *', digest: { schedule: '0 0 1 1 *', topCallers: TOP_CALLERS } } } });
    ({ service, browser } = rig);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    seedTraffic(service, today);
    for (const caller of SEED) if (caller.registry !== undefined) await call(service, 'PATCH', `/api/v1/integrations/${caller.key}`, caller.registry);
    const brownoutAt = today + 5 * DAY_MS + 14 * HOUR;
    const brownouts = [{ startsAt: new Date(brownoutAt).toISOString(), endsAt: new Date(brownoutAt + 2 * HOUR).toISOString(), note: 'first brownout' }];
    eraPlanId = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire the legacy era', brownouts }))).id;
    pausedPlanId = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire HTTP+SSE', scope: { kind: 'transport', value: 'http+sse' } }))).id;
    await call(service, 'POST', '/api/v1/pauses', { plans: [pausedPlanId], for: '2h', reason: PAUSE_REASON });
    await call(service, 'POST', '/api/v1/digest/send', {});
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('reached from the dashboard, it shows what the API answers, and prints without its buttons', async () => {
    const page = await browser.newPage();
    await watchCsp(page);
    await openDashboard(page, service.apiUrl);
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/digest');
    await page.click('[data-testid="digest-link"]');
    await page.locator('[data-testid="digest"][data-loaded="true"]').waitFor();
    const seen = (await (await answered).json()) as DigestResponseJson;
    const { status, body: digest } = await service.api<DigestResponseJson>('/api/v1/digest');
    expect(status).toBe(200);
    // The page read the same digest the test reads, but for the instant it was composed.
    expect({ ...seen, generatedAt: digest.generatedAt }).toEqual(digest);
    expect(page.url()).toBe(digest.links.print);
    expect(digest.links.print).toBe(new URL('digest.html', service.apiUrl).href);

    // Title, period and when it was generated.
    expect(await page.textContent('[data-testid="digest-title"]')).toBe('Weekly digest');
    expect(await page.textContent('[data-testid="digest-period"]')).toBe(`${isoDay(Date.parse(digest.period.from))} to ${lastDay(digest.period)}`);
    expect(lastDay(digest.period)).toBe(isoDay(Date.now()));
    expect(await page.textContent('[data-testid="digest-generated"]')).toBe(utc(seen.generatedAt));
    expect(await page.title()).toBe(`mcp-sunset weekly digest ${isoDay(Date.parse(digest.period.from))} to ${lastDay(digest.period)}`);

    // The share, week against week, as the seed implies it and the API computed it.
    const { share } = digest;
    expect([share.legacyRequests, share.servedRequests]).toEqual([sum((c) => c.this.legacy), sum((c) => c.this.legacy) + sum((c) => c.this.modern)]);
    expect(share.previous).toBeCloseTo(sum((c) => c.last.legacy) / (sum((c) => c.last.legacy) + sum((c) => c.last.modern)), 12);
    expect(await page.textContent('[data-testid="share-current"]')).toBe(percent(share.current));
    expect(await page.textContent('[data-testid="share-previous"]')).toBe(percent(share.previous));
    expect(await page.textContent('[data-testid="share-change"]')).toBe(points(share.change));
    expect(await page.textContent('[data-testid="share-counts"]')).toBe(`${count(share.legacyRequests)} legacy of ${count(share.servedRequests)} served work requests this week; target ${percent(share.target)}.`);
    expect(await page.textContent('[data-testid="share-trend"]')).toBe(share.trend.reason);

    // One row per plan, in the API's order, with its status, phase, next stage and pause.
    const plans = page.locator('[data-testid="digest-plan"]');
    expect(await dataOf(plans, null, 'planId')).toEqual(digest.plans.map((p) => String(p.id)));
    expect(digest.plans.map((p) => p.id).sort()).toEqual([eraPlanId, pausedPlanId].sort());
    expect(await texts(plans, 'plan-name')).toEqual(digest.plans.map((p) => p.name));
    expect(await texts(plans, 'plan-scope')).toEqual(digest.plans.map((p) => p.scopeLabel));
    expect(await texts(plans, 'plan-share')).toEqual(digest.plans.map((p) => `now ${percent(p.currentShare)}, target ${percent(p.targetShare)}`));
    expect(await texts(plans, 'plan-action')).toEqual(digest.plans.map((p) => p.action));
    expect(await dataOf(plans, 'plan-status', 'status')).toEqual(digest.plans.map((p) => p.status));
    expect(await dataOf(plans, 'plan-phase', 'phase')).toEqual(digest.plans.map((p) => p.phase));
    expect(await texts(plans, 'plan-retire')).toEqual(digest.plans.map((p) => p.retireDate));
    expect(await texts(plans, 'plan-reason')).toEqual(digest.plans.map((p) => p.statusReason));
    expect(await dataOf(plans, 'plan-next', 'kind')).toEqual(digest.plans.map((p) => p.nextStage?.kind ?? 'none'));
    const eraPlan = digest.plans.find((p) => p.id === eraPlanId)!;
    expect(eraPlan.nextStage).toMatchObject({ kind: 'brownout', note: 'first brownout' });
    const eraRow = page.locator(`[data-testid="digest-plan"][data-plan-id="${eraPlanId}"]`);
    expect(await eraRow.locator('[data-testid="plan-next"]').textContent()).toBe(`Brownout ${utc(eraPlan.nextStage!.at)} – ${utc(eraPlan.nextStage!.endsAt!)} (first brownout)`);
    expect(await eraRow.locator('[data-testid="plan-pause"]').textContent()).toBe('—');
    const paused = digest.plans.find((p) => p.id === pausedPlanId)!;
    expect([paused.phase, paused.pause?.reason]).toEqual(['paused', PAUSE_REASON]);
    expect(await page.locator(`[data-testid="digest-plan"][data-plan-id="${pausedPlanId}"] [data-testid="plan-pause"]`).textContent()).toBe(`Until ${utc(paused.pause!.endsAt)}: ${PAUSE_REASON}`);

    // Who moved: the seed's callers, each in its one list, named and reachable as the registry says.
    const { callers } = digest;
    expect([callers.moved, callers.startedMigrating, callers.wentQuiet].map((list) => list.map((c) => c.integration))).toEqual([['crm-sync'], ['billing'], ['reports']]);
    for (const [testId, list] of [['digest-moved', callers.moved], ['digest-started', callers.startedMigrating], ['digest-quiet', callers.wentQuiet]] as const) {
      const rows = page.locator(`[data-testid="${testId}"] [data-testid="digest-caller"]`);
      expect(await keys(rows)).toEqual(list.map((c) => c.integration));
      expect(await texts(rows, 'caller-name')).toEqual(list.map((c) => c.displayName ?? c.integration));
      expect(await texts(rows, 'caller-owner')).toEqual(list.map((c) => c.owner ?? '—'));
      expect(await texts(rows, 'caller-contact')).toEqual(list.map((c) => c.contact ?? '—'));
      expect(await texts(rows, 'caller-legacy')).toEqual(list.map((c) => count(c.legacyRequests)));
      expect(await texts(rows, 'caller-modern')).toEqual(list.map((c) => count(c.modernRequests)));
      expect(await texts(rows, 'caller-versions')).toEqual(list.map((c) => (c.legacyVersions.length === 0 ? '—' : c.legacyVersions.join(', '))));
    }
    expect(callers.moved[0]).toMatchObject({ displayName: 'CRM sync', owner: 'Sales ops', contact: 'crm@example.com', migration: 'moved', legacyRequests: 0, legacyVersions: ['2025-06-18'] });
    expect(callers.wentQuiet[0]).toMatchObject({ migration: null, legacyVersions: ['2025-03-26'] });

    // The largest remaining identifiable callers, the top few named and the rest counted.
    const stillLegacy = SEED.filter((c) => c.key !== 'anonymous' && (c.this.legacy ?? 0) > 0).sort((a, b) => b.this.legacy! - a.this.legacy!);
    expect(callers.remainingCount).toBe(stillLegacy.length);
    expect(callers.remaining.map((c) => [c.integration, c.legacyRequests])).toEqual(stillLegacy.slice(0, TOP_CALLERS).map((c) => [c.key, c.this.legacy]));
    const remaining = page.locator('[data-testid="digest-remaining-row"]');
    expect(await keys(remaining)).toEqual(callers.remaining.map((c) => c.integration));
    expect(await texts(remaining, 'caller-name')).toEqual(callers.remaining.map((c) => c.displayName ?? c.integration));
    expect(await texts(remaining, 'caller-key')).toEqual(callers.remaining.map((c) => (c.displayName === null ? null : c.integration)));
    expect(await texts(remaining, 'caller-owner')).toEqual(callers.remaining.map((c) => c.owner ?? '—'));
    expect(await texts(remaining, 'caller-contact')).toEqual(callers.remaining.map((c) => c.contact ?? '—'));
    expect(await texts(remaining, 'caller-legacy')).toEqual(callers.remaining.map((c) => count(c.legacyRequests)));
    // The people behind each one's legacy work this week; warehouse names nobody (no credential of its names people).
    expect(callers.remaining.map((c) => [c.integration, c.legacyPeople])).toEqual([
      ['warehouse', null],
      ['billing', SEED.find((c) => c.key === 'billing')!.people!.this!.legacy!.length],
    ]);
    expect(await texts(remaining, 'caller-people')).toEqual(callers.remaining.map((c) => (c.legacyPeople === null ? '—' : count(c.legacyPeople))));
    expect(await texts(remaining, 'caller-share')).toEqual(callers.remaining.map((c) => percent(c.shareOfLegacy)));
    expect(await dataOf(remaining, 'caller-migration', 'state')).toEqual(callers.remaining.map((c) => c.migration));
    expect(await texts(remaining, 'caller-versions')).toEqual(callers.remaining.map((c) => c.legacyVersions.join(', ')));
    expect(await page.textContent('[data-testid="digest-remaining-more"]')).toBe(`and ${callers.remainingCount - callers.remaining.length} more.`);

    // Legacy work split between callers one can phone and the unknown installed base.
    const unknown = SEED.find((c) => c.key === 'anonymous')!.this.legacy!;
    expect(callers.legacy).toEqual({ identifiable: share.legacyRequests - unknown, unknown, total: share.legacyRequests, people: { thisWeek: 4, lastWeek: 3 } });
    expect(await page.textContent('[data-testid="split-identifiable"]')).toBe(`${count(callers.legacy.identifiable)} (${percent(callers.legacy.identifiable / callers.legacy.total)})`);
    expect(await page.textContent('[data-testid="split-unknown"]')).toBe(`${count(callers.legacy.unknown)} (${percent(callers.legacy.unknown / callers.legacy.total)})`);
    expect(await page.textContent('[data-testid="split-total"]')).toBe(count(callers.legacy.total));
    // And the distinct people behind legacy work, week on week: ana, behind two callers, counts once.
    expect(callers.legacy.people).toEqual({ thisWeek: seededLegacyPeople('this'), lastWeek: seededLegacyPeople('last') });
    expect(await page.textContent('[data-testid="split-people"]')).toBe(count(callers.legacy.people.thisWeek));
    expect(await page.textContent('[data-testid="split-people-previous"]')).toBe(count(callers.legacy.people.lastWeek));

    // The schedule, the digest sent before, and the way back.
    expect(digest.schedule).not.toBeNull();
    expect(await page.textContent('[data-testid="schedule-next"]')).toBe(`Next digest: ${utc(digest.schedule!.nextRun!)} (schedule “${digest.schedule!.expression}” in ${digest.schedule!.timeZone}).`);
    expect(digest.lastSent).toMatchObject({ kind: 'on-demand', status: 'no-channels' });
    expect(await page.getAttribute('[data-testid="last-sent"]', 'data-id')).toBe(String(digest.lastSent!.id));
    expect(await page.textContent('[data-testid="last-sent"]')).toContain(`on-demand by ${digest.lastSent!.requestedBy}`);
    expect(await page.getAttribute('[data-testid="digest-dashboard-link"]', 'href')).toBe(digest.links.dashboard);

    // On screen: a print button and a way back.
    expect(await page.isVisible('[data-testid="digest-print"]')).toBe(true);
    expect(await page.isVisible('[data-testid="digest-back"]')).toBe(true);
    await saveScreenshot(page, 'digest-screen');

    await page.emulateMedia({ media: 'print' });
    expect(await page.isVisible('[data-testid="digest-print"]')).toBe(false);
    expect(await page.isVisible('[data-testid="digest-toolbar"]')).toBe(false);
    expect(await page.isVisible('[data-testid="digest-remaining-table"]')).toBe(true);
    const printed = await page.evaluate(() => {
      const page = globalThis as any;
      const style = (selector: string) => page.getComputedStyle(page.document.querySelector(selector));
      return {
        background: style('body').backgroundColor,
        text: style('[data-testid="digest-title"]').color,
        pill: [style('[data-testid="plan-status"]').color, style('[data-testid="plan-status"]').backgroundColor],
        row: style('[data-testid="digest-remaining-row"]').breakInside,
        heading: style('[data-testid="digest-plans"] h2').breakAfter,
      };
    });
    expect(printed).toEqual({ background: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)', pill: ['rgb(0, 0, 0)', 'rgba(0, 0, 0, 0)'], row: 'avoid', heading: 'avoid' });
    await saveScreenshot(page, 'digest-print');

    mkdirSync(PDF_DIR, { recursive: true });
    for (const format of ['A4', 'Letter'] as const) {
      const pdf = await page.pdf({ format });
      writeFileSync(join(PDF_DIR, `digest-${format.toLowerCase()}.pdf`), pdf);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
    }

    expect(await page.evaluate(() => (globalThis as any).cspViolations)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('asks for the admin token when the API answers 401, then loads the digest with it', async () => {
    const page = await browser.newPage();
    const token = 'digest-test-admin-token';
    // This service has no token; the route plays one that has, so only a request carrying it passes.
    await page.route('**/api/v1/digest', (route) =>
      route.request().headers().authorization === `Bearer ${token}`
        ? route.continue()
        : route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unauthorized', message: 'this API needs the admin token' } }) }),
    );
    await page.goto(new URL('digest.html', service.apiUrl).href);
    await page.locator('[data-testid="token-form"]').waitFor({ state: 'visible' });
    expect(await page.textContent('[data-testid="digest"]')).toBe('Waiting for the admin token…');
    await page.fill('[data-testid="token-input"]', token);
    await page.click('[data-testid="token-submit"]');
    await page.locator('[data-testid="digest"][data-loaded="true"]').waitFor();
    expect(await page.isVisible('[data-testid="token-form"]')).toBe(false);
    expect(await page.textContent('[data-testid="digest-title"]')).toBe('Weekly digest');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('says plainly when a section has nothing in it', async () => {
    const page = await browser.newPage();
    const { body: digest } = await service.api<DigestResponseJson>('/api/v1/digest');
    const quiet: DigestResponseJson = {
      ...digest,
      share: { ...digest.share, current: null, previous: null, change: null, legacyRequests: 0, servedRequests: 0 },
      plans: [],
      callers: { moved: [], startedMigrating: [], wentQuiet: [], remaining: [], remainingCount: 0, legacy: { identifiable: 0, unknown: 0, total: 0, people: { thisWeek: 0, lastWeek: 0 } } },
      schedule: null,
      lastSent: null,
    };
    await page.route('**/api/v1/digest', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(quiet) }));
    await page.goto(new URL('digest.html', service.apiUrl).href);
    await page.locator('[data-testid="digest"][data-loaded="true"]').waitFor();
    const empty = async (testId: string) => page.textContent(`[data-testid="${testId}"]`);
    expect(await empty('digest-plans-empty')).toBe('No retirement plan yet.');
    expect(await empty('digest-moved-empty')).toBe('No caller moved this week.');
    expect(await empty('digest-started-empty')).toBe('No caller started migrating this week.');
    expect(await empty('digest-quiet-empty')).toBe('No caller went quiet this week.');
    expect(await empty('digest-remaining-empty')).toBe('No identifiable caller sent legacy work this week.');
    expect(await empty('digest-split-empty')).toBe('No legacy work was served this week.');
    expect(await empty('share-counts')).toBe('Nothing was served this week, so there is no share to give.');
    expect(await empty('share-current')).toBe('—');
    expect(await empty('schedule-next')).toBe('This node sends no digest on a schedule.');
    expect(await empty('last-sent')).toBe('No digest has been sent yet.');
    await saveScreenshot(page, 'digest-empty');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
