/**
 * Creates a plan (POST) or edits one (PATCH) from one form. The target is typed as a percentage
 * and sent as a share, beside the basis it is a share of; the server validates everything and its
 * error names the field.
 */
import { ApiError, type ApiClient } from './api-client.js';
import type { Plan, ScopeKind, ShareBasis } from './api-types.js';
import { byId, errorLine, replaceChildren } from './dom.js';

export interface PlanForm {
  edit(plan: Plan): void;
  reset(): void;
}

type Control = HTMLInputElement | HTMLSelectElement;

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function createPlanForm(api: ApiClient, onSaved: (plan: Plan) => Promise<void>): PlanForm {
  const form = byId<HTMLFormElement>('plan-form');
  const legend = byId('plan-form-legend');
  const submit = byId<HTMLButtonElement>('plan-submit');
  const cancel = byId<HTMLButtonElement>('plan-cancel');
  const errors = byId('plan-form-error');
  const control = (name: string) => form.elements.namedItem(name) as Control;
  const kind = control('scopeKind') as HTMLSelectElement;
  let editing: Plan | undefined;

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
    replaceChildren(errors);
    for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid');
    showScopeValue();
  };
  cancel.addEventListener('click', reset);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    replaceChildren(errors);
    for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid');
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
    };
    submit.disabled = true;
    try {
      const saved = editing === undefined ? await api.send<Plan>('POST', '/plans', body) : await api.send<Plan>('PATCH', `/plans/${editing.id}`, body);
      reset();
      await onSaved(saved);
    } catch (error) {
      const parameter = error instanceof ApiError ? error.parameter : undefined;
      const field = parameter === undefined ? undefined : { targetShare: 'targetPercent', scope: 'scopeKind' }[parameter.split('.')[0] ?? ''] ?? parameter.split('.')[0];
      if (field !== undefined && form.elements.namedItem(field) instanceof HTMLElement) (form.elements.namedItem(field) as HTMLElement).setAttribute('aria-invalid', 'true');
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
      control('targetPercent').value = String(Number((plan.targetShare * 100).toPrecision(6)));
      control('basis').value = plan.basis;
      control('policyUrl').value = plan.policyUrl ?? '';
      showScopeValue();
      form.scrollIntoView({ block: 'nearest' });
      control('name').focus();
    },
  };
}
