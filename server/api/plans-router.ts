import { Router } from 'express';
import { z } from 'zod';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import { AppError } from '../lib/app-error.js';
import { getPlan } from '../store/get-plan.js';
import { insertPlan, type PlanInput } from '../store/insert-plan.js';
import { listPlans } from '../store/list-plans.js';
import type { Db } from '../store/open-database.js';
import type { PlanRecord } from '../store/plan-record.js';
import { updatePlan, type PlanChanges } from '../store/update-plan.js';
import { loadPlanView } from '../views/load-plan-views.js';
import { parseInput } from './parse-input.js';
import { planCreateSchema, planPatchSchema, type PlanCreate, type PlanPatch } from './plan-input-schema.js';
import { planViewToJson } from './to-json.js';

export interface PlansRouterDeps {
  db: () => Db;
  now: () => number;
  thresholds: TrendThresholds;
}

const idParam = z.object({ id: z.coerce.number().int().positive() });
const listQuery = z.object({ includeArchived: z.enum(['true', 'false']).optional() }).strict();

function toRecordFields(input: PlanCreate | PlanPatch): PlanChanges {
  const { scope, brownouts, ...rest } = input;
  return {
    ...rest,
    ...(scope === undefined ? {} : { scopeKind: scope.kind, scopeValue: scope.value }),
    ...(brownouts === undefined ? {} : { brownouts: brownouts.map((b) => ({ startsAt: Date.parse(b.startsAt), endsAt: Date.parse(b.endsAt), note: b.note ?? null })) }),
  };
}

function checkDates(plan: Pick<PlanRecord, 'announceDate' | 'retireDate'>): void {
  if (plan.retireDate <= plan.announceDate) throw new AppError('invalid_parameter', 'retireDate: must be after announceDate', 'retireDate');
}

/** Plans: list with status, create, read, change, archive. */
export function createPlansRouter(deps: PlansRouterDeps): Router {
  const router = Router();
  const view = (plan: PlanRecord, withSeries: boolean) => planViewToJson(loadPlanView(deps.db(), plan, deps.now(), deps.thresholds), withSeries);
  const find = (id: number) => {
    const plan = getPlan(deps.db(), id);
    if (plan === undefined) throw new AppError('not_found', `no plan ${id}`, 'id');
    return plan;
  };

  router.get('/plans', (req, res) => {
    const query = parseInput(listQuery, req.query);
    res.json({ plans: listPlans(deps.db(), { includeArchived: query.includeArchived === 'true' }).map((plan) => view(plan, false)) });
  });

  router.post('/plans', (req, res) => {
    const input = parseInput(planCreateSchema, req.body);
    checkDates(input);
    const plan = insertPlan(deps.db(), toRecordFields(input) as PlanInput, deps.now());
    res.status(201).location(`/api/v1/plans/${plan.id}`).json(view(plan, true));
  });

  router.get('/plans/:id', (req, res) => {
    const { id } = parseInput(idParam, req.params);
    res.json(view(find(id), true));
  });

  router.patch('/plans/:id', (req, res) => {
    const { id } = parseInput(idParam, req.params);
    const patch = parseInput(planPatchSchema, req.body);
    const current = find(id);
    checkDates({ announceDate: patch.announceDate ?? current.announceDate, retireDate: patch.retireDate ?? current.retireDate });
    const plan = updatePlan(deps.db(), id, toRecordFields(patch), deps.now())!;
    res.json(view(plan, true));
  });

  // Plans are published commitments: deleting one archives it, so its history stays readable.
  router.delete('/plans/:id', (req, res) => {
    const { id } = parseInput(idParam, req.params);
    find(id);
    res.json(view(updatePlan(deps.db(), id, { archived: true }, deps.now())!, false));
  });
  return router;
}
