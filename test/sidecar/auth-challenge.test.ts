import { describe, expect, test } from 'vitest';
import { AuthChallenge, challengeForResource, challengeRefusal } from '../../server/sidecar/auth-challenge.js';

describe('AuthChallenge', () => {
  const server = 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp"';

  test('learns the server\'s challenge from a 401 to a request without a credential, and only from such a 401', () => {
    const challenge = new AuthChallenge(undefined);
    challenge.observe(200, false, server);
    challenge.observe(401, true, 'Bearer error="invalid_token"');
    expect(challenge.current()).toBeUndefined();
    challenge.observe(401, false, [server, 'Basic realm="x"']);
    expect(challenge.current()).toBe(server);
  });

  test('keeps only a Bearer challenge of bounded length with no line break; until one is learned, the configured one', () => {
    const challenge = new AuthChallenge('Bearer resource_metadata="https://configured.example/.well-known/oauth-protected-resource"');
    for (const odd of ['Basic realm="x"', `Bearer ${'x'.repeat(3000)}`, 'Bearer a\r\nSet-Cookie: x=1', undefined]) challenge.observe(401, false, odd);
    expect(challenge.current()).toBe('Bearer resource_metadata="https://configured.example/.well-known/oauth-protected-resource"');
  });

  test('the configured challenge names the resource\'s metadata at its well-known path (RFC 9728)', () => {
    expect(challengeForResource('https://mcp.example.com/mcp')).toBe('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
    expect(challengeForResource('https://mcp.example.com/')).toBe('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"');
    expect(challengeForResource('urn:example:mcp')).toBeUndefined();
  });

  test('a refusal for a client that has not signed in is the server\'s 401 with the challenge', () => {
    const refusal = challengeRefusal(server);
    expect(refusal).toMatchObject({ status: 401, headers: ['WWW-Authenticate', server], contentType: 'application/json' });
    expect(JSON.parse(refusal.body)).toMatchObject({ error: 'invalid_token' });
  });
});
