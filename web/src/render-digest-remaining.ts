/** The largest identifiable callers still sending legacy work this week: the ones to phone. */
import type { DigestRemainingCaller, DigestResponse } from './api-types.js';
import { emptyState, h } from './dom.js';
import { digestCallerCells, migrationCell, versionsCell } from './digest-caller-cells.js';
import { digestSection } from './digest-section.js';
import { formatCount, formatShare } from './format.js';

function remainingRow(caller: DigestRemainingCaller): HTMLElement {
  return h(
    'tr',
    { 'data-testid': 'digest-remaining-row', 'data-integration': caller.integration },
    ...digestCallerCells(caller),
    h('td', { class: 'num', 'data-testid': 'caller-legacy' }, formatCount(caller.legacyRequests)),
    caller.legacyPeople === null
      ? h('td', { class: 'num muted', 'data-testid': 'caller-people', title: 'no credential of this caller named people' }, '—')
      : h('td', { class: 'num', 'data-testid': 'caller-people' }, formatCount(caller.legacyPeople)),
    h('td', { class: 'num', 'data-testid': 'caller-share' }, formatShare(caller.shareOfLegacy)),
    migrationCell(caller),
    versionsCell(caller),
  );
}

export function renderDigestRemaining(callers: DigestResponse['callers']): HTMLElement {
  const title = 'Largest remaining callers';
  const { remaining, remainingCount } = callers;
  if (remainingCount === 0) return digestSection('digest-remaining', title, emptyState('No identifiable caller sent legacy work this week.', 'digest-remaining-empty'));
  const more = remainingCount - remaining.length;
  const head = ['Caller', 'Owner', 'Contact', 'Legacy', 'People', 'Of legacy', 'Now', 'Legacy versions'];
  return digestSection(
    'digest-remaining',
    title,
    h(
      'p',
      { class: 'muted small', 'data-testid': 'digest-remaining-lead' },
      `${formatCount(remainingCount)} identifiable caller${remainingCount === 1 ? '' : 's'} sent legacy work this week; the largest first. “People” are the distinct people behind its legacy work this week, where a verified credential named them; “Of legacy” is the share of all legacy work this week, the unknown installed base included.`,
    ),
    h(
      'table',
      { class: 'digest-table', 'data-testid': 'digest-remaining-table' },
      h('thead', {}, h('tr', {}, ...head.map((text, i) => h('th', { scope: 'col', class: i >= 3 && i <= 5 ? 'num' : null }, text)))),
      h('tbody', {}, ...remaining.map(remainingRow)),
    ),
    more <= 0 ? null : h('p', { class: 'small', 'data-testid': 'digest-remaining-more', 'data-more': more }, `and ${formatCount(more)} more.`),
  );
}
