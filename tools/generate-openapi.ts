/**
 * The OpenAPI document of /api/v1, generated: the answers' JSON Schemas from the TypeScript types the
 * routes build them as (server/api/api-json.ts, read by the type checker, so a `ReturnType` of a
 * to-json function resolves to what that function returns), and the rest from the route table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as TJS from 'typescript-json-schema';
import { answerTypes, API_ROUTES } from '../server/api/openapi/api-routes.js';
import { buildOpenApi } from '../server/api/openapi/build-openapi.js';

const ROOT = join(import.meta.dirname, '..');
export const OPENAPI_FILE = join(ROOT, 'docs', 'openapi.json');

type JsonSchema = Record<string, unknown>;

/**
 * A definition's name as a component's: the checker names a type reached through another module
 * `import("<its path>").Name`, and a record `Record<string,number>`; neither belongs in a document
 * (the first carries a path of the machine that generated it).
 */
export function componentName(definition: string): string {
  const bare = definition.replace(/^import\(.*\)\./, '');
  return bare.replace(/^Record<string,(\w+)>$/, (_m, value: string) => `RecordOf${value[0]!.toUpperCase()}${value.slice(1)}`);
}

/**
 * A `Record<string, V>` as JSON Schema: any keys, each value a V. The generator, told to allow no
 * extra properties, writes a record as an object that allows no key at all.
 */
function recordSchema(component: string): JsonSchema | undefined {
  const value = /^RecordOf(\w+)$/.exec(component)?.[1];
  if (value === undefined) return undefined;
  const values: Record<string, JsonSchema> = { Number: { type: 'number' }, String: { type: 'string' }, Boolean: { type: 'boolean' }, Unknown: {} };
  const schema = values[value];
  if (schema === undefined) throw new Error(`${component}: a record of ${value} has no schema here yet`);
  return { type: 'object', additionalProperties: schema };
}

/** `#/definitions/X` → `#/components/schemas/<componentName(X)>`, throughout. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/definitions/') ? `#/components/schemas/${componentName(decodeURIComponent(inner.slice('#/definitions/'.length)))}` : relink(inner),
    ]),
  );
}

/** Every answer type's schema, and the named types they use, as OpenAPI components. */
export function answerSchemas(types: readonly string[] = answerTypes()): Record<string, JsonSchema> {
  // The ambient declarations of untyped packages come too, as in the project's own compile.
  const ambient = readdirSync(join(ROOT, 'server', 'types')).filter((f) => f.endsWith('.d.ts')).map((f) => join(ROOT, 'server', 'types', f));
  const program = TJS.getProgramFromFiles([join(ROOT, 'server', 'api', 'api-json.ts'), ...ambient], { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true }, ROOT);
  const generator = TJS.buildGenerator(program, { required: true, noExtraProps: true, strictNullChecks: true, ref: true, aliasRef: false, topRef: false, titles: false, defaultProps: false });
  if (generator === null) throw new Error('the API types do not compile');
  const schemas: Record<string, JsonSchema> = {};
  for (const type of types) {
    const { definitions, $schema: _dialect, ...schema } = generator.getSchemaForSymbol(type) as JsonSchema & { definitions?: Record<string, JsonSchema> };
    if (JSON.stringify(schema).includes('Failed to correctly infer type')) throw new Error(`${type}: its schema could not be inferred`);
    schemas[type] = relink(schema) as JsonSchema;
    for (const [name, definition] of Object.entries(definitions ?? {})) {
      const component = componentName(name);
      const linked = recordSchema(component) ?? (relink(definition) as JsonSchema);
      // Two types of one name from two modules would make one component stand for both.
      if (schemas[component] !== undefined && JSON.stringify(schemas[component]) !== JSON.stringify(linked)) throw new Error(`two different types are both named ${component}`);
      schemas[component] = linked;
    }
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}

/** The generator says, for each object literal a type came from, that it cannot read its initializer: noise, not news. */
function quietly<T>(run: () => T): T {
  const warn = console.warn;
  const log = console.log;
  const chatter = (args: unknown[]) => typeof args[0] === 'string' && /initializer/.test(args[0]);
  console.warn = (...args: unknown[]) => (chatter(args) ? undefined : warn(...args));
  console.log = (...args: unknown[]) => (chatter(args) ? undefined : log(...args));
  try {
    return run();
  } finally {
    console.warn = warn;
    console.log = log;
  }
}

export function generateOpenApi(): JsonSchema {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return buildOpenApi({ version, routes: API_ROUTES, schemas: quietly(() => answerSchemas()) });
}

/** As written to docs/openapi.json: two-space JSON and a final newline. */
export function openApiText(document: JsonSchema = generateOpenApi()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
