/**
 * The prober against the official SDKs as real peers, over stdio and HTTP where each supports it,
 * and against @modelcontextprotocol/server-everything. What each answers to the probe is in
 * captured wire traces (the raw-probes scenarios); these tests pin the verdict and the wire.
 */
import { describe, expect, test } from 'vitest';
import type { PeerConfig, PeerPolicy } from '../../server/prober/targets/peer-config.js';
import { probePeers } from '../../server/prober/probe.js';
import type { ProbeOptions } from '../../server/prober/probe-options.js';
import type { ProbeVerdict } from '../../server/prober/verdict.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { tsxPeer } from './fakes/stdio-peer.js';
import { EVERYTHING_ENTRY, startEverythingHttp } from './start-everything-http.js';

const OPTIONS: ProbeOptions = { attempts: 1, probeTimeoutMs: 20_000, initializeTimeoutMs: 20_000 };
const LEGACY_WIRE = ['server/discover', 'initialize', 'notifications/initialized', 'tools/list'];
const MODERN_WIRE = ['server/discover', 'tools/list'];
const PEER_TOOLS = ['add', 'count', 'echo'];

const httpPeer = (name: string, url: URL, policy: Partial<PeerPolicy> = {}): PeerConfig => ({ name, target: { kind: 'http', url: url.href }, ...policy });

async function probeOne(peer: PeerConfig) {
  const [report] = await probePeers([peer], OPTIONS);
  return { verdict: report!.verdict, wire: report!.verdict.sent.map((m) => m.method), tools: report!.tools?.ok ? report!.tools.tools.map((t) => t.name) : report!.tools };
}

async function withPeer<T>(start: () => Promise<Peer>, use: (peer: Peer) => Promise<T>): Promise<T> {
  const peer = await start();
  try {
    return await use(peer);
  } finally {
    await peer.close();
  }
}

describe('SDK v1 (legacy) servers', () => {
  test('Streamable HTTP with sessions: the recognised 400 leads to one initialize, a session, and tools/list', async () => {
    await withPeer(startV1SessionServer, async (peer) => {
      const { verdict, wire, tools } = await probeOne(httpPeer('v1-http', peer.url));
      expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', transport: 'streamable-http', serverInfo: { name: 'v1-session-peer', version: '1.0.0' } });
      expect(verdict.evidence).toMatchObject({ class: 'LEGACY', code: 'initialize-validated' });
      expect(verdict.evidence.detail).toContain('No valid session ID provided');
      expect(wire).toEqual(LEGACY_WIRE);
      expect(tools).toEqual(PEER_TOOLS);
      // Four POSTs, then the session the probe opened is ended.
      expect(peer.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'DELETE']);
    });
  });

  test('HTTP+SSE: fails closed by default, then asks for allowHttpSse, then is served over the deprecated transport', async () => {
    await withPeer(startV1SseServer, async (peer) => {
      const strict = await probeOne(httpPeer('v1-sse', peer.url));
      expect(strict.verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'allowLegacy', evidence: { class: 'AMB', code: 'not-found' } });
      expect(strict.wire).toEqual(['server/discover']);
      const half = await probeOne(httpPeer('v1-sse', peer.url, { allowLegacy: true }));
      expect(half.verdict).toMatchObject({ state: 'incompatible', enableWith: 'allowHttpSse' });
      expect(half.wire).toEqual(['server/discover', 'initialize']);
      const full = await probeOne(httpPeer('v1-sse', peer.url, { allowLegacy: true, allowHttpSse: true }));
      expect(full.verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', transport: 'http+sse', serverInfo: { name: 'v1-sse-peer' } });
      expect(full.wire).toEqual(['server/discover', 'initialize', 'initialize', 'notifications/initialized', 'tools/list']);
      expect(full.tools).toEqual(PEER_TOOLS);
    });
  });

  test('stdio: -32601 fails closed by default; allowlisted, one initialize on the same process', async () => {
    const strict = await probeOne(tsxPeer('v1-stdio', 'v1-stdio-server.ts'));
    expect(strict.verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'allowLegacy', evidence: { class: 'AMB', code: 'method-not-found' } });
    expect(strict.wire).toEqual(['server/discover']);
    const allowed = await probeOne(tsxPeer('v1-stdio', 'v1-stdio-server.ts', [], { allowLegacy: true }));
    expect(allowed.verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', transport: 'stdio', serverInfo: { name: 'v1-stdio-peer' } });
    expect(allowed.wire).toEqual(LEGACY_WIRE);
    expect(allowed.tools).toEqual(PEER_TOOLS);
  });
});

describe('SDK v2 servers', () => {
  test.each(['modern', 'dual'] as const)('%s over Streamable HTTP is modern, whatever the policy', async (mode) => {
    await withPeer(
      () => startV2Server(mode),
      async (peer) => {
        const { verdict, wire, tools } = await probeOne(httpPeer(`v2-${mode}`, peer.url, { allowLegacy: true, allowHttpSse: true }));
        expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', supportedVersions: ['2026-07-28'], transport: 'streamable-http', serverInfo: { name: `v2-${mode}-peer` } });
        expect(wire).toEqual(MODERN_WIRE);
        expect(tools).toEqual(PEER_TOOLS);
      },
    );
  });

  test.each(['modern', 'dual'] as const)('%s over stdio is modern, whatever the policy', async (mode) => {
    const { verdict, wire, tools } = await probeOne(tsxPeer(`v2-${mode}`, 'v2-stdio-server.ts', [mode], { allowLegacy: true }));
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', transport: 'stdio', serverInfo: { name: `v2-stdio-${mode}-peer` } });
    expect(wire).toEqual(MODERN_WIRE);
    expect(tools).toEqual(PEER_TOOLS);
  });
});

describe('SDK v2 servers asked for a version they do not serve (row 5)', () => {
  // The prober prefers a version the peer has never heard of: its -32022 names 2026-07-28.
  const AHEAD: ProbeOptions = { ...OPTIONS, modernVersions: ['2027-01-01', '2026-07-28'] };
  const expectCorrected = (verdict: ProbeVerdict) => {
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', evidence: { class: 'MOD' } });
    expect(verdict.evidence.detail).toMatch(/^-32022: 2027-01-01 is unsupported; the server lists 2026-07-28; then DiscoverResult/);
    expect(verdict.sent).toEqual([{ method: 'server/discover', id: 'mcp-sunset-discover-1' }, { method: 'server/discover', id: 'mcp-sunset-discover-2' }, { method: 'tools/list', id: 1 }]);
  };

  test('Streamable HTTP: one corrective discover at the version it names, then modern', async () => {
    await withPeer(
      () => startV2Server('modern'),
      async (peer) => {
        const [report] = await probePeers([httpPeer('v2-http', peer.url, { allowLegacy: true })], AHEAD);
        expectCorrected(report!.verdict);
        expect(peer.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
      },
    );
  });

  test('stdio: one corrective discover at the version it names, then modern', async () => {
    const [report] = await probePeers([tsxPeer('v2-stdio', 'v2-stdio-server.ts', ['modern'], { allowLegacy: true })], AHEAD);
    expectCorrected(report!.verdict);
  });
});

describe('@modelcontextprotocol/server-everything', () => {
  test('Streamable HTTP: "Server not initialized" is recognised legacy evidence', async () => {
    const server = await startEverythingHttp();
    try {
      const { verdict, wire, tools } = await probeOne(httpPeer('everything', server.url));
      expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', transport: 'streamable-http', serverInfo: { name: 'mcp-servers/everything' } });
      expect(verdict.evidence.detail).toContain('Server not initialized');
      expect(wire).toEqual(LEGACY_WIRE);
      expect(tools).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    } finally {
      await server.close();
    }
  });

  test('stdio: -32601 fails closed by default; allowlisted, it is legacy', async () => {
    const target = { kind: 'stdio' as const, command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] };
    const strict = await probeOne({ name: 'everything', target });
    expect(strict.verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'allowLegacy', evidence: { code: 'method-not-found' } });
    const allowed = await probeOne({ name: 'everything', target, allowLegacy: true });
    expect(allowed.verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', transport: 'stdio', serverInfo: { name: 'mcp-servers/everything' } });
    expect(allowed.wire).toEqual(LEGACY_WIRE);
    expect(allowed.tools).toEqual(expect.arrayContaining(['echo', 'get-sum']));
  });
});
