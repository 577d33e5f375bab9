/**
 * Judges what came back for `server/discover` on any transport. Pure.
 * HTTP status outranks the body: 401/403 are auth and 429/5xx transient whatever they carry,
 * and an HTTP timeout or outage is never era evidence (rows 18-20).
 */
import { classifyRpcReply } from './classify-rpc-reply.js';
import { parseRetryAfterMs } from '../compute-backoff.js';
import { ambiguousOutcome, stopOutcome, type ProbeContext, type ProbeOutcome } from './probe-outcome.js';
import { findAnswer, type HttpResponseFacts, type ProbeObservation } from '../wire/probe-observation.js';

/** Auth and transient statuses, shared with the judgement of later requests. */
export function classifyHttpFailure(response: HttpResponseFacts, now: number): ProbeOutcome | undefined {
  const { status } = response;
  if (status === 401 || status === 403) {
    const challenge = response.authenticate === null ? '' : ` (WWW-Authenticate: ${response.authenticate})`;
    return stopOutcome('auth-required', `HTTP ${status}${challenge}`, 'auth-required');
  }
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfterMs(response.retryAfter, now);
    const wait = retryAfterMs === null ? '' : ` (Retry-After ${Math.round(retryAfterMs / 1000)} s)`;
    return stopOutcome(status === 429 ? 'rate-limited' : 'server-error', `HTTP ${status}${wait}`, 'unavailable', { retryAfterMs });
  }
  return undefined;
}

function classifyStatusWithoutAnswer(status: number, excerpt: string): ProbeOutcome {
  const said = `HTTP ${status}, ${excerpt}`;
  if (status >= 200 && status < 300) return ambiguousOutcome('empty-response', `${said}: no JSON-RPC answer`);
  if (status === 404) return ambiguousOutcome('not-found', said);
  if (status === 405) return ambiguousOutcome('method-not-allowed', said);
  if (status === 400) return ambiguousOutcome('bad-request-unrecognised', said);
  return ambiguousOutcome('unexpected-status', said);
}

function classifyHttpResponse(response: HttpResponseFacts, ctx: ProbeContext): ProbeOutcome {
  const failure = classifyHttpFailure(response, ctx.now);
  if (failure !== undefined) return failure;
  const answer = findAnswer(response.body, ctx.sentId);
  if (answer.kind === 'batch') return ambiguousOutcome('malformed-reply', `HTTP ${response.status} with a batch answering a single request`);
  if (answer.kind === 'none') return classifyStatusWithoutAnswer(response.status, answer.excerpt);
  return classifyRpcReply(answer.message, ctx, response.status);
}

export function classifyProbeReply(observation: ProbeObservation, ctx: ProbeContext): ProbeOutcome {
  const stdio = ctx.transport === 'stdio';
  switch (observation.kind) {
    case 'reply':
      return classifyRpcReply(observation.message, ctx);
    case 'http':
      return classifyHttpResponse(observation.response, ctx);
    case 'timeout':
      return stdio
        ? ambiguousOutcome('stdio-timeout', 'no answer to server/discover before the deadline; the process was killed', { deadProcess: true, transient: true })
        : stopOutcome('http-timeout', 'no answer to server/discover before the deadline', 'unavailable');
    case 'closed':
      return ambiguousOutcome('stdio-closed', `the process ended during the probe: ${observation.detail}`, { deadProcess: true, transient: true });
    case 'unreachable':
      return stopOutcome(stdio ? 'spawn-failed' : 'unreachable', observation.detail, 'unavailable');
    case 'redirect-refused':
      return stopOutcome('cross-origin-redirect', `redirected to another origin (${observation.location}); not followed`, 'unavailable');
  }
}
