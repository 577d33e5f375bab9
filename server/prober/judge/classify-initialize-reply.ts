/**
 * Judges what came back for the one `initialize`. Pure. A -32022 naming a mutual modern version is
 * modern evidence (a slow-start server locked modern meanwhile): the peer flips to modern and is
 * re-probed, never legacy. Only 400/404/405 without a JSON-RPC body may lead on to HTTP+SSE.
 */
import { UNSUPPORTED_PROTOCOL_VERSION } from '../../protocol/error-codes.js';
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';
import { checkInitializeResult } from './check-initialize-result.js';
import { classifyHttpFailure } from './classify-probe-reply.js';
import type { FailedState } from './probe-outcome.js';
import { findAnswer, isRecord, readError, type ProbeObservation } from '../wire/probe-observation.js';
import type { ServerInfo } from './read-discover-result.js';
import { readVersionList, selectVersions } from './select-versions.js';
import type { EvidenceClass, ProbedEra } from '../verdict.js';

export interface InitializeContext {
  sentId: JsonRpcId;
  accept: readonly string[];
  modernVersions: readonly string[];
  now: number;
}

export type InitializeOutcome =
  | { kind: 'legacy'; version: string; capabilities: Record<string, unknown>; serverInfo: ServerInfo }
  | { kind: 'modern'; retryWith: string; detail: string }
  | { kind: 'try-http-sse'; code: string; detail: string }
  | { kind: 'fail'; class: EvidenceClass; code: string; detail: string; era: ProbedEra | null; state: FailedState; retryAfterMs: number | null };

function failed(cls: EvidenceClass, code: string, detail: string, state: FailedState, era: ProbedEra | null = null, retryAfterMs: number | null = null): InitializeOutcome {
  return { kind: 'fail', class: cls, code, detail, era, state, retryAfterMs };
}

function judgeMessage(message: Record<string, unknown>, ctx: InitializeContext, status: number | undefined): InitializeOutcome {
  if ('error' in message && !('result' in message)) {
    const { code, text, data } = readError(message);
    const supported = code === UNSUPPORTED_PROTOCOL_VERSION && isRecord(data) ? readVersionList(data.supported) : undefined;
    if (supported !== undefined) {
      const mutual = selectVersions(supported, ctx.modernVersions)[0];
      if (mutual !== undefined) return { kind: 'modern', retryWith: mutual, detail: `initialize answered ${UNSUPPORTED_PROTOCOL_VERSION} listing ${supported.join(', ')}` };
      return failed('MOD-ERR', 'unsupported-version', `initialize answered ${UNSUPPORTED_PROTOCOL_VERSION} listing ${supported.join(', ')}: no version in common`, 'incompatible', 'modern');
    }
    const where = status === undefined ? '' : `HTTP ${status} `;
    return failed('AMB', 'initialize-rejected', `initialize refused: ${where}JSON-RPC error ${code ?? 'no code'} "${text}"`, 'incompatible');
  }
  const check = checkInitializeResult(message, ctx.sentId, ctx.accept);
  if (check.ok) return { kind: 'legacy', version: check.version, capabilities: check.capabilities, serverInfo: check.serverInfo };
  return failed('AMB', `initialize-${check.item}`, `the initialize result failed the ${check.item} check: ${check.detail}`, 'unavailable');
}

export function classifyInitializeReply(observation: ProbeObservation, ctx: InitializeContext): InitializeOutcome {
  switch (observation.kind) {
    case 'reply':
      return isRecord(observation.message)
        ? judgeMessage(observation.message, ctx, undefined)
        : failed('AMB', 'initialize-jsonrpc', 'the initialize answer is not a JSON-RPC object', 'unavailable');
    case 'timeout':
      return failed('AMB', 'initialize-timeout', 'no answer to initialize before the deadline', 'unavailable');
    case 'closed':
      return failed('AMB', 'initialize-closed', `the connection ended during initialize: ${observation.detail}`, 'unavailable');
    case 'unreachable':
      return failed('STOP', 'unreachable', observation.detail, 'unavailable');
    case 'redirect-refused':
      return failed('STOP', 'cross-origin-redirect', `initialize redirected to another origin (${observation.location}); not followed`, 'unavailable');
    case 'http': {
      const { response } = observation;
      const failure = classifyHttpFailure(response, ctx.now);
      if (failure?.class === 'STOP') return failed('STOP', failure.code, `initialize: ${failure.detail}`, failure.state, null, failure.retryAfterMs);
      const answer = findAnswer(response.body, ctx.sentId);
      if (answer.kind === 'message') return judgeMessage(answer.message, ctx, response.status);
      const said = `initialize got HTTP ${response.status}, ${answer.kind === 'none' ? answer.excerpt : 'a batch'}`;
      if ([400, 404, 405].includes(response.status) && answer.kind === 'none') return { kind: 'try-http-sse', code: `initialize-http-${response.status}`, detail: said };
      return failed('AMB', 'initialize-no-answer', said, 'unavailable');
    }
  }
}
