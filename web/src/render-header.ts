/** The masthead: which plan, its status pill and reason, and the four numbers a reviewer asks for. */
import type { Plan, ShareResponse } from './api-types.js';
import { h, replaceChildren } from './dom.js';
import { formatBasis, formatDay, formatDaysAway, formatScope, formatShare, STATUS_LABEL } from './format.js';

export interface HeaderElements {
  select: HTMLSelectElement;
  pill: HTMLElement;
  reason: HTMLElement;
  kpis: HTMLElement;
}

/** Fills the plan selector with the active plans, keeping `selectedId` selected. */
export function renderPlanSelect(select: HTMLSelectElement, plans: readonly Plan[], selectedId: number | null): void {
  if (plans.length === 0) {
    replaceChildren(select, h('option', { value: '' }, 'No plans yet'));
    select.disabled = true;
    return;
  }
  select.disabled = false;
  replaceChildren(select, ...plans.map((plan) => h('option', { value: plan.id, selected: plan.id === selectedId }, `${plan.name} (${formatScope(plan.scope)})`)));
}

export function statusPill(status: string, testId?: string): HTMLElement {
  return h('span', { class: `pill pill-${status}`, 'data-status': status, 'data-testid': testId }, STATUS_LABEL[status] ?? status);
}

/** Says in words why there is no projected date, from the kind the API reports. */
function projectedText(share: ShareResponse): string {
  if (share.trend.projectedDate !== null) return formatDay(share.trend.projectedDate);
  switch (share.trend.projection?.kind) {
    case 'flat':
      return 'None: the curve is flat';
    case 'not-falling':
      return 'None: not falling';
    case 'too-far':
      return 'More than 50 years away';
    default:
      return 'Not enough data yet';
  }
}

function kpi(label: string, value: string, testId: string, note?: string): HTMLElement {
  return h('div', { class: 'kpi' }, h('dt', {}, label), h('dd', { 'data-testid': testId }, value), note === undefined ? null : h('dd', { class: 'kpi-note' }, note));
}

/** The latest share, and beneath it the part the legacy bridge served when it served any in range. */
function currentShareKpi(share: ShareResponse): HTMLElement {
  const element = kpi('Current share', formatShare(share.currentShare), 'current-share', formatScope(share.scope));
  if (share.series.some((p) => p.bridged > 0)) {
    element.append(h('dd', { class: 'kpi-note', 'data-testid': 'current-bridged-share' }, `${formatShare(share.currentBridgedShare)} via the bridge`));
  }
  return element;
}

export function renderHeader(els: HeaderElements, plan: Plan | undefined, share: ShareResponse | undefined): void {
  if (plan === undefined) {
    replaceChildren(els.pill);
    replaceChildren(els.reason, 'No plans yet — create one below to judge the curve against a retire date. ', h('a', { href: '#plans-panel' }, 'Create a plan'));
  } else {
    replaceChildren(els.pill, statusPill(plan.status.status, 'plan-status-pill'));
    els.pill.dataset.status = plan.status.status;
    replaceChildren(els.reason, plan.status.reason);
  }
  if (share === undefined) {
    replaceChildren(els.kpis);
    return;
  }
  replaceChildren(
    els.kpis,
    currentShareKpi(share),
    kpi('Projected date', projectedText(share), 'projected-date', share.trend.kind === 'fitted' ? `from ${share.trend.weeks} complete weeks` : undefined),
    plan === undefined ? null : kpi('Retire date', formatDay(plan.retireDate), 'retire-date', formatDaysAway(plan.status.daysToRetire)),
    kpi('Target', formatShare(share.target), 'target-share', `of served ${formatBasis(share.basis)}`),
  );
}
