import { Router } from 'express';
import { z } from 'zod';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import type { PlanScope } from '../analysis/plan-scope.js';
import { AppError } from '../lib/app-error.js';
import { TRANSPORTS } from '../protocol/vocabulary.js';
import { DEFAULT_SHARE_BASIS, SHARE_BASES } from '../protocol/work-request.js';
import type { Store } from '../store/store.js';
import { loadPlanView } from '../views/load-plan-views.js';
import { loadShareView } from '../views/load-share-view.js';
import { parseInput } from './parse-input.js';
import { planViewToJson, shareToJson } from './to-json.js';

const DAY_MS = 86_400_000;
const MAX_DAYS = 3 * 366;
const isoTime = z.iso.datetime({ offset: true, message: 'expected an ISO-8601 time such as 2026-11-30T00:00:00Z' });

/** `era:legacy`, `transport:http+sse` or `version:2025-03-26`. */
const scopeParam = z
  .string()
  .regex(/^(era:legacy|transport:[a-z+-]+|version:[^\s]{1,64})$/, 'expected era:legacy, transport:<transport> or version:<version>')
  .transform((value, ctx): PlanScope => {
    const [kind, ...rest] = value.split(':');
    const scopeValue = rest.join(':');
    if (kind === 'era') return { kind: 'era', value: 'legacy' };
    if (kind === 'transport' && !(TRANSPORTS as readonly string[]).includes(scopeValue)) {
      ctx.addIssue({ code: 'custom', message: `unknown transport ${scopeValue}; expected one of ${TRANSPORTS.join(', ')}` });
      return z.NEVER;
    }
    return { kind: kind as 'transport' | 'version', value: scopeValue };
  });

export function shareQuerySchema(now: number) {
  return z
    .object({
      plan: z.coerce.number().int().positive().optional(),
      scope: scopeParam.optional(),
      basis: z.enum(SHARE_BASES).optional(),
      bucket: z.enum(['day', 'week']).default('day'),
      from: isoTime.optional(),
      to: isoTime.optional(),
      target: z.coerce.number().gt(0).lt(1).optional(),
      node: z.string().min(1).max(200).optional(),
    })
    .strict()
    .transform((q, ctx) => {
      const to = q.to === undefined ? now : Date.parse(q.to);
      const from = q.from === undefined ? to - 180 * DAY_MS : Date.parse(q.from);
      if (from >= to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be earlier than to' });
      if (to - from > MAX_DAYS * DAY_MS) ctx.addIssue({ code: 'custom', path: ['from'], message: `range longer than ${MAX_DAYS} days` });
      if (q.plan !== undefined && (q.scope !== undefined || q.target !== undefined || q.basis !== undefined)) {
        ctx.addIssue({ code: 'custom', path: ['plan'], message: 'a plan brings its own scope, target and basis; send plan or scope/target/basis, not both' });
      }
      return { ...q, from, to };
    });
}

export interface ShareRouterDeps {
  store: () => Store;
  now: () => number;
  thresholds: TrendThresholds;
}

/** GET /share: the in-scope share curve on a basis (work requests unless asked) with its trend; with `plan`, the plan's status too. */
export function createShareRouter(deps: ShareRouterDeps): Router {
  const router = Router();
  router.get('/share', async (req, res) => {
    const now = deps.now();
    const query = parseInput(shareQuerySchema(now), req.query, 'query');
    const store = deps.store();
    if (query.plan !== undefined) {
      const plan = await store.getPlan(query.plan);
      if (plan === undefined) throw new AppError('not_found', `no plan ${query.plan}`, 'plan');
      const view = await loadPlanView(store, plan, now, deps.thresholds, { bucket: query.bucket, from: query.from, to: query.to, ...(query.node === undefined ? {} : { node: query.node }) });
      res.json({ ...shareToJson(view.share), plan: planViewToJson(view, false) });
      return;
    }
    const view = await loadShareView(store, {
      scope: query.scope ?? { kind: 'era', value: 'legacy' },
      basis: query.basis ?? DEFAULT_SHARE_BASIS,
      bucket: query.bucket,
      from: query.from,
      to: query.to,
      target: query.target ?? 0.005,
      now,
      thresholds: deps.thresholds,
      ...(query.node === undefined ? {} : { node: query.node }),
    });
    res.json(shareToJson(view));
  });
  return router;
}
