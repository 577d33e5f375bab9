import Database from 'better-sqlite3';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { spawnCli, waitForServing } from '../support/spawn-cli.js';
import { stageCliBundle } from '../support/stage-cli-bundle.js';
import { startTestService, trafficTotals } from '../support/start-test-service.js';

async function healthOf(apiUrl: URL): Promise<any> {
  return (await fetch(new URL('/healthz', apiUrl))).json();
}

describe('metering never fails traffic', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await startV2Server('modern');
  });
  afterAll(async () => {
    await peer?.close();
  });

  test('with the database held locked by another connection, requests succeed, and counts past their attempts wait in the spool until the lock goes', async () => {
    const service = await startTestService(new URL(peer.origin), { flushIntervalMs: 50, flushMaxAttempts: 3 });
    const locker = new Database(service.dbPath);
    try {
      locker.exec('BEGIN EXCLUSIVE');
      const summary = await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
      expect(summary.sum).toBe('3');
      // Three failed attempts later the four messages of that session move to the spool, and say so.
      await expect.poll(async () => (await service.api('/healthz')).body.metering.spooledEvents, { timeout: 5000 }).toBe(4);
      const { body } = await service.api('/healthz');
      expect(body.status).toBe('degraded');
      expect(body.metering.lastFlushError).toMatch(/locked|busy/i);
      expect(body.metering.droppedEvents).toBe(0);
      locker.exec('COMMIT');

      await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
      // Once the lock is gone the spool is written back: every message sent is stored, once.
      expect(await trafficTotals(service, 'era')).toEqual({ modern: 8 });
      expect((await service.api('/healthz')).body.metering).toMatchObject({ spooledEvents: 0, droppedEvents: 0 });
    } finally {
      locker.close();
      await service.dispose();
    }
  });

  test('with the database held locked and no room in the spool, requests succeed and lost counts are reported', async () => {
    const service = await startTestService(new URL(peer.origin), { flushIntervalMs: 50, flushMaxAttempts: 3, spoolMaxBytes: 1 });
    const locker = new Database(service.dbPath);
    try {
      locker.exec('BEGIN EXCLUSIVE');
      const summary = await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
      expect(summary.sum).toBe('3');
      // Three failed attempts later the four messages of that session are given up, and say so.
      await expect.poll(async () => (await service.api('/healthz')).body.metering.droppedEvents, { timeout: 5000 }).toBe(4);
      const { body } = await service.api('/healthz');
      expect(body.status).toBe('degraded');
      expect(body.metering.lastFlushError).toMatch(/locked|busy/i);
      expect(body.metering.spooledEvents).toBe(0);
      locker.exec('COMMIT');

      await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
      // Once the lock is gone counting resumes: stored plus dropped is every message sent.
      expect(await trafficTotals(service, 'era')).toEqual({ modern: 4 });
    } finally {
      locker.close();
      await service.dispose();
    }
  });

  test('a lock shorter than the retry budget loses nothing', async () => {
    const service = await startTestService(new URL(peer.origin), { flushIntervalMs: 50, flushMaxAttempts: 100 });
    const locker = new Database(service.dbPath);
    try {
      locker.exec('BEGIN EXCLUSIVE');
      await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
      await expect.poll(async () => (await service.api('/healthz')).body.metering.retainedEvents, { timeout: 5000 }).toBe(4);
      locker.exec('COMMIT');
      await expect.poll(async () => (await service.api('/healthz')).body.metering.retainedEvents, { timeout: 5000 }).toBe(0);
      expect(await trafficTotals(service, 'era')).toEqual({ modern: 4 });
      expect((await service.api('/healthz')).body.metering.droppedEvents).toBe(0);
    } finally {
      locker.close();
      await service.dispose();
    }
  });

  test('with the database file read-only, requests succeed and /healthz reports the dropped counts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-ro-'));
    const dbPath = join(dir, 'sunset.db');
    openDatabase(dbPath).close();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ flushMaxAttempts: 2 }));
    chmodSync(dbPath, 0o444);
    chmodSync(dir, 0o555);
    // Root ignores file modes, so the sidecar runs as an unprivileged user when the tests run as root.
    // That user may not be able to enter the checkout, so it runs the CLI bundled into a folder it can read.
    const cli = process.getuid?.() === 0 ? await stageCliBundle() : undefined;
    const asNobody = cli === undefined ? {} : { uid: 65534, gid: 65534, entry: cli.entry, cwd: cli.dir };
    const run = spawnCli(
      ['serve', '--upstream', peer.origin, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--db', dbPath, '--flush-interval-ms', '50', '--config', join(dir, 'config.json'), '--log-level', 'silent'],
      asNobody,
    );
    try {
      const { sidecarUrl, apiUrl } = await waitForServing(run);
      const summary = await runV2Session(new URL('/mcp', sidecarUrl), 'pin');
      expect(summary.sum).toBe('3');
      await expect.poll(async () => (await healthOf(apiUrl)).metering.droppedEvents, { timeout: 10_000 }).toBe(4);
      const health = await healthOf(apiUrl);
      expect(health.status).toBe('degraded');
      // Either the file could not be opened for writing at all, or every write was refused.
      expect(`${health.store.error} ${health.metering.lastFlushError}`).toMatch(/readonly|read-only|unable to open/i);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
      chmodSync(dir, 0o755);
      rmSync(dir, { recursive: true, force: true });
      cli?.dispose();
    }
  });
});
