import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type RequestHandler } from 'express';

/** The built dashboard lives in dist/web beside the package, whether running from source or from dist. */
export function findDashboardDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'dist', 'web');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

/** Serves the dashboard's static files; says how to build them when they are missing. */
export function serveDashboard(dir: string | undefined = findDashboardDir()): RequestHandler {
  const router = Router();
  if (dir === undefined) {
    router.get('/', (_req, res) => {
      res.status(503).type('text/plain').send('The dashboard is not built yet: run `npm run build`. The API is at /api/v1.\n');
    });
    return router;
  }
  // A source map would hand out the unminified source; a build made with one keeps it on disk only.
  router.use((req, _res, next) => (req.path.endsWith('.map') ? next('router') : next()));
  router.use(express.static(dir, { index: 'index.html', maxAge: '5m' }));
  return router;
}
