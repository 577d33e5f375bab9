/**
 * Every answer of /api/v1 any test receives through fetch is checked against its route's schema in
 * docs/openapi.json: the contract cannot drift from what the routes send without a test failing.
 */
import { afterEach } from 'vitest';
import { checkAnswer } from './api-contract.js';

const mismatches: string[] = [];
const original = globalThis.fetch;

globalThis.fetch = async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await original(input, init);
  try {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
    if (url.pathname.startsWith('/api/v1/') && url.pathname !== '/api/v1/openapi.json' && json) {
      const text = await response.clone().text();
      const problem = checkAnswer(method, url.pathname, response.status, JSON.parse(text));
      if (problem !== undefined) mismatches.push(problem);
    }
  } catch (error) {
    mismatches.push(`could not check an answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  return response;
} as typeof fetch;

afterEach(() => {
  if (mismatches.length === 0) return;
  const found = mismatches.splice(0);
  throw new Error(`answers that do not match docs/openapi.json:\n${[...new Set(found)].join('\n')}`);
});
