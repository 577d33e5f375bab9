import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureV1ConnectError, runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { dayFromNow, POLICY_URL } from '../support/enforcement-peers.js';
import { startRestartablePostgres, type RestartablePostgres } from '../support/restartable-postgres.js';
import { spawnCli, waitForDashboard, waitForServing, type CliRun } from '../support/spawn-cli.js';

type Era = 'legacy' | 'modern';
const ERAS: Era[] = ['legacy', 'modern'];
const NODES = ['node-a', 'node-b', 'node-c'] as const;
type NodeName = (typeof NODES)[number];

interface Sidecar {
  name: NodeName;
  run: CliRun;
  mcp: URL;
  api: URL;
}

/** Sessions each client completed, per node and era: each made one tools/list and two tools/call. */
const sessions: Record<NodeName, Record<Era, number>> = {
  'node-a': { legacy: 0, modern: 0 },
  'node-b': { legacy: 0, modern: 0 },
  'node-c': { legacy: 0, modern: 0 },
};

async function session(sidecar: Sidecar, era: Era): Promise<void> {
  const summary = era === 'legacy' ? await runV1HttpSession(sidecar.mcp) : await runV2Session(sidecar.mcp, 'pin');
  // The upstream tags its echo with the era that served it.
  expect(summary).toMatchObject({ echo: `hi era=${era}`, sum: '3' });
  sessions[sidecar.name][era] += 1;
}

async function json(url: URL, init?: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  const body = await response.json();
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

describe('a fleet of three sidecars (separate processes) writing to one Postgres, real SDK clients of both eras', () => {
  let postgres: RestartablePostgres;
  const upstreams: Peer[] = [];
  const sidecars: Sidecar[] = [];
  let dashboard: CliRun;
  let dashboardUrl: URL;
  let folder: string;

  /** What the dashboard instance reports for one node and era: requests per method. */
  const stored = async (node: NodeName, era: Era): Promise<Record<string, number>> => {
    const query = new URLSearchParams({ bucket: 'day', groupBy: 'method', node, era, kind: 'request' });
    return (await json(new URL(`/api/v1/traffic?${query}`, dashboardUrl))).totals;
  };
  const expected = (node: NodeName, era: Era) => ({ 'tools/list': sessions[node][era], 'tools/call': 2 * sessions[node][era] });
  const storedWork = async (node: NodeName, era: Era) => {
    const totals = await stored(node, era);
    return { 'tools/list': totals['tools/list'] ?? 0, 'tools/call': totals['tools/call'] ?? 0 };
  };
  /** Waits (up to `ms`) for the stored counts of the nodes to match what the clients sent, then asserts it. */
  const expectStoredToMatch = async (nodes: readonly NodeName[], ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const pairs = await Promise.all(nodes.flatMap((node) => ERAS.map(async (era) => ({ node, era, got: await storedWork(node, era), want: expected(node, era) }))));
      const done = pairs.every((p) => p.got['tools/list'] === p.want['tools/list'] && p.got['tools/call'] === p.want['tools/call']);
      if (done || Date.now() > deadline) {
        expect(pairs.map((p) => ({ node: p.node, era: p.era, ...p.got }))).toEqual(pairs.map((p) => ({ node: p.node, era: p.era, ...p.want })));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-fleet-'));
    postgres = await startRestartablePostgres();
    for (let i = 0; i < NODES.length; i += 1) upstreams.push(await startV2Server('dual'));
    for (const [i, name] of NODES.entries()) {
      // node-c keeps its counts in memory until it is stopped: its final flush is what the last test checks.
      const config = { spoolPath: join(folder, `${name}.spool`), flushIntervalMs: name === 'node-c' ? 600_000 : 200, flushMaxAttempts: 5, logLevel: 'error' };
      const configFile = join(folder, `${name}.json`);
      writeFileSync(configFile, JSON.stringify(config));
      const run = spawnCli(['serve', '--upstream', upstreams[i]!.origin, '--db', postgres.url, '--node', name, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--no-alerts', '--config', configFile]);
      const { sidecarUrl, apiUrl } = await waitForServing(run, 60_000);
      run.child.stderr.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
      sidecars.push({ name, run, mcp: new URL('/mcp', sidecarUrl), api: apiUrl });
    }
    dashboard = spawnCli(['dashboard', '--db', postgres.url, '--dashboard', '127.0.0.1:0', '--no-alerts', '--log-level', 'error']);
    dashboard.child.stderr.on('data', (d: Buffer) => process.stderr.write(`[dashboard] ${d}`));
    dashboardUrl = await waitForDashboard(dashboard, 60_000);
  });

  afterAll(async () => {
    for (const process of [...sidecars.map((s) => s.run), dashboard]) {
      if (process !== undefined && process.child.exitCode === null) {
        process.child.kill('SIGTERM');
        await process.exited;
      }
    }
    for (const upstream of upstreams) await upstream.close();
    await postgres?.dispose();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  test('the dashboard instance counts what the clients sent, by method, era and node', async () => {
    for (const sidecar of sidecars) {
      for (const era of ERAS) {
        await session(sidecar, era);
        await session(sidecar, era);
      }
    }
    await expectStoredToMatch(['node-a', 'node-b'], 30_000);
    // node-c has not flushed yet: nothing of it is stored.
    expect(await storedWork('node-c', 'legacy')).toEqual({ 'tools/list': 0, 'tools/call': 0 });
    const fleet = await json(new URL('/api/v1/fleet', dashboardUrl));
    // The fleet panel lists the nodes that flushed; node-c has not yet.
    expect(fleet.sidecars.map((s: { node: string }) => s.node).sort()).toEqual(['node-a', 'node-b']);
  });

  test('Postgres stopped for 30 s under traffic and started again: traffic flows, and every count arrives exactly once', async () => {
    await postgres.stop();
    const outageEnds = Date.now() + 30_000;
    let sawDegraded = false;
    while (Date.now() < outageEnds) {
      for (const sidecar of sidecars) for (const era of ERAS) await session(sidecar, era);
      const health = await json(new URL('/healthz', sidecars[0]!.api));
      if (health.status === 'degraded') sawDegraded = true;
    }
    const during = await json(new URL('/healthz', sidecars[0]!.api));
    expect(sawDegraded).toBe(true);
    // Five attempts at 200 ms are long gone: the oldest counts wait in the spool, not in memory.
    expect(during.metering.spooledEvents).toBeGreaterThan(0);
    await postgres.start();
    await expectStoredToMatch(['node-a', 'node-b'], 60_000);
    // And they stay that way: nothing written twice by a later flush or replay.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expectStoredToMatch(['node-a', 'node-b'], 0);
  });

  test('a plan created on the dashboard instance is in force on all three sidecars within 5 s', async () => {
    const created = await json(new URL('/api/v1/plans', dashboardUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Retire the legacy era', scope: { kind: 'era', value: 'legacy' }, announceDate: dayFromNow(-60), retireDate: dayFromNow(-1), action: 'deny', policyUrl: POLICY_URL }),
    });
    const fleet = await json(new URL('/api/v1/fleet', dashboardUrl));
    const version: number = fleet.policyVersion;
    expect(version).toBeGreaterThan(0);
    const deadline = Date.now() + 5_000;
    const versions = async () => Promise.all(sidecars.map(async (s) => (await json(new URL('/healthz', s.api))).policy.version as number));
    while ((await versions()).some((v) => v !== version) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await versions()).toEqual([version, version, version]);
    for (const sidecar of sidecars) {
      const error = await captureV1ConnectError(sidecar.mcp);
      expect(error.message).toContain('-32022');
      await session(sidecar, 'modern');
    }
    expect(created.plan?.id ?? created.id).toBeGreaterThan(0);
  });

  test('SIGTERM one sidecar: its counts, held in memory until then, arrive', async () => {
    const nodeC = sidecars.find((s) => s.name === 'node-c')!;
    nodeC.run.child.kill('SIGTERM');
    expect(await nodeC.run.exited).toBe(0);
    await expectStoredToMatch(['node-a', 'node-b', 'node-c'], 10_000);
    const fleet = await json(new URL('/api/v1/fleet', dashboardUrl));
    expect(fleet.sidecars.map((s: { node: string }) => s.node).sort()).toEqual(['node-a', 'node-b', 'node-c']);
  });
});
