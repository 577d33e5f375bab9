import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { API_ROUTES } from '../../server/api/openapi/api-routes.js';
import { openApiPath } from '../../server/api/openapi/build-openapi.js';
import { OPENAPI_FILE, openApiText } from '../../tools/generate-openapi.js';
import { checkAnswer } from '../support/api-contract.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { useIdleService } from '../support/use-idle-service.js';

/** The routes the routers declare, read from their source: `router.get('/plans/:id', …)`. */
function declaredRoutes(): string[] {
  const dir = join(PROJECT_ROOT, 'server', 'api');
  return readdirSync(dir)
    .filter((file) => file.endsWith('-router.ts') && file !== 'health-router.ts')
    .flatMap((file) => [...readFileSync(join(dir, file), 'utf8').matchAll(/router\.(get|post|patch|put|delete)\('([^']+)'/g)].map((m) => `${m[1]} ${m[2]}`))
    .filter((route) => route !== 'get /openapi.json')
    .sort();
}

describe('the OpenAPI document', () => {
  test('docs/openapi.json is what the routes and their types generate now (npm run docs:openapi)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  }, 60_000);

  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('covers every route the routers declare, and no other', () => {
    expect(API_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(declaredRoutes());
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`)).sort();
    expect(documented).toEqual(API_ROUTES.map((r) => `${r.method} ${openApiPath(r.path)}`).sort());
  });

  test('every operation names its answers and errors, each with a schema, and the admin token scheme', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    expect(document.components.securitySchemes.adminToken).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        expect(statuses.some((s) => s.startsWith('2')), `${method} ${path}`).toBe(true);
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['401', '421', '500']));
      }
    }
  });

  test('an answer that strays from its schema is caught: a field too many, a wrong type, a missing field', () => {
    const plan = { plans: [] };
    expect(checkAnswer('GET', '/api/v1/plans', 200, plan)).toBeUndefined();
    expect(checkAnswer('GET', '/api/v1/plans', 200, { ...plan, extra: 1 })).toMatch(/must NOT have additional properties \(extra\)/);
    expect(checkAnswer('GET', '/api/v1/plans', 200, { plans: 'none' })).toMatch(/must be array/);
    expect(checkAnswer('GET', '/api/v1/audit', 200, { events: [] })).toMatch(/must have required property 'next'/);
    expect(checkAnswer('GET', '/api/v1/plans/3', 418, {})).toMatch(/documents no 418/);
    expect(checkAnswer('GET', '/api/v1/plans/3', 404, { error: { code: 'not_found', message: 'no plan 3', parameter: 'id' } })).toBeUndefined();
  });
});

describe('GET /api/v1/openapi.json', () => {
  const idle = useIdleService();

  test('serves the document', async () => {
    const response = await fetch(new URL('/api/v1/openapi.json', idle.service.apiUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
  });
});
