import { describe, expect, test } from 'vitest';
import { CLIENT_NAME_RETRY_MS, selectClientNamesDue } from '../../server/alerts/select-client-names-due.js';
import type { IntegrationRecord } from '../../server/store/records/integration-record.js';

const NOW = Date.UTC(2026, 10, 30, 12, 0);
const HOUR = 3_600_000;
const REFRESH = 24 * HOUR;

function caller(key: string, overrides: Partial<IntegrationRecord> = {}): IntegrationRecord {
  return {
    key, source: 'oauth', firstSeen: NOW, lastSeen: NOW, lastLegacySeen: null, clientInfoName: null, clientInfoVersion: null, displayName: null, owner: null, contact: null,
    status: 'unknown', notes: null, updatedAt: null, autoClosedAt: null, statusBeforeClose: null, reopenedAt: null, clientName: null, clientNameAt: null, ...overrides,
  };
}

const urlOf = (key: string) => (key.startsWith('oauth:https://') ? key.slice('oauth:'.length) : undefined);

describe('selectClientNamesDue', () => {
  test('only OAuth callers whose key carries a URL are due', () => {
    const records = [caller('oauth:https://a.example/c.json'), caller('oauth:desk'), caller('oauth:https://g.example/c.json', { source: 'gateway-header' }), caller('tok_1', { source: 'bearer-fingerprint' })];
    expect(selectClientNamesDue(records, urlOf, NOW, REFRESH, 50)).toEqual([{ key: 'oauth:https://a.example/c.json', url: 'https://a.example/c.json' }]);
  });

  test('a failure is due again after an hour, a name after the refresh age', () => {
    const keys = (records: IntegrationRecord[]) => selectClientNamesDue(records, urlOf, NOW, REFRESH, 50).map((d) => d.key);
    const failed = (ago: number) => caller(`oauth:https://failed-${ago}.example/c.json`, { clientNameAt: NOW - ago });
    const named = (ago: number) => caller(`oauth:https://named-${ago}.example/c.json`, { clientName: 'App', clientNameAt: NOW - ago });
    expect(keys([failed(CLIENT_NAME_RETRY_MS - 1), failed(CLIENT_NAME_RETRY_MS), named(REFRESH - 1), named(REFRESH)])).toEqual([
      `oauth:https://named-${REFRESH}.example/c.json`,
      `oauth:https://failed-${CLIENT_NAME_RETRY_MS}.example/c.json`,
    ]);
  });

  test('never fetched first, then the longest waiting, at most the limit', () => {
    const records = [
      caller('oauth:https://b.example/c.json', { clientNameAt: NOW - 2 * HOUR }),
      caller('oauth:https://c.example/c.json'),
      caller('oauth:https://a.example/c.json', { clientNameAt: NOW - 3 * HOUR }),
      caller('oauth:https://d.example/c.json'),
    ];
    expect(selectClientNamesDue(records, urlOf, NOW, REFRESH, 3).map((d) => d.key)).toEqual(['oauth:https://c.example/c.json', 'oauth:https://d.example/c.json', 'oauth:https://a.example/c.json']);
  });
});
