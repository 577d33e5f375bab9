/**
 * Judges the JSON-RPC message that answered `server/discover`. Pure. The product decisions win
 * over the research's decision table: -32601/-32600/-32602 are plain AMB, and any -32022 stays
 * modern, so it never leads to `initialize`.
 */
import { HEADER_MISMATCH, INVALID_PARAMS, LEGACY_BAD_REQUEST, INVALID_REQUEST, METHOD_NOT_FOUND, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION } from '../../protocol/error-codes.js';
import { isLegacyVersion } from '../../protocol/versions.js';
import { ambiguousOutcome, stopOutcome, type ProbeContext, type ProbeOutcome } from './probe-outcome.js';
import { excerptOf, isRecord, isSameId, readError } from '../wire/probe-observation.js';
import { hasToolsCapability, readDiscoverResult } from './read-discover-result.js';
import { recogniseLegacyRejection } from './recognise-legacy-rejection.js';
import { readVersionList, selectVersions } from './select-versions.js';

const AMBIGUOUS_CODES: ReadonlyMap<number, string> = new Map([
  [METHOD_NOT_FOUND, 'method-not-found'],
  [INVALID_REQUEST, 'invalid-request'],
  [INVALID_PARAMS, 'invalid-params'],
]);

const list = (versions: readonly string[]) => versions.join(', ');

function classifyDiscoverResult(result: unknown, ctx: ProbeContext): ProbeOutcome {
  const reading = readDiscoverResult(result);
  if (!reading.ok) return ambiguousOutcome('not-a-discover-result', `a result that is not a DiscoverResult: ${reading.problem}`);
  const { supported } = reading;
  const mutual = selectVersions(supported, ctx.modernVersions);
  if (mutual[0] !== undefined) {
    return {
      class: 'MOD', code: 'discover-result', detail: `DiscoverResult advertising ${list(supported)}`,
      version: mutual[0], supported, serverInfo: reading.serverInfo, hasTools: hasToolsCapability(reading.capabilities),
    };
  }
  const offer = selectVersions(supported, ctx.legacyVersions);
  if (supported.every(isLegacyVersion) && offer.length > 0) {
    return { class: 'AMB*', code: 'discover-legacy-only', detail: `DiscoverResult advertising only legacy versions: ${list(supported)}`, offer, supported };
  }
  return stopOutcome('no-mutual-version', `DiscoverResult advertising ${list(supported)}: none of them is one we speak (modern ${list(ctx.modernVersions)})`, 'incompatible', { supported });
}

function classifyUnsupportedVersion(data: unknown, ctx: ProbeContext): ProbeOutcome {
  const supported = isRecord(data) ? readVersionList(data.supported) : undefined;
  const requested = isRecord(data) ? data.requested : undefined;
  if (supported === undefined || requested !== ctx.sentVersion) {
    return stopOutcome('unsupported-version-malformed', `${UNSUPPORTED_PROTOCOL_VERSION} without a usable data.supported and data.requested = ${ctx.sentVersion}: ${excerptOf(JSON.stringify(data ?? null))}`, 'incompatible');
  }
  // The best mutual version, even the one just sent: behind a load balancer, a fleet half way
  // through a rollout refuses a version on one node that the next node serves.
  const retryWith = selectVersions(supported, ctx.modernVersions)[0] ?? null;
  const said = `${UNSUPPORTED_PROTOCOL_VERSION}: ${ctx.sentVersion} is unsupported`;
  const detail = retryWith === null
    ? `${said} and the server lists ${list(supported)}, none of them a modern version we speak`
    : `${said}; the server lists ${list(supported)}${retryWith === ctx.sentVersion ? ', that version among them' : ''}`;
  return { class: 'MOD-ERR', code: 'unsupported-version', detail, retryWith, supported };
}

function classifyError(message: Record<string, unknown>, ctx: ProbeContext, status: number | undefined): ProbeOutcome {
  const { code, text, data } = readError(message);
  const said = `${code ?? 'no code'} "${excerptOf(text, 120)}"`;
  if (code === UNSUPPORTED_PROTOCOL_VERSION) return classifyUnsupportedVersion(data, ctx);
  if (code === HEADER_MISMATCH) return { class: 'MOD-ERR', code: 'header-mismatch', detail: `${HEADER_MISMATCH} header mismatch: "${excerptOf(text, 120)}"`, retryWith: null, supported: null };
  if (code === MISSING_REQUIRED_CLIENT_CAPABILITY) {
    const required = isRecord(data) ? JSON.stringify(data.requiredCapabilities ?? null) : 'null';
    return { class: 'MOD-ERR', code: 'missing-client-capability', detail: `${MISSING_REQUIRED_CLIENT_CAPABILITY}: the server requires client capabilities ${required}`, retryWith: null, supported: null };
  }
  const idIsNull = message.id === null || !('id' in message);
  if (ctx.transport === 'streamable-http' && status === 400 && idIsNull) {
    const rejection = recogniseLegacyRejection(code, text);
    if (rejection?.kind === 'missing-session') {
      return { class: 'AMB*', code: 'legacy-prevalidation-400', detail: `HTTP 400 ${LEGACY_BAD_REQUEST} "${rejection.message}" (a legacy server asking for a session)`, offer: [...ctx.legacyVersions], supported: null };
    }
    if (rejection?.kind === 'legacy-versions') {
      const offer = selectVersions(rejection.versions, ctx.legacyVersions);
      if (offer.length > 0) return { class: 'AMB*', code: 'legacy-prevalidation-400', detail: `HTTP 400 ${LEGACY_BAD_REQUEST} "${rejection.message}"`, offer, supported: rejection.versions };
      return stopOutcome('no-mutual-version', `HTTP 400 "${rejection.message}": none of those legacy versions is configured (${list(ctx.legacyVersions)})`, 'incompatible', { supported: rejection.versions });
    }
    if (rejection?.kind === 'contradictory-versions') {
      return stopOutcome('contradictory-versions', `HTTP 400 "${rejection.message}" lists versions that are not all historical`, 'incompatible', { supported: rejection.versions });
    }
  }
  const where = status === undefined ? '' : `HTTP ${status} `;
  const named = code === undefined ? undefined : AMBIGUOUS_CODES.get(code);
  return ambiguousOutcome(named ?? 'rpc-error', `${where}JSON-RPC error ${said}`);
}

/**
 * Judges one reply. On stdio the transport only delivers a message with the sent id; on HTTP the
 * body of the probe's own response is read even with a null id, but a different id is no answer.
 */
export function classifyRpcReply(message: unknown, ctx: ProbeContext, status?: number): ProbeOutcome {
  if (Array.isArray(message)) return ambiguousOutcome('malformed-reply', 'a batch answered a single request');
  if (!isRecord(message)) return ambiguousOutcome('malformed-reply', 'the answer is not a JSON object');
  if (message.jsonrpc !== '2.0') return ambiguousOutcome('malformed-reply', `jsonrpc is ${JSON.stringify(message.jsonrpc ?? null)}, not "2.0"`);
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) return ambiguousOutcome('malformed-reply', hasResult ? 'the answer has both result and error' : 'the answer has neither result nor error');
  const correlated = isSameId(message.id, ctx.sentId);
  if (!correlated && message.id !== null && 'id' in message) {
    return ambiguousOutcome('uncorrelated-reply', `the answer carries id ${JSON.stringify(message.id)}, not ${JSON.stringify(ctx.sentId)}`);
  }
  if (hasError) return classifyError(message, ctx, status);
  if (!correlated) return ambiguousOutcome('malformed-reply', 'a result without the request id');
  if (status !== undefined && (status < 200 || status >= 300)) return ambiguousOutcome('malformed-reply', `a result with HTTP ${status}`);
  return classifyDiscoverResult(message.result, ctx);
}
