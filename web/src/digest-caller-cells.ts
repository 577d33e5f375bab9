/** The cells that say who a digest caller is and how to reach them, shared by its caller tables. */
import type { DigestCaller } from './api-types.js';
import { h } from './dom.js';
import { MIGRATION_TEXT } from './integrations-panel.js';

function orDash(text: string | null, testId: string): HTMLElement {
  return h('td', { 'data-testid': testId }, text ?? h('span', { class: 'muted' }, '—'));
}

/** Name (the display name over the key, when there is one), owner and contact. */
export function digestCallerCells(caller: DigestCaller): HTMLElement[] {
  return [
    h(
      'td',
      { class: 'name-cell' },
      h('strong', { 'data-testid': 'caller-name' }, caller.displayName ?? caller.integration),
      caller.displayName === null ? null : h('span', { class: 'key muted', 'data-testid': 'caller-key' }, caller.integration),
    ),
    orDash(caller.owner, 'caller-owner'),
    orDash(caller.contact, 'caller-contact'),
  ];
}

export function migrationCell(caller: DigestCaller): HTMLElement {
  const state = caller.migration;
  if (state === null) return h('td', { class: 'muted', 'data-testid': 'caller-migration', 'data-state': 'none' }, 'No traffic');
  return h('td', { 'data-testid': 'caller-migration', 'data-state': state }, h('span', { class: `badge migration-${state}` }, MIGRATION_TEXT.get(state) ?? state));
}

/** The versions its legacy work came by, this week's or (for one that stopped) last week's. */
export function versionsCell(caller: DigestCaller): HTMLElement {
  return h('td', { 'data-testid': 'caller-versions' }, caller.legacyVersions.length === 0 ? h('span', { class: 'muted' }, '—') : caller.legacyVersions.join(', '));
}
