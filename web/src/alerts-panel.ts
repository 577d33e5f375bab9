/** Firing and pending alerts first, with severity and since when; resolved ones folded away. */
import { ApiError, type ApiClient } from './api-client.js';
import type { Alert, AlertsResponse } from './api-types.js';
import { emptyState, errorLine, failureLine, h, loading, replaceChildren } from './dom.js';
import { formatTime } from './format.js';

function alertItem(alert: Alert): HTMLElement {
  const since = alert.state === 'resolved' ? `resolved ${formatTime(alert.resolvedAt)}` : alert.firstFiredAt === null ? 'not fired yet' : `since ${formatTime(alert.firstFiredAt)}`;
  return h(
    'li',
    { class: `alert alert-${alert.state}`, 'data-testid': 'alert-item', 'data-state': alert.state, 'data-rule': alert.rule },
    h('div', { class: 'alert-head' }, h('span', { class: `badge severity-${alert.severity}` }, alert.severity), h('span', { class: `badge state-${alert.state}` }, alert.state), h('span', { class: 'alert-rule' }, alert.rule)),
    h('p', { class: 'alert-summary' }, alert.summary),
    h('p', { class: 'muted small' }, since),
    deliveryLine(alert),
  );
}

/** Webhook deliveries, so a notification that never arrived is visible here. */
function deliveryLine(alert: Alert): HTMLElement | null {
  const summary = alert.deliverySummary;
  if (summary.delivered + summary.failed === 0) return null;
  const counts = `Webhooks: ${summary.delivered} delivered, ${summary.failed} failed`;
  const text = summary.failed > 0 && summary.lastError !== null ? `${counts}; last error: ${summary.lastError}` : counts;
  return h('p', { class: summary.failed > 0 ? 'small delivery-failed' : 'muted small', 'data-testid': 'alert-deliveries' }, text);
}

export function renderAlerts(body: HTMLElement, alerts: readonly Alert[]): void {
  const open = alerts.filter((a) => a.state !== 'resolved').sort((a, b) => (a.state === b.state ? 0 : a.state === 'firing' ? -1 : 1));
  const resolved = alerts.filter((a) => a.state === 'resolved');
  replaceChildren(
    body,
    open.length === 0 ? emptyState('Nothing firing or pending.', 'alerts-empty') : h('ul', { class: 'alert-list', 'data-testid': 'alerts-open' }, ...open.map(alertItem)),
    resolved.length === 0
      ? null
      : h('details', { class: 'resolved', 'data-testid': 'alerts-resolved' }, h('summary', {}, `Resolved (${resolved.length})`), h('ul', { class: 'alert-list' }, ...resolved.map(alertItem))),
  );
}

/** Loads and draws the alert list; a 404 means this server has no alerts API. */
export async function loadAlerts(api: ApiClient, body: HTMLElement, actions: HTMLElement): Promise<void> {
  body.setAttribute('aria-busy', 'true');
  if (body.childElementCount === 0) replaceChildren(body, loading('alerts'));
  try {
    const { alerts } = await api.get<AlertsResponse>('/alerts');
    actions.hidden = false;
    renderAlerts(body, alerts);
  } catch (error) {
    actions.hidden = true;
    if (error instanceof ApiError && error.status === 404) replaceChildren(body, emptyState('Alerts unavailable on this server.', 'alerts-unavailable'));
    else replaceChildren(body, failureLine('Alerts', error));
  } finally {
    body.removeAttribute('aria-busy');
  }
}

/** The "Evaluate now" button: runs the rules on the server, then reloads the list. */
export function createEvaluateButton(api: ApiClient, body: HTMLElement, actions: HTMLElement): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'alerts-evaluate' }, 'Evaluate rules now');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api.send('POST', '/alerts/evaluate', {});
      await loadAlerts(api, body, actions);
    } catch (error) {
      body.prepend(errorLine(`Evaluation failed: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
