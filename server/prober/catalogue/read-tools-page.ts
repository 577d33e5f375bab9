/**
 * Reads one answer to `tools/list`. Pure. After an era is chosen a failure here never changes the
 * era (row 27); a 404 on a legacy session means the session is gone (row 28).
 */
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';
import { classifyHttpFailure } from '../judge/classify-probe-reply.js';
import { findAnswer, isRecord, isSameId, readError, type ProbeObservation } from '../wire/probe-observation.js';

export type ToolsPage =
  | { ok: true; tools: unknown[]; nextCursor: string | null }
  | { ok: false; code: string; detail: string; sessionGone: boolean };

const failed = (code: string, detail: string, sessionGone = false): ToolsPage => ({ ok: false, code, detail, sessionGone });

function readMessage(message: unknown, sentId: JsonRpcId): ToolsPage {
  if (!isRecord(message) || message.jsonrpc !== '2.0' || !isSameId(message.id, sentId)) return failed('tools-list-malformed', 'not a JSON-RPC 2.0 answer with the request id');
  if ('error' in message) {
    const { code, text } = readError(message);
    return failed('tools-list-error', `tools/list answered error ${code ?? 'no code'} "${text}"`);
  }
  const result = isRecord(message.result) ? message.result : {};
  if (!Array.isArray(result.tools)) return failed('tools-list-malformed', 'result.tools is not a list');
  const cursor = result.nextCursor;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') return failed('tools-list-malformed', 'nextCursor is not a string');
  return { ok: true, tools: result.tools, nextCursor: typeof cursor === 'string' ? cursor : null };
}

export function readToolsPage(observation: ProbeObservation, sentId: JsonRpcId, now: number): ToolsPage {
  switch (observation.kind) {
    case 'reply':
      return readMessage(observation.message, sentId);
    case 'http': {
      const { response } = observation;
      if (response.status === 404 && response.hadSession) return failed('legacy-session-gone', 'tools/list got HTTP 404 on the legacy session', true);
      const failure = classifyHttpFailure(response, now);
      if (failure !== undefined) return failed(failure.code, `tools/list: ${failure.detail}`);
      const answer = findAnswer(response.body, sentId);
      if (answer.kind !== 'message') return failed('tools-list-malformed', `tools/list got HTTP ${response.status} without an answer`);
      return readMessage(answer.message, sentId);
    }
    case 'timeout':
      return failed('tools-list-timeout', 'no answer to tools/list before the deadline');
    case 'closed':
      return failed('tools-list-closed', `the connection ended during tools/list: ${observation.detail}`);
    case 'unreachable':
      return failed('unreachable', observation.detail);
    case 'redirect-refused':
      return failed('cross-origin-redirect', `tools/list redirected to ${observation.location}; not followed`);
  }
}
