import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { placeRequestTarget } from '../../server/sidecar/place-request-target.js';
import { isUnderPublicPrefix, toUpstreamPath } from '../../server/sidecar/path-mapping.js';

describe('placeRequestTarget', () => {
  test.each([
    ['/mcp', '/mcp'],
    ['/./mcp', '/mcp'],
    ['/x/../mcp', '/mcp'],
    ['/%2e/mcp', '/mcp'],
    ['/.%2E/mcp', '/mcp'],
    ['/mcp#x', '/mcp'],
    ['/mcp?a=1#x', '/mcp?a=1'],
    ['http://other.example/mcp?a=1', '/mcp?a=1'],
    ['HTTPS://other.example:8443/x/../mcp', '/mcp'],
    ['//mcp', '//mcp'],
    ['/messages?sessionId=abc', '/messages?sessionId=abc'],
    ['/%6Dcp', '/mcp'],
    ['/%6d%63%70?x=%41', '/mcp?x=%41'],
    ['/a%2Fb/%7Emcp%20x', '/a%2Fb/~mcp%20x'],
  ])('%s routes to %s', (target, placed) => {
    expect(placeRequestTarget(target)).toBe(placed);
  });

  test('a target that names no path is not placed', () => {
    expect(placeRequestTarget('*')).toBeUndefined();
    expect(placeRequestTarget('example.com:443')).toBeUndefined();
    expect(placeRequestTarget('http://[bad/mcp')).toBeUndefined();
  });
});

describe('the quick path for targets already in routed form', () => {
  /** What the WHATWG URL parser routes a path target to, unreserved escapes decoded: the reading the quick path must equal. */
  const parsed = (target: string) => {
    const url = new URL(`http://sidecar.invalid${target}`);
    return decodeURIComponentSafe(url.pathname) + url.search;
  };
  const decodeURIComponentSafe = (path: string) => path.replace(/%[0-9A-Fa-f]{2}/g, (e) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(parseInt(e.slice(1), 16))) ? String.fromCharCode(parseInt(e.slice(1), 16)) : e));
  test('answers what the URL parser answers, for any target of tricky characters', () => {
    const alphabet = fc.constantFrom(...'/aZ09-_~.%?#&=;:@!$()*+,\\\' "<>`{}|^[]é \t'.split(''), '%6D', '%2e', '%2F', '%7e', '%41');
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 24 }).map((chars) => `/${chars.join('')}`), (target) => {
      expect(placeRequestTarget(target)).toBe(parsed(target));
      // Forwarded as placed: a server placing it again reaches the same path.
      const placed = placeRequestTarget(target)!;
      expect(placeRequestTarget(placed)).toBe(placed);
    }), { numRuns: 20_000 });
  });
});

describe('the public prefix matches as Express routes it', () => {
  const mapping = { publicPrefix: '/mcp', upstreamPrefix: '/up' };
  test('without regard to case, with a trailing slash, and never a longer segment', () => {
    for (const path of ['/mcp', '/MCP', '/Mcp/', '/mcp/x?y=1']) expect(isUnderPublicPrefix(path, mapping)).toBe(true);
    for (const path of ['/mcpx', '/MCPX', '/', '/other/mcp']) expect(isUnderPublicPrefix(path, mapping)).toBe(false);
    expect(toUpstreamPath('/MCP/x?y=1', mapping)).toBe('/up/x?y=1');
  });
});
