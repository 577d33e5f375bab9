import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Registry } from 'prom-client';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import type { AlertRunner } from '../alerts/run-alerts.js';
import { AppError } from '../lib/app-error.js';
import type { Store } from '../store/store.js';
import { createAlertsRouter } from './alerts-router.js';
import { createAuditRouter } from './audit-router.js';
import { createUnknownBaseRouter } from './unknown-base-router.js';
import { createBridgeRevocationsRouter } from './bridge-revocations-router.js';
import { createDigestRouter, type DigestRouterDeps } from './digest-router.js';
import { createErrorMiddleware } from './error-middleware.js';
import { createFleetRouter, type FleetRouterDeps } from './fleet-router.js';
import { flushBeforeRead } from './flush-before-read.js';
import { createHealthRouter, type MeteringHealth } from './health-router.js';
import { createIntegrationsRouter } from './integrations-router.js';
import { createNoticesRouter } from './notices-router.js';
import { createOpenApiRouter } from './openapi-router.js';
import { createPausesRouter } from './pauses-router.js';
import { createPlansRouter } from './plans-router.js';
import { requireAdminToken, type AdminToken } from './require-admin-token.js';
import { requireOwnHost, type OwnHosts } from './require-own-host.js';
import { requireSameOriginJson } from './require-same-origin-json.js';
import { securityHeaders } from './security-headers.js';
import { createShareRouter } from './share-router.js';
import { createTrafficRouter } from './traffic-router.js';

export interface ApiDeps {
  /** The open store, or undefined when it could not be opened. */
  store: Store | undefined;
  now: () => number;
  /** Writes the counts still held in memory, before every API call. */
  beforeRead: () => Promise<void>;
  health: () => MeteringHealth | Promise<MeteringHealth>;
  registry: Registry;
  thresholds: TrendThresholds;
  /** The tokens the API accepts; none: it is open (loopback only, as the config requires). */
  adminTokens: readonly AdminToken[];
  onUnexpectedError: (error: unknown) => void;
  /** Undefined without a store. */
  alertRunner: AlertRunner | undefined;
  fleet: Omit<FleetRouterDeps, 'store' | 'now'>;
  /** The weekly digest: its links, how many callers it names, its sender and schedule. */
  digest: Omit<DigestRouterDeps, 'store' | 'now' | 'thresholds'>;
  /** The Host names the API and dashboard answer to; /healthz and /metrics answer any. */
  hosts: OwnHosts;
  /** Serves the dashboard's static files at /, when given. */
  dashboard?: RequestHandler;
  /** Told after a plan changed here, so this node's policy is rebuilt at once rather than within seconds. */
  onPlansChanged?: () => Promise<void>;
  /** Told after a pause or resume here, not waited for (the alert rules run then, so its alert goes out at once). */
  onPausesChanged?: () => void;
  /** Told after a bridge session was revoked here, so this node refuses it at once rather than within seconds. */
  onRevocationsChanged?: () => Promise<void>;
}

/** The dashboard-side HTTP app: /api/v1, /healthz, /metrics and the dashboard. Never on the proxied port. */
export function createApiApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const store = () => {
    if (deps.store === undefined) throw new AppError('store_unavailable', 'the database could not be opened; see /healthz');
    return deps.store;
  };
  const { now, thresholds } = deps;
  const routers: Router[] = [
    createTrafficRouter({ store, now }),
    createShareRouter({ store, now, thresholds }),
    createPlansRouter({ store, now, thresholds, ...(deps.onPlansChanged === undefined ? {} : { onChange: deps.onPlansChanged }) }),
    createIntegrationsRouter({ store, now, ...(deps.onPlansChanged === undefined ? {} : { onChange: deps.onPlansChanged }) }),
    createAlertsRouter({ store, runner: deps.alertRunner }),
    createFleetRouter({ store, now, ...deps.fleet }),
    createBridgeRevocationsRouter({ store, now, ...(deps.onRevocationsChanged === undefined ? {} : { onChange: deps.onRevocationsChanged }) }),
    createAuditRouter({ store }),
    createUnknownBaseRouter({ store, now }),
    createNoticesRouter({ store, now }),
    createDigestRouter({ store, now, thresholds, ...deps.digest }),
    createOpenApiRouter(),
    createPausesRouter({
      store,
      now,
      ...(deps.onPlansChanged === undefined ? {} : { onChange: deps.onPlansChanged }),
      ...(deps.onPausesChanged === undefined ? {} : { onAlertable: deps.onPausesChanged }),
    }),
  ];
  app.use(securityHeaders());
  // Probes and scrapers name the node however their platform does, and these two change nothing.
  app.use(createHealthRouter({ health: deps.health, registry: deps.registry }));
  app.use(requireOwnHost(deps.hosts));
  app.use('/api', requireAdminToken(deps.adminTokens));
  app.use('/api', requireSameOriginJson(deps.hosts.allowed));
  app.use('/api', express.json({ limit: '256kb' }));
  app.use('/api/v1', flushBeforeRead(deps.beforeRead), ...routers);
  app.use('/api', (req, _res, next) => next(new AppError('not_found', `no such endpoint: ${req.method} ${req.originalUrl.split('?')[0]}`)));
  if (deps.dashboard !== undefined) app.use(deps.dashboard);
  app.use(createErrorMiddleware(deps.onUnexpectedError));
  return app;
}
