import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { PROJECT_ROOT } from './spawn-cli.js';

type JsonSchema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

export const OPENAPI = JSON.parse(readFileSync(join(PROJECT_ROOT, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'openapi', components: OPENAPI.components }, 'openapi');

/** Each documented path as a pattern over a request's pathname. */
const ROUTES = Object.entries(OPENAPI.paths).map(([template, operations]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  operations,
}));

const validators = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `openapi${ref}` });
    validators.set(ref, validate);
  }
  return validate;
}

/** The schema an answer of this route and status must have, or why there is none. */
export function answerSchemaRef(method: string, pathname: string, status: number): { ref: string } | { missing: string } {
  const route = ROUTES.find((r) => r.pattern.test(pathname));
  // A path the API does not have gets its 404 in the error shape every route uses.
  if (route === undefined) return status === 404 ? { ref: '#/components/schemas/ApiErrorJson' } : { missing: `${pathname} is not in the document` };
  const operation = route.operations[method.toLowerCase()];
  if (operation === undefined) return { missing: `${method} ${route.template} is not in the document` };
  const answer = operation.responses[String(status)];
  if (answer === undefined) return { missing: `${method} ${route.template} documents no ${status}` };
  const content = answer.$ref !== undefined ? OPENAPI.components.responses[answer.$ref.split('/').pop()!]!.content : answer.content;
  const ref = content?.['application/json']?.schema?.$ref;
  return ref === undefined ? { missing: `${method} ${route.template} ${status} documents no JSON answer` } : { ref };
}

/** Checks one JSON answer of the API against its route's schema; answers what is wrong, or nothing. */
export function checkAnswer(method: string, pathname: string, status: number, body: unknown): string | undefined {
  const found = answerSchemaRef(method, pathname, status);
  if ('missing' in found) return found.missing;
  const validate = validatorFor(found.ref);
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
  return `${method} ${pathname} ${status} does not match ${found.ref}: ${errors.join('; ')}`;
}
