import { Router } from 'express';
import type { Db } from '../store/sqlite/open-database.js';
import { listTraffic } from '../store/sqlite/list-traffic.js';
import { parseInput } from './parse-input.js';
import { trafficQuerySchema } from './traffic-query-schema.js';

export interface TrafficRouterDeps {
  db: () => Db;
  now: () => number;
}

/** GET /traffic: counts per bucket, grouped by one dimension, with exact-match filters. */
export function createTrafficRouter(deps: TrafficRouterDeps): Router {
  const router = Router();
  router.get('/traffic', (req, res) => {
    const query = parseInput(trafficQuerySchema(deps.now()), req.query);
    res.json(listTraffic(deps.db(), query));
  });
  return router;
}
