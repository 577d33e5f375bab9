/**
 * What the plan's cut would refuse on a chosen date: who (identifiable callers first, with owner and
 * contact), how much, who an exemption saves, and, for a plan in dry run, the live would-block counts.
 */
import type { ApiClient } from './api-client.js';
import type { DryRunJson, Plan } from './api-types.js';
import { errorLine, h, loading, replaceChildren } from './dom.js';
import { formatCount, formatDay, formatShare, formatTime } from './format.js';
import { MIGRATION_TEXT } from './integrations-panel.js';

/** "2 notices, last 2026-12-01; contact 2026-12-03", or a dash when nothing was said. */
function toldText(told: DryRunJson['callers'][number]['told']): string {
  const parts: string[] = [];
  if (told.notices > 0) parts.push(`${formatCount(told.notices)} notice${told.notices === 1 ? '' : 's'}, last ${formatDay(told.lastNoticeAt)}`);
  if (told.lastContactAt !== null) parts.push(`contact ${formatDay(told.lastContactAt)}`);
  return parts.length === 0 ? '—' : parts.join('; ');
}

function callerRow(caller: DryRunJson['callers'][number]): HTMLElement {
  return h(
    'tr',
    { 'data-testid': 'dry-run-caller', 'data-integration': caller.integration, 'data-identifiable': caller.identifiable },
    h('td', { class: 'name-cell' }, caller.displayName ?? caller.integration, caller.displayName === null ? null : h('span', { class: 'key muted' }, caller.integration), caller.identifiable ? null : h('span', { class: 'badge' }, 'unidentified')),
    h('td', {}, caller.owner ?? '—', caller.contact === null ? null : h('span', { class: 'key muted' }, caller.contact)),
    h('td', { class: 'num' }, caller.requestsPerDay.toFixed(caller.requestsPerDay < 10 ? 1 : 0)),
    caller.people === null
      ? h('td', { class: 'num muted', 'data-testid': 'dry-run-people', title: 'No credential of this caller names people' }, '—')
      : h('td', { class: 'num', 'data-testid': 'dry-run-people' }, formatCount(caller.people)),
    h('td', {}, formatTime(caller.lastSeen)),
    h('td', {}, caller.versions.join(', ') || '—'),
    h('td', {}, caller.transports.join(', ') || '—'),
    h('td', { 'data-testid': 'dry-run-migration' }, caller.migration === null ? '—' : (MIGRATION_TEXT.get(caller.migration) ?? caller.migration)),
    h('td', { 'data-testid': 'dry-run-told' }, toldText(caller.told)),
    h('td', {}, caller.savedBy === null ? 'refused' : `saved by exemption until ${formatDay(caller.savedBy.until)}${caller.savedBy.note === null ? '' : ` (${caller.savedBy.note})`}`),
  );
}

/** "7 people behind the refused callers", when any caller in scope names people: distinct, so one behind two callers counts once. */
function peopleBehind(result: DryRunJson): (HTMLElement | string)[] {
  if (result.callers.every((c) => c.people === null)) return [];
  const n = result.totals.refusedPeople;
  return [' ', h('strong', { 'data-testid': 'dry-run-refused-people' }, formatCount(n)), ` ${n === 1 ? 'person' : 'people'} behind the refused callers, as verified credentials named them.`];
}

function renderResult(api: ApiClient, plan: Plan, result: DryRunJson): (HTMLElement | null)[] {
  const { totals } = result;
  const csvParams = { at: result.at, format: 'csv' };
  const csv = h('a', { href: api.href(`/plans/${plan.id}/dry-run`, csvParams), download: `plan-${plan.id}-dry-run-${result.at}.csv`, 'data-testid': 'dry-run-csv' }, 'Download CSV');
  // A plain link carries no admin token: fetch the file with it and hand the browser a local copy.
  csv.addEventListener('click', async (event) => {
    event.preventDefault();
    const url = URL.createObjectURL(await api.getFile(`/plans/${plan.id}/dry-run`, csvParams));
    const save = h('a', { href: url, download: csv.getAttribute('download') });
    save.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  });
  return [
    h(
      'p',
      { class: 'small', 'data-testid': 'dry-run-summary' },
      `Cut on ${formatDay(result.at)}: `,
      h('strong', { 'data-testid': 'dry-run-refused-share' }, formatShare(result.refusedShare)),
      ` of served work requests refused (${formatCount(totals.refusedRequests)} of ${formatCount(totals.servedRequests)} over ${result.window.days} days, ${formatDay(result.window.from)} to ${formatDay(result.window.to)}); `,
      `${formatCount(totals.refusedCallers)} of ${formatCount(totals.callers)} callers refused, ${formatCount(totals.savedCallers)} saved by an exemption.`,
      ...peopleBehind(result),
    ),
    result.live === null
      ? null
      : h('p', { class: 'small', 'data-testid': 'dry-run-live' }, `Live, in dry run: ${formatCount(result.live.wouldBlock)} would-block requests`, Object.keys(result.live.byCaller).length === 0 ? '.' : ` (${Object.entries(result.live.byCaller).map(([key, n]) => `${key} ${formatCount(n)}`).join(', ')}).`),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { 'data-testid': 'dry-run-table' },
        h('caption', { class: 'visually-hidden' }, `Callers the cut on ${result.at} would refuse`),
        h('thead', {}, h('tr', {}, ...['Caller', 'Owner', 'Requests/day', 'People', 'Last seen', 'Versions', 'Transports', 'Moving', 'Told', 'At the cut'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...result.callers.map(callerRow)),
      ),
    ),
    h('p', { class: 'small' }, csv),
  ];
}

/** A date (the retire date unless changed) and a button that asks the API; the answer replaces the last one. */
export function renderDryRunPanel(api: ApiClient, plan: Plan): HTMLElement {
  const id = `dry-run-at-${plan.id}`;
  const input = h('input', { id, type: 'date', value: plan.retireDate, required: true, 'data-testid': 'dry-run-at' });
  const output = h('div', { class: 'dry-run-output', 'aria-live': 'polite', 'data-testid': 'dry-run-output' });
  const run = async () => {
    replaceChildren(output, loading('the dry run'));
    try {
      const result = await api.get<DryRunJson>(`/plans/${plan.id}/dry-run`, { at: input.value === '' ? undefined : input.value });
      replaceChildren(output, ...renderResult(api, plan, result));
      output.dataset.loaded = 'true';
    } catch (error) {
      replaceChildren(output, errorLine(`Dry run failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  };
  return h(
    'details',
    { class: 'dry-run', 'data-testid': 'dry-run' },
    h('summary', {}, 'Dry run: who would the cut refuse?'),
    h(
      'div',
      { class: 'dry-run-controls' },
      h('label', { for: id }, 'Cut on'),
      input,
      h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'dry-run-button', onclick: () => void run() }, 'Run dry run'),
    ),
    output,
  );
}
