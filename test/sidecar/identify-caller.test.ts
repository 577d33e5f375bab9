import { describe, expect, test } from 'vitest';
import { ANONYMOUS, createCallerIdentifier } from '../../server/sidecar/identify-caller.js';

const TOKEN = 'sk-live-Zq9-SECRET-token';

describe('createCallerIdentifier', () => {
  const identify = createCallerIdentifier('install-secret-A');

  test('answers a stable fingerprint for the same bearer token', () => {
    const first = identify({ authorization: `Bearer ${TOKEN}` });
    expect(first).toEqual({ integration: expect.stringMatching(/^tok_[0-9a-f]{16}$/), source: 'bearer-fingerprint' });
    expect(identify({ authorization: `Bearer ${TOKEN}` })).toEqual(first);
    expect(createCallerIdentifier('install-secret-A')({ authorization: `Bearer ${TOKEN}` })).toEqual(first);
  });

  test('reads the scheme case-insensitively and ignores trailing space', () => {
    const expected = identify({ authorization: `Bearer ${TOKEN}` });
    for (const header of [`bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer   ${TOKEN}  `]) expect(identify({ authorization: header })).toEqual(expected);
  });

  test('answers different fingerprints for different tokens', () => {
    expect(identify({ authorization: 'Bearer token-1' }).integration).not.toBe(identify({ authorization: 'Bearer token-2' }).integration);
  });

  test('answers different fingerprints for the same token under different install secrets', () => {
    const other = createCallerIdentifier('install-secret-B');
    expect(other({ authorization: `Bearer ${TOKEN}` }).integration).not.toBe(identify({ authorization: `Bearer ${TOKEN}` }).integration);
  });

  test('never contains the token or any long piece of it', () => {
    const caller = JSON.stringify(identify({ authorization: `Bearer ${TOKEN}` }));
    expect(caller).not.toContain(TOKEN);
    for (let i = 0; i + 6 <= TOKEN.length; i += 1) expect(caller).not.toContain(TOKEN.slice(i, i + 6));
  });

  test.each([
    { name: 'no Authorization header', headers: {} },
    { name: 'an empty Authorization header', headers: { authorization: '' } },
    { name: 'Basic credentials', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    { name: 'a bearer scheme without a token', headers: { authorization: 'Bearer' } },
    { name: 'a bearer value with two tokens', headers: { authorization: 'Bearer a b' } },
  ])('is anonymous with $name', ({ headers }) => {
    expect(identify(headers)).toEqual(ANONYMOUS);
  });

  test('never uses self-reported identity', () => {
    const plain = identify({ authorization: `Bearer ${TOKEN}` });
    expect(identify({ authorization: `Bearer ${TOKEN}`, 'user-agent': 'claude-code/9', 'x-client-name': 'someone-else' })).toEqual(plain);
    expect(identify({ 'user-agent': 'claude-code/9' })).toEqual(ANONYMOUS);
  });
});
