/** The integrations table's order: most served legacy work first, or most people first (the API's orderBy). */
import { h } from './dom.js';
import type { IntegrationsOrder } from './view-state.js';

export interface OrderChoice {
  value: IntegrationsOrder;
  onChange(value: IntegrationsOrder): void;
}

const ORDER_TEXT: Readonly<Record<IntegrationsOrder, string>> = {
  legacy: 'Most legacy work',
  people: 'Most people',
};

export function integrationsOrderControl(order: OrderChoice): HTMLElement {
  const select = h(
    'select',
    { id: 'integrations-order', 'data-testid': 'integrations-order', onchange: (event: Event) => order.onChange((event.target as HTMLSelectElement).value as IntegrationsOrder) },
    ...Object.entries(ORDER_TEXT).map(([value, text]) => h('option', { value }, text)),
  ) as HTMLSelectElement;
  select.value = order.value;
  return h('div', { class: 'table-filter' }, h('label', { for: 'integrations-order' }, 'Order: '), select);
}

/** How the table note says the order, and what the callers past the page have less of. */
export function orderWords(order: IntegrationsOrder): { first: string; fewer: string } {
  return order === 'people'
    ? { first: 'most people first (callers that name nobody last)', fewer: 'with fewer people' }
    : { first: 'most legacy first', fewer: 'with less legacy traffic' };
}
