import { describe, expect, test } from 'vitest';
import { redactStoreError } from '../../server/lib/redact-store-error.js';

describe('redactStoreError', () => {
  test('masks message and stack, keeps name and code, and wraps what is not an Error', () => {
    const location = 'postgres://u:hunter22@db/mcp';
    const thrown = Object.assign(new TypeError(`cannot reach ${location}`), { code: 'ECONNREFUSED' });
    const safe = redactStoreError(thrown, location);
    expect(safe.message).toBe('cannot reach postgres://u:***@db/mcp');
    expect(safe.stack).not.toContain('hunter22');
    expect(safe.stack).toContain('postgres://u:***@db/mcp');
    expect(safe.name).toBe('TypeError');
    expect((safe as Error & { code?: string }).code).toBe('ECONNREFUSED');
    expect(redactStoreError('hunter22 rejected', location).message).toBe('*** rejected');
  });
});
