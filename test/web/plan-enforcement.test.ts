/**
 * A plan's enforcement on the dashboard, in headless Chromium against the real service: set through
 * the form, drawn as a timeline with the refusals the store counted, read-only when declared in the
 * config file, and a dry run asked of the API.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeQuietCallers } from '../../server/alerts/close-quiet-callers.js';
import { writeBatch } from '../support/write-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import type { TestService } from '../support/start-test-service.js';
import { trafficCell } from '../store/temp-database.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { DAY_MS, isoDay, openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const NOW = Date.now();

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
const TODAY = Date.parse(`${isoDay(NOW)}T00:00:00Z`);
const BLOCK_NEW = TODAY - 10 * DAY_MS;

/** Refusals and would-blocks in the legacy scope, some inside the block-new stretch and some not. */
const cells: TallyCell[] = [
  trafficCell({ minute: BLOCK_NEW + 2 * DAY_MS + 3_600_000, outcome: 'blocked', integration: 'tok_new', count: 7 }),
  trafficCell({ minute: BLOCK_NEW + 5 * DAY_MS, outcome: 'blocked', integration: 'anonymous', count: 4 }),
  trafficCell({ minute: BLOCK_NEW + 6 * DAY_MS, outcome: 'served', integration: 'tok_old', count: 9, wouldBlockCount: 2 }),
  // Before the block-new date, and out of scope: counted by no window.
  trafficCell({ minute: BLOCK_NEW - 3 * DAY_MS, outcome: 'blocked', integration: 'tok_new', count: 50 }),
  trafficCell({ minute: BLOCK_NEW + 3 * DAY_MS, era: 'modern', reason: 'modern-meta', outcome: 'blocked', integration: 'tok_new', count: 60 }),
];
const EXPECTED = { refused: 7 + 4, wouldBlock: 2 };

describe('a plan\'s enforcement on the dashboard', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    ({ service, browser } = rig);
    await writeBatch(service.store!, { cells, integrations: [] });
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('a plan created with enforcement through the form shows its timeline with the refusals counted in each window', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    await page.fill('#plan-name', 'Retire legacy, enforced');
    await page.fill('#plan-announce', isoDay(TODAY - 30 * DAY_MS));
    await page.fill('#plan-retire', isoDay(TODAY + 30 * DAY_MS));
    await page.check('input[name="action"][value="deny"]');
    await page.fill('#plan-block-new', isoDay(BLOCK_NEW));
    await page.fill('#plan-quiet-days', '14');
    await page.fill('#plan-backstop', isoDay(TODAY + 60 * DAY_MS));
    await page.fill('#plan-gate-max', '1');
    for (const key of ['tok_partner', 'tok_partner']) {
      await page.click('[data-testid="plan-exemption-add"]');
      const row = page.locator('[data-testid="plan-exemption-row"]').last();
      await row.locator('[data-field="integration"]').fill(key);
      await row.locator('[data-field="until"]').fill(isoDay(TODAY + 5 * DAY_MS));
    }

    // Deny without a policy URL: the server names the field, and the message sits beside it.
    await page.click('[data-testid="plan-submit"]');
    await page.locator('#plan-form-error [role="alert"]').waitFor();
    expect(await page.getAttribute('#plan-policy', 'aria-invalid')).toBe('true');
    expect(await page.locator('#plan-policy').locator('xpath=..').locator('[data-testid="plan-field-error"]').textContent()).toContain('policyUrl');

    // The same integration exempted twice: the second row's key is marked.
    await page.fill('#plan-policy', 'https://example.com/legacy-sunset');
    await page.click('[data-testid="plan-submit"]');
    await page.locator('[data-testid="plan-field-error"]', { hasText: 'exempted twice' }).waitFor();
    const rows = page.locator('[data-testid="plan-exemption-row"]');
    expect(await rows.nth(1).locator('[data-field="integration"]').getAttribute('aria-invalid')).toBe('true');
    expect(await rows.nth(0).locator('[data-field="integration"]').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getAttribute('#plan-policy', 'aria-invalid')).toBeNull();

    await rows.nth(1).locator('[data-field="integration"]').fill('tok_vendor');
    await rows.nth(1).locator('[data-field="note"]').fill('upgrade booked');
    await page.click('[data-testid="plan-submit"]');
    const item = page.locator('[data-testid="plan-item"]', { hasText: 'Retire legacy, enforced' });
    await item.waitFor();

    const { body } = await service.api('/api/v1/plans');
    const plan = body.plans.find((p: any) => p.name === 'Retire legacy, enforced');
    expect(plan).toMatchObject({
      action: 'deny',
      blockNewCallersFrom: isoDay(BLOCK_NEW),
      quietDays: 14,
      gate: { backstopDate: isoDay(TODAY + 60 * DAY_MS), maxShare: 0.01 },
      exemptions: [
        { integration: 'tok_partner', until: isoDay(TODAY + 5 * DAY_MS), note: null },
        { integration: 'tok_vendor', until: isoDay(TODAY + 5 * DAY_MS), note: 'upgrade booked' },
      ],
    });

    const windows = item.locator('[data-testid="timeline-window"]');
    expect(await windows.evaluateAll((els) => els.map((el) => [el.getAttribute('data-kind'), el.getAttribute('data-state')]))).toEqual([
      ['announce', 'in-force'],
      ['block-new', 'in-force'],
      ['retire', 'upcoming'],
      ['cut', 'upcoming'],
      ['backstop', 'upcoming'],
    ]);
    const blockNew = item.locator('[data-testid="timeline-window"][data-kind="block-new"] [data-testid="timeline-counts"]');
    expect(await blockNew.getAttribute('data-refused')).toBe(String(EXPECTED.refused));
    expect(await blockNew.getAttribute('data-would-block')).toBe(String(EXPECTED.wouldBlock));
    expect(await blockNew.textContent()).toBe(`${EXPECTED.refused} refused · ${EXPECTED.wouldBlock} would-block`);
    expect(await blockNew.getAttribute('title')).toContain('counted in each window it falls in');
    expect(await item.locator('[data-testid="plan-phase"]').textContent()).toBe('Blocking new callers');
    expect(await item.locator('[data-testid="plan-gate"]').textContent()).toBe(`Gate: ${plan.enforcement.gate.words}`);
    // tok_old was served in scope six days ago: it would hold the gate today.
    expect(await item.locator('[data-testid="plan-gate-holding"]').textContent()).toContain('tok_old');
    expect(await item.locator('[data-testid="plan-exemption"]').allTextContents()).toEqual([
      `tok_partner exempt through ${isoDay(TODAY + 5 * DAY_MS)} active`,
      `tok_vendor exempt through ${isoDay(TODAY + 5 * DAY_MS)} active — upgrade booked`,
    ]);
    await saveScreenshot(page, 'plan-enforcement');
    await item.screenshot({ path: 'test-artifacts/screenshots/plan-enforcement-timeline.png' });

    // Editing fills the enforcement fields back in.
    await item.locator('[data-testid="plan-edit"]').click();
    await page.locator('[data-testid="plan-form"]').screenshot({ path: 'test-artifacts/screenshots/plan-form-enforcement.png' });
    expect(await page.isChecked('input[name="action"][value="deny"]')).toBe(true);
    expect(await page.inputValue('#plan-block-new')).toBe(isoDay(BLOCK_NEW));
    expect(await page.inputValue('#plan-gate-max')).toBe('1');
    expect(await page.locator('[data-testid="plan-exemption-row"]').count()).toBe(2);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('a deny plan on a transport modern clients use is saved only once the form acknowledges it', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    await page.fill('#plan-name', 'Cut Streamable HTTP');
    await page.selectOption('#plan-scope-kind', 'transport');
    await page.selectOption('#plan-scope-transport', 'streamable-http');
    await page.fill('#plan-announce', isoDay(TODAY - 30 * DAY_MS));
    await page.fill('#plan-retire', isoDay(TODAY + 30 * DAY_MS));
    await page.check('input[name="action"][value="deny"]');
    await page.fill('#plan-policy', 'https://example.com/transport-sunset');
    await page.click('[data-testid="plan-submit"]');
    await page.locator('[data-testid="plan-field-error"]', { hasText: 'modern client cannot fall back' }).waitFor();
    expect(await page.getAttribute('input[name="acknowledgeRefusingModern"]', 'aria-invalid')).toBe('true');
    await page.check('input[name="acknowledgeRefusingModern"]');
    await page.click('[data-testid="plan-submit"]');
    await expect.poll(async () => (await service.api<{ plans: { name: string; action: string }[] }>('/api/v1/plans')).body.plans.filter((p) => p.name === 'Cut Streamable HTTP')).toEqual([expect.objectContaining({ action: 'deny' })]);
    await page.close();
    // Archived again, so the plans the tests below read are theirs alone.
    const { body } = await service.api<{ plans: { id: number; name: string }[] }>('/api/v1/plans');
    const made = body.plans.find((p) => p.name === 'Cut Streamable HTTP')!;
    expect((await fetch(new URL(`/api/v1/plans/${made.id}`, service.apiUrl), { method: 'DELETE', headers: { 'content-type': 'application/json' } })).status).toBe(200);
  });

  test('a plan declared in the config file is shown read-only, with no edit controls', async () => {
    await service.store!.insertPlan(
      {
        name: 'Declared HTTP+SSE retirement',
        scopeKind: 'transport',
        scopeValue: 'http+sse',
        announceDate: isoDay(TODAY - 5 * DAY_MS),
        retireDate: isoDay(TODAY + 90 * DAY_MS),
        targetShare: 0.005,
        basis: 'work-requests',
        policyUrl: 'https://example.com/sse',
        brownouts: [],
        action: 'warn',
        blockNewCallersFrom: null,
        quietDays: 30,
        gate: null,
        exemptions: [],
        declaredKey: 'sse-sunset',
      },
      NOW,
    );
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const item = page.locator('[data-testid="plan-item"]', { hasText: 'Declared HTTP+SSE retirement' });
    await item.waitFor();
    expect(await item.locator('[data-testid="plan-declared"]').textContent()).toContain('declared in the config file as sse-sunset');
    expect(await item.locator('[data-testid="plan-edit"], [data-testid="plan-archive"]').count()).toBe(0);
    expect(await item.locator('[data-testid="plan-phase"]').textContent()).toBe('Announced');
    // A plan the dashboard may change keeps its controls beside it.
    const editable = page.locator('[data-testid="plan-item"]', { hasText: 'Retire legacy, enforced' });
    expect(await editable.locator('[data-testid="plan-edit"]').count()).toBe(1);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('the dry run asks the API about the chosen date and shows who the cut would refuse, downloadable as CSV', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const item = page.locator('[data-testid="plan-item"]', { hasText: 'Retire legacy, enforced' });
    const planId = await item.getAttribute('data-plan-id');
    await item.locator('[data-testid="dry-run"] summary').click();
    expect(await item.locator('[data-testid="dry-run-at"]').inputValue()).toBe(isoDay(TODAY + 30 * DAY_MS));

    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === `/api/v1/plans/${planId}/dry-run`);
    await item.locator('[data-testid="dry-run-at"]').fill(isoDay(TODAY + 40 * DAY_MS));
    await item.locator('[data-testid="dry-run-button"]').click();
    expect(new URL((await asked).url()).searchParams.get('at')).toBe(isoDay(TODAY + 40 * DAY_MS));
    // Of the seeded cells, only tok_old had served work in scope in the plan's 14 quiet days: the
    // refused callers never were served, so a cut takes nothing more from them.
    await item.locator('[data-testid="dry-run-caller"]').first().waitFor();
    const callers = await item.locator('[data-testid="dry-run-caller"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-integration')));
    expect(callers).toEqual(['tok_old']);
    expect(await item.locator('[data-testid="dry-run-caller"]').textContent()).toContain('refused');
    expect(await item.locator('[data-testid="dry-run-refused-share"]').textContent()).toBe('100.00%');
    const [download] = await Promise.all([page.waitForEvent('download'), item.locator('[data-testid="dry-run-csv"]').click()]);
    const csv = await streamText(await download.createReadStream());
    expect(csv.split('\n')[0]).toContain('integration');
    expect(csv).toContain('tok_old');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('a caller that closed itself after its quiet days says so in the integrations table', async () => {
    const lastUse = TODAY - 20 * DAY_MS;
    await writeBatch(service.store!, {
      cells: [trafficCell({ minute: lastUse, outcome: 'served', integration: 'tok_gone', count: 3 })],
      integrations: [{ key: 'tok_gone', source: 'bearer-fingerprint', firstSeen: lastUse, lastSeen: lastUse, lastLegacySeen: lastUse, clientInfo: undefined }],
    });
    expect((await closeQuietCallers(service.store!, NOW)).map((c) => c.key)).toContain('tok_gone');
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const row = page.locator('[data-testid="integration-row"][data-key="tok_gone"]');
    await row.waitFor();
    expect(await row.locator('[data-testid="integration-status"]').textContent()).toBe('Done');
    expect(await row.locator('[data-testid="integration-status-how"]').textContent()).toBe(`done automatically on ${isoDay(NOW)}: quiet in every plan's scope`);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
