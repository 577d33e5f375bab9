/**
 * The unknown base described by what its clients claim to be (GET /unknown-base): the anonymous
 * work of the last 30 days, then one row per claim, most legacy work first as the API sorts it.
 * Claims are the clients' own words, so every row says "claims", never names a caller.
 */
import type { ApiClient } from './api-client.js';
import type { UnknownBaseResponse } from './api-types.js';
import { emptyState, failureLine, h, loading, replaceChildren } from './dom.js';
import { formatCount, formatShare } from './format.js';

type ClaimRow = UnknownBaseResponse['claims'][number];

/** Rows shown before "Show all": enough for the few clients that hold most of the base. */
const FIRST_ROWS = 10;

function claimCell(row: ClaimRow): HTMLElement {
  const { claim } = row;
  if (claim.kind === 'none') return h('td', { class: 'muted', 'data-testid': 'claim-name' }, 'claims nothing');
  return h(
    'td',
    { class: 'claim-name', 'data-testid': 'claim-name' },
    h('span', { 'data-testid': 'claim-text' }, claim.name),
    claim.kind === 'user-agent' ? h('span', { class: 'muted small', title: 'The product its User-Agent header starts with: the client sent no clientInfo' }, ' (User-Agent)') : null,
  );
}

function shareCell(row: ClaimRow): HTMLElement {
  // Widths go through the CSSOM: the page's content security policy refuses style attributes.
  const fill = h('span', { class: 'claim-bar-fill' });
  fill.style.width = `${((row.legacyShare ?? 0) * 100).toFixed(2)}%`;
  return h(
    'td',
    { class: 'num', 'data-testid': 'claim-share', 'data-share': row.legacyShare ?? '' },
    h('span', { class: 'claim-share' }, h('span', { class: 'claim-bar', 'aria-hidden': 'true' }, fill), h('span', { class: 'claim-share-text' }, formatShare(row.legacyShare))),
  );
}

function claimRow(row: ClaimRow, index: number): HTMLElement {
  const { claim } = row;
  return h(
    'tr',
    { 'data-testid': 'unknown-claim', 'data-kind': claim.kind, 'data-name': claim.name, 'data-version': claim.version, hidden: index >= FIRST_ROWS },
    claimCell(row),
    h('td', { 'data-testid': 'claim-version', class: claim.version === '' ? 'muted' : null }, claim.version === '' ? '—' : claim.version),
    h('td', { class: 'num', 'data-testid': 'claim-legacy' }, formatCount(row.legacy)),
    shareCell(row),
    h('td', { class: 'num', 'data-testid': 'claim-modern' }, formatCount(row.modern)),
  );
}

/** Past the first rows, a toggle between the first ones and all of them. */
function showAllToggle(tbody: HTMLElement, total: number): HTMLElement | null {
  if (total <= FIRST_ROWS) return null;
  const button = h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'unknown-base-toggle', 'aria-expanded': 'false' }, `Show all ${formatCount(total)} claims`);
  button.addEventListener('click', () => {
    const all = button.getAttribute('aria-expanded') !== 'true';
    [...tbody.children].forEach((tr, index) => ((tr as HTMLElement).hidden = !all && index >= FIRST_ROWS));
    button.setAttribute('aria-expanded', String(all));
    button.textContent = all ? `Show the first ${FIRST_ROWS}` : `Show all ${formatCount(total)} claims`;
  });
  return button;
}

function render(body: HTMLElement, answer: UnknownBaseResponse): void {
  const { totals, claims } = answer;
  if (totals.legacy + totals.modern === 0) {
    replaceChildren(body, emptyState('No anonymous traffic in the last 30 days.', 'unknown-base-empty'));
    return;
  }
  const tbody = h('tbody', {}, ...claims.map(claimRow));
  replaceChildren(
    body,
    h(
      'p',
      { class: 'split-lead', 'data-testid': 'unknown-base-totals' },
      'Anonymous work in the last 30 days: ',
      h('strong', { 'data-testid': 'unknown-base-legacy' }, formatCount(totals.legacy)),
      ' legacy, ',
      h('strong', { 'data-testid': 'unknown-base-modern' }, formatCount(totals.modern)),
      ' modern.',
    ),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'claims-table', 'data-testid': 'unknown-base-table', 'aria-describedby': 'unknown-base-note' },
        h('caption', { class: 'visually-hidden' }, 'The unknown base, by what its clients claim to be'),
        h('thead', {}, h('tr', {}, ...['Claims to be', 'Claimed version', 'Legacy work', 'Of anonymous legacy', 'Modern work'].map((t, i) => h('th', { scope: 'col', class: i >= 2 ? 'num' : null }, t)))),
        tbody,
      ),
    ),
    showAllToggle(tbody, claims.length),
  );
}

let asked = 0;

/** Fills `body` with the last 30 days; of two loads at once, only the later one's answer is shown. */
export async function loadUnknownBase(api: ApiClient, body: HTMLElement): Promise<void> {
  if (body.childElementCount === 0) replaceChildren(body, loading('the unknown base'));
  const ask = ++asked;
  try {
    const answer = await api.get<UnknownBaseResponse>('/unknown-base');
    if (ask !== asked) return;
    render(body, answer);
    body.dataset.loaded = 'true';
  } catch (error) {
    if (ask === asked) replaceChildren(body, failureLine('The unknown base', error));
  }
}
