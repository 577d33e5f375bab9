import { isRecord } from './is-record.js';

/** One request a modern server embeds in `input_required` for the client to fulfil. */
export interface EmbeddedInputRequest {
  key: string;
  method: string;
  params: Record<string, unknown> | undefined;
}

export interface InputRequired {
  requests: EmbeddedInputRequest[];
  /** Opaque server state, echoed back verbatim on the retry. */
  requestState: string | undefined;
}

/**
 * Methods an `input_required` result may embed, and the first legacy version in which the server
 * could send each as a request of its own (S26:schema.ts InputRequests; 26:basic/patterns/mrtr.mdx).
 */
export const EMBEDDED_REQUEST_SINCE: ReadonlyMap<string, string> = new Map([
  ['elicitation/create', '2025-06-18'],
  ['sampling/createMessage', '2024-11-05'],
  ['roots/list', '2024-11-05'],
]);

/**
 * The input a modern `input_required` result asks for, or undefined when the result is anything
 * else, or malformed (an entry that is not a request object, or neither requests nor state).
 * Pure; never throws.
 */
export function inputRequiredOf(result: unknown): InputRequired | undefined {
  if (!isRecord(result) || result.resultType !== 'input_required') return undefined;
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== 'string') return undefined;
  const requests: EmbeddedInputRequest[] = [];
  if (inputRequests !== undefined) {
    if (!isRecord(inputRequests)) return undefined;
    for (const [key, entry] of Object.entries(inputRequests)) {
      if (!isRecord(entry) || typeof entry.method !== 'string') return undefined;
      if (entry.params !== undefined && !isRecord(entry.params)) return undefined;
      requests.push({ key, method: entry.method, params: entry.params });
    }
  }
  if (requests.length === 0 && requestState === undefined) return undefined;
  return { requests, requestState };
}

/**
 * Why one embedded request cannot be sent to a client of `version` as a request of its own, or
 * undefined when it can. Versions are dates, so they compare as strings.
 */
export function unmappableInputRequest(request: EmbeddedInputRequest, version: string): string | undefined {
  const since = EMBEDDED_REQUEST_SINCE.get(request.method);
  if (since === undefined) return `the server asked for input of a kind the legacy era has no request for (${request.method})`;
  if (version < since) return `the server asked for ${request.method}, which protocol version ${version} does not have (it came in ${since})`;
  return undefined;
}

/** The params of the modern retry: the original params with the client's answers and the server's state. Pure. */
export function inputRetryParams(params: unknown, inputResponses: Record<string, unknown>, requestState: string | undefined): Record<string, unknown> {
  const base = isRecord(params) ? params : {};
  const { inputResponses: _old, requestState: _oldState, ...rest } = base;
  return { ...rest, ...(Object.keys(inputResponses).length > 0 ? { inputResponses } : {}), ...(requestState === undefined ? {} : { requestState }) };
}
