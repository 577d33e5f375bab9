import { Router } from 'express';
import { z } from 'zod';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import { AppError } from '../lib/app-error.js';
import type { PlanChanges, PlanInput, PlanRecord } from '../store/records/plan-record.js';
import type { Store } from '../store/store.js';
import { loadDryRun } from '../views/load-dry-run.js';
import { loadPlanView } from '../views/load-plan-views.js';
import { dryRunToCsv } from './dry-run-to-csv.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { generateBrownouts } from '../analysis/generate-brownouts.js';
import { formatDuration } from '../lib/parse-duration.js';
import { day, planCreateSchema, type BrownoutScheduleInput, planIncoherence, planPatchSchema, type PlanCoherenceFields, type PlanCreate, type PlanPatch } from './plan-input-schema.js';
import { dryRunToJson, planViewToJson } from './to-json.js';

export interface PlansRouterDeps {
  store: () => Store;
  now: () => number;
  thresholds: TrendThresholds;
  /** Told after every change to a plan; the answer waits for it, so this node enforces the change before the client hears of it. */
  onChange?: () => Promise<void>;
}

export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const listQuery = z.object({ includeArchived: z.enum(['true', 'false']).optional() }).strict();
export const dryRunQuery = z.object({ at: day.optional(), format: z.enum(['json', 'csv']).optional() }).strict();

/** A schedule's windows, each noting which step of it it is, how long and at what local time. */
export function scheduledBrownouts(schedule: BrownoutScheduleInput): { startsAt: number; endsAt: number; note: string }[] {
  const { windows } = generateBrownouts({ ...schedule, durationsMs: schedule.durations });
  return windows.map((window, index) => ({
    ...window,
    note: `${schedule.note === undefined ? '' : `${schedule.note}: `}escalating brownout ${index + 1} of ${windows.length}, ${formatDuration(window.endsAt - window.startsAt)} from ${schedule.startTime} ${schedule.timeZone}`,
  }));
}

/** The record's fields for an API or config-file input: times as epoch ms, notes as null when absent. */
export function toRecordFields(input: PlanCreate | PlanPatch): PlanChanges {
  const { scope, brownouts, brownoutSchedule, exemptions, acknowledgeRefusingModern: _acknowledged, ...rest } = input;
  return {
    ...rest,
    ...(scope === undefined ? {} : { scopeKind: scope.kind, scopeValue: scope.value }),
    ...(brownouts === undefined ? {} : { brownouts: brownouts.map((b) => ({ startsAt: Date.parse(b.startsAt), endsAt: Date.parse(b.endsAt), note: b.note ?? null })) }),
    ...(brownoutSchedule === undefined ? {} : { brownouts: scheduledBrownouts(brownoutSchedule) }),
    ...(exemptions === undefined ? {} : { exemptions: exemptions.map((e) => ({ integration: e.integration, until: e.until, note: e.note ?? null })) }),
  };
}

function checkCoherence(plan: PlanCoherenceFields): void {
  const broken = planIncoherence(plan);
  if (broken !== undefined) throw new AppError('invalid_parameter', `${broken.field}: ${broken.message}`, broken.field);
}

/** Plans: list with status, create, read, change, archive. */
export function createPlansRouter(deps: PlansRouterDeps): Router {
  const router = Router();
  const view = async (plan: PlanRecord, withSeries: boolean) => planViewToJson(await loadPlanView(deps.store(), plan, deps.now(), deps.thresholds), withSeries);
  const find = async (id: number) => {
    const plan = await deps.store().getPlan(id);
    if (plan === undefined) throw new AppError('not_found', `no plan ${id}`, 'id');
    return plan;
  };

  // A plan declared in the config file lives in version control: the file is where it changes.
  const refuseDeclared = (plan: PlanRecord) => {
    if (plan.declaredKey !== null) throw new AppError('conflict', `plan ${plan.id} is declared in the config file as "${plan.declaredKey}": change it there`, 'id');
  };

  router.get('/plans', async (req, res) => {
    const query = parseInput(listQuery, req.query, 'query');
    res.json({ plans: await Promise.all((await deps.store().listPlans({ includeArchived: query.includeArchived === 'true' })).map((plan) => view(plan, false))) });
  });

  router.post('/plans', async (req, res) => {
    const input = parseInput(planCreateSchema, req.body);
    checkCoherence(input);
    const plan = await deps.store().insertPlan(toRecordFields(input) as PlanInput, deps.now(), actorOf(res));
    await deps.onChange?.();
    res.status(201).location(`/api/v1/plans/${plan.id}`).json(await view(plan, true));
  });

  router.get('/plans/:id', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    res.json(await view(await find(id), true));
  });

  // "Who breaks if we cut on `at`?" (the retire date unless asked); as CSV for outreach.
  router.get('/plans/:id/dry-run', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    const query = parseInput(dryRunQuery, req.query, 'query');
    const plan = await find(id);
    const at = query.at ?? plan.retireDate;
    const report = dryRunToJson(plan.id, await loadDryRun(deps.store(), plan, at, deps.now()));
    if (query.format === 'csv') res.type('text/csv').attachment(`plan-${plan.id}-dry-run-${at}.csv`).send(dryRunToCsv(report));
    else res.json(report);
  });

  router.patch('/plans/:id', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    const patch = parseInput(planPatchSchema, req.body);
    const current = await find(id);
    refuseDeclared(current);
    const { archived: _archived, ...fields } = toRecordFields(patch);
    const merged = { ...current, ...fields };
    // A plan already denying on its scope was acknowledged when it was made so: only a change of action or scope asks again.
    const acknowledged = patch.acknowledgeRefusingModern === true || (patch.action === undefined && patch.scope === undefined);
    checkCoherence({ ...merged, scope: { kind: merged.scopeKind, value: merged.scopeValue }, acknowledgeRefusingModern: acknowledged });
    const plan = (await deps.store().updatePlan(id, toRecordFields(patch), deps.now(), actorOf(res)))!;
    await deps.onChange?.();
    res.json(await view(plan, true));
  });

  // Plans are published commitments: deleting one archives it, so its history stays readable.
  router.delete('/plans/:id', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    refuseDeclared(await find(id));
    const archived = (await deps.store().updatePlan(id, { archived: true }, deps.now(), actorOf(res)))!;
    await deps.onChange?.();
    res.json(await view(archived, false));
  });
  return router;
}
