import { afterEach, describe, expect, test } from 'vitest';
import { writeBatch } from '../support/write-batch.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { CLIENT_INFO } from '../peers/clients.js';
import { dayFromNow as day, POLICY_URL, sendPlan as send, v1HttpAdd as v1HttpAddWithKey, v1SseAdd, v2Add } from '../support/enforcement-peers.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const KEYS = { 'key-partner-a-0001': 'partner-a', 'key-partner-b-0002': 'partner-b', 'key-partner-c-0003': 'partner-c' };
const KEY_OF = Object.fromEntries(Object.entries(KEYS).map(([key, name]) => [name, key])) as Record<string, string>;
const identity = { order: ['static-map' as const], apiKeyHeader: 'x-api-key', staticMap: KEYS };
const enforcement = { supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'] };

const legacyPlan = (extra: Record<string, unknown>) => ({
  name: 'Retire the legacy era',
  scope: { kind: 'era', value: 'legacy' },
  announceDate: day(-90),
  retireDate: day(60),
  policyUrl: POLICY_URL,
  action: 'deny',
  ...extra,
});

/** A v1 Streamable HTTP session as `caller` (a static-map name, or anonymous): connect, call `add`, end it. */
function v1HttpAdd(url: URL, caller?: string): Promise<string> {
  return v1HttpAddWithKey(url, caller === undefined ? undefined : KEY_OF[caller]!);
}

/** Waits until `read` reaches `count` (a closed stream is counted when the sidecar sees it end), then answers what it read. */
async function settledCount(read: () => Promise<number>, count: number): Promise<number> {
  const giveUpAt = Date.now() + 5_000;
  let value = await read();
  while (value < count && Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** What each attempt gave: the tool's answer, or "refused" when the client failed with -32022. */
async function outcome(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (error) {
    if ((error as Error).message.includes('-32022')) return 'refused';
    throw error;
  }
}

async function wouldBlock(service: TestService, filters: Record<string, string> = {}): Promise<number> {
  const params = new URLSearchParams({ bucket: 'minute', groupBy: 'era', from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), ...filters });
  const { body } = await service.api<{ wouldBlock: number }>(`/api/v1/traffic?${params}`);
  return body.wouldBlock;
}

/** Served legacy work for `caller` on the day `offsetDays` from today, through the store's tally write. */
async function seedServedLegacyWork(service: TestService, caller: string, offsetDays: number): Promise<void> {
  const noon = Date.parse(`${day(offsetDays)}T12:00:00Z`);
  await writeBatch(service.store!, {
    cells: [{
      minute: noon, node: 'test-node', era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25',
      method: 'tools/call', kind: 'request', outcome: 'served', integration: caller, count: 3, mismatchCount: 0,
    }],
    integrations: [],
  });
}

describe('enforcement decisions on real SDK peers through the sidecar', () => {
  let peer: Peer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await peer?.close();
    service = undefined;
    peer = undefined;
  });

  test('a dry run lets everything through and counts as would-block exactly what deny then refuses for the same traffic', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { identity, enforcement });
    const url = new URL('/mcp', service.sidecarUrl);
    const plan = await send(service, 'POST', '/api/v1/plans', legacyPlan({
      action: 'dryrun', retireDate: day(-1), exemptions: [{ integration: 'partner-a', until: day(10), note: 'migrating' }],
    }));
    // Legacy sessions from two non-exempt callers and an exempt one, and modern calls outside the scope.
    const traffic = [() => v1HttpAdd(url), () => v1HttpAdd(url, 'partner-b'), () => v1HttpAdd(url, 'partner-a'), () => v2Add(url), () => v1HttpAdd(url), () => v2Add(url)];

    const dryRun = [];
    for (const run of traffic) dryRun.push(await outcome(run));
    expect(dryRun).toEqual(['3', '3', '3', '3', '3', '3']);
    expect(await trafficTotals(service, 'outcome', { outcome: 'blocked' })).toEqual({});
    // Each non-exempt legacy session's handshake and call were marked; nothing exempt or modern was.
    expect(await wouldBlock(service, { method: 'initialize' })).toBe(3);
    expect(await wouldBlock(service, { method: 'tools/call', era: 'legacy' })).toBe(3);
    expect(await wouldBlock(service, { integration: 'partner-a' })).toBe(0);
    expect(await wouldBlock(service, { era: 'modern' })).toBe(0);
    const firstRequestsMarked = await wouldBlock(service, { method: 'initialize' });
    const markedTotal = await wouldBlock(service);

    await send(service, 'PATCH', `/api/v1/plans/${plan.id}`, { action: 'deny' });
    const denied = [];
    for (const run of traffic) denied.push(await outcome(run));
    expect(denied).toEqual(['refused', 'refused', '3', '3', 'refused', '3']);
    // A refused handshake ends the session, so deny refuses each marked session's first request and
    // nothing after it; no further would-block under deny.
    const blocked = await trafficTotals(service, 'method', { outcome: 'blocked' });
    expect(blocked).toEqual({ initialize: firstRequestsMarked });
    expect(await trafficTotals(service, 'integration', { outcome: 'blocked' })).toEqual({ anonymous: 2, 'partner-b': 1 });
    expect(await wouldBlock(service)).toBe(markedTotal);
  });

  test('HTTP+SSE: a dry run marks each stream opening that deny then answers 410', async () => {
    peer = await startV1SseServer();
    service = await startTestService(new URL(peer.origin), { enforcement });
    const url = new URL('/sse', service.sidecarUrl);
    const plan = await send(service, 'POST', '/api/v1/plans', { ...legacyPlan({ action: 'dryrun', retireDate: day(-1) }), scope: { kind: 'transport', value: 'http+sse' } });
    expect([await outcome(() => v1SseAdd(url)), await outcome(() => v1SseAdd(url))]).toEqual(['3', '3']);
    const openings = await settledCount(() => wouldBlock(service!, { method: 'GET' }), 2);
    expect(openings).toBe(2);
    expect(await wouldBlock(service, { method: 'tools/call' })).toBe(2);

    await send(service, 'PATCH', `/api/v1/plans/${plan.id}`, { action: 'deny' });
    for (let i = 0; i < 2; i += 1) {
      let refusal: Error | undefined;
      await v1SseAdd(url).catch((error: Error) => (refusal = error));
      expect(refusal?.message).toContain('410');
    }
    expect(await trafficTotals(service, 'method', { outcome: 'blocked' })).toEqual({ GET: openings });
  });

  test('a warn plan\'s headers are on streamed answers too: an SSE answer and a session\'s GET stream', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { enforcement });
    const retireDate = day(45);
    await send(service, 'POST', '/api/v1/plans', legacyPlan({ action: 'warn', retireDate }));
    const url = new URL('/mcp', service.sidecarUrl);
    const sunset = new Date(`${retireDate}T00:00:00Z`).toUTCString();
    const initialize = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } }),
    });
    expect(initialize.headers.get('content-type')).toContain('text/event-stream');
    expect(initialize.headers.get('sunset')).toBe(sunset);
    expect(initialize.headers.get('link')).toBe(`<${POLICY_URL}>; rel="sunset"`);
    expect(await initialize.text()).toContain('"protocolVersion"');
    const sessionId = initialize.headers.get('mcp-session-id')!;
    const sessionHeaders = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sessionHeaders }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then((r) => r.text());
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('sunset')).toBe(sunset);
    controller.abort();
    await fetch(url, { method: 'DELETE', headers: sessionHeaders }).then((r) => r.text());
  });

  test('block-new: a caller with served work in scope before the date passes, a new one is refused', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { identity, enforcement });
    await seedServedLegacyWork(service, 'partner-a', -3);
    // A caller seen only outside the scope is new to it.
    await writeBatch(service.store!, {
      cells: [{
        minute: Date.parse(`${day(-3)}T12:00:00Z`), node: 'test-node', era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28',
        method: 'tools/call', kind: 'request', outcome: 'served', integration: 'partner-c', count: 5, mismatchCount: 0,
      }],
      integrations: [],
    });
    await send(service, 'POST', '/api/v1/plans', legacyPlan({ blockNewCallersFrom: day(0) }));
    const url = new URL('/mcp', service.sidecarUrl);

    expect(await outcome(() => v1HttpAdd(url, 'partner-a'))).toBe('3');
    expect(await outcome(() => v1HttpAdd(url, 'partner-b'))).toBe('refused');
    expect(await outcome(() => v1HttpAdd(url, 'partner-c'))).toBe('refused');
    let refusal: Error | undefined;
    await v1HttpAdd(url).catch((error: Error) => (refusal = error));
    expect(refusal?.message).toContain('closed to new callers');
    expect(refusal?.message).toContain(POLICY_URL);
    expect(await trafficTotals(service, 'integration', { outcome: 'blocked' })).toEqual({ 'partner-b': 1, 'partner-c': 1, anonymous: 1 });
    // Served today, a caller is still new: only days before the date make it known.
    expect(await outcome(() => v1HttpAdd(url, 'partner-b'))).toBe('refused');
  });

  test('the gate holds the cut while an identifiable caller used the scope in the quiet days, and the backstop ends the wait', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { identity, enforcement });
    await seedServedLegacyWork(service, 'partner-a', -2);
    const plan = await send(service, 'POST', '/api/v1/plans', legacyPlan({ retireDate: day(-1), quietDays: 30, gate: { backstopDate: day(30) } }));
    const url = new URL('/mcp', service.sidecarUrl);

    // Past the retire date, but partner-a is still active: a legacy client passes.
    expect(await outcome(() => v1HttpAdd(url))).toBe('3');
    expect(await outcome(() => v1HttpAdd(url, 'partner-b'))).toBe('3');
    const { body: held } = await service.api(`/api/v1/plans/${plan.id}`);
    expect(JSON.stringify(held)).toContain('partner-a');

    await send(service, 'PATCH', `/api/v1/plans/${plan.id}`, { gate: { backstopDate: day(0) } });
    let refusal: Error | undefined;
    await v1HttpAdd(url).catch((error: Error) => (refusal = error));
    expect(refusal?.message).toContain('-32022');
    expect(refusal?.message).toContain('is retired on this server');
    expect(await outcome(() => v1HttpAdd(url, 'partner-a'))).toBe('refused');
    expect(await trafficTotals(service, 'integration', { outcome: 'blocked' })).toEqual({ anonymous: 1, 'partner-a': 1 });
  });
});
