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
