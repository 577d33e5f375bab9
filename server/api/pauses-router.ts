import { Router } from 'express';
import { z } from 'zod';
import { isPauseActive } from '../analysis/plan-pause.js';
import { AppError } from '../lib/app-error.js';
import type { Store } from '../store/store.js';
import { resolvePlanIds } from '../views/resolve-plan-ids.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { pauseCreateSchema, resumeSchema } from './pause-input-schema.js';
import { pauseToJson } from './to-json.js';

export interface PausesRouterDeps {
  store: () => Store;
  now: () => number;
  /** Told after a pause or resume; the answer waits for it, so this node obeys before the client hears of it. */
  onChange?: () => Promise<void>;
  /** Told after a pause or resume, not waited for: the alert rules run now rather than on their schedule. */
  onAlertable?: () => void;
}

export const listQuery = z.object({ active: z.enum(['true', 'false']).optional() }).strict();

async function plansNamed(store: Store, named: 'all' | readonly number[]): Promise<number[]> {
  const resolved = await resolvePlanIds(store, named);
  if ('missing' in resolved) throw new AppError('not_found', `plans: no plan ${resolved.missing} (or it is archived)`, 'plans');
  return resolved.ids;
}

/** Pauses: stop every refusal of chosen plans on every node for a while, and resume them. */
export function createPausesRouter(deps: PausesRouterDeps): Router {
  const router = Router();
  const changed = async () => {
    await deps.onChange?.();
    deps.onAlertable?.();
  };

  router.get('/pauses', async (req, res) => {
    const query = parseInput(listQuery, req.query, 'query');
    const now = deps.now();
    const pauses = await deps.store().listPlanPauses(query.active === 'true' ? { endedSince: now } : {});
    res.json({ pauses: pauses.map((p) => pauseToJson(p, isPauseActive(p, now))).filter((p) => query.active !== 'true' || p.active) });
  });

  router.post('/pauses', async (req, res) => {
    const input = parseInput(pauseCreateSchema, req.body);
    const store = deps.store();
    const planIds = await plansNamed(store, input.plans);
    const now = deps.now();
    const pauses = planIds.length === 0 ? [] : await store.pausePlans({ planIds, reason: input.reason, endsAt: now + input.for, by: actorOf(res) }, now);
    if (pauses.length > 0) await changed();
    res.status(201).json({ pauses: pauses.map((p) => pauseToJson(p, true)) });
  });

  router.post('/pauses/resume', async (req, res) => {
    const input = parseInput(resumeSchema, req.body);
    const store = deps.store();
    const planIds = input.plans === 'all' ? 'all' : await plansNamed(store, input.plans);
    const resumed = await store.resumePlans(planIds, actorOf(res), deps.now());
    if (resumed.length > 0) await changed();
    res.json({ resumed: resumed.map((p) => pauseToJson(p, false)) });
  });
  return router;
}
