/** What the reader chose (range, plan, volume grouping, node, callers' order), kept in the URL hash so a reload or a link keeps it. */
import type { VolumeGroup } from './api-types.js';

export const RANGE_DAYS = [30, 90, 180, 365] as const;
const GROUPS: readonly VolumeGroup[] = ['era', 'transport', 'version'];
/** How the integrations table lists callers: the API's orderBy. */
export const INTEGRATIONS_ORDERS = ['legacy', 'people'] as const;
export type IntegrationsOrder = (typeof INTEGRATIONS_ORDERS)[number];

export interface ViewState {
  days: (typeof RANGE_DAYS)[number];
  planId: number | null;
  groupBy: VolumeGroup;
  /** One node's traffic, or the whole fleet's (null). */
  node: string | null;
  /** The integrations table: most legacy work first, or most people first. */
  order: IntegrationsOrder;
}

export function readViewState(hash: string): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const days = Number(params.get('days'));
  const plan = Number(params.get('plan'));
  const groupBy = params.get('volume') as VolumeGroup | null;
  const order = params.get('callers') as IntegrationsOrder | null;
  return {
    days: (RANGE_DAYS as readonly number[]).includes(days) ? (days as ViewState['days']) : 180,
    planId: Number.isInteger(plan) && plan > 0 ? plan : null,
    groupBy: groupBy !== null && GROUPS.includes(groupBy) ? groupBy : 'era',
    node: params.get('node') || null,
    order: order !== null && INTEGRATIONS_ORDERS.includes(order) ? order : 'legacy',
  };
}

export function writeViewState(state: ViewState): void {
  const params = new URLSearchParams({ days: String(state.days), volume: state.groupBy });
  if (state.planId !== null) params.set('plan', String(state.planId));
  if (state.node !== null) params.set('node', state.node);
  if (state.order !== 'legacy') params.set('callers', state.order);
  history.replaceState(null, '', `#${params}`);
}
