import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openTempDatabase, type TempDatabase } from './temp-database.js';

describe('openDatabase', () => {
  let db: TempDatabase | undefined;
  afterEach(() => db?.dispose());

  test('applies the migrations: every table of the schema exists', () => {
    db = openTempDatabase();
    const tables = db.store.sqlite.prepare(`select name from sqlite_master where type = 'table' and name not like '\\_\\_%' escape '\\' and name not like 'sqlite%' order by name`).all();
    expect(tables).toEqual(
      ['alert_deliveries', 'alerts', 'audit_events', 'bridge_revocations', 'brownouts', 'caller_aliases', 'caller_contacts', 'caller_notices', 'caller_people_day', 'claimed_client_day', 'digests', 'integrations', 'legacy_caller_day', 'plan_exemptions', 'plan_pauses', 'plans', 'probes', 'replayed_spool_batches', 'settings', 'share_day', 'sidecar_nodes', 'tally_streams', 'traffic_day', 'traffic_hour', 'traffic_minute'].map((name) => ({ name })),
    );
  });

  test('opens in WAL mode and fails fast on a locked database', () => {
    db = openTempDatabase();
    expect(db.store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.store.sqlite.pragma('busy_timeout', { simple: true })).toBe(0);
  });

  test('reopens an existing file without re-applying migrations', () => {
    db = openTempDatabase();
    db.store.sqlite.prepare(`insert into settings (key, value) values ('k', 'v')`).run();
    const reopened = db.reopen();
    expect(reopened.sqlite.prepare(`select value from settings where key = 'k'`).get()).toEqual({ value: 'v' });
  });
});

describe('several processes opening one new database at once', () => {
  test('each of them opens it, and every migration is applied once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-race-'));
    const path = join(dir, 'shared.db');
    const child = join(import.meta.dirname, '..', 'support', 'open-database-child.ts');
    try {
      const runs = Array.from({ length: 6 }, () =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const p = spawn(process.execPath, ['--import', 'tsx', child, path]);
          let out = '';
          let err = '';
          p.stdout.on('data', (c: Buffer) => (out += c.toString()));
          p.stderr.on('data', (c: Buffer) => (err += c.toString()));
          p.on('close', (code) => resolve({ code, out, err }));
        }),
      );
      const results = await Promise.all(runs);
      const migrations = readdirSync(join(import.meta.dirname, '..', '..', 'migrations', 'sqlite')).filter((f) => f.endsWith('.sql')).length;
      expect(results.map((r) => ({ code: r.code, out: r.out.trim(), err: r.err.slice(-500) }))).toEqual(Array(6).fill({ code: 0, out: String(migrations), err: '' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
