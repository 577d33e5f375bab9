import type { Store } from '../store/store.js';

/**
 * The plans a pause or resume names: for "all", every plan not archived that does more than
 * observe (a plan made later is not among them); else exactly those listed, each of which must
 * exist and not be archived, or the first that does not is answered as `missing`.
 */
export async function resolvePlanIds(store: Store, named: 'all' | readonly number[]): Promise<{ ids: number[] } | { missing: number }> {
  const plans = await store.listPlans();
  if (named === 'all') return { ids: plans.filter((plan) => plan.action !== 'observe').map((plan) => plan.id) };
  const live = new Set(plans.map((plan) => plan.id));
  const ids = [...new Set(named)];
  const missing = ids.find((id) => !live.has(id));
  return missing === undefined ? { ids } : { missing };
}
