/**
 * The people behind one caller, in its dialog: per era over the table's window, then per UTC day
 * from GET /integrations/:key/people. People are those verified credentials (OAuth tokens) named.
 */
import type { ApiClient } from './api-client.js';
import type { CallerPeopleResponse, Integration } from './api-types.js';
import { emptyState, errorLine, h, loading, replaceChildren } from './dom.js';
import { formatCount, formatDay } from './format.js';
import { peopleWords } from './people-cell.js';

function daysTable(answer: CallerPeopleResponse): HTMLElement {
  const cell = (n: number, testId: string) => h('td', { class: 'num', 'data-testid': testId }, formatCount(n));
  return h(
    'div',
    { class: 'people-days' },
    h(
      'table',
      { class: 'small', 'data-testid': 'caller-people-days' },
      h('caption', { class: 'visually-hidden' }, 'People per UTC day'),
      h('thead', {}, h('tr', {}, ...['Day', 'Legacy', 'Modern', 'In all'].map((t, i) => h('th', { scope: 'col', class: i > 0 ? 'num' : null }, t)))),
      h(
        'tbody',
        {},
        ...answer.days.map((d) =>
          h('tr', { 'data-testid': 'caller-people-day', 'data-day': formatDay(d.day) }, h('td', { class: 'nowrap' }, formatDay(d.day)), cell(d.legacy, 'day-legacy'), cell(d.modern, 'day-modern'), cell(d.total, 'day-total')),
        ),
      ),
    ),
  );
}

/**
 * Fills `body` for `integration`; `stillShown` says whether the dialog still shows it when the
 * answer comes, so a slow answer never lands in another caller's dialog.
 */
export async function loadCallerPeople(api: ApiClient, body: HTMLElement, integration: Integration, windowDays: number, stillShown: () => boolean): Promise<void> {
  const { people } = integration;
  if (people === null) {
    replaceChildren(body, emptyState(`No credential of this caller named people in the last ${windowDays} days: only verified OAuth tokens do.`, 'caller-people-none'));
    return;
  }
  const summary = h('p', { class: 'small', 'data-testid': 'caller-people-summary' }, `Last ${windowDays} days: ${peopleWords(people)} (one who used both eras counts once).`);
  replaceChildren(body, summary, loading('people per day'));
  try {
    const answer = await api.get<CallerPeopleResponse>(`/integrations/${encodeURIComponent(integration.key)}/people`);
    if (!stillShown()) return;
    replaceChildren(body, summary, answer.days.length === 0 ? emptyState('Nobody named on any day.', 'caller-people-days-empty') : daysTable(answer), h('p', { class: 'muted small' }, 'Days on which nobody was named are left out.'));
    body.dataset.loaded = 'true';
  } catch (error) {
    if (stillShown()) replaceChildren(body, summary, errorLine(`People per day could not be loaded: ${error instanceof Error ? error.message : String(error)}`));
  }
}
