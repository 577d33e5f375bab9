import { afterEach, describe, expect, test } from 'vitest';
import { openTempDatabase, type TempDatabase } from './temp-database.js';

describe('openDatabase', () => {
  let db: TempDatabase | undefined;
  afterEach(() => db?.dispose());

  test('applies the migrations: every table of the schema exists', () => {
    db = openTempDatabase();
    const tables = db.store.sqlite.prepare(`select name from sqlite_master where type = 'table' and name not like '\\_\\_%' escape '\\' and name not like 'sqlite%' order by name`).all();
    expect(tables).toEqual(
      ['alert_deliveries', 'alerts', 'brownouts', 'integrations', 'legacy_caller_day', 'plan_exemptions', 'plans', 'probes', 'replayed_spool_batches', 'settings', 'share_day', 'sidecar_nodes', 'traffic_day', 'traffic_hour', 'traffic_minute'].map((name) => ({ name })),
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
