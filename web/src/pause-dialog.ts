/**
 * Pausing a plan's refusals (or every plan's) for a while, with a reason: a modal dialog that POSTs
 * /pauses; and resuming, one click. The server checks the span and reason; its message sits beside
 * the field it names.
 */
import { ApiError, type ApiClient } from './api-client.js';
import type { Plan } from './api-types.js';
import { byId, errorLine, h, replaceChildren } from './dom.js';
import { formatTime } from './format.js';

export interface PauseDialog {
  /** Asks for a span and a reason, then pauses these plans, or every one that acts. */
  open(target: { plans: 'all' } | { plans: [number]; name: string }): void;
  resume(plans: 'all' | [number]): Promise<void>;
}

const FIELDS = { for: 'pause-for', reason: 'pause-reason' } as const;

export function createPauseDialog(api: ApiClient, onChanged: () => Promise<void>, onError: (message: string) => void): PauseDialog {
  const dialog = byId<HTMLDialogElement>('pause-dialog');
  const form = byId<HTMLFormElement>('pause-form');
  const scope = byId('pause-dialog-scope');
  const errors = byId('pause-form-error');
  const input = (field: keyof typeof FIELDS) => byId<HTMLInputElement | HTMLTextAreaElement>(FIELDS[field]);
  let plans: 'all' | [number] = 'all';

  const clearErrors = () => {
    replaceChildren(errors);
    for (const field of Object.keys(FIELDS) as (keyof typeof FIELDS)[]) input(field).removeAttribute('aria-invalid');
  };

  byId('pause-cancel').addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    clearErrors();
    try {
      await api.send('POST', '/pauses', { plans, for: input('for').value.trim(), reason: input('reason').value });
      dialog.close();
      await onChanged();
    } catch (error) {
      const field = error instanceof ApiError && (error.parameter === 'for' || error.parameter === 'reason') ? error.parameter : undefined;
      if (field !== undefined) input(field).setAttribute('aria-invalid', 'true');
      replaceChildren(errors, errorLine(`Not paused: ${error instanceof Error ? error.message : String(error)}`));
      (field === undefined ? input('for') : input(field)).focus();
    } finally {
      if (submit) submit.disabled = false;
    }
  });

  return {
    open(target) {
      plans = target.plans;
      scope.textContent = target.plans === 'all' ? 'Every plan that does more than observe (a plan made later is not paused).' : `Plan “${target.name}”.`;
      input('for').value = '24h';
      input('reason').value = '';
      clearErrors();
      dialog.showModal();
      input('reason').focus();
    },
    async resume(which) {
      try {
        await api.send('POST', '/pauses/resume', { plans: which });
        await onChanged();
      } catch (error) {
        onError(`Not resumed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/** The pauses in force across the plans, with one button that resumes them all; empty when none. */
export function renderPausesBanner(container: HTMLElement, plans: readonly Plan[], resumeAll: () => void): void {
  const paused = plans.filter((plan) => plan.enforcement.pause !== null);
  if (paused.length === 0) {
    replaceChildren(container);
    return;
  }
  replaceChildren(
    container,
    h(
      'div',
      { class: 'pauses-banner', role: 'status' },
      h('strong', {}, `${paused.length} plan${paused.length === 1 ? ' is' : 's are'} paused: `),
      paused.map((plan) => `${plan.name} until ${formatTime(plan.enforcement.pause!.endsAt)}`).join('; '),
      ' ',
      h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'resume-all', onclick: resumeAll }, 'Resume all now'),
    ),
  );
}
