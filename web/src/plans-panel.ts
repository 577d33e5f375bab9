/**
 * Every active plan with its status and reason, its enforcement timeline and a dry run, and the
 * actions on it: show, pause or resume, edit, archive. A plan declared in the config file changes there only.
 */
import type { Plan } from './api-types.js';
import { emptyState, h, replaceChildren } from './dom.js';
import { formatDay, formatDaysAway, formatScope, formatShare, formatTime } from './format.js';
import { renderPlanTimeline } from './plan-timeline.js';
import { statusPill } from './render-header.js';

export interface PlanActions {
  show(plan: Plan): void;
  edit(plan: Plan): void;
  archive(plan: Plan): void;
  pause(plan: Plan): void;
  resume(plan: Plan): void;
  dryRunPanel(plan: Plan): HTMLElement;
}

/** While the plan is paused: since when, until when, by whom and why, with the one action that ends it. */
function pauseLine(plan: Plan, actions: PlanActions): HTMLElement | null {
  const pause = plan.enforcement.pause;
  if (pause === null) return null;
  return h(
    'p',
    { class: 'small pause-line', 'data-testid': 'plan-paused', role: 'status' },
    h('strong', {}, 'Paused'),
    ` until ${formatTime(pause.endsAt)} by ${pause.pausedBy}: ${pause.reason}. Nothing is refused; what would be is counted as would-block. `,
    h('button', { type: 'button', class: 'small-button', 'data-testid': 'plan-resume', onclick: () => actions.resume(plan) }, 'Resume now'),
  );
}

function planItem(plan: Plan, selected: boolean, actions: PlanActions): HTMLElement {
  const facts = [
    `${formatScope(plan.scope)}`,
    `announced ${formatDay(plan.announceDate)}`,
    `retire ${formatDay(plan.retireDate)} (${formatDaysAway(plan.status.daysToRetire)})`,
    `target ${formatShare(plan.targetShare)}`,
    `now ${formatShare(plan.currentShare)}`,
  ];
  const brownouts = plan.brownouts.length === 0 ? null : `${plan.brownouts.length} brownout${plan.brownouts.length === 1 ? '' : 's'}, next ${formatDay(plan.brownouts[0]?.startsAt ?? null)}`;
  return h(
    'li',
    { class: `plan-item${selected ? ' is-selected' : ''}`, 'data-testid': 'plan-item', 'data-plan-id': plan.id, 'data-declared': plan.declaredKey !== null },
    h('div', { class: 'plan-item-head' }, h('h3', { class: 'plan-name' }, plan.name), statusPill(plan.status.status, 'plan-item-status')),
    h('p', { class: 'plan-reason', 'data-testid': 'plan-item-reason' }, plan.status.reason),
    h('p', { class: 'muted small' }, facts.join(' · '), brownouts === null ? null : ` · ${brownouts}`),
    plan.policyUrl === null ? null : h('p', { class: 'small' }, h('a', { href: plan.policyUrl, rel: 'noopener noreferrer', target: '_blank' }, 'Published policy')),
    plan.declaredKey === null ? null : h('p', { class: 'small declared-note', 'data-testid': 'plan-declared' }, `Read-only: declared in the config file as ${plan.declaredKey}.`),
    pauseLine(plan, actions),
    renderPlanTimeline(plan.enforcement),
    actions.dryRunPanel(plan),
    h(
      'div',
      { class: 'plan-actions' },
      h('button', { type: 'button', class: 'secondary small-button', disabled: selected, onclick: () => actions.show(plan) }, selected ? 'On the chart' : 'Show on chart'),
      // A pause changes no plan: a plan declared in the config file can be paused too.
      plan.action === 'observe' || plan.enforcement.pause !== null ? null : h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'plan-pause', onclick: () => actions.pause(plan) }, 'Pause…'),
      plan.declaredKey !== null ? null : h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'plan-edit', onclick: () => actions.edit(plan) }, 'Edit'),
      plan.declaredKey !== null ? null : h('button', { type: 'button', class: 'secondary small-button danger', 'data-testid': 'plan-archive', onclick: () => actions.archive(plan) }, 'Archive'),
    ),
  );
}

export function renderPlans(body: HTMLElement, plans: readonly Plan[], selectedId: number | null, actions: PlanActions): void {
  if (plans.length === 0) {
    replaceChildren(body, emptyState('No plans yet — create one.', 'plans-empty'));
    return;
  }
  replaceChildren(body, h('ul', { class: 'plan-list', 'data-testid': 'plan-list' }, ...plans.map((plan) => planItem(plan, plan.id === selectedId, actions))));
}
