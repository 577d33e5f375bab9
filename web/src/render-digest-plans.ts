/** The digest's plans, one table row each: where it stands, why, and what comes next. */
import type { DigestPlan } from './api-types.js';
import { emptyState, h } from './dom.js';
import { digestSection } from './digest-section.js';
import { formatDay, formatShare, formatTime } from './format.js';
import { PHASE_LABEL, WINDOW_LABEL } from './plan-timeline.js';
import { statusPill } from './render-header.js';

type Stage = DigestPlan['inForce'][number];

/** A brownout is a window of hours, so it keeps its times; the other stages are days. */
function stageWhen(stage: Stage): string {
  if (stage.kind === 'brownout') return `${formatTime(stage.at)} – ${formatTime(stage.endsAt)}`;
  return formatDay(stage.at);
}

function stageText(stage: Stage): string {
  return `${WINDOW_LABEL[stage.kind]} ${stageWhen(stage)}${stage.note === null ? '' : ` (${stage.note})`}`;
}

function statusCell(plan: DigestPlan): HTMLElement {
  return h(
    'td',
    {},
    statusPill(plan.status, 'plan-status'),
    h('div', { class: 'small', 'data-testid': 'plan-phase', 'data-phase': plan.phase }, PHASE_LABEL[plan.phase]),
    plan.inForce.length === 0 ? null : h('div', { class: 'small muted', 'data-testid': 'plan-in-force' }, `In force: ${plan.inForce.map(stageText).join('; ')}`),
  );
}

function planRow(plan: DigestPlan): HTMLElement {
  const next = plan.nextStage;
  const pause = plan.pause;
  return h(
    'tr',
    { 'data-testid': 'digest-plan', 'data-plan-id': plan.id },
    h(
      'td',
      { class: 'name-cell' },
      h('strong', { 'data-testid': 'plan-name' }, plan.name),
      h('span', { class: 'key muted', 'data-testid': 'plan-scope' }, plan.scopeLabel),
      // The plan's own share (its window and basis), which its reason speaks of: not the week's figure above.
      h('span', { class: 'key muted', 'data-testid': 'plan-share' }, `now ${formatShare(plan.currentShare)}, target ${formatShare(plan.targetShare)}`),
    ),
    h('td', { 'data-testid': 'plan-action' }, plan.action),
    statusCell(plan),
    h('td', { class: 'nowrap', 'data-testid': 'plan-retire' }, formatDay(plan.retireDate)),
    next === null
      ? h('td', { class: 'muted', 'data-testid': 'plan-next', 'data-kind': 'none' }, 'None left to come')
      : h('td', { 'data-testid': 'plan-next', 'data-kind': next.kind }, stageText(next)),
    pause === null
      ? h('td', { class: 'muted', 'data-testid': 'plan-pause' }, '—')
      : h('td', { 'data-testid': 'plan-pause' }, `Until ${formatTime(pause.endsAt)}: ${pause.reason}`),
    h('td', { 'data-testid': 'plan-reason' }, plan.statusReason),
  );
}

export function renderDigestPlans(plans: readonly DigestPlan[]): HTMLElement {
  if (plans.length === 0) return digestSection('digest-plans', 'Retirement plans', emptyState('No retirement plan yet.', 'digest-plans-empty'));
  const head = ['Plan', 'Action', 'Status', 'Retire date', 'Next stage', 'Pause', 'Why'];
  return digestSection(
    'digest-plans',
    'Retirement plans',
    h(
      'table',
      { class: 'digest-table', 'data-testid': 'digest-plans-table' },
      h('thead', {}, h('tr', {}, ...head.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...plans.map(planRow)),
    ),
  );
}
