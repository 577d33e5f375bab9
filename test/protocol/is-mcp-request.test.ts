import { describe, expect, test } from 'vitest';
import { isMcpRequest } from '../../server/protocol/is-mcp-request.js';

describe('isMcpRequest', () => {
  test.each([
    ['POST', '/mcp', {}, true],
    ['GET', '/mcp', { accept: 'text/event-stream' }, true],
    ['GET', '/mcp', { 'mcp-session-id': 's-1' }, true],
    ['DELETE', '/mcp', { 'mcp-session-id': 's-1' }, true],
    ['GET', '/mcp', { accept: 'text/html' }, false],
    ['OPTIONS', '/mcp', { 'mcp-session-id': 's-1' }, false],
    ['GET', '/.well-known/oauth-protected-resource/mcp', { 'mcp-protocol-version': '2025-06-18' }, false],
    ['GET', '/.well-known/oauth-authorization-server', {}, false],
    ['POST', '/mcp/.well-known/openid-configuration?x=1', {}, false],
    ['POST', '/mcp?next=/.well-known/', {}, true],
  ] as const)('%s %s %j → %s', (method, path, headers, expected) => {
    expect(isMcpRequest({ method, path, headers })).toBe(expected);
  });
});
