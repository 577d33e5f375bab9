/** A caller's people in the integrations table: "legacy · modern", the numbers in words on hover. */
import type { Integration } from './api-types.js';
import { h } from './dom.js';
import { formatCount } from './format.js';

/** "12 on legacy, 3 on modern, 14 in all": in all counts one who used both eras once. */
export function peopleWords(people: NonNullable<Integration['people']>): string {
  return `${formatCount(people.legacy)} on legacy, ${formatCount(people.modern)} on modern, ${formatCount(people.total)} in all`;
}

export function peopleCell(integration: Integration, windowDays: number): HTMLElement {
  const { people } = integration;
  if (people === null) {
    return h('td', { class: 'num muted', 'data-testid': 'integration-people', 'data-state': 'none', title: 'No credential of this caller names people: only verified OAuth tokens do.' }, '—');
  }
  return h(
    'td',
    {
      class: 'num',
      'data-testid': 'integration-people',
      'data-legacy': people.legacy,
      'data-modern': people.modern,
      'data-total': people.total,
      title: `Distinct people over ${windowDays} days: ${peopleWords(people)} (one who used both eras counts once).`,
    },
    `${formatCount(people.legacy)} · ${formatCount(people.modern)}`,
  );
}
