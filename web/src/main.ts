/**
 * The dashboard: one screen that answers "can we retire the legacy era, and when?". Every number
 * comes from /api/v1; this file only fetches, keeps the selection and hands answers to renderers.
 */
import { ApiError, createApiClient } from './api-client.js';
import type { FleetResponse, Integration, IntegrationsResponse, Plan, PlansResponse, ShareResponse, TrafficResponse, VolumeGroup } from './api-types.js';
import { createEvaluateButton, loadAlerts } from './alerts-panel.js';
import { loadAudit } from './audit-panel.js';
import { createFleetCheckButton, loadFleet } from './fleet-panel.js';
import { byId, emptyState, errorLine, failureLine, h, loading, replaceChildren } from './dom.js';
import { formatBasis, formatScope } from './format.js';
import { createIntegrationDialog } from './integration-dialog.js';
import { renderIntegrationsTable, renderSplit } from './integrations-panel.js';
import { renderDryRunPanel } from './dry-run-panel.js';
import { createPauseDialog, renderPausesBanner } from './pause-dialog.js';
import { createPlanForm } from './plan-form.js';
import { renderPlans } from './plans-panel.js';
import { renderHeader, renderPlanSelect } from './render-header.js';
import { loadUnknownBase } from './unknown-base-panel.js';
import { createShareCharts, updateShareCharts } from './share-chart.js';
import { createTokenGate } from './token-gate.js';
import { createVolumeChart, updateVolumeChart } from './volume-chart.js';
import { readViewState, writeViewState, RANGE_DAYS, type ViewState } from './view-state.js';

const DAY_MS = 86_400_000;

const view: ViewState = readViewState(location.hash);
let plans: Plan[] = [];

const gate = createTokenGate(() => void refreshAll());
const api = createApiClient({ token: gate.token, onUnauthorized: () => gate.show() });

const header = { select: byId<HTMLSelectElement>('plan-select'), pill: byId('plan-status'), reason: byId('plan-reason'), kpis: byId('kpis') };
const shareCharts = createShareCharts(byId<HTMLCanvasElement>('share-canvas'), byId<HTMLCanvasElement>('outcomes-canvas'));
const volumeChart = createVolumeChart(byId<HTMLCanvasElement>('volume-canvas'));
const sharePanel = byId('share-panel');
const volumePanel = byId('volume-panel');
const alertsBody = byId('alerts-body');
const alertsActions = byId('alerts-actions');

declare global {
  interface Window {
    readonly mcpSunsetCharts: { readonly share: typeof shareCharts.share; readonly outcomes: typeof shareCharts.outcomes; readonly volume: typeof volumeChart };
  }
}
Object.defineProperty(window, 'mcpSunsetCharts', {
  value: Object.freeze({ share: shareCharts.share, outcomes: shareCharts.outcomes, volume: volumeChart }),
  writable: false,
  configurable: false,
});

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Shows a panel's message line (loading, empty or error), or clears it. */
function panelMessage(panel: HTMLElement, message: HTMLElement | null): void {
  const slot = panel.querySelector<HTMLElement>('.panel-message')!;
  replaceChildren(slot, message);
  panel.classList.toggle('has-message', message !== null);
}

function rangeFrom(): string {
  return new Date(Date.now() - view.days * DAY_MS).toISOString();
}

/** The node the reader chose, as a query parameter; none reads the whole fleet. */
function nodeFilter(): { node?: string } {
  return view.node === null ? {} : { node: view.node };
}

/** The nodes that flushed to the store, for the node picker; the chosen one stays listed even if it went quiet. */
function renderNodeSelect(fleet: FleetResponse | undefined): void {
  const select = byId<HTMLSelectElement>('node-select');
  const nodes = new Set((fleet?.sidecars ?? []).map((sidecar) => sidecar.node));
  if (view.node !== null) nodes.add(view.node);
  replaceChildren(select, h('option', { value: '' }, 'All nodes'), ...[...nodes].sort().map((node) => h('option', { value: node }, node)));
  select.value = view.node ?? '';
}

function selectedPlan(): Plan | undefined {
  return plans.find((p) => p.id === view.planId);
}

async function loadShare(): Promise<void> {
  sharePanel.dataset.loaded = 'false';
  panelMessage(sharePanel, loading('the share curve'));
  const plan = selectedPlan();
  try {
    const share = await api.get<ShareResponse>('/share', { ...(plan === undefined ? { scope: 'era:legacy' } : { plan: String(plan.id) }), bucket: 'day', from: rangeFrom(), ...nodeFilter() });
    const current = share.plan ?? plan;
    const scopeLabel = current === undefined ? 'Legacy' : formatScope(current.scope);
    byId('share-title').textContent = `${scopeLabel} share of served ${formatBasis(share.basis)}${view.node === null ? '' : ` on ${view.node}`}`;
    renderHeader(header, current, share);
    updateShareCharts(shareCharts, share, current, scopeLabel);
    byId('trend-reason').textContent = share.trend.reason;
    const counted = share.series.some((p) => p.served > 0 || p.refused > 0 || p.failed > 0);
    panelMessage(sharePanel, counted ? null : emptyState('No traffic counted yet — point a client at the sidecar.', 'share-empty'));
    sharePanel.dataset.planId = String(current?.id ?? '');
    sharePanel.dataset.hasData = 'true';
    sharePanel.dataset.loaded = 'true';
  } catch (error) {
    panelMessage(sharePanel, failureLine('The share curve', error));
  }
}

async function loadPlans(): Promise<void> {
  const body = byId('plans-body');
  if (plans.length === 0) replaceChildren(body, loading('plans'));
  try {
    plans = (await api.get<PlansResponse>('/plans')).plans;
  } catch (error) {
    replaceChildren(body, failureLine('Plans', error));
    throw error;
  }
  if (selectedPlan() === undefined) view.planId = plans[0]?.id ?? null;
  writeViewState(view);
  renderPlanSelect(header.select, plans, view.planId);
  renderPlans(body, plans, view.planId, planActions);
  renderPausesBanner(byId('pauses-banner'), plans, () => void pauseDialog.resume('all'));
}

/** Plans first: the share curve needs the selected plan, the integrations table the plans' names. */
async function loadPlansAndShare(): Promise<void> {
  try {
    await loadPlans();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      panelMessage(sharePanel, failureLine('The share curve', error));
      replaceChildren(byId('integrations-body'), failureLine('Integrations', error));
      return;
    }
  }
  await Promise.all([loadShare(), loadIntegrations(), loadAudit(api, byId('audit-body'))]);
}

async function loadVolume(): Promise<void> {
  volumePanel.dataset.loaded = 'false';
  panelMessage(volumePanel, loading('request volume'));
  try {
    const traffic = await api.get<TrafficResponse>('/traffic', { bucket: 'day', kind: 'request', groupBy: view.groupBy, from: rangeFrom(), ...nodeFilter() });
    updateVolumeChart(volumeChart, traffic, view.groupBy);
    panelMessage(volumePanel, Object.keys(traffic.totals).length > 0 ? null : emptyState('No traffic counted yet — point a client at the sidecar.', 'volume-empty'));
    volumePanel.dataset.hasData = 'true';
    volumePanel.dataset.loaded = 'true';
  } catch (error) {
    panelMessage(volumePanel, failureLine('Request volume', error));
  }
}

/** The integrations table's migration filter, asked of the API so its paging stays right. */
let migrationFilter: string | null = null;
/** The latest ask for the table: an answer to an older one (the filter or order changed since) is dropped. */
let integrationsAsked = 0;
/** The callers the table shows, whose keys a caller's dialog offers to join into it. */
let tableCallers: readonly Integration[] = [];

async function loadIntegrations(): Promise<void> {
  const body = byId('integrations-body');
  const split = byId('split-body');
  if (body.childElementCount === 0) replaceChildren(body, loading('integrations'));
  if (split.childElementCount === 0) replaceChildren(split, loading('the split'));
  const asked = ++integrationsAsked;
  try {
    const integrations = await api.get<IntegrationsResponse>('/integrations', {
      ...(migrationFilter === null ? {} : { migration: migrationFilter }),
      ...(view.order === 'legacy' ? {} : { orderBy: view.order }),
    });
    if (asked !== integrationsAsked) return;
    renderSplit(split, integrations);
    const planLabels = new Map(plans.map((plan) => [plan.id, formatScope(plan.scope)]));
    const migration = {
      value: migrationFilter,
      onChange(value: string | null) {
        migrationFilter = value;
        void loadIntegrations();
      },
    };
    // The order is the reader's choice, in the hash like the range: a reload or a link keeps it.
    const order = {
      value: view.order,
      onChange(value: ViewState['order']) {
        view.order = value;
        writeViewState(view);
        void loadIntegrations();
      },
    };
    tableCallers = integrations.integrations;
    renderIntegrationsTable(body, integrations, planLabels, (integration) => integrationDialog.open(integration, integrations.windowDays), { migration, order });
    body.dataset.loaded = 'true';
  } catch (error) {
    if (asked !== integrationsAsked) return;
    replaceChildren(body, failureLine('Integrations', error));
    replaceChildren(split);
  }
}

// A join moves counts between callers: the plans' gates, the share's callers, the table and the audit trail are read again.
const integrationDialog = createIntegrationDialog(api, { onSaved: loadIntegrations, onJoined: loadPlansAndShare, tableCallers: () => tableCallers });
const planForm = createPlanForm(api, loadPlansAndShare);
const pauseDialog = createPauseDialog(api, loadPlansAndShare, (message) => byId('plans-body').prepend(errorLine(message)));
const planActions = {
  show(plan: Plan) {
    view.planId = plan.id;
    void loadPlansAndShare();
    byId('masthead').scrollIntoView({ behavior: 'smooth' });
  },
  edit: (plan: Plan) => planForm.edit(plan),
  pause: (plan: Plan) => pauseDialog.open({ plans: [plan.id], name: plan.name }),
  resume: (plan: Plan) => void pauseDialog.resume([plan.id]),
  dryRunPanel: (plan: Plan) => renderDryRunPanel(api, plan),
  async archive(plan: Plan) {
    if (!window.confirm(`Archive “${plan.name}”? Its history stays readable through the API.`)) return;
    try {
      await api.send('DELETE', `/plans/${plan.id}`);
      if (view.planId === plan.id) view.planId = null;
      await loadPlansAndShare();
    } catch (error) {
      byId('plans-body').prepend(errorLine(`Not archived: ${describe(error)}`));
    }
  },
};

async function refreshAll(): Promise<void> {
  document.body.dataset.refreshing = 'true';
  await Promise.allSettled([loadPlansAndShare(), loadVolume(), loadAlerts(api, alertsBody, alertsActions), loadFleet(api, byId('fleet-body')).then(renderNodeSelect), loadUnknownBase(api, byId('unknown-base-body'))]);
  delete document.body.dataset.refreshing;
}

function pressOnly(group: HTMLElement, value: string): void {
  for (const button of group.querySelectorAll<HTMLButtonElement>('button[data-value]')) button.setAttribute('aria-pressed', String(button.dataset.value === value));
}

function wireControls(): void {
  const range = byId('range-picker');
  for (const days of RANGE_DAYS) range.append(h('button', { type: 'button', 'data-value': days, 'data-testid': `range-${days}` }, `${days} days`));
  pressOnly(range, String(view.days));
  range.addEventListener('click', (event) => {
    const value = Number((event.target as HTMLElement).closest<HTMLButtonElement>('button[data-value]')?.dataset.value);
    if (!RANGE_DAYS.includes(value as ViewState['days']) || value === view.days) return;
    view.days = value as ViewState['days'];
    pressOnly(range, String(value));
    writeViewState(view);
    void Promise.all([loadShare(), loadVolume()]);
  });

  const groups = byId('volume-groupby');
  pressOnly(groups, view.groupBy);
  groups.addEventListener('click', (event) => {
    const value = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-value]')?.dataset.value as VolumeGroup | undefined;
    if (value === undefined || value === view.groupBy) return;
    view.groupBy = value;
    pressOnly(groups, value);
    writeViewState(view);
    void loadVolume();
  });

  const nodeSelect = byId<HTMLSelectElement>('node-select');
  nodeSelect.addEventListener('change', () => {
    view.node = nodeSelect.value === '' ? null : nodeSelect.value;
    writeViewState(view);
    void Promise.all([loadShare(), loadVolume()]);
  });

  header.select.addEventListener('change', () => {
    view.planId = Number(header.select.value);
    writeViewState(view);
    renderPlans(byId('plans-body'), plans, view.planId, planActions);
    void loadShare();
  });
  alertsActions.append(createEvaluateButton(api, alertsBody, alertsActions));
  byId('pause-all').addEventListener('click', () => pauseDialog.open({ plans: 'all' }));
  byId('fleet-actions').append(createFleetCheckButton(api, byId('fleet-body')));
}

wireControls();
void refreshAll();
