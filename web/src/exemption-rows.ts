/** The plan form's exemptions: one row per integration (key, last exempt day, note), added and removed in place. */
import { byId, h } from './dom.js';

export interface ExemptionInput {
  integration: string;
  until: string;
  note: string | null;
}

export interface ExemptionRows {
  set(exemptions: readonly ExemptionInput[]): void;
  read(): ExemptionInput[];
  /** The control of row `index` for a field the server names (`integration`, `until`, `note`). */
  control(index: number, field: string): HTMLElement | undefined;
}

let rowIds = 0;

export function createExemptionRows(): ExemptionRows {
  const container = byId('plan-exemptions');
  const add = byId<HTMLButtonElement>('plan-exemption-add');

  const addRow = (exemption: ExemptionInput = { integration: '', until: '', note: null }) => {
    const id = `plan-exemption-${++rowIds}`;
    const row = h(
      'div',
      { class: 'exemption-row field-row', 'data-testid': 'plan-exemption-row' },
      h('div', { class: 'field' }, h('label', { for: `${id}-integration` }, 'Integration key'), h('input', { id: `${id}-integration`, 'data-field': 'integration', type: 'text', required: true, maxlength: 128, autocomplete: 'off', value: exemption.integration })),
      h('div', { class: 'field' }, h('label', { for: `${id}-until` }, 'Exempt until (last day)'), h('input', { id: `${id}-until`, 'data-field': 'until', type: 'date', required: true, value: exemption.until })),
      h('div', { class: 'field' }, h('label', { for: `${id}-note` }, 'Note'), h('input', { id: `${id}-note`, 'data-field': 'note', type: 'text', maxlength: 500, autocomplete: 'off', value: exemption.note ?? '' })),
    );
    row.append(h('div', { class: 'field row-action' }, h('button', { type: 'button', class: 'secondary small-button danger', 'aria-label': `Remove exemption ${exemption.integration}`.trim(), onclick: () => row.remove() }, 'Remove')));
    container.append(row);
    return row;
  };
  add.addEventListener('click', () => (addRow().querySelector('input') as HTMLInputElement).focus());

  const rows = () => [...container.querySelectorAll<HTMLElement>('.exemption-row')];
  const value = (row: HTMLElement, field: string) => (row.querySelector(`[data-field="${field}"]`) as HTMLInputElement).value.trim();
  return {
    set(exemptions) {
      container.replaceChildren();
      for (const exemption of exemptions) addRow(exemption);
    },
    read: () => rows().map((row) => ({ integration: value(row, 'integration'), until: value(row, 'until'), note: value(row, 'note') === '' ? null : value(row, 'note') })),
    control: (index, field) => rows()[index]?.querySelector<HTMLElement>(`[data-field="${field}"]`) ?? undefined,
  };
}
