import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import { buildDashboard } from '../../web/build.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { spawnCli, waitForServing } from '../support/spawn-cli.js';

const EPHEMERAL = ['--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--log-level', 'silent'];

describe('the mcp-sunset command', () => {
  let dir: string;
  let peer: Peer;
  beforeAll(async () => {
    // The demo serves the built dashboard; this suite must not depend on another having built it.
    await buildDashboard();
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-cli-'));
    peer = await startV2Server('dual');
  });
  afterAll(async () => {
    await peer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('serve flushes the counts still in memory when it gets SIGTERM', async () => {
    const db = join(dir, 'sigterm.db');
    // A flush interval far longer than the test: only the shutdown flush can write these counts.
    const run = spawnCli(['serve', '--upstream', peer.origin, '--db', db, '--flush-interval-ms', '600000', ...EPHEMERAL]);
    const { sidecarUrl } = await waitForServing(run);
    await runV2Session(new URL('/mcp', sidecarUrl), 'pin');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const store = openDatabase(db);
    try {
      const traffic = listTraffic(store.db, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'hour', groupBy: 'era', filters: {} });
      expect(traffic.totals).toEqual({ modern: 4 });
    } finally {
      store.close();
    }
  });

  test('report prints the last 24 hours by era and version and the legacy share of served work requests, as a table or as JSON', async () => {
    const db = join(dir, 'sigterm.db');
    const json = spawnCli(['report', '--db', db, '--json']);
    expect(await json.exited).toBe(0);
    const report = JSON.parse(json.stdout());
    expect(report.byEra).toEqual({ modern: 4, legacy: 0, unknown: 0 });
    expect(report.byVersion).toEqual([{ version: '2026-07-28', era: 'modern', count: 4 }]);
    // Of the four messages, server/discover is negotiation: tools/list and the two calls are the work.
    expect(report).toMatchObject({ servedWorkRequests: 3, legacyServedWorkRequests: 0, legacyShare: 0 });
    const table = spawnCli(['report', '--db', db]);
    expect(await table.exited).toBe(0);
    expect(table.stdout()).toContain('legacy share of served work requests: 0.00% (0 of 3)');
    expect(table.stdout()).toMatch(/modern\s+4\s+100\.0%/);
    expect(table.stdout()).toMatch(/2026-07-28\s+modern\s+4/);
  });

  test('serve without an upstream runs the demo: live counts of both eras within seconds, six months of history, a firing alert and the dashboard', async () => {
    const db = join(dir, 'demo.db');
    const run = spawnCli(['serve', '--db', db, '--node', 'live-demo', ...EPHEMERAL]);
    let served = false;
    try {
      const { apiUrl } = await waitForServing(run);
      expect(run.stdout()).toContain('mcp-sunset demo');
      const get = async (path: string) => (await fetch(new URL(path, apiUrl))).json() as Promise<any>;
      // Live traffic only: the seeded history is filed under its own node.
      await expect
        .poll(
          async () => {
            const body = await get('/api/v1/traffic?bucket=minute&groupBy=era&node=live-demo');
            return (body.totals.legacy ?? 0) > 0 && (body.totals.modern ?? 0) > 0;
          },
          // Generous: on a loaded machine the SDK clients take a while to start.
          { timeout: 30_000, interval: 250 },
        )
        .toBe(true);
      const plans = await get('/api/v1/plans');
      expect(plans.plans).toHaveLength(1);
      expect(plans.plans[0].status.status).toBe('off-track');
      const alerts = await get('/api/v1/alerts?state=firing');
      expect(alerts.alerts.map((a: { rule: string }) => a.rule)).toContain('curve-flattened');
      const page = await fetch(new URL('/', apiUrl));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      served = true;
    } finally {
      run.child.kill('SIGINT');
      const code = await run.exited;
      // Checked only when the rest passed, so a failure above is reported as itself. On failure, say
      // how it ended: a signal or a crash shows here, not just a null code.
      if (served) expect({ code, signal: run.child.signalCode, stderr: code === 0 ? '' : run.stderr().slice(-2000) }).toEqual({ code: 0, signal: null, stderr: '' });
    }
  }, 90_000);

  test.each([
    [['serve', '--upstream', 'ftp://example.test'], /upstream/],
    [['serve', '--listen', 'nonsense'], /listen/],
    [['serve', '--flush-interval-ms', 'soon'], /flush-interval-ms/],
    [['report', '--db', join(tmpdir(), 'mcp-sunset-no-such-dir', 'none.db')], /no database/],
    [['frobnicate'], /unknown command/],
  ])('bad input %j exits non-zero with one clear line', async (args, pattern) => {
    const run = spawnCli(args as string[]);
    const code = await run.exited;
    expect(code).not.toBe(0);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  });

  test('report does not create a database where there is none', async () => {
    const missing = join(dir, 'missing', 'none.db');
    const run = spawnCli(['report', '--db', missing]);
    expect(await run.exited).not.toBe(0);
    expect(existsSync(missing)).toBe(false);
  });
});
