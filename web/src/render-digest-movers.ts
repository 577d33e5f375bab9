/**
 * Who moved this week, who started migrating and who went quiet: identifiable callers only, each
 * in one list at most, as the API judged them week against week.
 */
import type { DigestCaller, DigestResponse } from './api-types.js';
import { emptyState, h } from './dom.js';
import { digestCallerCells, migrationCell, versionsCell } from './digest-caller-cells.js';
import { digestSection } from './digest-section.js';
import { formatCount } from './format.js';

interface MoverGroup {
  testId: string;
  title: string;
  note: string;
  empty: string;
  callers: readonly DigestCaller[];
}

function moverRow(caller: DigestCaller): HTMLElement {
  return h(
    'tr',
    { 'data-testid': 'digest-caller', 'data-integration': caller.integration },
    ...digestCallerCells(caller),
    migrationCell(caller),
    h('td', { class: 'num', 'data-testid': 'caller-legacy' }, formatCount(caller.legacyRequests)),
    h('td', { class: 'num', 'data-testid': 'caller-modern' }, formatCount(caller.modernRequests)),
    versionsCell(caller),
  );
}

function group({ testId, title, note, empty, callers }: MoverGroup): HTMLElement {
  const head = ['Caller', 'Owner', 'Contact', 'Now', 'Legacy', 'Modern', 'Legacy versions'];
  return h(
    'div',
    { class: 'digest-group', 'data-testid': testId, 'data-count': callers.length },
    h('h3', {}, title),
    h('p', { class: 'muted small' }, note),
    callers.length === 0
      ? emptyState(empty, `${testId}-empty`)
      : h(
          'table',
          { class: 'digest-table' },
          h('thead', {}, h('tr', {}, ...head.map((text, i) => h('th', { scope: 'col', class: i === 4 || i === 5 ? 'num' : null }, text)))),
          h('tbody', {}, ...callers.map(moverRow)),
        ),
  );
}

export function renderDigestMovers(callers: DigestResponse['callers']): HTMLElement {
  return digestSection(
    'digest-movers',
    'Who moved this week',
    h('p', { class: 'muted small' }, 'Served work requests this week, against the week before. Legacy versions are this week’s, or last week’s for a caller that sent none this week.'),
    group({ testId: 'digest-moved', title: 'Moved', note: 'Legacy work last week, only modern work this week.', empty: 'No caller moved this week.', callers: callers.moved }),
    group({ testId: 'digest-started', title: 'Started migrating', note: 'Only legacy work last week, legacy and modern work this week.', empty: 'No caller started migrating this week.', callers: callers.startedMigrating }),
    group({ testId: 'digest-quiet', title: 'Went quiet', note: 'Legacy work last week, nothing at all this week: not moved, as far as the counts show.', empty: 'No caller went quiet this week.', callers: callers.wentQuiet }),
  );
}
