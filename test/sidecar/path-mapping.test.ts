import { describe, expect, test } from 'vitest';
import { prefixesDiffer, toPublicEndpoint, toUpstreamPath, type PathMapping } from '../../server/sidecar/path-mapping.js';

const SAME: PathMapping = { publicPrefix: '/mcp', upstreamPrefix: '/mcp' };
const NONE: PathMapping = { publicPrefix: '', upstreamPrefix: '' };
const PUBLIC_ONLY: PathMapping = { publicPrefix: '/public', upstreamPrefix: '' };
const UPSTREAM_ONLY: PathMapping = { publicPrefix: '', upstreamPrefix: '/mcp' };
const BOTH: PathMapping = { publicPrefix: '/public', upstreamPrefix: '/mcp' };

describe('toUpstreamPath', () => {
  const rows: { mapping: PathMapping; path: string; upstream: string }[] = [
    { mapping: NONE, path: '/mcp', upstream: '/mcp' },
    { mapping: NONE, path: '/messages?sessionId=1', upstream: '/messages?sessionId=1' },
    { mapping: SAME, path: '/mcp', upstream: '/mcp' },
    { mapping: SAME, path: '/mcp/messages?sessionId=1', upstream: '/mcp/messages?sessionId=1' },
    { mapping: SAME, path: '/mcp?x=1', upstream: '/mcp?x=1' },
    { mapping: PUBLIC_ONLY, path: '/public', upstream: '/' },
    { mapping: PUBLIC_ONLY, path: '/public/mcp', upstream: '/mcp' },
    { mapping: PUBLIC_ONLY, path: '/public?x=1', upstream: '/?x=1' },
    { mapping: UPSTREAM_ONLY, path: '/', upstream: '/mcp' },
    { mapping: UPSTREAM_ONLY, path: '/sse', upstream: '/mcp/sse' },
    { mapping: BOTH, path: '/public', upstream: '/mcp' },
    { mapping: BOTH, path: '/public/messages?sessionId=1', upstream: '/mcp/messages?sessionId=1' },
    { mapping: BOTH, path: '/public?sessionId=1', upstream: '/mcp?sessionId=1' },
    // Outside the public prefix: passed on as it came.
    { mapping: BOTH, path: '/publicity', upstream: '/publicity' },
    { mapping: BOTH, path: '/other/path', upstream: '/other/path' },
  ];
  for (const { mapping, path, upstream } of rows) {
    test(`maps ${path} under ${JSON.stringify(mapping)} to ${upstream}`, () => {
      expect(toUpstreamPath(path, mapping)).toBe(upstream);
    });
  }
});

describe('toPublicEndpoint', () => {
  const upstreamGet = new URL('http://127.0.0.1:9000/mcp/sse');
  const rows: { name: string; data: string; mapping: PathMapping; expected: string }[] = [
    { name: 'a relative URI is untouched when the prefixes agree', data: '/mcp/messages?sessionId=1', mapping: SAME, expected: '/mcp/messages?sessionId=1' },
    { name: 'an absolute URI on the upstream becomes a path, so the client stays on the sidecar', data: 'http://127.0.0.1:9000/mcp/messages?sessionId=1', mapping: SAME, expected: '/mcp/messages?sessionId=1' },
    { name: 'a URI on another origin is untouched', data: 'https://other.example/mcp/messages?sessionId=1', mapping: BOTH, expected: 'https://other.example/mcp/messages?sessionId=1' },
    { name: 'the upstream prefix is swapped for the public one', data: '/mcp/messages?sessionId=1', mapping: BOTH, expected: '/public/messages?sessionId=1' },
    { name: 'a URI relative to the GET is resolved first', data: 'messages?sessionId=1', mapping: BOTH, expected: '/public/messages?sessionId=1' },
    { name: 'the bare upstream prefix becomes the bare public prefix', data: '/mcp?sessionId=1', mapping: BOTH, expected: '/public?sessionId=1' },
    { name: 'a URI outside the upstream prefix is untouched', data: '/other/messages', mapping: BOTH, expected: '/other/messages' },
    { name: 'surrounding whitespace is ignored', data: ' /mcp/messages?sessionId=1 ', mapping: BOTH, expected: '/public/messages?sessionId=1' },
    { name: 'data that is no URI is untouched', data: 'http://[broken', mapping: BOTH, expected: 'http://[broken' },
  ];
  for (const { name, data, mapping, expected } of rows) {
    test(name, () => {
      expect(toPublicEndpoint(data, upstreamGet, mapping)).toBe(expected);
    });
  }

  test.each([
    '/mcp/messages?sessionId=1',
    '/mcp?sessionId=1',
    '/mcp/deep/path?a=1&b=2',
  ])('the client POSTing to the rewritten %s reaches the upstream path the server named', (data) => {
    const publicPath = toPublicEndpoint(data, upstreamGet, BOTH);
    const resolved = new URL(data, upstreamGet);
    expect(toUpstreamPath(publicPath, BOTH)).toBe(resolved.pathname + resolved.search);
  });
});

describe('prefixesDiffer', () => {
  test.each([
    { mapping: NONE, differ: false },
    { mapping: SAME, differ: false },
    { mapping: BOTH, differ: true },
    { mapping: PUBLIC_ONLY, differ: true },
  ])('is $differ for $mapping', ({ mapping, differ }) => {
    expect(prefixesDiffer(mapping)).toBe(differ);
  });
});
