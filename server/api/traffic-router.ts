import { Router } from 'express';
import type { Store } from '../store/store.js';
import { parseInput } from './parse-input.js';
import { trafficQuerySchema } from './traffic-query-schema.js';

export interface TrafficRouterDeps {
  store: () => Store;
  now: () => number;
}

/** GET /traffic: counts per bucket, grouped by one dimension, with exact-match filters. */
export function createTrafficRouter(deps: TrafficRouterDeps): Router {
  const router = Router();
  router.get('/traffic', async (req, res) => {
    const query = parseInput(trafficQuerySchema(deps.now()), req.query, 'query');
    res.json(await deps.store().listTraffic(query));
  });
  return router;
}
