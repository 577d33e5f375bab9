import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_MODERN_VERSION } from '../../server/protocol/versions.js';
import { captureV1ConnectError, CLIENT_INFO } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { runV1FullSession } from '../peers/run-v1-full-session.js';
import { startV2Server } from '../peers/v2-server.js';
import { startV2SessionfulDualServer } from '../peers/v2-sessionful-dual-server.js';
import { startRoundRobinBalancer, type Balancer } from '../support/round-robin-balancer.js';
import { spawnCli, waitForServing, type CliRun } from '../support/spawn-cli.js';
import { startTestService } from '../support/start-test-service.js';

type Totals = Record<string, number>;

async function totals(apiUrl: URL, groupBy: string, filters: Record<string, string> = {}): Promise<Totals> {
  const params = new URLSearchParams({ bucket: 'minute', groupBy, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), ...filters });
  const response = await fetch(new URL(`/api/v1/traffic?${params}`, apiUrl));
  if (response.status !== 200) throw new Error(`traffic API answered ${response.status}`);
  return ((await response.json()) as { totals: Totals }).totals;
}

function sum(...all: Totals[]): Totals {
  const out: Totals = {};
  for (const one of all) for (const [key, value] of Object.entries(one)) out[key] = (out[key] ?? 0) + value;
  return out;
}

/** JSON-RPC messages in what the client sent: each POST body's messages, one per GET or DELETE. */
function messagesSent(bodies: string[]): number {
  let count = 0;
  for (const body of bodies) {
    if (body === 'GET' || body === 'DELETE') count += 1;
    else {
      const parsed = JSON.parse(body) as unknown;
      count += Array.isArray(parsed) ? parsed.length : 1;
    }
  }
  return count;
}

describe('serve --bridge: legacy clients in front of a modern-only server, on two nodes with no affinity', () => {
  const key = randomBytes(32).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-bridge-'));
  let modern: Awaited<ReturnType<typeof startV2Server>>;
  let dual: Peer;
  let nodes: { run: CliRun; sidecarUrl: URL; apiUrl: URL }[] = [];
  let balancer: Balancer;

  beforeAll(async () => {
    [modern, dual] = await Promise.all([startV2Server('modern', { surface: 'bridge' }), startV2SessionfulDualServer()]);
    nodes = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const run = spawnCli(['serve', '--bridge', '--upstream', modern.url.href, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--db', join(dir, `${name}.db`), '--node', name, '--no-alerts', '--log-level', 'warn'], {
          env: { MCP_SUNSET_BRIDGE_KEY: key },
        });
        return { run, ...(await waitForServing(run)) };
      }),
    );
    balancer = await startRoundRobinBalancer(nodes.map((node) => new URL('/mcp', node.sidecarUrl)));
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) node.run.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.run.exited));
    await Promise.all([balancer?.close(), modern?.close(), dual?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an SDK v1 client gets tools, resources, prompts and an elicitation, as from a dual-era server, and each message is counted once as bridged', async () => {
    modern.seen.length = 0;
    const bridged = await runV1FullSession({ url: balancer.url, kind: 'http' });
    const direct = await runV1FullSession({ url: dual.url, kind: 'http' });
    expect(bridged).toEqual(direct);
    expect(bridged.confirmed).toBe('deploy: confirmed (ok)');
    // Both nodes served requests of the one session; the answer to the elicitation landed on the node
    // that did not send it, which passed it on to the one holding the tool call's stream.
    expect(Math.min(...balancer.served)).toBeGreaterThan(2);
    const call = balancer.bodies.findIndex((body) => body.includes('"confirm"') && body.includes('"tools/call"'));
    const answer = balancer.bodies.findIndex((body) => body.includes('"accept"') && body.includes('"result"'));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(answer).toBeGreaterThan(call);
    expect(balancer.backends[answer]).not.toBe(balancer.backends[call]);
    // The modern server saw only modern requests.
    expect(modern.seen.length).toBeGreaterThan(0);
    expect(modern.seen.every((r) => r.method === 'POST' && r.protocolVersion === FIRST_MODERN_VERSION)).toBe(true);

    // Every message the client sent is counted once, on the node that took it, as legacy through the bridge.
    const sent = messagesSent(balancer.bodies);
    const byReason = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'reason')))));
    expect(byReason).toEqual({ bridge: sent });
    const byEra = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'era')))));
    expect(byEra).toEqual({ legacy: sent });
    // At the version the session negotiated, on either node: the version travels in the session id.
    const byVersion = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'version')))));
    expect(Object.keys(byVersion)).toEqual(['2025-11-25']);
    const served = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'method', { outcome: 'served', kind: 'request' })))));
    expect(served).toMatchObject({ initialize: 1, 'tools/list': 1, 'tools/call': 2, 'resources/list': 1, 'resources/read': 1, 'prompts/list': 1, 'prompts/get': 1 });
    // The client's answer to the elicitation is counted as what it is.
    const answers = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'method', { kind: 'response' })))));
    expect(answers).toEqual({ 'elicitation/create': 1 });
  });

  it("a resource subscription reaches the modern server's listen, from whichever node took it, and updates reach the client's stream", async () => {
    // The handshake on node 0, the session's home; the stream and the subscribe on node 1, which pass them home.
    let posts = 0;
    const skewed = await startRoundRobinBalancer(nodes.map((node) => new URL('/mcp', node.sidecarUrl)), '/mcp', (method, body) => {
      if (method === 'GET') return 1;
      if (body.includes('"resources/subscribe"') || body.includes('"resources/unsubscribe"')) return 1;
      return posts++ === 0 ? 0 : undefined;
    });
    const before = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'era')))));
    const client = new V1Client(CLIENT_INFO);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => void updated.push(notification.params.uri));
    await client.connect(new V1HttpTransport(skewed.url));
    try {
      await client.subscribeResource({ uri: 'demo://about' });
      // Until the first update arrives: the listen is opened on the home node through a relay, which a
      // loaded machine makes slow. The bound only keeps a broken run from hanging (under the test's 60 s).
      const deadline = Date.now() + 45_000;
      while (updated.length === 0 && Date.now() < deadline) {
        modern.notify.resourceUpdated('demo://other');
        modern.notify.resourceUpdated('demo://about');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Only the subscribed resource, and no subscription id: the legacy shape.
      expect(updated.length).toBeGreaterThan(0);
      expect(new Set(updated)).toEqual(new Set(['demo://about']));
      await client.unsubscribeResource({ uri: 'demo://about' });
      // The unsubscribe takes effect once the server acknowledges the narrower listen; after that nothing more arrives.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const seen = updated.length;
      for (let i = 0; i < 5; i += 1) {
        modern.notify.resourceUpdated('demo://about');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(updated.length).toBe(seen);
      expect(skewed.backends.filter((backend) => backend === 1).length).toBeGreaterThanOrEqual(3);
    } finally {
      await client.close();
      await skewed.close();
    }
    // What was passed home (the stream, the subscribe) is counted once, where it landed.
    const after = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'era')))));
    expect((after.legacy ?? 0) - (before.legacy ?? 0)).toBe(messagesSent(skewed.bodies));
    expect(after.modern ?? 0).toBe(before.modern ?? 0);
  });

  it("an HTTP+SSE client's channel carries list changes and the resources it subscribed to, whichever node its POSTs land on", async () => {
    const sse = await startRoundRobinBalancer(nodes.map((node) => node.sidecarUrl), '/sse');
    const client = new V1Client(CLIENT_INFO);
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => void updated.push(notification.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void (listChanged += 1));
    await client.connect(new V1SseTransport(sse.url));
    try {
      await client.subscribeResource({ uri: 'demo://about' });
      const deadline = Date.now() + 10_000;
      while ((updated.length === 0 || listChanged === 0) && Date.now() < deadline) {
        modern.notify.resourceUpdated('demo://about');
        modern.notify.toolsChanged();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(new Set(updated)).toEqual(new Set(['demo://about']));
      expect(listChanged).toBeGreaterThan(0);
      expect(Math.min(...sse.served)).toBeGreaterThan(0);
    } finally {
      await client.close();
      await sse.close();
    }
  });

  it('an SDK v1 HTTP+SSE client finds the bridge at /sse and gets the same, its messages passed to the node holding its stream', async () => {
    const sse = await startRoundRobinBalancer(nodes.map((node) => node.sidecarUrl), '/sse');
    const before = await Promise.all(nodes.map((node) => totals(node.apiUrl, 'transport')));
    const servedBefore = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'outcome', { transport: 'http+sse', kind: 'request' })))));
    try {
      modern.seen.length = 0;
      const bridged = await runV1FullSession({ url: sse.url, kind: 'sse' });
      // The dual-era SDK v2 server has no HTTP+SSE transport: the same client over Streamable HTTP is the reference.
      const direct = await runV1FullSession({ url: dual.url, kind: 'http' });
      expect(bridged).toEqual(direct);
      expect(bridged.confirmed).toBe('deploy: confirmed (ok)');
      expect(Math.min(...sse.served)).toBeGreaterThan(2);
      expect(modern.seen.every((r) => r.method === 'POST' && r.protocolVersion === FIRST_MODERN_VERSION)).toBe(true);
      // Each message counted once, on the node holding the stream, as bridged HTTP+SSE: the stream's opening and every POST.
      const after = await Promise.all(nodes.map((node) => totals(node.apiUrl, 'transport')));
      const added = (after[0]!['http+sse'] ?? 0) + (after[1]!['http+sse'] ?? 0) - (before[0]!['http+sse'] ?? 0) - (before[1]!['http+sse'] ?? 0);
      expect(added).toBe(messagesSent(sse.bodies));
      const byOutcome = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'outcome', { transport: 'http+sse', kind: 'request' })))));
      expect(byOutcome.served! - (servedBefore.served ?? 0)).toBe(8);
      expect(Object.keys(byOutcome)).toEqual(['served']);
      const byReason = sum(...(await Promise.all(nodes.map((node) => totals(node.apiUrl, 'reason', { transport: 'http+sse' })))));
      expect(Object.keys(byReason)).toEqual(['bridge']);
    } finally {
      await sse.close();
    }
  });
});

describe('serve without --bridge in front of a modern-only server', () => {
  it('answers a legacy opening exactly as the server itself does', async () => {
    const modern = await startV2Server('modern');
    const service = await startTestService(modern.url);
    try {
      const direct = await captureV1ConnectError(modern.url);
      const through = await captureV1ConnectError(new URL('/mcp', service.sidecarUrl));
      expect(through.message).toBe(direct.message);
      expect(direct.message).toContain('-32022');
    } finally {
      await service.dispose();
      await modern.close();
    }
  });

  it('refuses to start --bridge without a key, naming the setting', async () => {
    const run = spawnCli(['serve', '--bridge', '--upstream', 'http://127.0.0.1:9/mcp', '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--db', join(tmpdir(), `never-${process.pid}.db`)], { env: { MCP_SUNSET_BRIDGE_KEY: '' } });
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/bridge\.key: required by --bridge/);
  });
});
