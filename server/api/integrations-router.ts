import { Router } from 'express';
import { z } from 'zod';
import { MIGRATION_STATES } from '../analysis/migration-state.js';
import { AppError } from '../lib/app-error.js';
import type { Store } from '../store/store.js';
import { INTEGRATION_STATUSES } from '../store/records/integration-record.js';
import { loadIntegrationViews, USAGE_WINDOW_DAYS, type IntegrationsOrder } from '../views/load-integration-views.js';
import { UNIDENTIFIED_KEYS } from '../views/unidentified-keys.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { aliasToJson, callerPeopleToJson, integrationToJson, integrationsToJson } from './to-json.js';
import type { CallerJoinRefusal } from '../store/records/caller-alias-record.js';
import { describeJoinRefusal } from '../store/compute-caller-join.js';
import { daySpanQuery, resolveDaySpan } from './day-span-query.js';

export interface IntegrationsRouterDeps {
  store: () => Store;
  now: () => number;
  /** Called after a join or its undoing, which changes who the policy's exemptions and known callers are. */
  onChange?: () => Promise<void>;
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

/** Names to join into a caller: old fingerprints, a gateway's name, an mTLS subject, a client id. */
export const joinBody = z
  .object({
    aliases: z.array(z.string().min(1).max(256)).min(1).max(100),
    note: text(500).optional(),
  })
  .strict();

export const aliasParam = z.object({ key: z.string().min(1).max(256), alias: z.string().min(1).max(256) });

/** Why a join is refused, as the API answers it: 400 for a name joined into itself, else 409. */
function refusalOf(refusal: CallerJoinRefusal): AppError {
  const { message, parameter } = describeJoinRefusal(refusal);
  return new AppError(refusal.reason === 'alias-is-into' ? 'invalid_parameter' : 'conflict', message, parameter);
}

/** The days a caller's people are listed for: the last 30 UTC days unless asked. */
export const peopleQuery = daySpanQuery;

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
    const { migration, orderBy, ...page } = parseInput(pageSchema, req.query, 'query');
    const view = await load(orderBy);
    // The split stays over every caller; only the listed ones are filtered.
    res.json(integrationsToJson(migration === undefined ? view : { ...view, integrations: view.integrations.filter((i) => i.migration === migration) }, page));
  });

  router.get('/integrations/:key', async (req, res) => {
    const { key } = parseInput(keyParam, req.params, 'path');
    res.json(integrationToJson(await find(key)));
  });

  router.get('/integrations/:key/people', async (req, res) => {
    const { key } = parseInput(keyParam, req.params, 'path');
    const span = resolveDaySpan(parseInput(peopleQuery, req.query, 'query'), deps.now(), USAGE_WINDOW_DAYS);
    res.json(callerPeopleToJson(key, span, await deps.store().listCallerPeopleDays(key, span)));
  });

  router.post('/integrations/:key/aliases', async (req, res) => {
    const { key } = parseInput(keyParam, req.params, 'path');
    const body = parseInput(joinBody, req.body);
    // Traffic nobody named is no application's: joining it would hand the unknown base to one caller.
    if (UNIDENTIFIED_KEYS.has(key)) throw new AppError('invalid_parameter', `${key} names nobody: nothing can be joined into it`, 'key');
    const unnamed = body.aliases.find((alias) => UNIDENTIFIED_KEYS.has(alias));
    if (unnamed !== undefined) throw new AppError('invalid_parameter', `${unnamed} names nobody: it cannot be joined into a caller`, 'aliases');
    // Into a caller the registry knows (a name joined elsewhere is told where to go instead): joining
    // into a name never counted would hide the history in nothing.
    const into = (await deps.store().listCallerAliases()).find((row) => row.alias === key);
    if (into !== undefined) throw refusalOf({ reason: 'into-is-alias', name: key, caller: into.caller });
    await find(key);
    const result = await deps.store().joinCallers({ into: key, aliases: body.aliases, note: body.note ?? null, by: actorOf(res) }, deps.now());
    if (!('joined' in result)) throw refusalOf(result);
    await deps.onChange?.();
    res.status(201).json({ caller: key, joined: result.joined.map(aliasToJson), aliases: (await find(key)).aliases });
  });

  router.delete('/integrations/:key/aliases/:alias', async (req, res) => {
    const { key, alias } = parseInput(aliasParam, req.params, 'path');
    const joined = (await deps.store().listCallerAliases()).find((row) => row.alias === alias && row.caller === key);
    if (joined === undefined) throw new AppError('not_found', `${alias} is not joined into ${key}`, 'alias');
    const undone = await deps.store().unjoinCaller(alias, actorOf(res), deps.now());
    if (undone === undefined) throw new AppError('not_found', `${alias} is not joined into ${key}`, 'alias');
    await deps.onChange?.();
    res.json(aliasToJson(undone));
  });

  router.patch('/integrations/:key', async (req, res) => {
    const { key } = parseInput(keyParam, req.params, 'path');
    const patch = parseInput(patchSchema, req.body);
    if ((await deps.store().updateIntegration(key, patch, deps.now(), actorOf(res))) === undefined) throw new AppError('not_found', `no integration ${key}`, 'key');
    res.json(integrationToJson(await find(key)));
  });
  return router;
}
