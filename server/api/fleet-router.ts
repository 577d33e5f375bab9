import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import type { Store } from '../store/store.js';
import { loadFleetView } from '../views/load-fleet-view.js';
import { parseInput } from './parse-input.js';
import { fleetToJson } from './to-json.js';

export interface FleetRouterDeps {
  store: () => Store;
  now: () => number;
  /** The configured node names. */
  nodes: readonly string[];
  /** Checks the named nodes (all when undefined) now and stores the results. */
  check: (names: readonly string[] | undefined) => Promise<unknown>;
}

export const fleetQuery = z.object({}).strict();
export const checkBody = z.object({ nodes: z.array(z.string().min(1)).min(1).optional() }).strict();

/** The fleet panel's data, and probes triggered on demand. */
export function createFleetRouter(deps: FleetRouterDeps): Router {
  const router = Router();
  router.get('/fleet', async (req, res) => {
    parseInput(fleetQuery, req.query, 'query');
    res.json(fleetToJson(await loadFleetView(deps.store(), deps.now()), deps.nodes));
  });
  router.post('/fleet/check', async (req, res) => {
    const { nodes } = parseInput(checkBody, req.body ?? {});
    if (deps.nodes.length === 0) throw new AppError('invalid_parameter', 'nodes: no fleet nodes are configured (fleet.nodes in the config file)', 'nodes');
    const unknown = (nodes ?? []).filter((name) => !deps.nodes.includes(name));
    if (unknown.length > 0) throw new AppError('invalid_parameter', `nodes: not configured: ${unknown.join(', ')}`, 'nodes');
    await deps.check(nodes);
    res.json(fleetToJson(await loadFleetView(deps.store(), deps.now()), deps.nodes));
  });
  return router;
}
