import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startDashboard } from '../../server/cli/start-dashboard.js';
import { loadConfig } from '../../server/config/load-config.js';
import { createLogger } from '../../server/lib/create-logger.js';

describe('startDashboard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-start-dashboard-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = (db: string) => loadConfig({ defaults: { node: 'dash', db, dashboard: '127.0.0.1:0', logLevel: 'silent' }, file: { alerts: { scheduled: false } } });

  test('reports ok with the stored policy version while the store answers, and degraded with the reason once it does not', async () => {
    const db = join(dir, 'shared.db');
    const dashboard = await startDashboard({ config: config(db), logger: createLogger('silent') });
    try {
      expect(await dashboard.health()).toMatchObject({ status: 'ok', reason: null, role: 'dashboard', store: { path: db, available: true, readable: true, error: null }, policy: { storedVersion: 0 }, alerts: { scheduled: false }, metering: null });
      // The handle closed under it: the next report must read the store, not remember it.
      await dashboard.store!.close();
      const health = await dashboard.health();
      expect(health).toMatchObject({ status: 'degraded', store: { available: true, readable: false }, policy: { storedVersion: null } });
      expect(health.reason).toMatch(/^database unreadable: .*not open/);
    } finally {
      await dashboard.stop().catch(() => undefined);
    }
  });

  test('keeps serving, degraded and naming the store error with its secrets masked, when the store cannot be opened', async () => {
    const db = join(dir, 'missing', 'password=hunter22');
    // A file where the folder should be: opening fails with the path in the error.
    writeFileSync(join(dir, 'missing'), '');
    const dashboard = await startDashboard({ config: config(`${db} password=hunter22`), logger: createLogger('silent') });
    try {
      const health = await dashboard.health();
      expect(health).toMatchObject({ status: 'degraded', store: { available: false, readable: false }, policy: { storedVersion: null } });
      expect(health.reason).toMatch(/^database unavailable: /);
      expect(JSON.stringify(health)).not.toContain('hunter22');
      const res = await fetch(new URL('/api/v1/traffic', dashboard.apiUrl));
      expect(res.status).toBe(503);
    } finally {
      await dashboard.stop();
    }
  });
});
