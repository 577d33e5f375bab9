/**
 * Escalating brownouts through the plan form, in headless Chromium against the real service: the
 * server's word on a bad time zone beside its field, then the generated windows on the timeline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { DAY_MS, isoDay, openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const TODAY = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);

describe('escalating brownouts from the plan form', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    ({ service, browser } = rig);
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('the form generates the windows from a schedule; the timeline shows them like any others', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await openDashboard(page, service.apiUrl);
    await page.fill('#plan-name', 'Escalating brownouts');
    await page.fill('#plan-announce', isoDay(TODAY - 10 * DAY_MS));
    await page.fill('#plan-retire', isoDay(TODAY + 90 * DAY_MS));
    await page.check('input[name="action"][value="deny"]');
    await page.fill('#plan-policy', 'https://example.com/legacy-sunset');
    const first = isoDay(TODAY + 14 * DAY_MS);
    await page.fill('#plan-schedule-first', first);
    await page.fill('#plan-schedule-time', '14:00');
    await page.fill('#plan-schedule-zone', 'Europe/Atlantis');
    await page.click('[data-testid="plan-submit"]');
    await page.locator('#plan-form-error [role="alert"]').waitFor();
    expect(await page.getAttribute('#plan-schedule-zone', 'aria-invalid')).toBe('true');
    expect(await page.locator('#plan-schedule-zone').locator('xpath=..').locator('[data-testid="plan-field-error"]').textContent()).toContain('expected an IANA time zone');
    expect(await service.store!.listPlans()).toEqual([]);

    await page.fill('#plan-schedule-zone', 'America/New_York');
    await page.click('[data-testid="plan-submit"]');
    const item = page.locator('[data-testid="plan-item"]', { hasText: 'Escalating brownouts' });
    await item.waitFor();
    const windows = item.locator('[data-testid="timeline-window"][data-kind="brownout"]');
    expect(await windows.count()).toBe(4);
    const texts = await windows.allTextContents();
    expect(texts.map((t) => /escalating brownout (\d) of 4, (\w+) from 14:00 America\/New_York/.exec(t)?.slice(1))).toEqual([
      ['1', '1h'],
      ['2', '4h'],
      ['3', '12h'],
      ['4', '1d'],
    ]);
    const [plan] = await service.store!.listPlans();
    expect(plan!.brownouts.map((b) => (b.endsAt - b.startsAt) / 3_600_000)).toEqual([1, 4, 12, 24]);
    // Each starts at 14:00 in New York, whatever its offset from UTC that day.
    for (const b of plan!.brownouts) {
      expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(b.startsAt)).toBe('14:00');
    }
    expect(new Date(plan!.brownouts[0]!.startsAt).toISOString().slice(0, 10)).toBe(first);
    await saveScreenshot(page, 'escalating-brownouts');
    expect(errors).toEqual([]);
    await page.close();
  });
});
