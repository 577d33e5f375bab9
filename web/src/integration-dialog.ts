/** The edit form for one integration: a modal dialog that PATCHes what operators know about it. */
import type { ApiClient } from './api-client.js';
import type { Integration, IntegrationStatus } from './api-types.js';
import { byId, errorLine, replaceChildren } from './dom.js';
import { integrationName } from './integrations-panel.js';

const FIELDS = ['displayName', 'owner', 'contact', 'status', 'notes'] as const;

export interface IntegrationDialog {
  open(integration: Integration): void;
}

export function createIntegrationDialog(api: ApiClient, onSaved: () => Promise<void>): IntegrationDialog {
  const dialog = byId<HTMLDialogElement>('integration-dialog');
  const form = byId<HTMLFormElement>('integration-form');
  const title = byId('integration-dialog-title');
  const keyLine = byId('integration-dialog-key');
  const errors = byId('integration-form-error');
  const field = (name: (typeof FIELDS)[number]) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  let current: Integration | undefined;

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
      await onSaved();
    } catch (error) {
      replaceChildren(errors, errorLine(`Not saved: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      if (submit) submit.disabled = false;
    }
  });

  return {
    open(integration) {
      current = integration;
      title.textContent = `Edit ${integrationName(integration)}`;
      keyLine.textContent = `${integration.key} · identified by ${integration.source}`;
      field('displayName').value = integration.displayName ?? '';
      field('owner').value = integration.owner ?? '';
      field('contact').value = integration.contact ?? '';
      field('status').value = integration.status;
      field('notes').value = integration.notes ?? '';
      replaceChildren(errors);
      dialog.showModal();
      field('displayName').focus();
    },
  };
}
