import { describe, expect, test } from 'vitest';
import { compilePolicy, type PolicyPlanInput } from '../../server/policy/compile-policy.js';
import { PASS } from '../../server/policy/compiled-policy.js';
import { NO_LOOKUPS } from '../../server/protocol/classified-message.js';
import { classifyHttpRequest } from '../../server/protocol/classify-http-request.js';
import { decideExchange } from '../../server/sidecar/decide-exchange.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const CUT = NOW - 86_400_000;
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function plan(overrides: Partial<PolicyPlanInput>): PolicyPlanInput {
  return {
    id: 1, name: 'p', scope: { kind: 'era', value: 'legacy' }, action: 'deny', announceDate: '2026-10-01', retireDate: '2026-11-29',
    blockNewCallersFrom: null, gate: null, policyUrl: 'https://example.com/p', brownouts: [], exemptions: [], cutFrom: CUT, knownCallers: new Set(), ...overrides,
  };
}
const policyOf = (...plans: PolicyPlanInput[]) => compilePolicy({ version: 1, plans, supportedVersions: ['2026-07-28', '2025-06-18'] }, NOW);

const post = (body: unknown, headers: Record<string, string> = {}) =>
  classifyHttpRequest({ method: 'POST', path: '/mcp', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body), bodyTooLarge: false }, NO_LOOKUPS);
const get = (headers: Record<string, string> = {}) =>
  classifyHttpRequest({ method: 'GET', path: '/mcp', headers: { accept: 'text/event-stream', ...headers }, body: undefined, bodyTooLarge: false }, NO_LOOKUPS);

/**
 * One exchange whose messages the policy judges differently. HTTP gives none (a batch is legacy
 * whole), so it is built by hand, to show how decisions on several messages combine.
 */
function mixed(first: 'modern' | 'legacy') {
  const modern = post(modernCall, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  const legacy = post(legacyCall);
  const messages = first === 'modern' ? [...modern.messages, ...legacy.messages] : [...legacy.messages, ...modern.messages];
  return { ...modern, messages };
}

const modernCall = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
const legacyCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: {} } };
const legacyNote = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('decideExchange', () => {
  test('an exchange is refused whole when any request in it is refused, naming that request', () => {
    const { decision, refused } = decideExchange(policyOf(plan({})), post([legacyNote, legacyCall]), 'anonymous', NOW);
    expect(decision.refusedBy?.id).toBe(1);
    expect(refused).toMatchObject({ method: 'tools/call', id: 2, era: 'legacy' });
    expect(decideExchange(policyOf(plan({})), mixed('modern'), 'anonymous', NOW).refused).toMatchObject({ method: 'tools/call', id: 2 });
  });

  test('notifications are not judged: an exchange of them passes', () => {
    expect(decideExchange(policyOf(plan({})), post(legacyNote), 'anonymous', NOW)).toEqual({ decision: PASS, refused: undefined });
    expect(decideExchange(policyOf(plan({})), post(legacyNote), 'anonymous', NOW).decision).toBe(PASS);
  });

  test('a GET with no session is judged as the opening of HTTP+SSE; one of a session seen initialized is not', () => {
    const sse = policyOf(plan({ scope: { kind: 'transport', value: 'http+sse' } }));
    expect(decideExchange(sse, get(), 'anonymous', NOW).refused).toMatchObject({ kind: 'stream-open' });
    const known = classifyHttpRequest({ method: 'GET', path: '/mcp', headers: { accept: 'text/event-stream', 'mcp-session-id': 'abc' }, body: undefined, bodyTooLarge: false }, { ...NO_LOOKUPS, sessionVersion: () => '2025-11-25' });
    expect(decideExchange(sse, known, 'anonymous', NOW).decision).toBe(PASS);
    // A session header the sidecar never saw initialized may open HTTP+SSE: an HTTP+SSE server ignores it.
    expect(decideExchange(sse, get({ 'mcp-session-id': 'abc' }), 'anonymous', NOW).refused).toMatchObject({ kind: 'stream-open' });
  });

  test('with nothing refused, the first decision that marks or announces stands', () => {
    const policy = policyOf(plan({ action: 'dryrun' }));
    const { decision, refused } = decideExchange(policy, post([modernCall, legacyCall]), 'anonymous', NOW);
    expect(refused).toBeUndefined();
    expect(decision.wouldBlock).toBe(true);
    const warned = decideExchange(policyOf(plan({ action: 'warn' })), post([modernCall, legacyCall]), 'anonymous', NOW).decision;
    expect(warned.headers).toContain('Deprecation');
  });

  test('a dry run marks the exchange deny would refuse, even after a message that only announced', () => {
    const announceModern = plan({ id: 1, scope: { kind: 'version', value: '2026-07-28' }, action: 'warn', policyUrl: 'https://example.com/modern' });
    const exchange = mixed('modern');
    expect(decideExchange(policyOf(announceModern, plan({ id: 2, action: 'deny' })), exchange, 'anonymous', NOW).decision.refusedBy?.id).toBe(2);
    const { decision } = decideExchange(policyOf(announceModern, plan({ id: 2, action: 'dryrun' })), exchange, 'anonymous', NOW);
    expect(decision.wouldBlock).toBe(true);
    expect(decision.headers).toContain('<https://example.com/modern>; rel="sunset"');
    const reversed = decideExchange(policyOf(announceModern, plan({ id: 2, action: 'dryrun' })), mixed('legacy'), 'anonymous', NOW).decision;
    expect(reversed.wouldBlock).toBe(true);
    expect(reversed.headers).toContain('<https://example.com/modern>; rel="sunset"');
  });

  test('an exchange outside every plan passes with the shared decision', () => {
    expect(decideExchange(policyOf(plan({})), post(modernCall, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }), 'anonymous', NOW).decision).toBe(PASS);
  });
});
