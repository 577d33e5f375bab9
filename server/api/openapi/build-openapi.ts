/**
 * The OpenAPI 3.1 document of /api/v1, from the route table: inputs from the zod schemas the routes
 * validate with, answers by reference to the generated schemas of their types. Pure: the schemas
 * come in as data, so the document is the same wherever it is built.
 */
import { z } from 'zod';
import type { ApiRoute } from './api-routes.js';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInputs {
  version: string;
  routes: readonly ApiRoute[];
  /** A JSON Schema per answer type, referring to each other as `#/components/schemas/<name>`. */
  schemas: Readonly<Record<string, JsonSchema>>;
}

export const API_PREFIX = '/api/v1';

/** An input schema as JSON Schema, as a client sends it (before coercion and defaults). */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (schema === undefined) return [];
  const object = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

function requestBody(schema: z.ZodType | undefined): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  return { required: !schema.safeParse(undefined).success, content: { 'application/json': { schema: inputSchema(schema) } } };
}

/** `/plans/:id` → `/api/v1/plans/{id}`. */
export function openApiPath(path: string): string {
  return `${API_PREFIX}${path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
}

const ERROR_WORDS: Readonly<Record<number, string>> = {
  400: 'A parameter or field is missing, unknown or invalid; `error.parameter` names it.',
  401: 'An admin token is configured and the request did not carry one of them.',
  403: 'A change sent with an Origin that is not this API.',
  404: 'No such item.',
  409: 'The change conflicts with the item as it stands (a plan declared in the config file, say).',
  415: 'A change not sent as application/json.',
  421: 'A Host this API does not answer to.',
  500: 'An error of the service itself.',
  503: 'The store could not be opened; /healthz says why.',
};

function errorAnswers(route: ApiRoute): Record<string, JsonSchema> {
  const changes = route.method !== 'get';
  const hasInput = route.params !== undefined || route.query !== undefined || route.body !== undefined;
  const statuses = new Set([...(hasInput ? [400] : []), 401, ...(changes ? [403, 415] : []), 421, 500, ...route.errors]);
  return Object.fromEntries([...statuses].sort().map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));
}

function operation(route: ApiRoute): JsonSchema {
  const answers = Object.fromEntries(
    Object.entries(route.answers).map(([status, answer]) => [
      status,
      {
        description: answer.description,
        content: {
          ...(answer.type === undefined ? {} : { 'application/json': { schema: { $ref: `#/components/schemas/${answer.type}` } } }),
          ...(answer.alsoAs === undefined ? {} : { [answer.alsoAs.mediaType]: { schema: { type: 'string', description: answer.alsoAs.description } } }),
        },
      },
    ]),
  );
  const body = requestBody(route.body);
  return {
    operationId: `${route.method}${route.path.replace(/\/:?([a-z])([a-z-]*)/gi, (_m, first: string, rest: string) => first.toUpperCase() + rest.replace(/-([a-z])/g, (_d, c: string) => c.toUpperCase()))}`,
    summary: route.summary,
    tags: [route.tag],
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(body === undefined ? {} : { requestBody: body }),
    responses: { ...answers, ...errorAnswers(route) },
  };
}

export function buildOpenApi(inputs: OpenApiInputs): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of inputs.routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  const responses = Object.fromEntries(
    Object.entries(ERROR_WORDS).map(([status, description]) => [`Error${status}`, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorJson' } } } }]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'mcp-sunset API',
      version: inputs.version,
      description: 'Measure MCP traffic by the lifecycle path that served it, decide from the data when the legacy era can go, and enforce the retirement. Every time is an ISO-8601 UTC string.',
    },
    servers: [{ url: '/' }],
    // Optional: an API on loopback with no admin token configured asks for none.
    security: [{ adminToken: [] }, {}],
    tags: [...new Set(inputs.routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'An admin token (adminToken, or one of adminTokens by name).' } },
      responses,
      schemas: inputs.schemas,
    },
  };
}
