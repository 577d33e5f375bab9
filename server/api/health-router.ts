import { Router } from 'express';
import type { Registry } from 'prom-client';

/** The router needs only the status; the report's shape belongs to whoever computes it. */
export interface MeteringHealth {
  status: 'ok' | 'degraded';
}

/** GET /healthz (liveness plus metering health) and GET /metrics (Prometheus text). */
export function createHealthRouter(deps: { health: () => MeteringHealth | Promise<MeteringHealth>; registry: Registry }): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    // Liveness stays 200 while degraded: traffic still flows, only counting suffers.
    res.json(await deps.health());
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  return router;
}
