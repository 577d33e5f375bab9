import { describe, expect, test } from 'vitest';
import { classified, NO_LOOKUPS, type ClassifyLookups } from '../../server/protocol/classified-message.js';
import { classifyHttpRequest, type HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import { alternateShapeOf, policyShapeOf, type JudgedContext } from '../../server/protocol/policy-shape.js';

const base = { id: null, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' } as const;
const context = (extra: Partial<JudgedContext> = {}): JudgedContext => ({
  sessionId: 'sid', knownSession: true, batch: false, claimMismatch: false, legacyVersion: '2025-06-18', httpSseStreamPath: false, ...extra,
});
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

function judged(facts: Partial<HttpRequestFacts> & { body?: string }, lookups: ClassifyLookups = NO_LOOKUPS) {
  const classification = classifyHttpRequest({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', ...facts.headers }, body: facts.body, bodyTooLarge: facts.bodyTooLarge ?? false, ...facts }, lookups);
  return classification.messages.map((m) => policyShapeOf(m, classification));
}
const toolsList = (params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params });
const sessions = (known: string): ClassifyLookups => ({ ...NO_LOOKUPS, sessionVersion: (id) => (id === known ? '2025-11-25' : undefined) });

describe('policyShapeOf', () => {
  test('requests and stream openings are judged by era, transport and version; notifications, answers and DELETE are not', () => {
    expect(policyShapeOf(classified({ ...base, kind: 'request', method: 'tools/call', id: 1 }), context())).toMatchObject({ era: 'legacy', transport: 'streamable-http', version: '2025-06-18' });
    expect(policyShapeOf(classified({ ...base, kind: 'stream-open', method: 'GET' }), context())).toMatchObject({ transport: 'streamable-http' });
    for (const kind of ['notification', 'response', 'session-delete'] as const) expect(policyShapeOf(classified({ ...base, kind, method: 'x' }), context())).toBeUndefined();
  });

  test('a GET with no session, or at an HTTP+SSE stream path, is judged as the opening of HTTP+SSE before its first event says so', () => {
    const get = classified({ ...base, kind: 'stream-open', method: 'GET', reason: 'get-stream', version: null });
    expect(policyShapeOf(get, context({ sessionId: undefined }))).toEqual({ era: 'legacy', transport: 'http+sse', version: null });
    expect(policyShapeOf(get, context({ httpSseStreamPath: true }))).toEqual({ era: 'legacy', transport: 'http+sse', version: null });
  });

  test('a GET naming a session never seen initialized is judged under both transports; one of a known session only as its own', () => {
    const get = classified({ ...base, kind: 'stream-open', method: 'GET', reason: 'get-stream', version: null });
    expect(alternateShapeOf(get, context({ knownSession: false }))).toEqual({ era: 'legacy', transport: 'http+sse', version: null });
    expect(alternateShapeOf(get, context())).toBeUndefined();
  });

  test('a modern request is judged modern only on its own, with agreeing headers and a modern revision', () => {
    expect(judged({ body: toolsList({ _meta: META }), headers: MODERN_HEADERS })).toEqual([expect.objectContaining({ era: 'modern', version: '2026-07-28' })]);
    // On a legacy session, a legacy server serves it whatever its _meta says.
    expect(judged({ body: toolsList({ _meta: META }), headers: { ...MODERN_HEADERS, 'mcp-session-id': 's-1' } }, sessions('s-1'))).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-11-25' }]);
    // A _meta version that is no modern revision is served on the legacy path by a dual-era server.
    const anything = { ...META, 'io.modelcontextprotocol/protocolVersion': 'anything' };
    expect(judged({ body: toolsList({ _meta: anything }), headers: { ...MODERN_HEADERS, 'mcp-protocol-version': 'anything' } })).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-03-26' }]);
    // Headers that disagree with the body: a modern server refuses it, a legacy one serves it.
    expect(judged({ body: toolsList({ _meta: META }), headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' } })).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-11-25' }]);
    expect(judged({ body: toolsList({ _meta: META }) })).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-03-26' }]);
    // A batch element is legacy (batches are 2025-03-26 only).
    expect(judged({ body: `[${toolsList({ _meta: META })}]`, headers: MODERN_HEADERS })).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-03-26' }]);
  });

  test('Mcp-Method without a version header claims nothing: the request is legacy, counted and judged', () => {
    const classification = classifyHttpRequest({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', 'mcp-method': 'tools/list' }, body: toolsList(), bodyTooLarge: false }, NO_LOOKUPS);
    expect(classification.messages[0]).toMatchObject({ era: 'legacy', reason: 'assumed-2025-03-26' });
    expect(policyShapeOf(classification.messages[0]!, classification)).toMatchObject({ era: 'legacy' });
  });

  test('a body the sidecar did not read is legacy, whatever its headers claim: headers alone never show a request modern', () => {
    for (const facts of [
      { body: undefined, bodyTooLarge: true },
      { body: 'not json' },
      { body: toolsList(), headers: { 'content-type': 'text/plain' } },
      { body: '{"no":"rpc"}' },
    ]) {
      expect(judged(facts)).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-03-26' }]);
      expect(judged({ ...facts, headers: { ...facts.headers, ...MODERN_HEADERS } })).toEqual([expect.objectContaining({ era: 'legacy' })]);
      // A version header alone, or one naming no modern revision, shows nothing either.
      expect(judged({ ...facts, headers: { ...facts.headers, 'mcp-protocol-version': '2026-07-28' } })).toEqual([expect.objectContaining({ era: 'legacy' })]);
      expect(judged({ ...facts, headers: { ...facts.headers, ...MODERN_HEADERS, 'mcp-protocol-version': '2099-01-01' } })).toEqual([expect.objectContaining({ era: 'legacy' })]);
      // A session around it is a legacy sign whatever the headers claim.
      expect(judged({ ...facts, headers: { ...facts.headers, ...MODERN_HEADERS, 'mcp-session-id': 's-1' } }, sessions('s-1'))).toEqual([{ era: 'legacy', transport: 'streamable-http', version: '2025-11-25' }]);
    }
  });

  test('a request whose headers claim modern but whose body carries no envelope is legacy', () => {
    expect(judged({ body: toolsList(), headers: MODERN_HEADERS })).toEqual([expect.objectContaining({ era: 'legacy' })]);
  });

  test('a stdio line is modern only by its envelope naming a modern revision, outside a batch; an unreadable line is legacy', () => {
    const stdio = (batch = false) => ({ stdio: true, batch }) as const;
    const call = (version: string, reason: 'modern-meta' | 'stdio-process' = 'modern-meta') =>
      classified({ ...base, kind: 'request', method: 'tools/call', id: 1, era: reason === 'modern-meta' ? 'modern' : 'legacy', reason, transport: 'stdio', version });
    expect(policyShapeOf(call('2026-07-28'), stdio())).toMatchObject({ era: 'modern', version: '2026-07-28' });
    // The HTTP side judges a _meta naming a legacy revision legacy: so does stdio.
    expect(policyShapeOf(call('2025-06-18'), stdio())).toEqual({ era: 'legacy', transport: 'stdio', version: '2025-06-18' });
    expect(policyShapeOf(call('anything'), stdio())).toMatchObject({ era: 'legacy' });
    expect(policyShapeOf(call('2026-07-28'), stdio(true))).toMatchObject({ era: 'legacy' });
    expect(policyShapeOf(call('2025-11-25', 'stdio-process'), stdio())).toMatchObject({ era: 'legacy', version: '2025-11-25' });
    expect(policyShapeOf(classified({ ...base, kind: 'other', method: 'x', transport: 'stdio', era: 'unknown', reason: 'invalid-json', version: null }), stdio())).toEqual({ era: 'legacy', transport: 'stdio', version: null });
    for (const kind of ['notification', 'response'] as const) expect(policyShapeOf(classified({ ...base, kind, method: 'x', transport: 'stdio' }), stdio())).toBeUndefined();
  });
});
