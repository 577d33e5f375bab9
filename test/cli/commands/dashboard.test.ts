import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDashboard } from '../../../web/build.js';
import { runV1HttpSession, runV2Session } from '../../peers/clients.js';
import type { Peer } from '../../peers/listen-peer.js';
import { startV2Server } from '../../peers/v2-server.js';
import { PROJECT_ROOT, spawnCli, waitForDashboard, waitForServing, type CliRun } from '../../support/spawn-cli.js';

const QUIET = ['--log-level', 'silent'];
const JSON_HEADERS = { 'content-type': 'application/json' };

async function getJson(url: URL): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

async function stopped(run: CliRun): Promise<number | null> {
  if (run.child.exitCode === null) run.child.kill('SIGTERM');
  return run.exited;
}

function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

describe('mcp-sunset dashboard', () => {
  let dir: string;
  let peer: Peer;
  let serve: CliRun;
  let dashboard: CliRun;
  let sidecarUrl: URL;
  let serveApi: URL;
  let dashboardApi: URL;

  beforeAll(async () => {
    await buildDashboard();
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-dashboard-'));
    peer = await startV2Server('dual');
    const db = join(dir, 'fleet.db');
    serve = spawnCli(['serve', '--upstream', peer.origin, '--db', db, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--no-alerts', ...QUIET]);
    ({ sidecarUrl, apiUrl: serveApi } = await waitForServing(serve));
    dashboard = spawnCli(['dashboard', '--db', db, '--dashboard', '127.0.0.1:0', '--node', 'dash-1', ...QUIET]);
    dashboardApi = await waitForDashboard(dashboard);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([serve, dashboard].filter((run) => run !== undefined).map(stopped));
    await peer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('answers the counts a serve wrote to the shared store, as that serve\'s own API does', async () => {
    await runV2Session(new URL('/mcp', sidecarUrl), 'pin');
    await runV1HttpSession(new URL('/mcp', sidecarUrl));
    const query = '/api/v1/traffic?bucket=hour&groupBy=era';
    // The serve's API flushes its counts before it answers, so they are in the store after this.
    const fromServe = await getJson(new URL(query, serveApi));
    const fromDashboard = await getJson(new URL(query, dashboardApi));
    expect(fromDashboard.status).toBe(200);
    expect(fromDashboard.body.totals).toEqual(fromServe.body.totals);
    expect(fromDashboard.body.totals.modern).toBe(4);
    expect(fromDashboard.body.totals.legacy).toBeGreaterThan(0);
  });

  test('serves the dashboard page', async () => {
    const res = await fetch(new URL('/', dashboardApi));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/<title>[^<]*mcp-sunset/i);
  });

  test('/healthz names the dashboard role, the store and no metering pipeline; /metrics has the process defaults', async () => {
    const { status, body } = await getJson(new URL('/healthz', dashboardApi));
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', reason: null, role: 'dashboard', node: 'dash-1', store: { path: join(dir, 'fleet.db'), available: true, readable: true, error: null }, alerts: { scheduled: true }, metering: null });
    expect(body.policy.storedVersion).toEqual(expect.any(Number));
    const serveHealth = await getJson(new URL('/healthz', serveApi));
    expect(serveHealth.body.role).toBe('sidecar');
    const metrics = await (await fetch(new URL('/metrics', dashboardApi))).text();
    expect(metrics).toContain('mcp_sunset_process_cpu_seconds_total');
    expect(metrics).not.toContain('mcp_sunset_messages_total');
  });

  test('a plan created through it bumps the policy version, and the running serve enforces from that version within 5 s', async () => {
    const before = (await getJson(new URL('/healthz', dashboardApi))).body.policy.storedVersion as number;
    const res = await fetch(new URL('/api/v1/plans', dashboardApi), {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: 'Retire legacy', scope: { kind: 'era', value: 'legacy' }, announceDate: day(-30), retireDate: day(365), targetShare: 0.01 }),
    });
    expect(res.status).toBe(201);
    const after = (await getJson(new URL('/healthz', dashboardApi))).body.policy.storedVersion as number;
    expect(after).toBeGreaterThan(before);
    const deadline = Date.now() + 5_000;
    let seen: number | undefined;
    while (Date.now() < deadline) {
      seen = (await getJson(new URL('/healthz', serveApi))).body.policy.version;
      if (seen === after) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toBe(after);
  });
});

describe('mcp-sunset dashboard over a store location with a password', () => {
  let dir: string;
  // Run from a scratch folder: the location is taken as a relative path and folders are made for it there.
  const tsx = pathToFileURL(join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const spawnIn = (args: string[]) => spawnCli(args, { cwd: dir, entry: join(PROJECT_ROOT, 'server', 'cli', 'main.ts'), env: { NODE_OPTIONS: `--import=${tsx}` } });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-redact-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    // Not postgres://, which names a Postgres server: any other location is a SQLite file, which opens here.
    ['opens', 'sqlite://sunset:hunter22@db.invalid/mcp?password=second%2Fsecret'],
    ['cannot open', 'blocked://sunset:hunter22@db.invalid/mcp?password=second%2Fsecret'],
  ])('never shows the password on /healthz, /metrics, stdout or the logs when the store %s', async (outcome, location) => {
    // A file where the location's first folder would go makes opening fail, with the path in the error.
    if (outcome === 'cannot open') writeFileSync(join(dir, 'blocked:'), '');
    const run = spawnIn(['dashboard', '--db', location, '--dashboard', '127.0.0.1:0', '--log-level', 'info', '--no-alerts']);
    try {
      const api = await waitForDashboard(run);
      const health = await (await fetch(new URL('/healthz', api))).text();
      const metrics = await (await fetch(new URL('/metrics', api))).text();
      const traffic = await (await fetch(new URL('/api/v1/traffic', api))).text();
      const parsed = JSON.parse(health);
      expect(parsed.store.available).toBe(outcome === 'opens');
      expect(parsed.store.path).toContain('sunset:***@db.invalid');
      if (outcome === 'cannot open') {
        expect(parsed.status).toBe('degraded');
        expect(parsed.store.error).toContain('***');
      }
      await stopped(run);
      const shown = [health, metrics, traffic, run.stdout(), run.stderr()].join('\n');
      expect(shown).toContain('***');
      expect(shown).not.toMatch(/hunter22|second%2Fsecret|second\/secret/);
    } finally {
      await stopped(run);
    }
  });
});
