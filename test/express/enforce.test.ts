import { request } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { meter, type MeterMiddleware, type MeterOptions } from '../../server/express/index.js';
import { captureV1ConnectError, CLIENT_INFO, runV1HttpSession, runV1SseSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { brownoutNow, dayFromNow as day, errorOf, legacyPlan, POLICY_URL, sendPlan, v1HttpAdd, v2Add } from '../support/enforcement-peers.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';
import { startEchoApp } from './echo-app.js';
import { startMeteredApp, type AppKind } from './metered-apps.js';

const PARTNER_KEY = 'partner-key-0001';
const identity = { order: ['static-map' as const], apiKeyHeader: 'x-api-key', staticMap: { [PARTNER_KEY]: 'partner-a' } };
const enforcement = { supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'] };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A sidecar whose store the middleware shares: its API is the dashboard a plan is created on, and
 * reads what every node flushed.
 */
async function startDashboard(now?: () => number): Promise<TestService> {
  const upstream = await startV2Server('dual');
  cleanups.push(() => upstream.close());
  const service = await startTestService(new URL(upstream.origin), { identity, enforcement }, now);
  cleanups.push(() => service.dispose());
  return service;
}

function newMeter(service: TestService, node: string, options: MeterOptions = {}): MeterMiddleware {
  const metered = meter({ db: service.dbPath, node, identity, enforcement, logger: pino({ level: 'silent' }), ...options });
  let closed = false;
  const close = metered.close;
  metered.close = () => {
    closed = true;
    return close();
  };
  cleanups.push(async () => {
    if (!closed) await metered.close();
  });
  return metered;
}

interface App {
  peer: Peer;
  url: URL;
  /** Requests of each method that reached the app's MCP route (past the middleware). */
  handled: Record<string, number>;
}

async function startApp(kind: AppKind, metered: MeterMiddleware, json = false): Promise<App> {
  const handled: Record<string, number> = {};
  const peer = await startMeteredApp(kind, {
    json,
    metered,
    beforeHandle: (req) => {
      handled[req.method ?? ''] = (handled[req.method ?? ''] ?? 0) + 1;
    },
  });
  cleanups.push(() => peer.close());
  return { peer, url: new URL(kind === 'v1-sse' ? '/sse' : '/mcp', peer.origin), handled };
}

async function policyVersionOf(service: TestService): Promise<number> {
  const { body } = await service.api<{ policyVersion: number }>('/api/v1/fleet');
  return body.policyVersion;
}

/** Waits (at most `ms`) until the middleware compiled the store's current policy version; answers whether it did. */
async function caughtUp(metered: MeterMiddleware, version: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (metered.policy()?.version !== version && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return metered.policy()?.version === version;
}

/** A raw JSON-RPC POST, answered as status, headers and text. */
async function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const legacyInitialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } };

for (const json of [false, true]) {
  describe(`enforcing in the middleware ${json ? 'after express.json()' : 'with no body parser before it'}`, () => {
    test('in a brownout a v1 client is refused by the middleware with the plan\'s -32022, its handler never runs, and an exempt partner is served', async () => {
      const service = await startDashboard();
      await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ brownouts: brownoutNow(), exemptions: [{ integration: 'partner-a', until: day(30), note: 'migrating in Q1' }] }));
      const metered = newMeter(service, 'app-1');
      const app = await startApp('v1-session', metered, json);

      const refused = await errorOf(() => v1HttpAdd(app.url));
      expect(refused.message).toContain('-32022');
      expect(refused.message).toContain('brownout');
      expect(refused.message).toContain('supported versions: 2026-07-28');
      expect(refused.message).toContain(POLICY_URL);
      expect(app.handled).toEqual({});
      expect(metered.policy()?.enforcingPlans).toBe(1);

      expect(await v1HttpAdd(app.url, PARTNER_KEY)).toBe('3');
      expect(app.handled.POST).toBeGreaterThan(0);

      await metered.close();
      expect(await trafficTotals(service, 'method', { outcome: 'blocked', node: 'app-1' })).toEqual({ initialize: 1 });
      expect(await trafficTotals(service, 'integration', { outcome: 'blocked', node: 'app-1' })).toEqual({ anonymous: 1 });
      expect(await trafficTotals(service, 'integration', { outcome: 'served', method: 'tools/call', node: 'app-1' })).toEqual({ 'partner-a': 1 });
    });

    test('after the cut a dual-era app serves and counts a modern client while a legacy one is refused; a passed legacy request carries the plan\'s headers under warn', async () => {
      const service = await startDashboard();
      const plan = await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
      const metered = newMeter(service, 'app-1');
      const app = await startApp('v2-dual', metered, json);

      const refused = await errorOf(() => v1HttpAdd(app.url));
      expect(refused.message).toContain('is retired on this server');
      expect(await v2Add(app.url)).toBe('3');
      const modern = await runV2Session(app.url, 'pin');
      expect(modern.sum).toBe('3');

      // The same plan turned to warn: legacy requests pass, announced; modern ones are not announced.
      await sendPlan(service, 'PATCH', `/api/v1/plans/${plan.id}`, { action: 'warn' });
      expect(await caughtUp(metered, await policyVersionOf(service), 10_000)).toBe(true);
      const announced = await post(app.url, legacyInitialize);
      expect(announced.status).toBe(200);
      expect(announced.headers.get('deprecation')).toBe(`@${Date.parse(`${day(-90)}T00:00:00Z`) / 1000}`);
      expect(announced.headers.get('sunset')).toBe(new Date(`${day(-1)}T00:00:00Z`).toUTCString());
      expect(announced.headers.get('link')).toBe(`<${POLICY_URL}>; rel="sunset"`);
      expect(JSON.parse(announced.text.replace(/^[^{]*/, '').replace(/\n\n$/, '')).result.protocolVersion).toBe('2025-11-25');
      expect(await v1HttpAdd(app.url)).toBe('3');

      await metered.close();
      expect(await trafficTotals(service, 'era', { outcome: 'blocked', node: 'app-1' })).toEqual({ legacy: 1 });
      const served = await trafficTotals(service, 'era', { outcome: 'served', method: 'tools/call', node: 'app-1' });
      expect(served).toEqual({ modern: 3, legacy: 1 });
    });
  });
}

describe('enforcing in the middleware', () => {
  test('a plan created on the dashboard is in force in the middleware within 5 s, and its heartbeat reports the version to the fleet', async () => {
    const service = await startDashboard();
    const metered = newMeter(service, 'app-1', { flushIntervalMs: 200 });
    const app = await startApp('v1-session', metered);
    const before = await runV1HttpSession(app.url);
    expect(before.sum).toBe('3');

    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
    const version = await policyVersionOf(service);
    expect(await caughtUp(metered, version, 5_000)).toBe(true);
    const refused = await captureV1ConnectError(app.url);
    expect(refused.message).toContain('-32022');

    let node: { node: string; kind: string; policyVersion: number; lagging: boolean } | undefined;
    const deadline = Date.now() + 10_000;
    while (node?.policyVersion !== version && Date.now() < deadline) {
      const { body } = await service.api<{ sidecars: (typeof node & object)[] }>('/api/v1/fleet');
      node = body.sidecars.find((s) => s.node === 'app-1');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(node).toMatchObject({ node: 'app-1', kind: 'middleware', policyVersion: version, lagging: false });
  });

  test('HTTP+SSE in a brownout: the stream open gets 410 from the middleware and the app never opens it', async () => {
    const service = await startDashboard();
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ brownouts: brownoutNow() }));
    const metered = newMeter(service, 'app-1');
    const app = await startApp('v1-sse', metered);
    const response = await fetch(app.url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(410);
    const body = (await response.json()) as { supported: string[]; policy: string };
    expect(body.supported).toEqual(['2026-07-28']);
    expect(body.policy).toBe(POLICY_URL);
    expect(app.handled).toEqual({});
    await expect(runV1SseSession(app.url)).rejects.toThrow();
  });

  test('a dry run refuses nothing: every request reaches the handler, and the counts are those of an unenforced app', async () => {
    const service = await startDashboard();
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ action: 'dryrun', announceDate: day(-30), retireDate: day(-1) }));
    const metered = newMeter(service, 'app-1');
    const app = await startApp('v1-session', metered);
    expect((await runV1HttpSession(app.url, { terminate: true })).sum).toBe('3');
    expect(app.handled).toEqual({ POST: 5, GET: 1, DELETE: 1 });
    await metered.close();
    // As meter.test.ts counts the same session on an app with no plan at all.
    expect(await trafficTotals(service, 'outcome', { node: 'app-1' })).toEqual({ served: 6, accepted: 1 });
  });

  test('a held body reaches the handler byte for byte, however slowly it arrives, and one past maxBodyBytes passes whole, decided on its headers', async () => {
    const service = await startDashboard();
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ action: 'warn' }));
    const metered = newMeter(service, 'app-1', { maxBodyBytes: 4096 });
    const received: string[] = [];
    const app = await startEchoApp(metered, received);
    cleanups.push(() => app.close());

    const text = JSON.stringify({ ...legacyInitialize, params: { ...legacyInitialize.params, clientInfo: { name: 'slow ✓ client', version: '1' } } });
    const bytes = Buffer.from(text);
    const answered = await new Promise<{ status: number; deprecation: unknown }>((resolve, reject) => {
      const req = request(new URL('/mcp', app.origin), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': bytes.length } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, deprecation: res.headers.deprecation }));
      });
      req.on('error', reject);
      // Split inside a multi-byte character, with pauses between the parts.
      const cut = bytes.indexOf(Buffer.from('✓')) + 1;
      req.write(bytes.subarray(0, cut));
      setTimeout(() => {
        req.write(bytes.subarray(cut, cut + 10));
        setTimeout(() => req.end(bytes.subarray(cut + 10)), 50);
      }, 50);
    });
    expect(answered.status).toBe(200);
    expect(answered.deprecation).toBeDefined();
    expect(received).toEqual([text]);

    const large = JSON.stringify({ ...legacyInitialize, params: { ...legacyInitialize.params, padding: 'x'.repeat(20_000) } });
    const response = await fetch(new URL('/mcp', app.origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: large });
    expect(response.status).toBe(200);
    expect(received[1]).toBe(large);
  });
});
