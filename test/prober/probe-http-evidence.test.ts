import { describe, expect, test } from 'vitest';
import { probe, probePeers } from '../../server/prober/probe.js';
import { DISCOVER_RESULT, INITIALIZE_RESULT, rpc, TOOLS, type FakeRequest } from './fakes/fake-http-server.js';
import { FAST, legacy400, legacyServer, methodOf, peerAt, sentMethods, useFakes } from './fakes/http-peers.js';

const fake = useFakes();

describe('a modern server (row 1)', () => {
  test('server/discover carries the modern headers and _meta; tools/list follows in the modern era', async () => {
    const server = await fake((r) => (methodOf(r) === 'server/discover' ? { status: 200, json: rpc.result(r, DISCOVER_RESULT()) } : { status: 200, json: rpc.result(r, { ...TOOLS('b', 'a'), resultType: 'complete' }) }));
    const [report] = await probePeers([peerAt(server)], FAST);
    expect(report!.verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', supportedVersions: ['2026-07-28'], serverInfo: { name: 'fake-modern', version: '1.0.0' }, transport: 'streamable-http', enableWith: null });
    expect(sentMethods(report!.verdict)).toEqual(['server/discover', 'tools/list']);
    expect(report!.tools).toMatchObject({ ok: true, tools: [{ name: 'a' }, { name: 'b' }] });
    const [discover, list] = server.requests;
    expect(discover!.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover', accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    expect(discover!.body!.params._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-sunset-prober', version: '0.1.0' },
    });
    expect(list!.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(list!.body!.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });

  test('follows nextCursor across pages and stops on a repeated cursor', async () => {
    const pages: Record<string, unknown> = { '': { tools: [{ name: 'a' }], nextCursor: 'c1' }, c1: { tools: [{ name: 'b' }], nextCursor: 'c2' }, c2: { tools: [{ name: 'c' }], nextCursor: 'c1' } };
    const server = await fake((r) => (methodOf(r) === 'server/discover' ? { status: 200, json: rpc.result(r, DISCOVER_RESULT()) } : { status: 200, json: rpc.result(r, pages[r.body!.params?.cursor ?? '']) }));
    const [report] = await probePeers([peerAt(server)], FAST);
    expect(report!.tools).toMatchObject({ ok: true, tools: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], pages: 3, truncated: 'repeated-cursor' });
    expect(server.requests.slice(1).map((r) => r.body!.params?.cursor ?? null)).toEqual([null, 'c1', 'c2']);
  });

  test('a peer whose own list repeats a name is ready, but its tools are rejected', async () => {
    const server = await fake((r) => (methodOf(r) === 'server/discover' ? { status: 200, json: rpc.result(r, DISCOVER_RESULT()) } : { status: 200, json: rpc.result(r, TOOLS('x', 'x')) }));
    const [report] = await probePeers([peerAt(server)], FAST);
    expect(report!.verdict.state).toBe('ready');
    expect(report!.tools).toMatchObject({ ok: false, code: 'duplicate-tool-name' });
  });
});

describe('recognised legacy-only evidence (row 14, legacyOnEvidence on by default)', () => {
  const bodies = ['Bad Request: No valid session ID provided', 'Bad Request: Mcp-Session-Id header is required', 'Bad Request: Server not initialized'];
  test.each(bodies)('"%s" leads to one initialize shaped like a 2025 client', async (message) => {
    const server = await fake(legacyServer(legacy400(message)));
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', evidence: { class: 'LEGACY', code: 'initialize-validated' }, serverInfo: { name: 'fake-legacy', version: '1.0.0' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    const [, init, initialized, list] = server.requests;
    expect(init!.headers['mcp-protocol-version']).toBeUndefined();
    expect(init!.headers['mcp-method']).toBeUndefined();
    expect(JSON.stringify(init!.body)).not.toContain('io.modelcontextprotocol/');
    expect(init!.body).toEqual({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-sunset-prober', version: '0.1.0' } } });
    for (const later of [initialized!, list!]) expect(later.headers).toMatchObject({ 'mcp-session-id': 'sess-1', 'mcp-protocol-version': '2025-11-25' });
    expect(list!.body).toEqual({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    // The session the probe opened is ended.
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 'sess-1' } });
  });

  test('a version list offers the highest of advertised ∩ configured, and accepts only that set', async () => {
    const server = await fake(legacyServer(legacy400('Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-03-26, 2025-06-18)'), '2025-06-18'));
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-06-18', supportedVersions: ['2025-03-26', '2025-06-18'] });
    expect(server.requests[1]!.body!.params.protocolVersion).toBe('2025-06-18');
  });

  test('a DiscoverResult advertising only legacy versions is evidence too, and bounds the version accepted', async () => {
    const server = await fake(legacyServer((r) => ({ status: 200, json: rpc.result(r, DISCOVER_RESULT(['2025-06-18', '2024-11-05'])) }), '2025-06-18'));
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-06-18', supportedVersions: ['2025-06-18', '2024-11-05'] });
    expect(server.requests[1]!.body!.params.protocolVersion).toBe('2025-06-18');
  });

  test('an initialize result outside the advertised versions fails the checklist', async () => {
    const server = await fake(legacyServer((r) => ({ status: 200, json: rpc.result(r, DISCOVER_RESULT(['2025-06-18'])) }), '2025-11-25'));
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', evidence: { code: 'initialize-protocol-version' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize']);
  });

  test('with legacyOnEvidence off it fails closed and names the setting', async () => {
    const server = await fake(legacyServer(legacy400('Bad Request: No valid session ID provided')));
    const verdict = await probe(peerAt(server, { legacyOnEvidence: false }), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'legacyOnEvidence', evidence: { class: 'AMB*', code: 'legacy-prevalidation-400' } });
    expect(sentMethods(verdict)).toEqual(['server/discover']);
  });

  test('a contradictory version list never leads to initialize, even allowlisted (row 16)', async () => {
    const server = await fake(legacyServer(legacy400('Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2026-07-28, 2025-11-25)')));
    const verdict = await probe(peerAt(server, { allowLegacy: true }), FAST);
    expect(verdict).toMatchObject({ state: 'incompatible', evidence: { class: 'STOP', code: 'contradictory-versions' } });
    expect(sentMethods(verdict)).toEqual(['server/discover']);
  });
});

describe('modern rejections never lead to initialize (rows 5-10)', () => {
  const unsupported = (supported: string[]) => (r: FakeRequest) => ({ status: 400, json: rpc.error(r, -32022, 'Unsupported protocol version', { supported, requested: r.body!.params._meta['io.modelcontextprotocol/protocolVersion'] }) });

  test('-32022 with a mutual version: one corrective probe under a new id, then modern', async () => {
    const server = await fake((r) => {
      if (methodOf(r) !== 'server/discover') return { status: 200, json: rpc.result(r, TOOLS('a')) };
      return r.headers['mcp-protocol-version'] === '2026-07-28' ? { status: 200, json: rpc.result(r, DISCOVER_RESULT()) } : unsupported(['2026-07-28'])(r);
    });
    const verdict = await probe(peerAt(server), { ...FAST, modernVersions: ['2027-01-01', '2026-07-28'] });
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28' });
    expect(verdict.sent).toEqual([{ method: 'server/discover', id: 'mcp-sunset-discover-1' }, { method: 'server/discover', id: 'mcp-sunset-discover-2' }, { method: 'tools/list', id: 1 }]);
    expect(server.requests.map((r) => r.headers['mcp-protocol-version'])).toEqual(['2027-01-01', '2026-07-28', '2026-07-28']);
  });

  test('an allowlisted peer answering -32022 with no mutual version stays modern: incompatible, naming the versions', async () => {
    const server = await fake(unsupported(['2025-11-25', '2099-01-01']));
    const verdict = await probe(peerAt(server, { allowLegacy: true, allowHttpSse: true }), FAST);
    expect(verdict).toMatchObject({ era: 'modern', state: 'incompatible', enableWith: null, supportedVersions: ['2025-11-25', '2099-01-01'], evidence: { class: 'MOD-ERR', code: 'unsupported-version' } });
    expect(verdict.evidence.detail).toContain('2025-11-25, 2099-01-01');
    expect(server.methods()).toEqual(['server/discover']);
  });

  test('a second -32022 after the corrective probe ends it', async () => {
    const server = await fake((r) => unsupported(['2026-07-28'])(r));
    const verdict = await probe(peerAt(server, { allowLegacy: true }), { ...FAST, modernVersions: ['2027-01-01', '2026-07-28'] });
    expect(verdict).toMatchObject({ era: 'modern', state: 'incompatible' });
    expect(server.methods()).toEqual(['server/discover', 'server/discover']);
  });

  test('a half-rolled fleet: -32022 listing the very version sent, then a DiscoverResult: one re-probe at that version under a new id, then modern', async () => {
    let discovers = 0;
    const server = await fake((r) => {
      if (methodOf(r) !== 'server/discover') return { status: 200, json: rpc.result(r, TOOLS('a')) };
      discovers += 1;
      return discovers === 1 ? unsupported(['2026-07-28'])(r) : { status: 200, json: rpc.result(r, DISCOVER_RESULT()) };
    });
    const verdict = await probe(peerAt(server, { allowLegacy: true, allowHttpSse: true }), FAST);
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', evidence: { class: 'MOD' } });
    expect(server.methods()).toEqual(['server/discover', 'server/discover', 'tools/list']);
    const [first, second] = server.requests;
    expect(first!.body!.id).not.toEqual(second!.body!.id);
    expect(second).toMatchObject({
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      body: { params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
    });
  });

  test('a half-rolled fleet answering -32022 twice: incompatible after exactly two discovers, naming the versions, never initialize', async () => {
    const server = await fake((r) => (methodOf(r) === 'server/discover' ? unsupported(['2026-07-28'])(r) : { status: 200, json: rpc.result(r, INITIALIZE_RESULT()) }));
    const verdict = await probe(peerAt(server, { allowLegacy: true, allowHttpSse: true }), FAST);
    expect(verdict).toMatchObject({ era: 'modern', state: 'incompatible', enableWith: null, supportedVersions: ['2026-07-28'], evidence: { class: 'MOD-ERR', code: 'unsupported-version' } });
    expect(verdict.evidence.detail).toContain('the server lists 2026-07-28');
    expect(server.methods()).toEqual(['server/discover', 'server/discover']);
    expect(server.requests[0]!.body!.id).not.toEqual(server.requests[1]!.body!.id);
  });

  test.each([
    [-32020, 'header-mismatch'],
    [-32021, 'missing-client-capability'],
  ])('%i is a modern rejection: incompatible, no initialize even allowlisted', async (code, evidence) => {
    const server = await fake((r) => ({ status: 400, json: rpc.error(r, code, 'rejected', code === -32021 ? { requiredCapabilities: { roots: {} } } : undefined) }));
    const verdict = await probe(peerAt(server, { allowLegacy: true }), FAST);
    expect(verdict).toMatchObject({ era: 'modern', state: 'incompatible', evidence: { class: 'MOD-ERR', code: evidence } });
    expect(server.methods()).toEqual(['server/discover']);
  });
});
