/**
 * The audit trail: the newest changes first, each with when, who, what and the fields it changed,
 * and a button that reads the next page.
 */
import type { ApiClient } from './api-client.js';
import type { AuditEvent, AuditResponse } from './api-types.js';
import { emptyState, failureLine, h, loading, replaceChildren } from './dom.js';
import { formatTime } from './format.js';

const PAGE = 50;
/** Longest a value is shown before it is cut; the API has it whole. */
const VALUE_CHARS = 120;

const ACTION_LABEL: Readonly<Record<AuditEvent['action'], string>> = {
  'plan.create': 'Plan created',
  'plan.update': 'Plan changed',
  'plan.archive': 'Plan archived',
  'plan.restore': 'Plan restored',
  'pause.start': 'Pause started',
  'pause.end': 'Pause ended early',
  'bridge.revoke': 'Bridge session revoked',
  'integration.update': 'Caller details changed',
  'notice.send': 'Notice sent',
  'contact.record': 'Contact recorded',
  'caller.join': 'Name joined into a caller',
  'caller.unjoin': 'Join undone',
};

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

/** "field: before → after" per changed field; a creation shows what was made. */
function changes(event: AuditEvent): HTMLElement {
  const after = event.after ?? {};
  if (event.before === null) {
    const name = typeof after.name === 'string' ? after.name : typeof after.reason === 'string' ? after.reason : null;
    return h('span', { class: 'audit-change' }, name === null ? shown(after) : `“${name}”`);
  }
  const before = event.before;
  return h('span', { class: 'audit-change' }, ...Object.keys(after).map((key) => h('span', { class: 'audit-field' }, `${key}: ${shown(before[key])} → ${shown(after[key])}`, h('br'))));
}

function row(event: AuditEvent): HTMLElement {
  return h(
    'tr',
    { 'data-testid': 'audit-row', 'data-action': event.action },
    h('td', { class: 'nowrap' }, formatTime(event.at)),
    h('td', {}, event.actor),
    h('td', {}, ACTION_LABEL[event.action]),
    h('td', { class: 'key' }, event.subject),
    h('td', {}, changes(event)),
  );
}

export async function loadAudit(api: ApiClient, body: HTMLElement): Promise<void> {
  if (body.childElementCount === 0) replaceChildren(body, loading('the audit trail'));
  let answer: AuditResponse;
  try {
    answer = await api.get<AuditResponse>('/audit', { limit: String(PAGE) });
  } catch (error) {
    replaceChildren(body, failureLine('The audit trail', error));
    return;
  }
  if (answer.events.length === 0) {
    replaceChildren(body, emptyState('No changes recorded yet.', 'audit-empty'));
    return;
  }
  const rows = h('tbody', {}, ...answer.events.map(row));
  const more = h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'audit-more' }, 'Show older');
  let next = answer.next;
  more.hidden = next === null;
  more.addEventListener('click', async () => {
    if (next === null) return;
    more.disabled = true;
    try {
      const page = await api.get<AuditResponse>('/audit', { limit: String(PAGE), before: String(next) });
      rows.append(...page.events.map(row));
      next = page.next;
      more.hidden = next === null;
    } finally {
      more.disabled = false;
    }
  });
  replaceChildren(
    body,
    h(
      'div',
      { class: 'table-scroll' },
      h('table', { class: 'audit-table', 'aria-label': 'Audit trail' }, h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Who'), h('th', {}, 'What'), h('th', {}, 'Subject'), h('th', {}, 'Changed'))), rows),
    ),
    more,
  );
}
