/**
 * Creates a plan (POST) or edits one (PATCH) from one form. Shares (the target, the gate's max) are
 * typed as percentages and sent as shares; the server validates everything and its error names the
 * field, which is marked and gets the message beside it.
 */
import { ApiError, type ApiClient } from './api-client.js';
import type { Plan, PlanAction, ScopeKind, ShareBasis } from './api-types.js';
import { byId, errorLine, h, replaceChildren } from './dom.js';
import { createExemptionRows } from './exemption-rows.js';

export interface PlanForm {
  edit(plan: Plan): void;
  reset(): void;
}

type Control = HTMLInputElement | HTMLSelectElement;

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The form's control names for the API's field names where they differ. */
const CONTROL_OF: Readonly<Record<string, string>> = {
  targetShare: 'targetPercent',
  scope: 'scopeKind',
  'gate.backstopDate': 'gateBackstopDate',
  'gate.maxShare': 'gateMaxPercent',
  gate: 'gateBackstopDate',
  brownoutSchedule: 'scheduleFirstDate',
  'brownoutSchedule.firstDate': 'scheduleFirstDate',
  'brownoutSchedule.startTime': 'scheduleStartTime',
  'brownoutSchedule.timeZone': 'scheduleTimeZone',
  'brownoutSchedule.everyDays': 'scheduleEveryDays',
  'brownoutSchedule.durations': 'scheduleDurations',
};

/** The escalating schedule the form's fields describe, or nothing when no first date is given. */
function scheduleFrom(control: (name: string) => Control): { brownoutSchedule: Record<string, unknown> } | Record<string, never> {
  const firstDate = control('scheduleFirstDate').value;
  if (firstDate === '') return {};
  return {
    brownoutSchedule: {
      firstDate,
      startTime: control('scheduleStartTime').value,
      timeZone: control('scheduleTimeZone').value.trim(),
      everyDays: Number(control('scheduleEveryDays').value),
      durations: control('scheduleDurations').value.split(',').map((span) => span.trim()).filter((span) => span !== ''),
    },
  };
}

function percentToShare(text: string): number | null {
  return text.trim() === '' ? null : Number(text) / 100;
}

function shareToPercent(share: number): string {
  return String(Number((share * 100).toPrecision(6)));
}

export function createPlanForm(api: ApiClient, onSaved: (plan: Plan) => Promise<void>): PlanForm {
  const form = byId<HTMLFormElement>('plan-form');
  const legend = byId('plan-form-legend');
  const submit = byId<HTMLButtonElement>('plan-submit');
  const cancel = byId<HTMLButtonElement>('plan-cancel');
  const errors = byId('plan-form-error');
  const control = (name: string) => form.elements.namedItem(name) as Control;
  const kind = control('scopeKind') as HTMLSelectElement;
  const exemptions = createExemptionRows();
  let editing: Plan | undefined;
  // The zones the browser knows, to pick from; any the server knows is taken.
  replaceChildren(byId('plan-schedule-zones'), ...Intl.supportedValuesOf('timeZone').map((zone) => h('option', { value: zone })));

  const clearInvalid = () => {
    replaceChildren(errors);
    for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid');
    for (const element of form.querySelectorAll('.field-error')) element.remove();
  };

  /** The control(s) a server error names: `exemptions.2.until` is a row's input, `action` every radio. */
  const controlsFor = (parameter: string): HTMLElement[] => {
    const exemption = /^exemptions\.(\d+)\.(\w+)/.exec(parameter);
    if (exemption !== null) return [exemptions.control(Number(exemption[1]), exemption[2]!)].filter((c) => c !== undefined);
    const schedule = /^brownoutSchedule\.(\w+)/.exec(parameter);
    const key = schedule === null ? parameter : `brownoutSchedule.${schedule[1]}`;
    const named = form.elements.namedItem(CONTROL_OF[key] ?? CONTROL_OF[parameter.split('.')[0] ?? ''] ?? parameter.split('.')[0] ?? '');
    if (named instanceof RadioNodeList) return [...named].filter((c) => c instanceof HTMLElement);
    return named instanceof HTMLElement ? [named] : [];
  };

  const markInvalid = (parameter: string, message: string) => {
    const controls = controlsFor(parameter);
    for (const element of controls) element.setAttribute('aria-invalid', 'true');
    const anchor = controls[0]?.closest('.field, .subfieldset');
    if (anchor === null || anchor === undefined) return;
    const id = `plan-error-${parameter.replace(/\W/g, '-')}`;
    anchor.append(h('p', { class: 'field-error small', id, 'data-testid': 'plan-field-error' }, message));
    for (const element of controls) element.setAttribute('aria-describedby', [element.getAttribute('aria-describedby'), id].filter(Boolean).join(' '));
  };

  const showScopeValue = () => {
    for (const k of ['era', 'transport', 'version'] as const) byId(`plan-scope-${k}-field`).hidden = kind.value !== k;
    (control('scopeVersion') as HTMLInputElement).required = kind.value === 'version';
  };
  kind.addEventListener('change', showScopeValue);

  const reset = () => {
    editing = undefined;
    form.reset();
    control('announceDate').value = today();
    legend.textContent = 'New plan';
    submit.textContent = 'Create plan';
    cancel.hidden = true;
    clearInvalid();
    exemptions.set([]);
    showScopeValue();
  };
  cancel.addEventListener('click', reset);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearInvalid();
    const scopeKind = kind.value as ScopeKind;
    const scopeValue = scopeKind === 'era' ? 'legacy' : control(scopeKind === 'transport' ? 'scopeTransport' : 'scopeVersion').value.trim();
    const policyUrl = control('policyUrl').value.trim();
    const body = {
      name: control('name').value.trim(),
      scope: { kind: scopeKind, value: scopeValue },
      announceDate: control('announceDate').value,
      retireDate: control('retireDate').value,
      targetShare: Number(control('targetPercent').value) / 100,
      basis: control('basis').value as ShareBasis,
      policyUrl: policyUrl === '' ? null : policyUrl,
      action: (form.elements.namedItem('action') as RadioNodeList).value as PlanAction,
      blockNewCallersFrom: control('blockNewCallersFrom').value === '' ? null : control('blockNewCallersFrom').value,
      quietDays: Number(control('quietDays').value),
      gate: control('gateBackstopDate').value === '' ? null : { backstopDate: control('gateBackstopDate').value, maxShare: percentToShare(control('gateMaxPercent').value) },
      exemptions: exemptions.read(),
      noticeDays: control('noticeDays').value.split(',').map((d) => d.trim()).filter((d) => d !== '').map(Number),
      ...scheduleFrom(control),
      ...((control('acknowledgeRefusingModern') as HTMLInputElement).checked ? { acknowledgeRefusingModern: true } : {}),
    };
    submit.disabled = true;
    try {
      const saved = editing === undefined ? await api.send<Plan>('POST', '/plans', body) : await api.send<Plan>('PATCH', `/plans/${editing.id}`, body);
      reset();
      await onSaved(saved);
    } catch (error) {
      const parameter = error instanceof ApiError ? error.parameter : undefined;
      if (parameter !== undefined) markInvalid(parameter, error instanceof Error ? error.message : String(error));
      replaceChildren(errors, errorLine(`Not saved: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      submit.disabled = false;
    }
  });

  reset();
  return {
    reset,
    edit(plan) {
      reset();
      editing = plan;
      legend.textContent = `Edit “${plan.name}”`;
      submit.textContent = 'Save plan';
      cancel.hidden = false;
      control('name').value = plan.name;
      kind.value = plan.scope.kind;
      if (plan.scope.kind === 'transport') control('scopeTransport').value = plan.scope.value;
      if (plan.scope.kind === 'version') control('scopeVersion').value = plan.scope.value;
      control('announceDate').value = plan.announceDate;
      control('retireDate').value = plan.retireDate;
      control('targetPercent').value = shareToPercent(plan.targetShare);
      control('basis').value = plan.basis;
      control('policyUrl').value = plan.policyUrl ?? '';
      (form.elements.namedItem('action') as RadioNodeList).value = plan.action;
      // A deny plan in the store was acknowledged when it was made, if its scope asked for it.
      (control('acknowledgeRefusingModern') as HTMLInputElement).checked = plan.action === 'deny';
      control('blockNewCallersFrom').value = plan.blockNewCallersFrom ?? '';
      control('quietDays').value = String(plan.quietDays);
      control('gateBackstopDate').value = plan.gate?.backstopDate ?? '';
      control('gateMaxPercent').value = plan.gate?.maxShare === null || plan.gate === null ? '' : shareToPercent(plan.gate.maxShare);
      exemptions.set(plan.exemptions);
      control('noticeDays').value = plan.noticeDays.join(', ');
      showScopeValue();
      form.scrollIntoView({ block: 'nearest' });
      control('name').focus();
    },
  };
}
