/**
 * Decides the outcome of a classified message from what the server answered.
 * Pure. A JSON-RPC answer decides by error code or by the shape of the result; an HTTP status
 * decides only when no JSON-RPC answer belongs to the message.
 */
import type { ClassifiedMessage } from './classified-message.js';
import type { JsonRpcMessage } from './read-json-rpc.js';
import type { Outcome } from './vocabulary.js';
import { HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, MISSING_REQUIRED_CLIENT_CAPABILITY, SESSION_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION } from './error-codes.js';
import { METHOD } from './method-names.js';

type Answer = Extract<JsonRpcMessage, { kind: 'response' }>;

const OUTCOME_BY_CODE: ReadonlyMap<number, Outcome> = new Map([
  [UNSUPPORTED_PROTOCOL_VERSION, 'unsupported-version'],
  [HEADER_MISMATCH, 'header-mismatch'],
  [MISSING_REQUIRED_CLIENT_CAPABILITY, 'missing-capability'],
  [METHOD_NOT_FOUND, 'method-not-found'],
  [INVALID_PARAMS, 'invalid-params'],
  [INTERNAL_ERROR, 'server-error'],
]);

function outcomeOfError(code: number | undefined, status: number | undefined): Outcome {
  const known = code === undefined ? undefined : OUTCOME_BY_CODE.get(code);
  if (known !== undefined) return known;
  if (code === SESSION_NOT_FOUND && status === 404) return 'session-gone';
  if (status !== undefined && status >= 500) return 'server-error';
  return 'client-error';
}

export interface Settled {
  message: ClassifiedMessage;
  outcome: Outcome;
}

/**
 * Settles a message with the JSON-RPC answer that carries its id. An initialize answer also fixes
 * the version: the negotiated one is the result's protocolVersion, not the requested one.
 */
export function settleWithAnswer(message: ClassifiedMessage, answer: Answer, status: number | undefined): Settled {
  if (answer.error !== undefined) return { message, outcome: outcomeOfError(answer.error.code, status) };
  const result = answer.result ?? {};
  if (message.method === METHOD.initialize && message.era === 'legacy') {
    const negotiated = result.protocolVersion;
    return { message: typeof negotiated === 'string' ? { ...message, version: negotiated } : message, outcome: 'served' };
  }
  const servedLegacyShaped = message.era === 'modern' && !('resultType' in result);
  return { message, outcome: servedLegacyShaped ? 'served-as-legacy' : 'served' };
}

/**
 * True for the handshake request that opens a legacy session or channel, answered by the server
 * or by the bridge; an `initialize` inside a batch opens nothing the meter follows.
 */
export function opensLegacySession(message: ClassifiedMessage): boolean {
  return message.method === METHOD.initialize && message.kind === 'request' && (message.reason === 'initialize' || message.reason === 'bridge');
}

/**
 * The outcome an HTTP status alone gives a message that received no JSON-RPC answer, or
 * undefined when the answer is still to come (a 2xx request whose result arrives elsewhere).
 */
export function outcomeOfStatus(message: ClassifiedMessage, status: number): Outcome | undefined {
  if (status >= 500) return 'server-error';
  if (status >= 400) return 'client-error';
  if (status < 200 || status >= 300) return 'client-error';
  switch (message.kind) {
    case 'notification':
    case 'response':
      return 'accepted';
    case 'stream-open':
    case 'session-delete':
    case 'other':
      return 'served';
    case 'request':
      return undefined;
  }
}
