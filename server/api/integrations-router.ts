import { Router } from 'express';
import { z } from 'zod';
import { MIGRATION_STATES } from '../analysis/migration-state.js';
import { AppError } from '../lib/app-error.js';
import type { Store } from '../store/store.js';
import { INTEGRATION_STATUSES } from '../store/records/integration-record.js';
import { loadIntegrationViews, USAGE_WINDOW_DAYS, type IntegrationsOrder } from '../views/load-integration-views.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { callerPeopleToJson, integrationToJson, integrationsToJson } from './to-json.js';
import { BUCKET_MS, bucketStart } from '../lib/time-bucket.js';

export interface IntegrationsRouterDeps {
  store: () => Store;
  now: () => number;
}

const text = (max: number) => z.string().trim().max(max).nullable().transform((v) => (v === '' ? null : v));

export const patchSchema = z
  .object({
    displayName: text(200),
    owner: text(200),
    contact: text(500),
    status: z.enum(INTEGRATION_STATUSES),
    notes: text(5000),
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'send at least one field to change');

/** Callers per page unless asked: the table shows the heaviest legacy users first. */
export const INTEGRATIONS_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const;

export const pageSchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(INTEGRATIONS_PAGE.maxLimit).default(INTEGRATIONS_PAGE.defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
    migration: z.enum(MIGRATION_STATES).optional(),
    orderBy: z.enum(['legacy', 'people']).default('legacy'),
  })
  .strict();

export const keyParam = z.object({ key: z.string().min(1).max(256) });

/** The days a caller's people are listed for: the last 30 UTC days unless asked. */
export const peopleQuery = z
  .object({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/** The integrations registry: measured usage per caller beside what operators know about it. */
export function createIntegrationsRouter(deps: IntegrationsRouterDeps): Router {
  const router = Router();
  const load = async (order: IntegrationsOrder = 'legacy') => loadIntegrationViews(deps.store(), await deps.store().listPlans(), deps.now(), order);
  const find = async (key: string) => {
    const found = (await load()).integrations.find((i) => i.key === key);
    if (found === undefined) throw new AppError('not_found', `no integration ${key}`, 'key');
    return found;
  };

  router.get('/integrations', async (req, res) => {
    const { migration, orderBy, ...page } = parseInput(pageSchema, req.query);
    const view = await load(orderBy);
    // The split stays over every caller; only the listed ones are filtered.
    res.json(integrationsToJson(migration === undefined ? view : { ...view, integrations: view.integrations.filter((i) => i.migration === migration) }, page));
  });

  router.get('/integrations/:key', async (req, res) => {
    const { key } = parseInput(keyParam, req.params);
    res.json(integrationToJson(await find(key)));
  });

  router.get('/integrations/:key/people', async (req, res) => {
    const { key } = parseInput(keyParam, req.params);
    const query = parseInput(peopleQuery, req.query);
    const to = query.to === undefined ? bucketStart(deps.now(), 'day') + BUCKET_MS.day : Date.parse(query.to);
    const from = query.from === undefined ? to - USAGE_WINDOW_DAYS * BUCKET_MS.day : Date.parse(query.from);
    if (from >= to) throw new AppError('invalid_parameter', 'from must be before to', 'from');
    const span = { from: bucketStart(from, 'day'), to };
    res.json(callerPeopleToJson(key, span, await deps.store().listCallerPeopleDays(key, span)));
  });

  router.patch('/integrations/:key', async (req, res) => {
    const { key } = parseInput(keyParam, req.params);
    const patch = parseInput(patchSchema, req.body);
    if ((await deps.store().updateIntegration(key, patch, deps.now(), actorOf(res))) === undefined) throw new AppError('not_found', `no integration ${key}`, 'key');
    res.json(integrationToJson(await find(key)));
  });
  return router;
}
