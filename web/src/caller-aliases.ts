/**
 * The other names of one caller, in its dialog: the names joined into it, each with an Undo, and a
 * form to join more (POST and DELETE /integrations/:key/aliases). The API decides what may be joined;
 * the page says its refusals as they come, as text.
 */
import { ApiError, type ApiClient } from './api-client.js';
import type { CallerJoinResponse, Integration } from './api-types.js';
import { byId, emptyState, errorLine, h, replaceChildren } from './dom.js';
import { integrationName } from './integrations-panel.js';

/**
 * "tok_a, gw-b  tok_c" → each name once, in the order typed. A caller's key may hold spaces (a
 * gateway's name, a certificate's subject): one of `known` alone between commas stays whole, and so
 * does any name in double quotes.
 */
export function parseNames(text: string, known: ReadonlySet<string> = new Set()): string[] {
  const names: string[] = [];
  for (const piece of text.split(/[,\n]/)) {
    const trimmed = piece.trim();
    if (known.has(trimmed)) names.push(trimmed);
    else for (const [, quoted, bare] of trimmed.matchAll(/"([^"]*)"|([^\s"]+)/g)) names.push((quoted ?? bare ?? '').trim());
  }
  return [...new Set(names.filter((name) => name !== ''))];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface CallerAliases {
  /** Shows the names joined into `integration`, the form empty; the input suggests the keys of the table's other callers. */
  show(integration: Integration, tableCallers: readonly Integration[]): void;
  /** The same caller after a change: its names and the suggestions anew, the form as it is. */
  update(integration: Integration, tableCallers: readonly Integration[]): void;
}

/** `onChanged` runs after each join or undo, with the caller's key, to refresh the table and the dialog. */
export function createCallerAliases(api: ApiClient, onChanged: (key: string) => Promise<void>): CallerAliases {
  const list = byId('integration-aliases');
  const form = byId<HTMLFormElement>('join-form');
  const names = byId<HTMLInputElement>('join-names');
  const note = byId<HTMLInputElement>('join-note');
  const suggestions = byId('join-suggestions');
  const errors = byId('join-form-error');
  let current: Integration | undefined;
  let offered: string[] = [];
  let known = new Set<string>();

  const render = (integration: Integration, aliases: readonly string[]) => {
    if (aliases.length === 0) {
      replaceChildren(list, emptyState('No other names are joined into this caller.', 'caller-aliases-none'));
      return;
    }
    const item = (alias: string) =>
      h(
        'li',
        { 'data-testid': 'caller-alias', 'data-alias': alias },
        h('span', { class: 'key' }, alias),
        h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'caller-alias-undo', 'aria-label': `Undo the join of ${alias}`, onclick: (event: Event) => void undo(integration, alias, event.currentTarget as HTMLButtonElement) }, 'Undo'),
      );
    replaceChildren(list, h('ul', { class: 'alias-list' }, ...aliases.map(item)));
  };

  const undo = async (integration: Integration, alias: string, button: HTMLButtonElement) => {
    if (!window.confirm(`Undo the join of ${alias} into ${integrationName(integration)}? ${alias} gets its own history back: its counts, past and future, are read as its own again.`)) return;
    button.disabled = true;
    try {
      await api.send('DELETE', `/integrations/${encodeURIComponent(integration.key)}/aliases/${encodeURIComponent(alias)}`);
      render(integration, integration.aliases.filter((name) => name !== alias));
      await onChanged(integration.key);
    } catch (error) {
      button.disabled = false;
      list.prepend(errorLine(`Not undone: ${describe(error)}`));
    }
  };

  /**
   * A datalist matches the whole input, so each suggestion carries the names typed before the last
   * comma: "billing-gw, cr" is offered "billing-gw, crm-sync".
   */
  const suggest = () => {
    const before = /^[\s\S]*,\s*/.exec(names.value)?.[0] ?? '';
    const typed = new Set(parseNames(before, known));
    replaceChildren(suggestions, ...offered.filter((key) => !typed.has(key)).map((key) => h('option', { value: `${before}${key}`, label: before === '' ? null : key })));
  };
  names.addEventListener('input', suggest);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const integration = current;
    if (integration === undefined) return;
    replaceChildren(errors);
    names.removeAttribute('aria-invalid');
    const aliases = parseNames(names.value, known);
    if (aliases.length === 0) {
      names.setAttribute('aria-invalid', 'true');
      replaceChildren(errors, errorLine('Type at least one name to join.'));
      return;
    }
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    submit.disabled = true;
    try {
      const answer = await api.send<CallerJoinResponse>('POST', `/integrations/${encodeURIComponent(integration.key)}/aliases`, { aliases, ...(note.value.trim() === '' ? {} : { note: note.value }) });
      names.value = '';
      note.value = '';
      render(integration, answer.aliases);
      await onChanged(integration.key);
    } catch (error) {
      // A refusal about the caller itself (it was joined elsewhere meanwhile) is not the input's fault.
      if (!(error instanceof ApiError && error.parameter === 'key')) names.setAttribute('aria-invalid', 'true');
      replaceChildren(errors, errorLine(`Not joined: ${describe(error)}`));
    } finally {
      submit.disabled = false;
    }
  });

  const update = (integration: Integration, tableCallers: readonly Integration[]) => {
    current = integration;
    // Only callers one can name are offered: the anonymous base is not one caller to fold away.
    offered = tableCallers.filter((c) => c.identifiable && c.key !== integration.key).map((c) => c.key);
    known = new Set(tableCallers.map((c) => c.key));
    render(integration, integration.aliases);
    suggest();
  };

  return {
    show(integration, tableCallers) {
      names.value = '';
      note.value = '';
      names.removeAttribute('aria-invalid');
      replaceChildren(errors);
      update(integration, tableCallers);
    },
    update,
  };
}
