import { describe, expect, test } from 'vitest';
import { classifyProbeReply } from '../../server/prober/judge/classify-probe-reply.js';
import type { ProbeContext } from '../../server/prober/judge/probe-outcome.js';
import type { HttpBody, ProbeObservation } from '../../server/prober/wire/probe-observation.js';
import { DEFAULT_LEGACY_VERSIONS } from '../../server/prober/judge/select-versions.js';

const ID = 'mcp-sunset-discover-1';
const NOW = Date.parse('2026-09-01T00:00:00Z');
const stdio: ProbeContext = { transport: 'stdio', sentId: ID, sentVersion: '2026-07-28', modernVersions: ['2026-07-28'], legacyVersions: DEFAULT_LEGACY_VERSIONS, now: NOW };
const http: ProbeContext = { ...stdio, transport: 'streamable-http' };

const reply = (message: unknown): ProbeObservation => ({ kind: 'reply', message });
const answer = (extra: Record<string, unknown>, id: unknown = ID) => ({ jsonrpc: '2.0', id, ...extra });
const error = (code: number, message: string, data?: unknown, id: unknown = ID) => answer({ error: data === undefined ? { code, message } : { code, message, data } }, id);
const discover = (versions: unknown, extra: Record<string, unknown> = {}) => answer({ result: { supportedVersions: versions, capabilities: { tools: {} }, resultType: 'complete', ...extra } });
const response = (status: number, body: HttpBody, headers: { retryAfter?: string; authenticate?: string } = {}): ProbeObservation => ({
  kind: 'http',
  response: { status, body, sessionId: null, retryAfter: headers.retryAfter ?? null, authenticate: headers.authenticate ?? null, hadSession: false },
});
const json = (status: number, value: unknown) => response(status, { kind: 'json', value });
const legacy400 = (message: string, id: unknown = null) => json(400, error(-32000, message, undefined, id));

describe('classifyProbeReply: the decision table, row by row', () => {
  const cases: [string, ProbeObservation, ProbeContext, Record<string, unknown>][] = [
    ['row 1: DiscoverResult with a mutual modern version', reply(discover(['2026-07-28', '2025-11-25'])), stdio, { class: 'MOD', version: '2026-07-28', hasTools: true }],
    ['row 1: picks the first configured modern version advertised', reply(discover(['2026-07-28', '2027-01-01'])), { ...stdio, modernVersions: ['2027-01-01', '2026-07-28'] }, { class: 'MOD', version: '2027-01-01' }],
    ['row 2: DiscoverResult listing only configured legacy versions', reply(discover(['2025-06-18', '2025-11-25'])), stdio, { class: 'AMB*', code: 'discover-legacy-only', offer: ['2025-11-25', '2025-06-18'] }],
    ['row 3: DiscoverResult with only future versions', reply(discover(['2099-01-01'])), stdio, { class: 'STOP', code: 'no-mutual-version', state: 'incompatible' }],
    ['row 3: DiscoverResult mixing legacy and future versions', reply(discover(['2025-11-25', '2099-01-01'])), stdio, { class: 'STOP', state: 'incompatible' }],
    ['row 4: a result that is not a DiscoverResult', reply(answer({ result: {} })), stdio, { class: 'AMB', code: 'not-a-discover-result' }],
    ['row 4: supportedVersions of the wrong type', reply(discover('2026-07-28')), stdio, { class: 'AMB', code: 'not-a-discover-result' }],
    ['row 5: -32022 with a mutual modern version to correct to', reply(error(-32022, 'Unsupported', { supported: ['2026-01-01'], requested: '2026-07-28' })), { ...stdio, modernVersions: ['2026-07-28', '2026-01-01'] }, { class: 'MOD-ERR', retryWith: '2026-01-01' }],
    ['row 5: -32022 corrects to the best mutual version in configured order', reply(error(-32022, 'Unsupported', { supported: ['2026-01-01', '2026-07-28'], requested: '2027-01-01' })), { ...stdio, sentVersion: '2027-01-01', modernVersions: ['2027-01-01', '2026-07-28', '2026-01-01'] }, { class: 'MOD-ERR', retryWith: '2026-07-28' }],
    ['row 5: -32022 listing the very version sent (a half-rolled fleet) corrects to it', reply(error(-32022, 'Unsupported', { supported: ['2026-01-01', '2026-07-28'], requested: '2026-07-28' })), { ...stdio, modernVersions: ['2026-07-28', '2026-01-01'] }, { class: 'MOD-ERR', retryWith: '2026-07-28', supported: ['2026-01-01', '2026-07-28'] }],
    ['row 6: -32022 listing only legacy versions stays modern (product decision 3)', reply(error(-32022, 'Unsupported', { supported: ['2025-11-25'], requested: '2026-07-28' })), stdio, { class: 'MOD-ERR', retryWith: null, supported: ['2025-11-25'] }],
    ['row 7: -32022 listing future versions', reply(error(-32022, 'Unsupported', { supported: ['2099-01-01'], requested: '2026-07-28' })), stdio, { class: 'MOD-ERR', retryWith: null }],
    ['row 8: -32022 without data.supported', reply(error(-32022, 'Unsupported', { requested: '2026-07-28' })), stdio, { class: 'STOP', code: 'unsupported-version-malformed' }],
    ['row 8: -32022 whose data.requested is not what was sent', reply(error(-32022, 'Unsupported', { supported: ['2026-07-28'], requested: '1900-01-01' })), stdio, { class: 'STOP', code: 'unsupported-version-malformed' }],
    ['row 9: -32020', reply(error(-32020, 'Header mismatch')), stdio, { class: 'MOD-ERR', code: 'header-mismatch' }],
    ['row 10: -32021', reply(error(-32021, 'Missing capability', { requiredCapabilities: { sampling: {} } })), stdio, { class: 'MOD-ERR', code: 'missing-client-capability' }],
    ['row 11: -32601 is ambiguous, not evidence (product decision 2)', reply(error(-32601, 'Method not found')), stdio, { class: 'AMB', code: 'method-not-found', transient: false }],
    ['row 12: -32600', reply(error(-32600, 'Invalid request')), stdio, { class: 'AMB', code: 'invalid-request' }],
    ['row 12: -32602', reply(error(-32602, 'Invalid params')), stdio, { class: 'AMB', code: 'invalid-params' }],
    ['row 13: -32000 on stdio', reply(error(-32000, 'Bad Request: Server not initialized')), stdio, { class: 'AMB', code: 'rpc-error' }],
    ['row 14: "No valid session ID provided"', legacy400('Bad Request: No valid session ID provided'), http, { class: 'AMB*', code: 'legacy-prevalidation-400', offer: DEFAULT_LEGACY_VERSIONS }],
    ['row 14: "Mcp-Session-Id header is required"', legacy400('Bad Request: Mcp-Session-Id header is required'), http, { class: 'AMB*' }],
    ['row 14: "Server not initialized" without an id member', json(400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Server not initialized' } }), http, { class: 'AMB*' }],
    ['row 14: unsupported version, historical list', legacy400('Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-06-18, 2025-11-25, 2024-10-07)'), http, { class: 'AMB*', offer: ['2025-11-25', '2025-06-18', '2024-10-07'], supported: ['2025-06-18', '2025-11-25', '2024-10-07'] }],
    ['row 14 needs status 400', json(500, error(-32000, 'Bad Request: No valid session ID provided', undefined, null)), http, { class: 'STOP', state: 'unavailable' }],
    ['row 14 needs a whole recognised message', legacy400('Bad Request: No valid session ID provided, or something'), http, { class: 'AMB', code: 'rpc-error' }],
    ['row 14 needs code -32000', json(400, error(-32001, 'Bad Request: No valid session ID provided', undefined, null)), http, { class: 'AMB' }],
    ['row 15: 400 with plain text', response(400, { kind: 'text', contentType: 'text/plain', excerpt: 'nope' }), http, { class: 'AMB', code: 'bad-request-unrecognised' }],
    ['row 15: 404 without a body', response(404, { kind: 'empty' }), http, { class: 'AMB', code: 'not-found' }],
    ['row 15: 405', response(405, { kind: 'empty' }), http, { class: 'AMB', code: 'method-not-allowed' }],
    ['row 16: a version list naming the modern version', legacy400('Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2026-07-28, 2025-11-25)'), http, { class: 'STOP', code: 'contradictory-versions', state: 'incompatible' }],
    ['row 16: a version list naming only future versions', legacy400('Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2099-01-01)'), http, { class: 'STOP', code: 'contradictory-versions' }],
    ['row 17: 404 with -32601', json(404, error(-32601, 'Method not found')), http, { class: 'AMB', code: 'method-not-found' }],
    ['row 18: 401', response(401, { kind: 'empty' }, { authenticate: 'Bearer realm="x"' }), http, { class: 'STOP', code: 'auth-required', state: 'auth-required' }],
    ['row 18: 403 whatever its body', json(403, error(-32000, 'Bad Request: No valid session ID provided', undefined, null)), http, { class: 'STOP', state: 'auth-required' }],
    ['row 19: 503 with Retry-After seconds', response(503, { kind: 'empty' }, { retryAfter: '7' }), http, { class: 'STOP', code: 'server-error', state: 'unavailable', retryAfterMs: 7000 }],
    ['row 19: 429 with a Retry-After date', response(429, { kind: 'empty' }, { retryAfter: new Date(NOW + 3000).toUTCString() }), http, { class: 'STOP', code: 'rate-limited', retryAfterMs: 3000 }],
    ['row 20: HTTP timeout is an outage, not evidence', { kind: 'timeout' }, http, { class: 'STOP', code: 'http-timeout', state: 'unavailable' }],
    ['row 20: refused', { kind: 'unreachable', detail: 'ECONNREFUSED' }, http, { class: 'STOP', code: 'unreachable' }],
    ['row 20: a cross-origin redirect', { kind: 'redirect-refused', location: 'http://elsewhere/' }, http, { class: 'STOP', code: 'cross-origin-redirect' }],
    ['row 21: stdio silence', { kind: 'timeout' }, stdio, { class: 'AMB', code: 'stdio-timeout', deadProcess: true, transient: true }],
    ['row 22: stdio close', { kind: 'closed', detail: 'exit code 1' }, stdio, { class: 'AMB', code: 'stdio-closed', deadProcess: true }],
    ['row 22: a command that cannot start', { kind: 'unreachable', detail: 'ENOENT' }, stdio, { class: 'STOP', code: 'spawn-failed' }],
    ['row 23 (HTTP): a body with another id is no answer', json(200, discover(['2026-07-28'], {})), { ...http, sentId: 'other' }, { class: 'AMB', code: 'uncorrelated-reply' }],
    ['row 24: result and error together', reply(answer({ result: {}, error: { code: 1, message: 'x' } })), stdio, { class: 'AMB', code: 'malformed-reply' }],
    ['row 24: jsonrpc "1.0"', reply({ ...discover(['2026-07-28']), jsonrpc: '1.0' }), stdio, { class: 'AMB', code: 'malformed-reply' }],
    ['row 24: a batch', json(200, [discover(['2026-07-28'])]), http, { class: 'AMB', code: 'malformed-reply' }],
    ['row 25: 202 with an empty body', response(202, { kind: 'empty' }), http, { class: 'AMB', code: 'empty-response' }],
    ['row 25: an SSE body without an answer', response(200, { kind: 'sse', messages: [{ jsonrpc: '2.0', method: 'notifications/message' }] }), http, { class: 'AMB', code: 'empty-response' }],
    ['an SSE body whose first answer has another id, then ours', response(200, { kind: 'sse', messages: [answer({ result: {} }, 'someone-else'), discover(['2026-07-28'])] }), http, { class: 'MOD' }],
    ['an SSE body carrying the DiscoverResult', response(200, { kind: 'sse', messages: [{ jsonrpc: '2.0', method: 'notifications/message' }, discover(['2026-07-28'])] }), http, { class: 'MOD' }],
    ['a result with a null id is not an answer', reply(answer({ result: { supportedVersions: ['2026-07-28'], capabilities: {} } }, null)), http, { class: 'AMB', code: 'malformed-reply' }],
  ];
  test.each(cases)('%s', (_name, observation, ctx, expected) => {
    expect(classifyProbeReply(observation, ctx)).toMatchObject(expected);
  });

  test('a legacy prevalidation body on stdio is not row 14 (there is no HTTP status)', () => {
    expect(classifyProbeReply(reply(error(-32000, 'Bad Request: No valid session ID provided')), stdio)).toMatchObject({ class: 'AMB', code: 'rpc-error' });
  });

  test('a historical version list with nothing configured in common is incompatible', () => {
    const ctx = { ...http, legacyVersions: ['2025-11-25'] };
    expect(classifyProbeReply(legacy400('Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2024-11-05)'), ctx)).toMatchObject({ class: 'STOP', code: 'no-mutual-version' });
  });
});
