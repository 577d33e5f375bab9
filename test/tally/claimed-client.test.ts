import { describe, expect, test } from 'vitest';
import { claimedClientOf, NO_CLAIM } from '../../server/tally/claimed-client.js';

describe('claimedClientOf', () => {
  test('clientInfo first; else the product a User-Agent starts with; else nothing', () => {
    expect(claimedClientOf({ name: 'Desk Host', version: '1.2.0' }, 'node')).toEqual({ kind: 'client-info', name: 'Desk Host', version: '1.2.0' });
    expect(claimedClientOf(undefined, 'python-httpx/0.28.1 (linux)')).toEqual({ kind: 'user-agent', name: 'python-httpx', version: '0.28.1' });
    expect(claimedClientOf({ name: '', version: '1' }, 'curl/8.5.0')).toEqual({ kind: 'user-agent', name: 'curl', version: '8.5.0' });
    expect(claimedClientOf(undefined, 'node')).toEqual({ kind: 'user-agent', name: 'node', version: '' });
    expect(claimedClientOf(undefined, undefined)).toBe(NO_CLAIM);
    expect(claimedClientOf(undefined, '(no product)')).toBe(NO_CLAIM);
  });
});
