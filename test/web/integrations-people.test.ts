/**
 * The people behind each caller, on the dashboard, in headless Chromium against the real service
 * over seeded people (as an OAuth deployment's verified tokens name them): the integrations table's
 * People column and its order by people (kept in the URL across a reload and a refresh of the
 * table), the caller's dialog with its people per day, and the dry run's people.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PersonSighting } from '../../server/tally/tally-cell.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { trafficCell } from '../store/temp-database.js';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot } from './browser.js';
import { DAY_MS, isoDay, openDashboard, startDashboardRig, waitForData, type DashboardRig } from './dashboard-support.js';

const DESK = 'oauth:https://desk.example/client.json';
const REPORTS = 'oauth:https://reports.example/client.json';
const TODAY = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const MODERN = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' } as const;

function person(day: number, integration: string, subject: string, era: 'legacy' | 'modern' = 'legacy'): PersonSighting {
  return { day, integration, era, transport: 'streamable-http', version: era === 'legacy' ? '2025-06-18' : '2026-07-28', subject: `digest-${subject}` };
}

/**
 * desk: alice and bob on legacy two days ago, carol on both eras yesterday, dave on modern: 3 · 2, 4 in all.
 * reports: alice (desk's too) and four more on legacy yesterday: 5 · 0. billing and new-agent name nobody.
 */
function seed(service: TestService): void {
  const sighting = (key: string, source: string, legacy: boolean) => ({ key, source, firstSeen: TODAY - 3 * DAY_MS, lastSeen: TODAY - DAY_MS, lastLegacySeen: legacy ? TODAY - DAY_MS : undefined, clientInfo: undefined });
  createTallyWriter(service.database().db)({
    cells: [
      trafficCell({ minute: TODAY - 2 * DAY_MS, integration: DESK, count: 40 }),
      trafficCell({ minute: TODAY - DAY_MS, integration: DESK, count: 10, ...MODERN }),
      trafficCell({ minute: TODAY - DAY_MS, integration: REPORTS, count: 20 }),
      trafficCell({ minute: TODAY - DAY_MS, integration: 'billing', count: 90 }),
      trafficCell({ minute: TODAY - DAY_MS, integration: 'new-agent', count: 70, ...MODERN }),
    ],
    integrations: [sighting(DESK, 'oauth', true), sighting(REPORTS, 'oauth', true), sighting('billing', 'static-map', true), sighting('new-agent', 'static-map', false)],
    people: [
      person(TODAY - 2 * DAY_MS, DESK, 'alice'),
      person(TODAY - 2 * DAY_MS, DESK, 'bob'),
      person(TODAY - DAY_MS, DESK, 'carol'),
      person(TODAY - DAY_MS, DESK, 'carol', 'modern'),
      person(TODAY - DAY_MS, DESK, 'dave', 'modern'),
      ...['alice', 'erin', 'frank', 'gina', 'hal'].map((name) => person(TODAY - DAY_MS, REPORTS, name)),
    ],
  });
}

const rowKeys = (page: Page) => page.locator('[data-testid="integration-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
const peopleTexts = (page: Page) =>
  page.locator('[data-testid="integration-row"]').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-key'), r.querySelector('[data-testid="integration-people"]')!.textContent]));

/** Waits until the table lists the callers in this order. */
async function waitForOrder(page: Page, keys: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) => JSON.stringify([...(globalThis as any).document.querySelectorAll('[data-testid="integration-row"]')].map((r: any) => r.dataset.key)) === JSON.stringify(expected),
    keys,
  );
}

function watchIntegrationsAsks(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/integrations') asked.push(url.search);
  });
  return asked;
}

const texts = (rows: Locator, testId: string) => rows.evaluateAll((els, id) => els.map((el) => el.querySelector(`[data-testid="${id}"]`)?.textContent ?? null), testId);

describe('people behind each caller, on the dashboard', () => {
  let rig: DashboardRig;
  let service: TestService;
  let planId: number;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    service = rig.service;
    seed(service);
    planId = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire the legacy era' }))).id;
  }, 120_000);
  afterAll(() => rig?.close());

  test('the People column says legacy · modern people per caller, and the order switch lists the most people first, kept across a reload', async () => {
    const page = await rig.browser.newPage();
    const asked = watchIntegrationsAsks(page);
    await openDashboard(page, service.apiUrl);

    // Most legacy work first, as before; each caller's people as the API counts them.
    expect(await rowKeys(page)).toEqual(['billing', DESK, REPORTS, 'new-agent']);
    expect(await peopleTexts(page)).toEqual([
      ['billing', '—'],
      [DESK, '3 · 2'],
      [REPORTS, '5 · 0'],
      ['new-agent', '—'],
    ]);
    const api = (await service.api('/api/v1/integrations')).body.integrations as { key: string; people: { legacy: number; modern: number; total: number } | null }[];
    expect(api.map((i) => [i.key, i.people])).toEqual([
      ['billing', null],
      [DESK, { legacy: 3, modern: 2, total: 4 }],
      [REPORTS, { legacy: 5, modern: 0, total: 5 }],
      ['new-agent', null],
    ]);
    const deskCell = page.locator(`[data-testid="integration-row"][data-key="${DESK}"] [data-testid="integration-people"]`);
    expect(await deskCell.getAttribute('title')).toBe('Distinct people over 30 days: 3 on legacy, 2 on modern, 4 in all (one who used both eras counts once).');
    expect(await page.locator('[data-testid="integration-row"][data-key="billing"] [data-testid="integration-people"]').getAttribute('data-state')).toBe('none');
    expect(await page.inputValue('[data-testid="integrations-order"]')).toBe('legacy');
    expect(asked.at(-1)).toBe('');
    await saveScreenshot(page, 'integrations-people');

    // By people: the API is asked to order, the page lists what it answers, and the URL keeps the choice.
    await page.selectOption('[data-testid="integrations-order"]', 'people');
    const byPeople = [REPORTS, DESK, 'billing', 'new-agent'];
    await waitForOrder(page, byPeople);
    expect(asked.at(-1)).toBe('?orderBy=people');
    expect(((await service.api('/api/v1/integrations?orderBy=people')).body.integrations as { key: string }[]).map((i) => i.key)).toEqual(byPeople);
    expect(await page.textContent('[data-testid="integrations-note"]')).toContain('most people first');
    expect(new URL(page.url()).hash).toContain('callers=people');
    await saveScreenshot(page, 'integrations-by-people');

    // A reload keeps it, from the URL.
    await page.reload();
    await waitForData(page);
    expect(await page.inputValue('[data-testid="integrations-order"]')).toBe('people');
    expect(await rowKeys(page)).toEqual(byPeople);
    expect(asked.at(-1)).toBe('?orderBy=people');

    // And so does the table's own refresh, after a save in a caller's dialog.
    await page.locator(`[data-testid="integration-row"][data-key="${DESK}"] td`).nth(3).click();
    await page.locator('[data-testid="integration-form"]').waitFor({ state: 'visible' });
    await page.fill('#integration-display-name', 'Help desk');
    const refreshed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/integrations');
    await page.click('[data-testid="integration-save"]');
    await refreshed;
    await page.waitForFunction((key) => (globalThis as any).document.querySelector(`[data-key="${key}"] [data-testid="integration-edit"]`)?.textContent === 'Help desk', DESK);
    expect(asked.at(-1)).toBe('?orderBy=people');
    expect(await rowKeys(page)).toEqual(byPeople);

    // Back to legacy work: the parameter goes, and so does the URL's mark.
    await page.selectOption('[data-testid="integrations-order"]', 'legacy');
    await waitForOrder(page, ['billing', DESK, REPORTS, 'new-agent']);
    expect(asked.at(-1)).toBe('');
    expect(new URL(page.url()).hash).not.toContain('callers=');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test("a caller's dialog shows its people per era and per day, as GET /integrations/:key/people answers; one that names nobody says so", async () => {
    const page = await rig.browser.newPage();
    await openDashboard(page, service.apiUrl);
    await page.locator(`[data-testid="integration-row"][data-key="${DESK}"] td`).nth(3).click();
    await page.locator('[data-testid="caller-people"][data-loaded="true"]').waitFor();
    expect(await page.textContent('[data-testid="caller-people-summary"]')).toBe('Last 30 days: 3 on legacy, 2 on modern, 4 in all (one who used both eras counts once).');
    const { body } = await service.api(`/api/v1/integrations/${encodeURIComponent(DESK)}/people`);
    expect(body.days).toEqual([
      { day: new Date(TODAY - 2 * DAY_MS).toISOString(), legacy: 2, modern: 0, total: 2 },
      { day: new Date(TODAY - DAY_MS).toISOString(), legacy: 1, modern: 2, total: 2 },
    ]);
    const days = page.locator('[data-testid="caller-people-day"]');
    expect(await days.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-day')))).toEqual([isoDay(TODAY - 2 * DAY_MS), isoDay(TODAY - DAY_MS)]);
    expect(await texts(days, 'day-legacy')).toEqual(['2', '1']);
    expect(await texts(days, 'day-modern')).toEqual(['0', '2']);
    expect(await texts(days, 'day-total')).toEqual(['2', '2']);
    await saveScreenshot(page, 'integration-dialog-people');

    await page.click('#integration-cancel');
    await page.locator('[data-testid="integration-row"][data-key="billing"] td').nth(3).click();
    await page.locator('[data-testid="caller-people-none"]').waitFor();
    expect(await page.textContent('[data-testid="caller-people-none"]')).toBe('No credential of this caller named people in the last 30 days: only verified OAuth tokens do.');
    expect(await page.locator('[data-testid="caller-people-day"]').count()).toBe(0);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('the dry run gives each caller its people in scope and the distinct people behind the refused callers', async () => {
    const page = await rig.browser.newPage();
    await openDashboard(page, service.apiUrl);
    const item = page.locator(`[data-testid="plan-item"][data-plan-id="${planId}"]`);
    await item.locator('[data-testid="dry-run"] summary').click();
    await item.locator('[data-testid="dry-run-button"]').click();
    await item.locator('[data-testid="dry-run-output"][data-loaded="true"]').waitFor();
    const { body } = await service.api(`/api/v1/plans/${planId}/dry-run`);
    // alice uses desk and reports: seven people behind three callers, not eight.
    expect(body.totals.refusedPeople).toBe(7);
    expect((body.callers as { integration: string; people: number | null }[]).map((c) => [c.integration, c.people])).toEqual([
      ['billing', null],
      [DESK, 3],
      [REPORTS, 5],
    ]);
    const rows = item.locator('[data-testid="dry-run-caller"]');
    expect(await rows.evaluateAll((els) => els.map((el) => [el.getAttribute('data-integration'), el.querySelector('[data-testid="dry-run-people"]')!.textContent]))).toEqual([
      ['billing', '—'],
      [DESK, '3'],
      [REPORTS, '5'],
    ]);
    expect(await item.locator('[data-testid="dry-run-refused-people"]').textContent()).toBe('7');
    expect(await item.locator('[data-testid="dry-run-summary"]').textContent()).toContain('7 people behind the refused callers');
    // The table scrolls sideways in the plans panel: bring the People column into view for the picture.
    await item.locator('[data-testid="dry-run-people"]').first().evaluate((cell) => cell.scrollIntoView({ block: 'center', inline: 'center' }));
    await saveScreenshot(page, 'dry-run-people');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test("the application's own name (clientName), when the API gives it, is shown beside the caller as its claim, as text", async () => {
    const patch = await fetch(new URL(`/api/v1/integrations/${encodeURIComponent(DESK)}`, service.apiUrl), { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Help desk' }) });
    expect(patch.status).toBe(200);
    const page = await rig.browser.newPage();
    const hostile = '<img src=x onerror="globalThis.pwned=1">Reports';
    // Another change adds clientName to the API; until every server has it, the answer is given it here.
    await page.route(
      (url) => url.pathname === '/api/v1/integrations',
      async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { integrations: { key: string; clientName?: string | null }[] };
        for (const integration of json.integrations) integration.clientName = integration.key === REPORTS ? hostile : integration.key === DESK ? 'Desk App' : null;
        await route.fulfill({ response, json });
      },
    );
    await openDashboard(page, service.apiUrl);
    const cell = (key: string, testId: string) => page.locator(`[data-testid="integration-row"][data-key="${key}"] [data-testid="${testId}"]`);
    // A self-chosen name never stands in for the key: it is said beside it, as written.
    expect(await cell(REPORTS, 'integration-edit').textContent()).toBe(REPORTS);
    expect(await cell(REPORTS, 'integration-client-name').textContent()).toBe(`calls itself “${hostile}”`);
    expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
    expect(await page.locator('[data-testid="integrations"] img').count()).toBe(0);
    // Under an operator's display name, with the key.
    expect(await cell(DESK, 'integration-edit').textContent()).toBe('Help desk');
    expect(await cell(DESK, 'integration-key').textContent()).toBe(DESK);
    expect(await cell(DESK, 'integration-client-name').textContent()).toBe('calls itself “Desk App”');
    // None given: nothing said.
    expect(await cell('billing', 'integration-client-name').count()).toBe(0);
    await saveScreenshot(page, 'integrations-client-name');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
