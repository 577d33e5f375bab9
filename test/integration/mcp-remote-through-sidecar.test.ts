import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import type { Peer, SeenRequest } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const require = createRequire(import.meta.url);
// The bin's own JS file, run by this node: no npx, no network.
const MCP_REMOTE_BIN = join(dirname(require.resolve('mcp-remote/package.json')), 'dist', 'proxy.js');
const TOKEN = 'mcp-remote-host-token-51c9e0';
const CALLS = 3;
// A loaded machine can be slow to spawn the bridge and to see its sockets close; this bounds a hang, it times nothing.
const PATIENCE_MS = 60_000;

type HostRun = { toolNames: string[]; results: unknown[] };

// Bridges still running; afterAll ends any that a hung run left behind.
const bridges = new Set<StdioClientTransport>();

/**
 * What a desktop host does with a remote server it reaches through mcp-remote: launch the bridge on
 * stdio, list the tools, call `echo` `CALLS` times, close. The bridge keeps its OAuth state in
 * `configDir`; the server asks for no sign-in, so it never opens a browser.
 */
async function runHostThroughMcpRemote(serverUrl: URL, configDir: string, extraArgs: string[]): Promise<HostRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_REMOTE_BIN, serverUrl.href, '--header', `Authorization: Bearer ${TOKEN}`, ...extraArgs],
    env: { PATH: process.env.PATH ?? '', HOME: configDir, MCP_REMOTE_CONFIG_DIR: configDir },
    stderr: 'pipe',
  });
  bridges.add(transport);
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const results: unknown[] = [];
    for (let i = 0; i < CALLS; i++) {
      results.push(await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } }));
    }
    return { toolNames: tools.map((tool) => tool.name).sort(), results };
  } catch (error) {
    throw new Error(`host through mcp-remote failed: ${String(error)}\nmcp-remote stderr:\n${stderr}`);
  } finally {
    // Ends stdin, then signals the child: the bridge never outlives its host.
    await client.close();
    bridges.delete(transport);
  }
}

const isWellKnown = (request: SeenRequest): boolean => request.path.includes('/.well-known/');

type Case = {
  name: string;
  start: () => Promise<Peer>;
  args: string[];
  era: 'legacy' | 'modern';
  /** What the server's echo appends: the v2 demo tools name the era that served the call. */
  echoSuffix: string;
  /** JSON-RPC methods that reach the server on POSTs, by who sent them. */
  posted: Record<string, number>;
};

// What the host sends over stdio.
const HOST_SENDS = { initialize: 1, 'notifications/initialized': 1, 'tools/list': 1, 'tools/call': CALLS };
// Before it serves the host, mcp-remote checks the server with a second client of its own
// ("mcp-remote-fallback-test"), which runs a full handshake of its own and never ends its session.
const LEGACY_BRIDGE_CHECK = { initialize: 1, 'notifications/initialized': 1 };
const legacyPosted = sum(HOST_SENDS, LEGACY_BRIDGE_CHECK);
// With --protocol auto on a 2026-07-28 server, mcp-remote answers the host's handshake itself; on the
// wire are one server/discover for its check client, one for the host's handshake, and the
// subscriptions/listen stream it opens on the host's behalf.
const modernPosted = { 'server/discover': 2, 'subscriptions/listen': 1, 'tools/list': 1, 'tools/call': CALLS };

const cases: Case[] = [
  { name: 'a dual-era v2 server, mcp-remote in its default protocol mode', start: () => startV2Server('dual'), args: [], era: 'legacy', echoSuffix: ' era=legacy', posted: legacyPosted },
  { name: 'a v1 legacy session server', start: startV1SessionServer, args: [], era: 'legacy', echoSuffix: '', posted: legacyPosted },
  { name: 'a dual-era v2 server, mcp-remote with --protocol auto', start: () => startV2Server('dual'), args: ['--protocol', 'auto'], era: 'modern', echoSuffix: ' era=modern', posted: modernPosted },
];

describe.each(cases)('a stdio host through the real mcp-remote and the sidecar to $name', ({ start, args, era, echoSuffix, posted }) => {
  let peer: Peer;
  let service: TestService;
  let configDir: string;
  let direct: HostRun;
  let viaSidecar: HostRun;
  let upstreamSaw: SeenRequest[];

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'mcp-sunset-mcp-remote-'));
    peer = await start();
    service = await startTestService(new URL(peer.origin));
    direct = await runHostThroughMcpRemote(peer.url, configDir, args);
    const before = peer.seen.length;
    viaSidecar = await runHostThroughMcpRemote(new URL(peer.url.pathname, service.sidecarUrl), configDir, args);
    upstreamSaw = peer.seen.slice(before);
  }, 2 * PATIENCE_MS);

  afterAll(async () => {
    await Promise.all([...bridges].map((bridge) => bridge.close()));
    bridges.clear();
    await service?.dispose();
    await peer?.close();
    if (configDir !== undefined) rmSync(configDir, { recursive: true, force: true });
  });

  test('the host gets the same tools and results as without the sidecar', () => {
    expect(viaSidecar.toolNames).toEqual(['add', 'count', 'echo']);
    expect(viaSidecar.results.map(textOf)).toEqual(Array.from({ length: CALLS }, (_, i) => `call ${i}${echoSuffix}`));
    expect(viaSidecar).toEqual(direct);
  });

  test('every message is counted once under its method, on the era the server implies, for the token\'s caller', async () => {
    const upstreamGets = upstreamSaw.filter((request) => request.method === 'GET' && !isWellKnown(request)).length;
    const upstreamPosts = upstreamSaw.filter((request) => request.method === 'POST').length;
    // Each POST carried one message, and the sidecar passed every one on.
    expect(upstreamPosts).toBe(Object.values(posted).reduce((a, b) => a + b, 0));
    const expected = { ...posted, GET: upstreamGets };
    // Streams are counted when they end, which the sidecar sees a little after the bridge exits.
    await expect.poll(() => trafficTotals(service, 'method'), { timeout: PATIENCE_MS }).toEqual(expected);

    expect(await trafficTotals(service, 'method', { era })).toEqual(era === 'legacy' ? expected : posted);
    expect(await trafficTotals(service, 'outcome', { method: 'tools/call' })).toEqual({ served: CALLS });
    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    const eras = await trafficTotals(service, 'era');
    expect(eras.unknown).toBeUndefined();
    expect(Object.values(eras).reduce((a, b) => a + b, 0)).toBe(total);
    expect(await trafficTotals(service, 'transport')).toEqual({ 'streamable-http': total });
    const callers = await trafficTotals(service, 'integration');
    expect(Object.keys(callers)).toEqual([expect.stringMatching(/^tok_[0-9a-f]{16}$/)]);
    expect(Object.values(callers)).toEqual([total]);
  });

  test('its caller is a legacy caller only when legacy served its work: the sign-in GETs alone never make it one', async () => {
    const { body } = await service.api<{ integrations: { key: string; lastLegacySeen: string | null; legacyServed: number }[] }>('/api/v1/integrations');
    const callers = body.integrations.filter((integration) => integration.key.startsWith('tok_'));
    expect(callers).toHaveLength(1);
    if (era === 'legacy') {
      expect(callers[0]!.lastLegacySeen).not.toBeNull();
      expect(callers[0]!.legacyServed).toBeGreaterThan(0);
    } else {
      expect(callers[0]).toMatchObject({ lastLegacySeen: null, legacyServed: 0 });
    }
  });

  test('its OAuth discovery requests are passed on and counted apart as non-MCP', async () => {
    const wellKnown = upstreamSaw.filter(isWellKnown);
    expect(wellKnown.length).toBeGreaterThan(0);
    const { body } = await service.api('/healthz');
    expect(body.metering.nonMcpRequests).toBe(wellKnown.length);
  });
});

function sum(...tallies: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tally of tallies) for (const [key, n] of Object.entries(tally)) out[key] = (out[key] ?? 0) + n;
  return out;
}
