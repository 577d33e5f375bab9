import { describe, expect, test } from 'vitest';
import { redactStoreSecrets } from '../../server/lib/redact-store-secrets.js';

describe('redactStoreSecrets', () => {
  const location = 'postgres://sunset:p%40ss%3Aword@db:5432/mcp?password=alt';

  test('masks the whole location, and the password raw or decoded wherever a message repeats it', () => {
    const message = `connect ${location} failed: password authentication failed for "sunset" using "p@ss:word" (p%40ss%3Aword), fallback alt`;
    const shown = redactStoreSecrets(message, location);
    expect(shown).toBe('connect postgres://sunset:***@db:5432/mcp?password=*** failed: password authentication failed for "sunset" using "***" (***), fallback ***');
  });

  test('changes nothing when the location is a path', () => {
    const path = '/srv/mcp/sunset.db';
    expect(redactStoreSecrets(`no database at ${path}`, path)).toBe(`no database at ${path}`);
  });

  test('masks a quoted libpq password given unquoted in the text', () => {
    expect(redactStoreSecrets("auth failed for 'two words' and two words", "host=db password='two words'")).toBe('auth failed for *** and ***');
  });
});

describe('redactStoreSecrets on log lines', () => {
  test('masks a password as a JSON string escapes it', () => {
    const location = 'postgres://u:pa%22ss%5Cword@db/mcp';
    const line = JSON.stringify({ msg: 'auth failed', detail: 'password pa"ss\\word rejected' });
    expect(line).toContain('pa\\"ss\\\\word');
    expect(redactStoreSecrets(line, location)).toBe(JSON.stringify({ msg: 'auth failed', detail: 'password *** rejected' }));
  });
});
