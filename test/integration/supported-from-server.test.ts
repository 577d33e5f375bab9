import { afterEach, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { dayFromNow as day, errorOf, legacyPlan, sendPlan, v1HttpAdd } from '../support/enforcement-peers.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });

describe('the versions a refusal names come from the server itself', () => {
  let peer: Peer | undefined;
  let raw: RawUpstream | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await peer?.close();
    await raw?.close();
    service = undefined;
    peer = undefined;
    raw = undefined;
  });

  test('in front of a dual-era server that has carried no modern traffic, a cut names 2026-07-28, learned from its server/discover', async () => {
    peer = await startV2Server('dual');
    // The upstream as every example names it, without its path: the sidecar finds the endpoint.
    service = await startTestService(new URL(peer.origin));
    // A sidecar that only counts sends the server nothing of its own.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(peer.seen).toEqual([]);
    expect(service.health().policy).toMatchObject({ supportedVersions: null, discovery: { checkedAt: null } });
    // Once a plan enforces, the server is asked.
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
    await expect.poll(() => service!.health().policy.supportedVersions, { timeout: 10_000 }).toEqual(['2026-07-28']);
    expect(service.health().policy).toMatchObject({ supportedVersionsFrom: 'server', discovery: { versions: ['2026-07-28'], from: `${peer.origin}/mcp`, lastError: null } });
    const refused = await errorOf(() => v1HttpAdd(new URL('/mcp', service!.sidecarUrl)));
    expect(refused.message).toContain('supported versions: 2026-07-28');
    const answer = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'], initialize);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } } });
  });

  test('configured versions win over what the server says, and the server is not asked', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] } });
    expect(service.health().policy).toMatchObject({ supportedVersions: ['2026-07-28', '2025-11-25'], supportedVersionsFrom: 'config', discovery: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(peer.seen).toEqual([]);
  });

  test('when neither the server nor the traffic says, a refusal says the versions are not known, and names none', async () => {
    raw = await startRawUpstream((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no'));
    service = await startTestService(new URL(raw.origin));
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
    await expect.poll(() => service!.health().policy.discovery?.checkedAt ?? null, { timeout: 10_000 }).not.toBeNull();
    await expect.poll(() => service!.health().policy.supportedVersionsFrom).toBe('unknown');
    expect(service.health().policy).toMatchObject({ supportedVersions: null, discovery: { versions: null } });
    expect(service.health().policy.discovery?.lastError).toMatch(/\/mcp/);
    const answer = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'], initialize);
    const body = JSON.parse(answer.body.toString()) as { error: { code: number; message: string; data: Record<string, unknown> } };
    expect(body.error.code).toBe(-32022);
    expect(body.error.message).toContain('could not be learned from the server');
    expect(body.error.message).not.toContain('no other version is served');
    expect(body.error.data).not.toHaveProperty('supported');
  });
});
