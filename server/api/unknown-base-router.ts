import { Router } from 'express';
import type { Store } from '../store/store.js';
import { loadUnknownBase, UNKNOWN_BASE_DAYS } from '../views/load-unknown-base.js';
import { daySpanQuery, resolveDaySpan } from './day-span-query.js';
import { parseInput } from './parse-input.js';
import { unknownBaseToJson } from './to-json.js';

export interface UnknownBaseRouterDeps {
  store: () => Store;
  now: () => number;
}

/** The days read: the last 30 UTC days unless asked. */
export const unknownBaseQuery = daySpanQuery;

/** GET /unknown-base: the traffic no trusted mechanism names, described by what its clients claim to be. */
export function createUnknownBaseRouter(deps: UnknownBaseRouterDeps): Router {
  const router = Router();
  router.get('/unknown-base', async (req, res) => {
    const span = resolveDaySpan(parseInput(unknownBaseQuery, req.query, 'query'), deps.now(), UNKNOWN_BASE_DAYS);
    res.json(unknownBaseToJson(await loadUnknownBase(deps.store(), span)));
  });
  return router;
}
