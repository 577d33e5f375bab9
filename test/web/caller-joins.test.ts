/**
 * Joining names into one caller from its dialog, in headless Chromium against the real service
 * behind an admin token: the join folds the names' counts into one row, the dialog lists them with
 * an Undo, the audit trail records both, and a join the API refuses is said in the API's words, as text.
 */
import { resolve } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { trafficCell } from '../store/temp-database.js';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot } from './browser.js';
import { DAY_MS, startDashboardRig, waitForData, type DashboardRig } from './dashboard-support.js';

const OPS = 'ops-dashboard-token-0123456789';
const TODAY = Math.floor(Date.now() / DAY_MS) * DAY_MS;
// No quotes inside, so it can be typed in quotes; spaces inside, so it must be.
const HOSTILE = '<img src=x onerror=globalThis.pwned=1>';

/** billing 90 legacy, its gateway (a key with a space) 30, an old token of it 5, crm-sync 40 legacy and 25 modern. */
function seed(service: TestService): void {
  const sighting = (key: string, source: string) => ({ key, source, firstSeen: TODAY - 3 * DAY_MS, lastSeen: TODAY - DAY_MS, lastLegacySeen: TODAY - DAY_MS, clientInfo: undefined });
  createTallyWriter(service.database().db)({
    cells: [
      trafficCell({ minute: TODAY - DAY_MS, integration: 'billing', count: 90 }),
      trafficCell({ minute: TODAY - DAY_MS, integration: 'billing gateway', count: 30 }),
      trafficCell({ minute: TODAY - 2 * DAY_MS, integration: 'tok_old', count: 5 }),
      trafficCell({ minute: TODAY - DAY_MS, integration: 'crm-sync', count: 40 }),
      trafficCell({ minute: TODAY - DAY_MS, integration: 'crm-sync', count: 25, era: 'modern', reason: 'modern-meta', version: '2026-07-28' }),
    ],
    integrations: [sighting('billing', 'static-map'), sighting('billing gateway', 'gateway-header'), sighting('tok_old', 'bearer-fingerprint'), sighting('crm-sync', 'static-map')],
  });
}

/** The dialog alone: a full-page picture would show it over a dimmed page. */
const shootDialog = (page: Page, name: string) => page.locator('#integration-dialog').screenshot({ path: resolve('test-artifacts', 'screenshots', `${name}.png`) });

/** Each row's key and legacy volume, as the table shows them. */
const legacyColumn = (page: Page) =>
  page.locator('[data-testid="integration-row"]').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-key'), r.querySelectorAll('td')[4]!.textContent]));

async function waitForRows(page: Page, keys: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) => JSON.stringify([...(globalThis as any).document.querySelectorAll('[data-testid="integration-row"]')].map((r: any) => r.dataset.key).sort()) === JSON.stringify(expected),
    [...keys].sort(),
  );
}

describe("joining names into a caller, in the caller's dialog", () => {
  let rig: DashboardRig;
  let service: TestService;

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, service.apiUrl), {
      method,
      headers: { authorization: `Bearer ${OPS}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const openCaller = async (page: Page, key: string) => {
    await page.locator(`[data-testid="integration-row"][data-key="${key}"] td`).nth(3).click();
    await page.locator('[data-testid="join-form"]').waitFor({ state: 'visible' });
  };

  const openDashboard = async () => {
    const page = await rig.browser.newPage();
    await page.goto(service.apiUrl.href);
    await page.fill('#token-input', OPS);
    await page.click('[data-testid="token-submit"]');
    await waitForData(page);
    return page;
  };

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false, config: { adminTokens: [{ name: 'ops', token: OPS }] } });
    service = rig.service;
    seed(service);
  }, 120_000);
  afterAll(() => rig?.close());

  test('a join folds the names into one row with their legacy work summed, lists them in the dialog and the audit trail, and Undo gives one its own row back', async () => {
    const page = await openDashboard();
    expect(await legacyColumn(page)).toEqual([['billing', '90'], ['crm-sync', '40'], ['billing gateway', '30'], ['tok_old', '5']]);

    await openCaller(page, 'billing');
    expect(await page.textContent('[data-testid="caller-aliases-none"]')).toBe('No other names are joined into this caller.');
    // The other callers in the table are offered, never the caller itself.
    expect(await page.locator('[data-testid="join-suggestions"] option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['crm-sync', 'billing gateway', 'tok_old']);
    // Past the first name, each suggestion keeps the names typed before it.
    await page.fill('[data-testid="join-names"]', 'billing gateway, ');
    expect(await page.locator('[data-testid="join-suggestions"] option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['billing gateway, crm-sync', 'billing gateway, tok_old']);

    const joins: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/aliases')) joins.push(request);
    });
    await page.fill('[data-testid="join-names"]', 'billing gateway,  tok_old');
    await page.fill('[data-testid="join-note"]', 'The gateway in front of billing, and its old token');
    await page.click('[data-testid="join-submit"]');
    await waitForRows(page, ['billing', 'crm-sync']);
    await page.locator('[data-testid="caller-alias"][data-alias="tok_old"]').waitFor();

    // One request, as JSON, with the page's token; the names as typed, split on commas and spaces.
    expect(joins).toHaveLength(1);
    expect(joins[0]!.url()).toBe(new URL('/api/v1/integrations/billing/aliases', service.apiUrl).href);
    expect(joins[0]!.headers()['content-type']).toBe('application/json');
    expect(joins[0]!.headers().authorization).toBe(`Bearer ${OPS}`);
    expect(joins[0]!.postDataJSON()).toEqual({ aliases: ['billing gateway', 'tok_old'], note: 'The gateway in front of billing, and its old token' });

    // The table shows what the API counts: billing with its names folded in.
    const api = (await call('GET', '/api/v1/integrations')).body.integrations as { key: string; legacyServed: number; aliases: string[] }[];
    expect(api.map((i) => [i.key, i.legacyServed, i.aliases])).toEqual([['billing', 125, ['billing gateway', 'tok_old']], ['crm-sync', 40, []]]);
    expect(await legacyColumn(page)).toEqual([['billing', '125'], ['crm-sync', '40']]);
    expect(await page.textContent('[data-testid="integration-row"][data-key="billing"] [data-testid="integration-aliases"]')).toBe('joined: billing gateway, tok_old');
    expect(await page.locator('[data-testid="caller-alias"]').evaluateAll((items) => items.map((i) => i.getAttribute('data-alias')))).toEqual(['billing gateway', 'tok_old']);
    expect(await page.inputValue('[data-testid="join-names"]')).toBe('');
    // Joined names are no longer offered: they are not callers of their own now.
    expect(await page.locator('[data-testid="join-suggestions"] option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['crm-sync']);

    // The audit trail says it, once per name.
    await page.locator('[data-testid="audit-row"][data-action="caller.join"]').nth(1).waitFor();
    const joinedRows = await page.locator('[data-testid="audit-row"][data-action="caller.join"]').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent)));
    expect(joinedRows).toHaveLength(2);
    for (const row of joinedRows) expect(row.slice(0, 2)).toEqual(['token:ops', 'Name joined into a caller']);
    await saveScreenshot(page, 'caller-join');
    await shootDialog(page, 'caller-join-dialog');

    // Undo asks first; declined, nothing happens.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    const undo = page.locator('[data-testid="caller-alias"][data-alias="billing gateway"] [data-testid="caller-alias-undo"]');
    await undo.click();
    expect(asked).toEqual(["Undo the join of billing gateway into billing? billing gateway gets its own history back: its counts, past and future, are read as its own again."]);
    expect((await call('GET', '/api/v1/integrations/billing')).body.aliases).toEqual(['billing gateway', 'tok_old']);

    page.once('dialog', (dialog) => void dialog.accept());
    await undo.click();
    await waitForRows(page, ['billing', 'crm-sync', 'billing gateway']);
    await page.locator('[data-testid="caller-alias"][data-alias="billing gateway"]').waitFor({ state: 'detached' });
    expect(await legacyColumn(page)).toEqual([['billing', '95'], ['crm-sync', '40'], ['billing gateway', '30']]);
    expect(await page.locator('[data-testid="caller-alias"]').evaluateAll((items) => items.map((i) => i.getAttribute('data-alias')))).toEqual(['tok_old']);
    expect((await call('GET', '/api/v1/integrations/billing')).body.aliases).toEqual(['tok_old']);
    await page.locator('[data-testid="audit-row"][data-action="caller.unjoin"]').waitFor();
    expect(await page.locator('[data-testid="audit-row"][data-action="caller.unjoin"] td').nth(2).textContent()).toBe('Join undone');

    // The last one too: both rows are back as they were.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('[data-testid="caller-alias-undo"]').click();
    await page.locator('[data-testid="caller-aliases-none"]').waitFor();
    await waitForRows(page, ['billing', 'crm-sync', 'billing gateway', 'tok_old']);
    expect(await legacyColumn(page)).toEqual([['billing', '90'], ['crm-sync', '40'], ['billing gateway', '30'], ['tok_old', '5']]);
    expect(await page.locator('[data-testid="integration-aliases"]').count()).toBe(0);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test("a join the API refuses is said in the API's words, as text, next to the form, and changes nothing", async () => {
    // A hostile name already joined into crm-sync: joining it elsewhere is refused, and the refusal names it.
    expect((await call('POST', '/api/v1/integrations/crm-sync/aliases', { aliases: [HOSTILE] })).status).toBe(201);
    const page = await openDashboard();
    await openCaller(page, 'billing');
    const error = page.locator('#join-form-error [role="alert"]');

    // Nothing typed: said by the page, nothing asked.
    await page.click('[data-testid="join-submit"]');
    expect(await error.textContent()).toBe('Type at least one name to join.');

    const refused = await call('POST', '/api/v1/integrations/billing/aliases', { aliases: [HOSTILE] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.parameter).toBe('aliases');
    await page.fill('[data-testid="join-names"]', `"${HOSTILE}"`);
    await page.click('[data-testid="join-submit"]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#join-form-error')?.textContent.startsWith('Not joined:'));
    expect(await error.textContent()).toBe(`Not joined: ${refused.body.error.message}`);
    expect(refused.body.error.message).toContain(HOSTILE);
    expect(await page.locator('#integration-dialog img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
    expect(await page.getAttribute('[data-testid="join-names"]', 'aria-invalid')).toBe('true');
    await shootDialog(page, 'caller-join-refused');

    // A caller into itself: the API answers 400, said the same way.
    await page.fill('[data-testid="join-names"]', 'billing');
    await page.click('[data-testid="join-submit"]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#join-form-error')?.textContent.includes('into itself'));
    expect(await error.textContent()).toBe('Not joined: billing cannot be joined into itself');
    await page.click('#integration-cancel');

    // Into a caller that became a name of another meanwhile (another operator joined it): the API
    // says where to join instead, and the names typed are not at fault.
    await openCaller(page, 'billing gateway');
    expect((await call('POST', '/api/v1/integrations/billing/aliases', { aliases: ['billing gateway'] })).status).toBe(201);
    await page.fill('[data-testid="join-names"]', 'tok_old');
    await page.click('[data-testid="join-submit"]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#join-form-error')?.textContent.includes('itself joined'));
    expect(await error.textContent()).toBe('Not joined: billing gateway is itself joined into billing: join into billing instead');
    expect(await page.getAttribute('[data-testid="join-names"]', 'aria-invalid')).toBeNull();
    expect((await call('GET', '/api/v1/integrations/billing')).body.aliases).toEqual(['billing gateway']);
    expect((await call('GET', '/api/v1/integrations/tok_old')).status).toBe(200);

    expect((await call('DELETE', `/api/v1/integrations/billing/aliases/${encodeURIComponent('billing gateway')}`)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/integrations/crm-sync/aliases/${encodeURIComponent(HOSTILE)}`)).status).toBe(200);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
