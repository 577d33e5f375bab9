import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import type { ProbeRecord } from '../store/insert-probe.js';
import type { Db } from '../store/open-database.js';
import { loadFleetView, type FleetView } from '../views/load-fleet-view.js';
import { parseInput } from './parse-input.js';
import { iso } from './to-json.js';

export interface FleetRouterDeps {
  db: () => Db;
  /** The configured node names. */
  nodes: readonly string[];
  /** Checks the named nodes (all when undefined) now and stores the results. */
  check: (names: readonly string[] | undefined) => Promise<unknown>;
}

function probeToJson(probe: ProbeRecord) {
  return { ...probe, at: iso(probe.at) };
}

export function fleetToJson(view: FleetView, configured: readonly string[]) {
  const byNode = new Map(view.nodes.map((n) => [n.node, n]));
  return {
    configured,
    checkedAt: iso(view.checkedAt),
    expected: view.expected,
    drift: view.drift,
    down: view.down,
    nodes: view.probes.map((probe) => ({ ...probeToJson(probe), differs: byNode.get(probe.node)?.differs ?? false, down: byNode.get(probe.node)?.down ?? false })),
  };
}

const checkBody = z.object({ nodes: z.array(z.string().min(1)).min(1).optional() }).strict();

/** The fleet panel's data, and probes triggered on demand. */
export function createFleetRouter(deps: FleetRouterDeps): Router {
  const router = Router();
  router.get('/fleet', (req, res) => {
    parseInput(z.object({}).strict(), req.query);
    res.json(fleetToJson(loadFleetView(deps.db()), deps.nodes));
  });
  router.post('/fleet/check', async (req, res) => {
    const { nodes } = parseInput(checkBody, req.body ?? {});
    if (deps.nodes.length === 0) throw new AppError('invalid_parameter', 'nodes: no fleet nodes are configured (fleet.nodes in the config file)', 'nodes');
    const unknown = (nodes ?? []).filter((name) => !deps.nodes.includes(name));
    if (unknown.length > 0) throw new AppError('invalid_parameter', `nodes: not configured: ${unknown.join(', ')}`, 'nodes');
    await deps.check(nodes);
    res.json(fleetToJson(loadFleetView(deps.db()), deps.nodes));
  });
  return router;
}
