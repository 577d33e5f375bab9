/**
 * The split (callers you can phone versus the unknown installed base) and the integrations table,
 * most legacy volume (or most people) first, as the API sorts it. Clicking a row opens its edit form.
 */
import type { Integration, IntegrationsResponse } from './api-types.js';
import { emptyState, h, replaceChildren } from './dom.js';
import { clientNameOf } from './client-name-of.js';
import { formatCount, formatDay, formatShare } from './format.js';
import { integrationsOrderControl, orderWords, type OrderChoice } from './integrations-order-control.js';
import { peopleCell } from './people-cell.js';

const STATUS_TEXT: Readonly<Record<string, string>> = {
  unknown: 'Unknown',
  contacted: 'Contacted',
  migrating: 'Migrating',
  exempt: 'Exempt',
  done: 'Done',
};

/** The status badge, and how it came about when the caller closed or reopened by itself. */
function statusCell(integration: Integration): HTMLElement {
  const badge = h('span', { class: `badge status-${integration.status}`, 'data-testid': 'integration-status' }, STATUS_TEXT[integration.status] ?? integration.status);
  const how = integration.autoClosedAt !== null
    ? `done automatically on ${formatDay(integration.autoClosedAt)}: quiet in every plan's scope`
    : integration.reopenedAt !== null
      ? `reopened on ${formatDay(integration.reopenedAt)}: back in a plan's scope`
      : undefined;
  if (how === undefined) return h('td', {}, badge);
  return h('td', {}, badge, h('div', { class: 'muted small', 'data-testid': 'integration-status-how' }, how));
}

/** The API's migration states, as the table and its filter name them. */
export const MIGRATION_TEXT: ReadonlyMap<string, string> = new Map([
  ['legacy-only', 'Legacy only'],
  ['migrating', 'Migrating'],
  ['moved', 'Moved'],
  ['modern-only', 'Modern only'],
]);

/** Whether the caller has started to move: a caller on both eras is a different call from one on legacy only. */
function migrationCell(integration: Integration): HTMLElement {
  const state = integration.migration;
  if (state === null) return h('td', { class: 'muted', 'data-testid': 'integration-migration', 'data-state': 'none', title: 'no served work in the window' }, '—');
  const legacy = integration.eras.legacy;
  const modern = integration.eras.modern;
  const title = [legacy === null ? null : `legacy: ${legacy.versions.join(', ')}`, modern === null ? null : `modern: ${modern.versions.join(', ')}`].filter((t) => t !== null).join('; ');
  return h('td', { 'data-testid': 'integration-migration', 'data-state': state, title }, h('span', { class: `badge migration-${state}` }, MIGRATION_TEXT.get(state) ?? state));
}

export interface MigrationFilter {
  /** The state shown, or null for every caller. */
  value: string | null;
  onChange(value: string | null): void;
}

function filterControl(filter: MigrationFilter): HTMLElement {
  const select = h(
    'select',
    { id: 'integrations-migration', 'data-testid': 'integrations-migration-filter', onchange: (event: Event) => filter.onChange((event.target as HTMLSelectElement).value || null) },
    h('option', { value: '' }, 'Every caller'),
    ...[...MIGRATION_TEXT].map(([value, text]) => h('option', { value }, text)),
  ) as HTMLSelectElement;
  select.value = filter.value ?? '';
  return h('div', { class: 'table-filter' }, h('label', { for: 'integrations-migration' }, 'Moving: '), select);
}

export function integrationName(integration: Integration): string {
  return integration.displayName ?? integration.key;
}

export function renderSplit(body: HTMLElement, view: IntegrationsResponse): void {
  const { split } = view;
  if (split.total === 0) {
    replaceChildren(body, emptyState(`No served legacy requests in the last ${view.windowDays} days.`, 'split-empty'));
    return;
  }
  const identifiablePct = (split.identifiableShare ?? 0) * 100;
  // Widths go through the CSSOM: the page's content security policy refuses style attributes.
  const identifiableBar = h('span', { class: 'split-identifiable' });
  identifiableBar.style.width = `${identifiablePct.toFixed(2)}%`;
  const unknownBar = h('span', { class: 'split-unknown' });
  unknownBar.style.width = `${(100 - identifiablePct).toFixed(2)}%`;
  replaceChildren(
    body,
    h('p', { class: 'split-lead' }, `Served legacy requests in the last ${view.windowDays} days: `, h('strong', { 'data-testid': 'split-total' }, formatCount(split.total))),
    h(
      'div',
      { class: 'split-bar', 'data-testid': 'split-bar', role: 'img', 'aria-label': `${formatShare(split.identifiableShare)} from identifiable callers` },
      identifiableBar,
      unknownBar,
    ),
    h(
      'dl',
      { class: 'split-legend' },
      h('div', {}, h('dt', {}, h('span', { class: 'swatch swatch-identifiable' }), 'Identifiable callers'), h('dd', { 'data-testid': 'split-identifiable' }, `${formatCount(split.identifiable)} (${formatShare(split.identifiableShare)})`)),
      h('div', {}, h('dt', {}, h('span', { class: 'swatch swatch-unknown' }), 'Unknown installed base'), h('dd', { 'data-testid': 'split-unknown' }, formatCount(split.unknown))),
    ),
    h('p', { class: 'muted small' }, 'Identifiable callers can be phoned: a credential fingerprint, gateway header or configured name. The unknown base only hears about the retirement from the refusals.'),
  );
}

/** Names joined into the caller, whose counts its row holds: the first few, and how many more. */
function aliasesLine(integration: Integration): HTMLElement | null {
  const { aliases } = integration;
  if (aliases.length === 0) return null;
  const shown = aliases.slice(0, 3).join(', ');
  const more = aliases.length > 3 ? ` and ${aliases.length - 3} more` : '';
  return h('span', { class: 'aliases muted', 'data-testid': 'integration-aliases', title: `Counted as this caller: ${aliases.join(', ')}` }, `joined: ${shown}${more}`);
}

function nameCell(integration: Integration, onEdit: () => void): HTMLElement {
  const badge = integration.identifiable
    ? h('span', { class: 'badge badge-identifiable', 'data-testid': 'badge' }, 'identifiable')
    : h('span', { class: 'badge badge-unknown', 'data-testid': 'badge' }, 'unknown installed base');
  const claims = integration.claimsToBe === null ? null : h('span', { class: 'claims muted' }, `claims to be ${integration.claimsToBe.name}${integration.claimsToBe.version === null ? '' : ` ${integration.claimsToBe.version}`}`);
  const clientName = clientNameOf(integration);
  // The application chose that name itself: said as its claim beside the key, never in place of it.
  const application = clientName === null ? null : h('span', { class: 'claims muted', 'data-testid': 'integration-client-name', title: 'The application\'s own name, from its OAuth client metadata document' }, `calls itself “${clientName}”`);
  return h(
    'td',
    { class: 'name-cell' },
    h('button', { type: 'button', class: 'link-button', 'data-testid': 'integration-edit', 'aria-label': `Edit ${integrationName(integration)}`, onclick: (event: Event) => { event.stopPropagation(); onEdit(); } }, integrationName(integration)),
    ' ',
    badge,
    integration.displayName === null ? null : h('span', { class: 'key muted', 'data-testid': 'integration-key' }, integration.key),
    aliasesLine(integration),
    application,
    claims,
  );
}

/** With several plans each label says whose deadline it is, by the plan's short scope name. */
function deadlineCell(integration: Integration, planLabels: ReadonlyMap<number, string>): HTMLElement {
  if (integration.deadlines.length === 0) return h('td', { class: 'muted' }, 'no plans');
  const many = integration.deadlines.length > 1;
  return h(
    'td',
    {},
    ...integration.deadlines.map((d) =>
      h('span', { class: `deadline deadline-${d.state}`, 'data-testid': 'deadline', 'data-state': d.state, title: d.planName }, many ? `${planLabels.get(d.planId) ?? d.planName}: ${d.label}` : d.label),
    ),
  );
}

export interface TableControls {
  migration: MigrationFilter;
  order: OrderChoice;
}

function controlsRow(controls: TableControls): HTMLElement {
  return h('div', { class: 'table-controls' }, filterControl(controls.migration), integrationsOrderControl(controls.order));
}

export function renderIntegrationsTable(body: HTMLElement, view: IntegrationsResponse, planLabels: ReadonlyMap<number, string>, onEdit: (integration: Integration) => void, controls: TableControls): void {
  const filter = controls.migration;
  if (view.integrations.length === 0) {
    if (filter.value === null) replaceChildren(body, emptyState('No callers seen yet — point a client at the sidecar.', 'integrations-empty'));
    else replaceChildren(body, controlsRow(controls), emptyState(`No callers are ${(MIGRATION_TEXT.get(filter.value) ?? filter.value).toLowerCase()} in the last ${view.windowDays} days.`, 'integrations-empty'));
    return;
  }
  const words = orderWords(controls.order.value);
  const rows = view.integrations.map((integration) =>
    h(
      'tr',
      { 'data-testid': 'integration-row', 'data-key': integration.key, class: 'clickable', onclick: () => onEdit(integration) },
      nameCell(integration, () => onEdit(integration)),
      h('td', { 'data-testid': 'integration-owner' }, integration.owner ?? h('span', { class: 'muted' }, '—')),
      statusCell(integration),
      migrationCell(integration),
      h('td', { class: 'num' }, formatCount(integration.legacyServed)),
      h('td', { class: 'num' }, formatShare(integration.legacyShare)),
      peopleCell(integration, view.windowDays),
      h('td', { class: 'nowrap' }, formatDay(integration.lastLegacySeen)),
      deadlineCell(integration, planLabels),
    ),
  );
  replaceChildren(
    body,
    controlsRow(controls),
    h(
      'p',
      { class: 'table-note muted', id: 'integrations-note', 'data-testid': 'integrations-note' },
      `Served requests over the last ${view.windowDays} days, ${words.first}. Moving: migrating callers were served modern work beside their legacy work; moved ones only modern, after legacy before. People: the distinct people verified credentials (OAuth tokens) named, on legacy · on modern; — where none did. Click a row to edit what you know about the caller.`,
    ),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { 'data-testid': 'integrations-table', 'aria-describedby': 'integrations-note' },
        h('caption', { class: 'visually-hidden' }, 'Integrations'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Integration', 'Owner', 'Status', 'Moving', `Legacy (${view.windowDays} d)`, 'Legacy share', 'People (legacy · modern)', 'Last legacy', 'Deadline'].map((t, i) =>
              h('th', { scope: 'col', class: i >= 4 && i <= 6 ? 'num' : null }, t),
            ),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    ),
    morePagesNote(view, words.fewer),
  );
}

/** The API sends the heaviest callers first, one page at a time: say how many are left out. */
function morePagesNote(view: IntegrationsResponse, fewer: string): HTMLElement | null {
  const shown = view.page.offset + view.integrations.length;
  const more = view.page.total - shown;
  if (more <= 0) return null;
  return h('p', { class: 'muted small', 'data-testid': 'integrations-more' }, `Showing the first ${formatCount(shown)} of ${formatCount(view.page.total)} callers; ${formatCount(more)} more ${fewer} are not listed.`);
}
