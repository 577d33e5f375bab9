import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { sealBridgeSession } from '../../server/bridge/seal-bridge-session.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const NOW = Date.UTC(2026, 11, 2, 12);
const HOUR = 3_600_000;
const PATH = '/api/v1/bridge/revocations';

async function post(service: TestService, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(PATH, service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

/** A real token, sealed as a bridge node seals it, with a key the API never sees. */
function token(id: string, expiresAt: number): string {
  const sealed = sealBridgeSession(new BridgeKeyRing(randomBytes(32)), { id, version: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, issuedAt: NOW, expiresAt });
  if (!sealed.ok) throw new Error(sealed.reason);
  return sealed.token;
}

describe('bridge session revocations through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), {}, () => NOW);
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('a token is revoked by the session id and expiry it carries, read without its key', async () => {
    const { status, body } = await post(service, { session: token('dG9rZW4tc2Vzc2lvbg', NOW + 24 * HOUR), reason: ' laptop lost ' });
    expect(status).toBe(201);
    expect(body).toEqual({ sessionId: 'dG9rZW4tc2Vzc2lvbg', revokedAt: new Date(NOW).toISOString(), expiresAt: new Date(NOW + 24 * HOUR).toISOString(), reason: 'laptop lost' });
    expect(await service.store!.listBridgeRevocations(NOW)).toContainEqual({ sessionId: 'dG9rZW4tc2Vzc2lvbg', revokedAt: NOW, expiresAt: NOW + 24 * HOUR, reason: 'laptop lost' });
  });

  test('a bare session id is revoked until the expiry given with it', async () => {
    const { status, body } = await post(service, { session: 'YmFyZS1pZA', expiresAt: '2026-12-03T00:00:00+01:00' });
    expect(status).toBe(201);
    expect(body).toEqual({ sessionId: 'YmFyZS1pZA', revokedAt: new Date(NOW).toISOString(), expiresAt: '2026-12-02T23:00:00.000Z', reason: null });
  });

  test('revoking again answers the first revocation', async () => {
    const first = await post(service, { session: 'YWdhaW4', expiresAt: '2026-12-03T00:00:00Z', reason: 'first' });
    const again = await post(service, { session: 'YWdhaW4', expiresAt: '2026-12-03T00:00:00Z', reason: 'second' });
    expect(again).toEqual(first);
  });

  test('GET lists the revocations in force, not those whose token has expired', async () => {
    await post(service, { session: token('bGlzdGVk', NOW + HOUR) });
    await post(service, { session: token('ZXhwaXJlZA', NOW - 1) });
    const response = await service.api(PATH);
    expect(response.status).toBe(200);
    const ids = response.body.revocations.map((r: { sessionId: string }) => r.sessionId);
    expect(ids).toContain('bGlzdGVk');
    expect(ids).toContain('dG9rZW4tc2Vzc2lvbg');
    expect(ids).not.toContain('ZXhwaXJlZA');
    expect(response.body.revocations.find((r: { sessionId: string }) => r.sessionId === 'bGlzdGVk')).toEqual({
      sessionId: 'bGlzdGVk',
      revokedAt: new Date(NOW).toISOString(),
      expiresAt: new Date(NOW + HOUR).toISOString(),
      reason: null,
    });
  });

  test.each([
    ['junk', { session: 'not a token!' }, 'session'],
    ['a token that does not parse', { session: 'mss1.abc.bm90IGpzb24.bWFj' }, 'session'],
    ['a token of another format', { session: token('eA', NOW + HOUR).replace(/^mss1/, 'mss9') }, 'session'],
    ['an empty session', { session: '' }, 'session'],
    ['no session', { expiresAt: '2026-12-03T00:00:00Z' }, 'session'],
    ['a bare id without expiresAt', { session: 'YmFyZS1pZA' }, 'expiresAt'],
    ['a bare id with a date that is not ISO', { session: 'YmFyZS1pZA', expiresAt: 'tomorrow' }, 'expiresAt'],
    ['a token with its expiry overridden', { session: token('eA', NOW + HOUR), expiresAt: '2027-01-01T00:00:00Z' }, 'expiresAt'],
    ['a reason over 200 characters', { session: 'YmFyZS1pZA', expiresAt: '2026-12-03T00:00:00Z', reason: 'x'.repeat(201) }, 'reason'],
    ['a field it does not take', { session: 'YmFyZS1pZA', expiresAt: '2026-12-03T00:00:00Z', node: 'n1' }, 'node'],
  ])('%s answers 400 naming %s', async (_name, body, parameter) => {
    const { status, body: answer } = await post(service, body);
    expect(status).toBe(400);
    expect(answer.error).toMatchObject({ code: 'invalid_parameter', parameter });
  });

  test('like every call that changes data, a revocation must be JSON from this dashboard', async () => {
    const form = await fetch(new URL(PATH, service.apiUrl), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"session":"YQ"}' });
    expect(form.status).toBe(415);
    const crossSite = await post(service, { session: 'YQ', expiresAt: '2026-12-03T00:00:00Z' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await service.store!.listBridgeRevocations(NOW)).map((r) => r.sessionId)).not.toContain('YQ');
  });
});

describe('bridge session revocations with an admin token', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), { adminToken: 'admin-token-0123456789' }, () => NOW);
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('revoking and listing need it', async () => {
    const body = { session: 'YWRtaW4', expiresAt: '2026-12-03T00:00:00Z' };
    expect((await post(service, body)).status).toBe(401);
    expect((await service.api(PATH)).status).toBe(401);
    expect((await post(service, body, { authorization: 'Bearer admin-token-0123456789' })).status).toBe(201);
  });
});
