import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { AppError } from '../lib/app-error.js';

/** docs/openapi.json ships beside `server/` (source) or `dist/server/` (built), as the migrations do. */
export function findOpenApiFile(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'docs', 'openapi.json');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

/** GET /openapi.json: the API's contract, generated from its routes and types (`npm run docs:openapi`). */
export function createOpenApiRouter(file: string | undefined = findOpenApiFile()): Router {
  const router = Router();
  let text: string | undefined;
  router.get('/openapi.json', (_req, res) => {
    if (file === undefined) throw new AppError('not_found', 'the OpenAPI document is not installed with this package');
    text ??= readFileSync(file, 'utf8');
    res.type('application/json').send(text);
  });
  return router;
}
