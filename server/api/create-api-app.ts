import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import { AppError } from '../lib/app-error.js';
import type { Db } from '../store/open-database.js';
import { createErrorMiddleware } from './error-middleware.js';
import { createHealthRouter, type MeteringHealth } from './health-router.js';
import { createTrafficRouter } from './traffic-router.js';

export interface ApiDeps {
  /** The open store, or undefined when it could not be opened. */
  db: Db | undefined;
  now: () => number;
  beforeRead: () => void;
  health: () => MeteringHealth;
  registry: Registry;
  onUnexpectedError: (error: unknown) => void;
}

/** The dashboard-side HTTP app: /api/v1, /healthz and /metrics. Never on the proxied port. */
export function createApiApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const db = () => {
    if (deps.db === undefined) throw new AppError('store_unavailable', 'the database could not be opened; see /healthz');
    return deps.db;
  };
  app.use(createHealthRouter({ health: deps.health, registry: deps.registry }));
  app.use('/api/v1', createTrafficRouter({ db, now: deps.now, beforeRead: deps.beforeRead }));
  app.use('/api', (req, _res, next) => next(new AppError('not_found', `no such endpoint: ${req.method} ${req.originalUrl.split('?')[0]}`)));
  app.use(createErrorMiddleware(deps.onUnexpectedError));
  return app;
}
