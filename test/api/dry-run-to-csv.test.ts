import { describe, expect, test } from 'vitest';
import type { DryRunCallerJson, DryRunJson } from '../../server/api/api-json.js';
import { dryRunToCsv } from '../../server/api/dry-run-to-csv.js';

function report(callers: DryRunCallerJson[]): DryRunJson {
  return {
    planId: 1,
    at: '2027-03-01',
    window: { from: '2027-02-19T00:00:00.000Z', to: '2027-03-01T00:00:00.000Z', days: 10 },
    refusedShare: null,
    totals: { callers: callers.length, refusedCallers: callers.length, savedCallers: 0, refusedRequests: 0, servedRequests: 0, refusedPeople: 0 },
    callers,
    live: null,
  };
}

const caller: DryRunCallerJson = {
  integration: 'tok_a',
  displayName: null,
  owner: null,
  contact: null,
  identifiable: true,
  requests: 10,
  requestsPerDay: 1 / 3,
  lastSeen: '2027-02-27T00:00:00.000Z',
  versions: ['2025-03-26', '2025-06-18'],
  transports: ['streamable-http'],
  migration: 'legacy-only',
  told: { notices: 0, lastNoticeAt: null, lastContactAt: null },
  savedBy: null,
  people: null,
};

describe('dryRunToCsv', () => {
  test('gives a caller\'s people where its credentials named them', () => {
    const [, row] = dryRunToCsv(report([{ ...caller, integration: 'oauth:https://desk.example/client.json', people: 12 }])).split('\r\n');
    expect(row).toBe('oauth:https://desk.example/client.json,,,,true,0.33,12,2027-02-27T00:00:00.000Z,2025-03-26 2025-06-18,streamable-http,,legacy-only,0,,');
  });

  test('writes a header row and one row per caller, empty fields for what is unknown', () => {
    const lines = dryRunToCsv(report([caller, { ...caller, integration: 'tok_b', savedBy: { until: '2027-04-01', note: 'x' }, migration: 'migrating' }, { ...caller, integration: 'tok_c', migration: null, told: { notices: 2, lastNoticeAt: '2027-02-20T09:00:00.000Z', lastContactAt: '2027-02-21T10:00:00.000Z' } }])).split('\r\n');
    expect(lines).toEqual([
      'integration,display_name,owner,contact,identifiable,requests_per_day,people,last_seen,versions,transports,saved_until,migration,notices_delivered,last_notice_at,last_contact_at',
      'tok_a,,,,true,0.33,,2027-02-27T00:00:00.000Z,2025-03-26 2025-06-18,streamable-http,,legacy-only,0,,',
      'tok_b,,,,true,0.33,,2027-02-27T00:00:00.000Z,2025-03-26 2025-06-18,streamable-http,2027-04-01,migrating,0,,',
      'tok_c,,,,true,0.33,,2027-02-27T00:00:00.000Z,2025-03-26 2025-06-18,streamable-http,,,2,2027-02-20T09:00:00.000Z,2027-02-21T10:00:00.000Z',
      '',
    ]);
  });

  test('quotes commas, quotes and line breaks, and keeps text from being run as a spreadsheet formula', () => {
    const row = dryRunToCsv(report([{ ...caller, displayName: 'Acme, "sync"', owner: '=HYPERLINK("x")', contact: 'a\nb' }])).split('\r\n').slice(1, -1).join('\r\n');
    expect(row).toBe('tok_a,"Acme, ""sync""","\'=HYPERLINK(""x"")","a\nb",true,0.33,,2027-02-27T00:00:00.000Z,2025-03-26 2025-06-18,streamable-http,,legacy-only,0,,');
  });
});
