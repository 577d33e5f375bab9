/**
 * Reads the shape of one parsed JSON value as a JSON-RPC 2.0 message. Pure; never throws.
 * Only the members classification needs are kept, so hostile bodies cost nothing extra.
 */
import { isRecord } from './is-record.js';
import { nonFiniteAsNull } from './non-finite-as-null.js';

export type JsonRpcId = string | number;

export type JsonRpcMessage =
  | { kind: 'request'; method: string; id: JsonRpcId; params: Record<string, unknown> | undefined }
  | { kind: 'notification'; method: string; params: Record<string, unknown> | undefined }
  | { kind: 'response'; id: JsonRpcId | null; result: Record<string, unknown> | undefined; error: JsonRpcError | undefined }
  | { kind: 'invalid' };

export interface JsonRpcError {
  code: number | undefined;
  data: unknown;
}

/** True for a usable JSON-RPC id: a string or a finite number (null is no id). */
export function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Classifies one JSON value as a request, notification, response or invalid message. */
export function readJsonRpc(value: unknown): JsonRpcMessage {
  if (!isRecord(value)) return { kind: 'invalid' };
  const params = isRecord(value.params) ? value.params : undefined;
  if (typeof value.method === 'string') {
    if (!('id' in value)) return { kind: 'notification', method: value.method, params };
    if (isId(value.id)) return { kind: 'request', method: value.method, id: value.id, params };
    return { kind: 'invalid' };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) return { kind: 'invalid' };
  const id = isId(value.id) ? value.id : null;
  if (hasResult) return { kind: 'response', id, result: isRecord(value.result) ? value.result : {}, error: undefined };
  const error = isRecord(value.error) ? value.error : {};
  return {
    kind: 'response',
    id,
    result: undefined,
    error: { code: typeof error.code === 'number' ? error.code : undefined, data: error.data },
  };
}

/**
 * Parses text as JSON, answering undefined instead of throwing. Text `JSON.parse` refuses only for
 * Python's `NaN`/`Infinity` literals is read as the Python SDK's servers read it (see
 * non-finite-as-null.ts): the refusal path alone pays for that second look.
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const lenient = nonFiniteAsNull(text);
    if (lenient === undefined) return { ok: false };
    try {
      return { ok: true, value: JSON.parse(lenient) };
    } catch {
      return { ok: false };
    }
  }
}

/** Reads a JSON body or SSE `data` payload: one message, or each element of a batch. */
export function readJsonRpcText(text: string): JsonRpcMessage[] {
  const parsed = parseJson(text);
  if (!parsed.ok) return [];
  return Array.isArray(parsed.value) ? parsed.value.map(readJsonRpc) : [readJsonRpc(parsed.value)];
}
