import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { ANONYMOUS, createCallerIdentifier, type CallerIdentityOptions } from '../../server/sidecar/identify-caller.js';

const TOKEN = 'sk-live-Zq9-SECRET-token';

const BASE: CallerIdentityOptions = {
  secret: 'install-secret-A',
  order: ['gateway-header', 'static-map', 'bearer', 'mtls'],
  gatewayHeader: 'x-mcp-integration',
  trustedProxies: ['10.0.0.0/8'],
  apiKeyHeader: 'x-api-key',
  staticMap: {},
};

/** A request as the proxy sees it: headers, the peer address, and the TLS state when there is one. */
function request(headers: Record<string, string>, socket: Record<string, unknown> = { remoteAddress: '192.0.2.7' }): IncomingMessage {
  return { headers, socket } as unknown as IncomingMessage;
}

function bearer(token = TOKEN): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

describe('createCallerIdentifier', () => {
  const identify = createCallerIdentifier(BASE);

  describe('the bearer fingerprint', () => {
    test('is stable for the same token and install secret', () => {
      const first = identify(request(bearer()));
      expect(first).toEqual({ integration: expect.stringMatching(/^tok_[0-9a-f]{16}$/), source: 'bearer-fingerprint' });
      expect(identify(request(bearer()))).toEqual(first);
      expect(createCallerIdentifier(BASE)(request(bearer()))).toEqual(first);
    });

    test('reads the scheme case-insensitively and ignores trailing space', () => {
      const expected = identify(request(bearer()));
      for (const header of [`bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer   ${TOKEN}  `]) expect(identify(request({ authorization: header }))).toEqual(expected);
    });

    test('differs between tokens, and between install secrets', () => {
      expect(identify(request(bearer('token-1'))).integration).not.toBe(identify(request(bearer('token-2'))).integration);
      expect(createCallerIdentifier({ ...BASE, secret: 'install-secret-B' })(request(bearer())).integration).not.toBe(identify(request(bearer())).integration);
    });

    test('never contains the token or any long piece of it', () => {
      const caller = JSON.stringify(identify(request(bearer())));
      for (let i = 0; i + 6 <= TOKEN.length; i += 1) expect(caller).not.toContain(TOKEN.slice(i, i + 6));
    });

    test.each<Record<string, string>>([{}, { authorization: '' }, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: 'Bearer ' }])('is anonymous without a usable bearer token: %j', (headers) => {
      expect(identify(request(headers))).toEqual(ANONYMOUS);
    });

    test('a token followed by more words is a caller of its own, never the token\'s nor anonymous: servers read that value differently', () => {
      // The JS SDK serves `Bearer <token> <word>` as <token>, the Python SDK reads "<token> <word>".
      const extra = identify(request({ authorization: `Bearer ${TOKEN} extra` }));
      expect(extra.source).toBe('bearer-fingerprint');
      expect(extra.integration).not.toBe(identify(request(bearer())).integration);
      expect(extra.integration).not.toBe(ANONYMOUS.integration);
      // Trailing blanks are not words: the token is the token.
      expect(identify(request({ authorization: `Bearer ${TOKEN} \t` }))).toEqual(identify(request(bearer())));
    });
  });

  describe('the gateway header', () => {
    test('names the caller when the request comes from a trusted proxy', () => {
      expect(identify(request({ 'x-mcp-integration': 'billing-service', ...bearer() }, { remoteAddress: '10.1.2.3' }))).toEqual({ integration: 'billing-service', source: 'gateway-header' });
    });

    test('is ignored from anyone else, who is then identified by the next mechanism', () => {
      expect(identify(request({ 'x-mcp-integration': 'billing-service', ...bearer() }, { remoteAddress: '192.0.2.7' })).source).toBe('bearer-fingerprint');
      expect(identify(request({ 'x-mcp-integration': 'billing-service' }, { remoteAddress: '192.0.2.7' }))).toEqual(ANONYMOUS);
    });

    test('honours IPv4-mapped IPv6 peers and exact addresses', () => {
      const exact = createCallerIdentifier({ ...BASE, trustedProxies: ['127.0.0.1'] });
      expect(exact(request({ 'x-mcp-integration': 'gw' }, { remoteAddress: '::ffff:127.0.0.1' })).integration).toBe('gw');
    });
  });

  describe('the static map', () => {
    test('maps an API key to a name', () => {
      const mapped = createCallerIdentifier({ ...BASE, staticMap: { 'key-123': 'reporting-job' } });
      expect(mapped(request({ 'x-api-key': 'key-123' }))).toEqual({ integration: 'reporting-job', source: 'static-map' });
    });

    test('maps a bearer fingerprint to a name', () => {
      const fingerprint = identify(request(bearer())).integration;
      const mapped = createCallerIdentifier({ ...BASE, staticMap: { [fingerprint]: 'acme-agent' } });
      expect(mapped(request(bearer()))).toEqual({ integration: 'acme-agent', source: 'static-map' });
    });
  });

  describe('the mTLS client certificate', () => {
    const tls = (authorized: boolean) => ({ remoteAddress: '192.0.2.7', authorized, getPeerCertificate: () => ({ subject: { CN: 'ops-robot' } }) });

    test('names the caller by its subject when the certificate was verified', () => {
      expect(identify(request({}, tls(true)))).toEqual({ integration: 'mtls:ops-robot', source: 'mtls-subject' });
    });

    test('is ignored when the certificate was not verified', () => {
      expect(identify(request({}, tls(false)))).toEqual(ANONYMOUS);
    });
  });

  test('mechanisms are tried in the configured order', () => {
    const bearerFirst = createCallerIdentifier({ ...BASE, order: ['bearer', 'gateway-header'] });
    const req = request({ 'x-mcp-integration': 'gw', ...bearer() }, { remoteAddress: '10.0.0.1' });
    expect(bearerFirst(req).source).toBe('bearer-fingerprint');
    expect(identify(req).source).toBe('gateway-header');
  });

  test('never uses self-reported identity', () => {
    const plain = identify(request(bearer()));
    expect(identify(request({ ...bearer(), 'user-agent': 'claude-code/9', 'x-client-name': 'someone-else' }))).toEqual(plain);
    // The User-Agent is kept beside an anonymous caller as a claim, to describe the unknown base; it names nobody.
    expect(identify(request({ 'user-agent': 'claude-code/9' }))).toEqual({ ...ANONYMOUS, userAgent: 'claude-code/9' });
  });
});

describe('keys no operator wrote', () => {
  const names = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), '__proto__', 'prototype'])];
  test.each(names)('an API key or bearer of %s never finds a built-in: the caller is a string from the map, a fingerprint, or anonymous', (name) => {
    const identify = createCallerIdentifier({ ...BASE, order: ['static-map', 'bearer'] });
    const byKey = identify(request({ [BASE.apiKeyHeader]: name }));
    expect(byKey).toEqual(ANONYMOUS);
    const byBearer = identify(request({ authorization: `Bearer ${name}` }));
    expect(typeof byBearer.integration).toBe('string');
    expect(byBearer.source).toBe('bearer-fingerprint');
  });
});
