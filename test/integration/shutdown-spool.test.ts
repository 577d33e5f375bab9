import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { spawnCli, waitForServing, type CliRun } from '../support/spawn-cli.js';
import { stageCliBundle, type StagedCli } from '../support/stage-cli-bundle.js';

const SESSIONS = 5;
/** A v2 session through the sidecar is four counted messages (see fail-open.test.ts). */
const MESSAGES_PER_SESSION = 4;
const NOBODY = 65534;

async function json(url: URL): Promise<any> {
  return (await fetch(url)).json();
}

async function eraTotals(apiUrl: URL): Promise<Record<string, number>> {
  const params = new URLSearchParams({ bucket: 'minute', groupBy: 'era', from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() });
  return (await json(new URL(`/api/v1/traffic?${params}`, apiUrl))).totals;
}

/** JSON log lines the CLI wrote to stderr. */
function logLines(run: CliRun): any[] {
  return run.stderr().split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

describe('counts at shutdown with a failing store', () => {
  let peer: Peer;
  let cli: StagedCli | undefined;
  const root = process.getuid?.() === 0;
  beforeAll(async () => {
    peer = await startV2Server('modern');
    // Root ignores file modes: the sidecar runs as an unprivileged user, from a bundle that user can read.
    cli = root ? await stageCliBundle() : undefined;
  }, 60_000);
  afterAll(async () => {
    await peer?.close();
    cli?.dispose();
  });

  /** A folder the sidecar's user can write, or only read. */
  function folder(parent: string, name: string, writable: boolean): string {
    const dir = join(parent, name);
    mkdirSync(dir);
    if (root) chownSync(dir, NOBODY, NOBODY);
    chmodSync(dir, writable ? 0o755 : 0o555);
    return dir;
  }

  function serve(dbPath: string, configPath: string): CliRun {
    const asSidecarUser = cli === undefined ? {} : { uid: NOBODY, gid: NOBODY, entry: cli.entry, cwd: cli.dir };
    return spawnCli(
      ['serve', '--upstream', peer.origin, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--db', dbPath, '--flush-interval-ms', '50', '--config', configPath, '--log-level', 'warn'],
      asSidecarUser,
    );
  }

  /** Serves with the database read-only, sends SESSIONS sessions, checks the health report, and stops with SIGTERM. */
  async function trafficThenStop(dbDir: string, dbPath: string, configPath: string): Promise<{ run: CliRun; code: number | null }> {
    chmodSync(dbPath, 0o444);
    chmodSync(dbDir, 0o555);
    const run = serve(dbPath, configPath);
    try {
      const { sidecarUrl, apiUrl } = await waitForServing(run);
      for (let i = 0; i < SESSIONS; i += 1) expect((await runV2Session(new URL('/mcp', sidecarUrl), 'pin')).sum).toBe('3');
      const expected = SESSIONS * MESSAGES_PER_SESSION;
      await expect.poll(async () => (await json(new URL('/healthz', apiUrl))).metering.retainedEvents, { timeout: 10_000 }).toBe(expected);
      const health = await json(new URL('/healthz', apiUrl));
      expect(health.status).toBe('degraded');
      expect(health.reason).toMatch(/readonly|read-only|unable to open/i);
      expect(health.metering.droppedEvents).toBe(0);
      const metrics = await (await fetch(new URL('/metrics', apiUrl))).text();
      expect(metrics).toMatch(new RegExp(`^mcp_sunset_retained_events ${expected}$`, 'm'));
      expect(metrics).toMatch(/^mcp_sunset_spooled_events 0$/m);
    } finally {
      run.child.kill('SIGTERM');
    }
    return { run, code: await run.exited };
  }

  test('counts a read-only database refused at SIGTERM are spooled, and the next writable start stores them exactly once', async () => {
    const base = mkdtempSync(join(tmpdir(), 'mcp-sunset-spool-'));
    chmodSync(base, 0o755);
    try {
      const dbDir = folder(base, 'db', true);
      const spoolDir = folder(base, 'spool', true);
      const dbPath = join(dbDir, 'sunset.db');
      openDatabase(dbPath).close();
      if (root) chownSync(dbPath, NOBODY, NOBODY);
      const spoolPath = join(spoolDir, 'counts.spool');
      const configPath = join(base, 'config.json');
      writeFileSync(configPath, JSON.stringify({ flushMaxAttempts: 100_000, spoolPath }));
      chmodSync(configPath, 0o644);

      const first = await trafficThenStop(dbDir, dbPath, configPath);
      expect(first.code).toBe(0);
      expect(existsSync(spoolPath)).toBe(true);
      const copy = join(base, 'spool-copy');
      copyFileSync(spoolPath, copy);

      chmodSync(dbDir, 0o755);
      chmodSync(dbPath, 0o644);
      const expected = { modern: SESSIONS * MESSAGES_PER_SESSION };
      for (let start = 0; start < 2; start += 1) {
        const run = serve(dbPath, configPath);
        try {
          const { apiUrl } = await waitForServing(run);
          expect(await eraTotals(apiUrl)).toEqual(expected);
          const health = await json(new URL('/healthz', apiUrl));
          expect(health.status).toBe('ok');
          expect(health.metering.spooledEvents).toBe(0);
          expect(existsSync(spoolPath)).toBe(false);
        } finally {
          run.child.kill('SIGTERM');
          expect(await run.exited).toBe(0);
        }
        // The same spool offered again, as after a crash between the replay and the removal: counted once still.
        copyFileSync(copy, spoolPath);
        if (root) chownSync(spoolPath, NOBODY, NOBODY);
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 90_000);

  test('with no writable place at all, SIGTERM logs the number of counts lost at error level and exits non-zero', async () => {
    const base = mkdtempSync(join(tmpdir(), 'mcp-sunset-spool-'));
    chmodSync(base, 0o755);
    try {
      const dbDir = folder(base, 'db', true);
      const dbPath = join(dbDir, 'sunset.db');
      openDatabase(dbPath).close();
      if (root) chownSync(dbPath, NOBODY, NOBODY);
      const configPath = join(base, 'config.json');
      // No spool path: the default sits beside the database, in the read-only folder.
      writeFileSync(configPath, JSON.stringify({ flushMaxAttempts: 100_000 }));
      chmodSync(configPath, 0o644);

      const { run, code } = await trafficThenStop(dbDir, dbPath, configPath);
      expect(code).not.toBe(0);
      const lost = logLines(run).filter((line) => line.level >= 50 && line.lost !== undefined);
      expect(lost.map((line) => line.lost)).toEqual([SESSIONS * MESSAGES_PER_SESSION]);
      expect(lost[0].msg).toContain(`${SESSIONS * MESSAGES_PER_SESSION} counts lost`);
      expect(existsSync(`${dbPath}.spool`)).toBe(false);
    } finally {
      chmodSync(join(base, 'db'), 0o755);
      rmSync(base, { recursive: true, force: true });
    }
  }, 90_000);
});
