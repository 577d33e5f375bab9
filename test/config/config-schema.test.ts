import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config/load-config.js';

const load = (file: Record<string, unknown>) => loadConfig({ file, defaults: { node: 'n' } });
const plan = (key: unknown) => ({ key, name: 'Retire legacy', scope: { kind: 'era', value: 'legacy' }, announceDate: '2027-01-01', retireDate: '2027-07-01' });

describe('plans in the config file', () => {
  test('are absent unless the file has them, so a file without plans leaves the stored ones be', () => {
    expect(load({}).plans).toBeUndefined();
    expect(load({ plans: [] }).plans).toEqual([]);
  });

  test('keep every field of a plan as written, for the start-up to check against the plans API', () => {
    expect(load({ plans: [plan('legacy-2027')] }).plans).toEqual([plan('legacy-2027')]);
  });

  test.each([
    ['Legacy-2027', /^plans\.0\.key: expected a slug/],
    ['-legacy', /^plans\.0\.key: expected a slug/],
    ['legacy 2027', /^plans\.0\.key: expected a slug/],
    ['a'.repeat(65), /^plans\.0\.key: expected a slug/],
    [undefined, /^plans\.0\.key: /],
    [2027, /^plans\.0\.key: /],
  ])('refuse the key %j, naming it', (key, message) => {
    expect(() => load({ plans: [plan(key)] })).toThrow(ConfigError);
    expect(() => load({ plans: [plan(key)] })).toThrow(message);
  });

  test('accept a 64-character slug of letters, digits and dashes', () => {
    expect(load({ plans: [plan(`0${'a-'.repeat(31)}b`)] }).plans).toHaveLength(1);
  });

  test('refuse a key declared twice, naming the second', () => {
    expect(() => load({ plans: [plan('legacy-2027'), plan('sse'), plan('legacy-2027')] })).toThrow(/^plans\.2\.key: "legacy-2027" is declared twice$/);
  });

  test('must be a list', () => {
    expect(() => load({ plans: { 'legacy-2027': plan('legacy-2027') } })).toThrow(/^plans: /);
  });
});

describe('named admin tokens', () => {
  const token = (name: unknown, value = `${String(name)}-token-0123456789`) => ({ name, token: value });

  test('are kept as written, and stand in for adminToken on an address that is not loopback', () => {
    const config = load({ dashboard: '0.0.0.0:8809', adminTokens: [token('alice'), token('ci@deploy')] });
    expect(config.adminTokens).toEqual([token('alice'), token('ci@deploy')]);
    expect(() => load({ dashboard: '0.0.0.0:8809' })).toThrow(/^adminToken: required when the dashboard listens on 0\.0\.0\.0/);
    expect(load({}).adminTokens).toEqual([]);
  });

  test.each([
    [[token('alice'), token('alice', 'another-token-0123456789')], /^adminTokens\.1\.name: "alice" is named twice$/],
    [[token('alice', 'shared-token-0123456789'), token('bob', 'shared-token-0123456789')], /^adminTokens\.1\.token: the same token twice/],
    [[token('bad name')], /^adminTokens\.0\.name: expected 1 to 64 letters/],
    [[token('-x')], /^adminTokens\.0\.name: expected/],
    [[token('short', 'too-short')], /^adminTokens\.0\.token: must be at least 16 characters$/],
    [[{ name: 'x', token: 'x-token-0123456789', role: 'admin' }], /^adminTokens\.0: /],
  ])('refuse %j, naming the field', (tokens, message) => {
    expect(() => load({ adminTokens: tokens })).toThrow(message);
  });

  test.each(['token with spaces 0123456789', 'tab\ttoken-0123456789', ' leading-space-0123456789', 'trailing-space-0123456789 ', 'ünicode-token-0123456789'])('refuse %j as a token: a client could never send it in Authorization', (text) => {
    expect(() => load({ adminToken: text })).toThrow(/^adminToken: must be printable ASCII without spaces/);
    expect(() => load({ adminTokens: [token('alice', text)] })).toThrow(/^adminTokens\.0\.token: must be printable ASCII without spaces/);
  });

  test('refuse a named token equal to adminToken: its changes could not be told apart', () => {
    expect(() => load({ adminToken: 'one-token-0123456789', adminTokens: [token('alice', 'one-token-0123456789')] })).toThrow(/^adminTokens\.0\.token: the same token twice/);
  });
});

describe('the weekly digest', () => {
  test('is on by default, Mondays at 09:00 UTC, naming ten callers, with links to the address the API listens on', () => {
    expect(load({}).alerts.digest).toEqual({ enabled: true, schedule: '0 9 * * 1', timeZone: 'UTC', topCallers: 10 });
    expect(load({ alerts: { digest: { schedule: '30 8 * * 5', timeZone: 'Europe/Berlin', dashboardUrl: 'https://sunset.example/', topCallers: 25 } } }).alerts.digest).toEqual({
      enabled: true,
      schedule: '30 8 * * 5',
      timeZone: 'Europe/Berlin',
      dashboardUrl: 'https://sunset.example/',
      topCallers: 25,
    });
  });

  test.each([
    [{ schedule: 'every monday' }, /^alerts\.digest\.schedule: not a valid cron expression/],
    [{ timeZone: 'Mars/Olympus' }, /^alerts\.digest\.timeZone: not a time zone this runtime knows/],
    [{ dashboardUrl: 'ftp://sunset.example/' }, /^alerts\.digest\.dashboardUrl: expected an http:\/\/ or https:\/\/ URL/],
    [{ topCallers: 0 }, /^alerts\.digest\.topCallers: /],
    [{ topCallers: 101 }, /^alerts\.digest\.topCallers: /],
    [{ weekly: true }, /^alerts\.digest: /],
  ])('refuses %j, naming the field', (digest, message) => {
    expect(() => load({ alerts: { digest } })).toThrow(message);
  });
});

describe('the names OAuth applications give themselves', () => {
  test('are not fetched by default; when they are, from public addresses only and again after a day', () => {
    expect(load({}).identity.oauth.clientNames).toEqual({ enabled: false, allowPrivateAddresses: false, refreshHours: 24 });
    expect(load({ identity: { oauth: { clientNames: { enabled: true, caFile: '/etc/ca.pem' } } } }).identity.oauth.clientNames).toEqual({
      enabled: true,
      allowPrivateAddresses: false,
      caFile: '/etc/ca.pem',
      refreshHours: 24,
    });
  });

  test.each([
    [{ refreshHours: 0 }, /^identity\.oauth\.clientNames\.refreshHours: /],
    [{ refreshHours: 1.5 }, /^identity\.oauth\.clientNames\.refreshHours: /],
    [{ caFile: '' }, /^identity\.oauth\.clientNames\.caFile: /],
    [{ enabled: true, followRedirects: true }, /^identity\.oauth\.clientNames: /],
  ])('refuse %j, naming the setting', (clientNames, message) => {
    expect(() => load({ identity: { oauth: { clientNames } } })).toThrow(message);
  });
});
