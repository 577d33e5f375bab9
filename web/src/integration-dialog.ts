/**
 * The edit form for one integration: a modal dialog that PATCHes what operators know about it, with
 * its other names (joins), its people and what it was told.
 */
import type { ApiClient } from './api-client.js';
import type { CallerToldResponse, Integration, IntegrationStatus } from './api-types.js';
import { createCallerAliases } from './caller-aliases.js';
import { loadCallerPeople } from './caller-people.js';
import { byId, emptyState, errorLine, h, replaceChildren } from './dom.js';
import { formatDay, formatTime } from './format.js';
import { integrationName } from './integrations-panel.js';

const FIELDS = ['displayName', 'owner', 'contact', 'status', 'notes'] as const;

export interface IntegrationDialog {
  /** Opens the caller's dialog; `windowDays` is the table's window, over which its people are counted. */
  open(integration: Integration, windowDays: number): void;
}

export interface IntegrationDialogHooks {
  /** After a save. */
  onSaved(): Promise<void>;
  /** After a join or an undo: everything that counts by caller is read again. */
  onJoined(): Promise<void>;
  /** The callers the table shows now, whose keys the join form suggests. */
  tableCallers(): readonly Integration[];
}

export function createIntegrationDialog(api: ApiClient, hooks: IntegrationDialogHooks): IntegrationDialog {
  const dialog = byId<HTMLDialogElement>('integration-dialog');
  const form = byId<HTMLFormElement>('integration-form');
  const title = byId('integration-dialog-title');
  const keyLine = byId('integration-dialog-key');
  const errors = byId('integration-form-error');
  const field = (name: (typeof FIELDS)[number]) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  let current: Integration | undefined;
  let windowDays = 30;

  const told = byId('integration-told');
  const people = byId('integration-people');
  const contactForm = byId<HTMLFormElement>('contact-form');
  const contactErrors = byId('contact-form-error');

  /** The notices sent to the caller and the contacts made by hand, newest first. */
  const loadTold = async (key: string) => {
    try {
      const answer = await api.get<CallerToldResponse>(`/integrations/${encodeURIComponent(key)}/notices`);
      const rows = [
        ...answer.notices
          .filter((n) => n.status !== 'skipped')
          .map((n) => ({ at: n.finishedAt ?? n.claimedAt, text: `Notice (plan ${n.planId}): ${n.stage} on ${formatDay(n.stageAt)}, ${n.daysBefore} day${n.daysBefore === 1 ? '' : 's'} before — ${n.status}${n.lastError === null ? '' : ` (${n.lastError})`}`, testid: 'told-notice' })),
        ...answer.contacts.map((c) => ({ at: c.at, text: `${c.kind[0]!.toUpperCase()}${c.kind.slice(1)} by ${c.by}: ${c.note}`, testid: 'told-contact' })),
      ].sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
      replaceChildren(told, rows.length === 0 ? emptyState('Nothing sent or recorded yet.', 'told-empty') : h('ul', { class: 'told-list small' }, ...rows.map((r) => h('li', { 'data-testid': r.testid }, h('span', { class: 'muted' }, `${formatTime(r.at)} `), r.text))));
    } catch (error) {
      replaceChildren(told, errorLine(`Could not be loaded: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  /** After a join or an undo: the table first, then this caller as the API now counts it, its names folded in. */
  const aliases = createCallerAliases(api, async (key) => {
    // Each panel says its own failure; the join itself was made.
    await hooks.onJoined().catch(() => undefined);
    try {
      const fresh = await api.get<Integration>(`/integrations/${encodeURIComponent(key)}`);
      if (current?.key !== key || !dialog.open) return;
      current = fresh;
      aliases.update(fresh, hooks.tableCallers());
      delete people.dataset.loaded;
      void loadCallerPeople(api, people, fresh, windowDays, () => current === fresh && dialog.open);
      void loadTold(key);
    } catch (error) {
      if (current?.key === key) byId('integration-aliases').prepend(errorLine(`This caller could not be read again: ${error instanceof Error ? error.message : String(error)}`));
    }
  });

  contactForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (current === undefined) return;
    const note = byId<HTMLInputElement>('contact-note');
    replaceChildren(contactErrors);
    note.removeAttribute('aria-invalid');
    try {
      await api.send('POST', `/integrations/${encodeURIComponent(current.key)}/contacts`, { kind: byId<HTMLSelectElement>('contact-kind').value, note: note.value });
      note.value = '';
      await loadTold(current.key);
    } catch (error) {
      note.setAttribute('aria-invalid', 'true');
      replaceChildren(contactErrors, errorLine(`Not recorded: ${error instanceof Error ? error.message : String(error)}`));
    }
  });

  byId('integration-cancel').addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (current === undefined) return;
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    replaceChildren(errors);
    try {
      // Empty text clears a field: the API stores it as null.
      await api.send('PATCH', `/integrations/${encodeURIComponent(current.key)}`, {
        displayName: field('displayName').value,
        owner: field('owner').value,
        contact: field('contact').value,
        status: field('status').value as IntegrationStatus,
        notes: field('notes').value,
      });
      dialog.close();
      await hooks.onSaved();
    } catch (error) {
      replaceChildren(errors, errorLine(`Not saved: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      if (submit) submit.disabled = false;
    }
  });

  return {
    open(integration, days) {
      current = integration;
      windowDays = days;
      title.textContent = `Edit ${integrationName(integration)}`;
      keyLine.textContent = `${integration.key} · identified by ${integration.source}`;
      field('displayName').value = integration.displayName ?? '';
      field('owner').value = integration.owner ?? '';
      field('contact').value = integration.contact ?? '';
      field('status').value = integration.status;
      field('notes').value = integration.notes ?? '';
      replaceChildren(errors);
      replaceChildren(contactErrors);
      replaceChildren(told);
      delete people.dataset.loaded;
      void loadCallerPeople(api, people, integration, windowDays, () => current === integration && dialog.open);
      void loadTold(integration.key);
      aliases.show(integration, hooks.tableCallers());
      dialog.showModal();
      field('displayName').focus();
    },
  };
}
