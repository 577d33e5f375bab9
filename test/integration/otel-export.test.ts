import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { meter } from '../../server/express/index.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { startMeteredApp } from '../express/metered-apps.js';
import { latestPoints, startOtlpReceiver, type OtlpReceiver, type ReceivedPoint } from '../otel/otlp-receiver.js';
import { captureV1ConnectError, runV1HttpSession, runV2CountWithProgress, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { brownoutNow, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const REQUESTS = 'mcp_sunset.requests';
/** The store's dimensions and the attributes they are exported as. */
const DIMENSIONS = [
  ['method', 'mcp.method.name'],
  ['version', 'mcp.protocol.version'],
  ['era', 'mcp_sunset.era'],
  ['transport', 'mcp_sunset.transport'],
  ['reason', 'mcp_sunset.lifecycle_path'],
  ['outcome', 'mcp_sunset.outcome'],
] as const;

/** Request counts per dimension set as the store holds them, keyed like `groupPoints`. */
function storedRequests(dbPath: string): Map<string, number> {
  const db = openDatabase(dbPath);
  try {
    const rows = db.sqlite.prepare(`select method, version, era, transport, reason, outcome, sum(count) as n from traffic_minute where kind = 'request' group by 1, 2, 3, 4, 5, 6`).all() as Record<string, string | number>[];
    return new Map(rows.map((row) => [JSON.stringify(DIMENSIONS.map(([column]) => (column === 'version' && row.version === '(none)' ? null : row[column]))), Number(row.n)]));
  } finally {
    db.close();
  }
}

/** Points summed over what the store does not keep per cell here (the caller, the network names). */
function groupPoints(points: readonly { attributes: Record<string, string>; value: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { attributes, value } of points) {
    const key = JSON.stringify(DIMENSIONS.map(([, name]) => attributes[name] ?? null));
    out.set(key, (out.get(key) ?? 0) + value);
  }
  return out;
}

const total = (points: readonly ReceivedPoint[]) => points.reduce((sum, p) => sum + p.value, 0);

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** mcp_sunset_requests_total as /metrics serves it: labels → value. */
function scrapedRequests(text: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('mcp_sunset_requests_total{'))
    .map((line) => {
      const [, body, value] = /^mcp_sunset_requests_total\{(.*)\} (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...body!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { labels, value: Number(value) };
    });
}

describe('OpenTelemetry export from the sidecar', () => {
  let receiver: OtlpReceiver;
  let peer: Peer;
  let service: TestService;
  const keys: string[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.url), {
      otel: { endpoint: receiver.origin, exportIntervalMs: 250, exportTimeoutMs: 1_000, headers: { 'x-collector-key': 'k-123' }, resourceAttributes: { 'deployment.environment.name': 'test' }, maxCallers: 1 },
    });
    const url = new URL(peer.url.pathname, service.sidecarUrl);
    const known = async () => new Set(((await service.api('/api/v1/integrations')).body.integrations as { key: string }[]).map((c) => c.key));
    for (const [token, era] of [['first-token', 'v1'], ['second-token', 'v2']] as const) {
      const before = await known();
      if (era === 'v1') await runV1HttpSession(url, { token });
      else await runV2Session(url, 'pin', { token });
      expect(await service.flush()).toBe(true);
      keys.push([...(await known())].find((k) => !before.has(k))!);
    }
    await runV1HttpSession(url);
    // A tool call that takes at least 2 × 150 ms on the server: the proxy cannot see it end sooner.
    await runV2CountWithProgress(url, 2, 150, () => undefined);
    expect(await service.flush()).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
    await receiver?.close();
  });

  test("real v1 and v2 clients' requests arrive in the conventions' names, equal to the store and to /metrics", async () => {
    const stored = storedRequests(service.dbPath);
    const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
    expect(storedTotal).toBeGreaterThan(0);
    const points = await until(() => latestPoints(receiver, REQUESTS), (p) => total(p) === storedTotal);
    expect(groupPoints(points)).toEqual(stored);

    // The conventions' attributes, and ours under our prefix.
    const call = points.find((p) => p.attributes['mcp.method.name'] === 'tools/call' && p.attributes['mcp_sunset.era'] === 'modern')!;
    expect(call.attributes).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http', 'mcp_sunset.transport': 'streamable-http', 'mcp_sunset.outcome': 'served' });
    expect(call.attributes['error.type']).toBeUndefined();
    expect(points.some((p) => p.attributes['mcp.method.name'] === 'initialize' && p.attributes['mcp_sunset.era'] === 'legacy')).toBe(true);
    // One caller named (the cap is 1), the next folded into `other`, the anonymous one as such; no session id anywhere.
    const callers = new Set(points.map((p) => p.attributes['mcp_sunset.caller']));
    expect(callers).toEqual(new Set([keys[0], 'other', 'anonymous']));
    expect(points.every((p) => Object.keys(p.attributes).every((name) => !/session/i.test(name)))).toBe(true);

    const latest = receiver.received.at(-1)!;
    expect(latest.contentType).toBe('application/x-protobuf');
    expect(latest.headers['x-collector-key']).toBe('k-123');
    expect(latest.resource).toMatchObject({ 'service.name': 'mcp-sunset', 'service.instance.id': 'test-node', 'deployment.environment.name': 'test' });
    const requests = latest.metrics.find((m) => m.name === REQUESTS)!;
    expect(requests).toMatchObject({ kind: 'sum', temporality: 2, unit: '{request}' });

    // The legacy share gauge is the store's share of today's served work.
    const share = latestPoints(receiver, 'mcp_sunset.legacy.share');
    const { inScope, total: served } = await service.store!.sumScopeShare({ kind: 'era', value: 'legacy' }, 'work-requests', Math.floor(Date.now() / 86_400_000) * 86_400_000);
    expect(share).toEqual([{ attributes: {}, value: inScope / served }]);

    // /metrics says the same under the standard mapping, without the caller.
    const scraped = scrapedRequests(await (await fetch(new URL('/metrics', service.apiUrl))).text());
    expect(scraped.every((s) => !('mcp_sunset_caller' in s.labels))).toBe(true);
    const asAttributes = scraped.map((s) => ({ value: s.value, attributes: Object.fromEntries(DIMENSIONS.map(([, name]) => [name, s.labels[name.replace(/[^a-zA-Z0-9_]/g, '_')]]).filter(([, v]) => v !== undefined)) }));
    expect(groupPoints(asAttributes)).toEqual(stored);
    expect(service.health().otel).toMatchObject({ state: 'ok', protocol: 'http/protobuf', failedExports: 0, foldedRequests: 0 });
  });

  test('mcp.server.operation.duration: every timed request in its histogram, as the proxy saw it, equal on /metrics', async () => {
    const stored = storedRequests(service.dbPath);
    const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
    const histogram = await until(
      () => receiver.received.at(-1)?.metrics.find((m) => m.name === 'mcp.server.operation.duration'),
      (m) => m !== undefined && m.histogramPoints.reduce((sum, p) => sum + p.count, 0) === storedTotal,
    );
    expect(histogram).toMatchObject({ kind: 'histogram', unit: 's', temporality: 2 });
    // Nothing here was refused, so every request was timed: per attribute set, the histogram counts what the store counts.
    expect(groupPoints(histogram!.histogramPoints.map((p) => ({ attributes: p.attributes, value: p.count })))).toEqual(stored);
    for (const point of histogram!.histogramPoints) {
      expect(point.bounds).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
      expect(point.counts.reduce((a, b) => a + b, 0)).toBe(point.count);
      expect(point.attributes['mcp_sunset.caller']).toBeUndefined();
    }
    // The slow call: at least 300 ms, so above the 0.2 s bucket.
    const calls = histogram!.histogramPoints.find((p) => p.attributes['mcp.method.name'] === 'tools/call' && p.attributes['mcp_sunset.era'] === 'modern')!;
    const atOrBelow200ms = calls.counts.slice(0, 5).reduce((a, b) => a + b, 0);
    expect(calls.count - atOrBelow200ms).toBeGreaterThanOrEqual(1);
    expect(calls.sum).toBeGreaterThanOrEqual(0.3);

    const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
    const counts = [...metrics.matchAll(/^mcp_server_operation_duration_seconds_count\{(.*)\} (\S+)$/gm)].map((m) => Number(m[2]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(storedTotal);
    expect(metrics).toMatch(/^# TYPE mcp_server_operation_duration_seconds histogram$/m);
    expect(metrics).toMatch(/^mcp_server_operation_duration_seconds_bucket\{.*le="\+Inf".*\} \d+$/m);
  });

  test("mcp_sunset.people: today's distinct people on each era across the store, by era only, read at each export and each scrape", async () => {
    // The sessions above carried no OAuth token, so nobody is named yet: the gauges say 0.
    await until(() => latestPoints(receiver, 'mcp_sunset.people'), (p) => p.length === 2 && p.every((point) => point.value === 0));
    // People as another node's tally wrote them (keyed digests): alice on both eras behind two callers,
    // bob on legacy, carol on modern; yesterday's erin is not today's.
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const person = (day: number, integration: string, subject: string, era: 'legacy' | 'modern') => ({
      day,
      integration,
      era,
      transport: 'streamable-http' as const,
      version: era === 'legacy' ? '2025-06-18' : '2026-07-28',
      subject: `digest-${subject}`,
    });
    createTallyWriter(service.database().db)({
      cells: [],
      integrations: [],
      people: [
        person(today, 'oauth:desk', 'alice', 'legacy'),
        person(today, 'oauth:reports', 'alice', 'legacy'),
        person(today, 'oauth:desk', 'alice', 'modern'),
        person(today, 'oauth:desk', 'bob', 'legacy'),
        person(today, 'oauth:reports', 'carol', 'modern'),
        person(today - 86_400_000, 'oauth:desk', 'erin', 'legacy'),
      ],
    });
    const byEra = (points: readonly ReceivedPoint[]) => Object.fromEntries(points.map((p) => [p.attributes['mcp_sunset.era'], p.value]));
    const points = await until(() => latestPoints(receiver, 'mcp_sunset.people'), (p) => byEra(p).legacy === 2);
    expect(byEra(points)).toEqual({ legacy: 2, modern: 2 });
    expect(await service.store!.countPeople({ from: today, to: today + 86_400_000 })).toEqual({ legacy: 2, modern: 2, total: 3 });
    // No caller and no person among its attributes.
    expect(points.map((p) => Object.keys(p.attributes))).toEqual([['mcp_sunset.era'], ['mcp_sunset.era']]);
    expect(receiver.received.at(-1)!.metrics.find((m) => m.name === 'mcp_sunset.people')).toMatchObject({ kind: 'gauge', unit: '{person}' });

    const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
    expect(metrics).toMatch(/^# TYPE mcp_sunset_people gauge$/m);
    expect([...metrics.matchAll(/^mcp_sunset_people(\{.*\})? (\S+)$/gm)].map((m) => [m[1], Number(m[2])])).toEqual([
      ['{era="legacy"}', 2],
      ['{era="modern"}', 2],
    ]);
  });

  test('a collector that is down costs no request, is reported, and gets every count once it is back', async () => {
    await receiver.stop();
    const url = new URL(peer.url.pathname, service.sidecarUrl);
    const summary = await runV1HttpSession(url, { token: 'first-token' });
    expect(summary.sum).toBe('3');
    expect(await service.flush()).toBe(true);
    const health = await until(() => service.health().otel!, (h) => h.state === 'failing');
    expect(health.consecutiveFailures).toBeGreaterThan(0);
    expect(health.lastError).not.toBeNull();
    const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
    expect(metrics).toMatch(/^mcp_sunset_otel_up 0$/m);
    expect(Number(/^mcp_sunset_otel_failed_exports (\d+)$/m.exec(metrics)![1])).toBeGreaterThan(0);

    const before = receiver.received.length;
    await receiver.restart();
    const stored = storedRequests(service.dbPath);
    const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
    await until(() => receiver.received.length > before && total(latestPoints(receiver, REQUESTS)), (t) => t === storedTotal);
    expect(groupPoints(latestPoints(receiver, REQUESTS))).toEqual(stored);
    await until(() => service.health().otel!.state, (s) => s === 'ok');
  }, 40_000);
});

describe('OpenTelemetry export from the stdio wrapper', () => {
  test('a v1 client through `wrap`, told by the standard variables: its requests arrive as pipe traffic, equal to its store, by its exit', async () => {
    const receiver = await startOtlpReceiver();
    const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-otel-wrap-'));
    const db = join(folder, 'wrap.db');
    const tsx = ['--import', 'tsx'];
    try {
      const client = new V1Client({ name: 'otel-wrap-test', version: '1' });
      await client.connect(
        new V1StdioTransport({
          command: process.execPath,
          args: [...tsx, join(PROJECT_ROOT, 'server', 'cli', 'main.ts'), 'wrap', '--db', db, '--caller', 'desktop-app', '--', process.execPath, ...tsx, join(PROJECT_ROOT, 'test', 'peers', 'v1-stdio-server.ts')],
          cwd: PROJECT_ROOT,
          env: { ...(process.env as Record<string, string>), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin, OTEL_METRIC_EXPORT_INTERVAL: '60000' },
        }),
      );
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      await client.close();
      // The interval is a minute: what arrives is the last export, made as the wrapper exits.
      const points = await until(() => latestPoints(receiver, REQUESTS), (p) => p.length > 0 && total(p) === [...storedRequests(db).values()].reduce((a, b) => a + b, 0));
      expect(groupPoints(points)).toEqual(storedRequests(db));
      expect(points.every((p) => p.attributes['network.transport'] === 'pipe' && p.attributes['mcp_sunset.transport'] === 'stdio' && p.attributes['network.protocol.name'] === undefined)).toBe(true);
      expect(new Set(points.map((p) => p.attributes['mcp_sunset.caller']))).toEqual(new Set(['stdio:desktop-app']));
    } finally {
      await receiver.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('OpenTelemetry export of refusals', () => {
  test('a brownout refusal arrives with its plan and cause, as many as the store counts blocked, and on /metrics', async () => {
    const receiver = await startOtlpReceiver();
    const peer = await startV2Server('dual');
    const service = await startTestService(new URL(peer.url), { otel: { endpoint: receiver.origin, exportIntervalMs: 250 } });
    try {
      const { id } = await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Drill', brownouts: brownoutNow() }));
      const url = new URL(peer.url.pathname, service.sidecarUrl);
      await until(() => service.health().policy.enforcingPlans, (n) => n >= 1);
      const error = await captureV1ConnectError(url, { token: 'refused-token' });
      expect(String(error)).toMatch(/-32022|Unsupported protocol version|brownout/i);
      await runV2Session(url, 'pin');
      expect(await service.flush()).toBe(true);
      const db = openDatabase(service.dbPath);
      const blocked = Number((db.sqlite.prepare(`select coalesce(sum(count), 0) as n from traffic_minute where kind = 'request' and outcome = 'blocked'`).get() as { n: number }).n);
      db.close();
      expect(blocked).toBeGreaterThan(0);
      const points = await until(() => latestPoints(receiver, 'mcp_sunset.refusals'), (p) => total(p) === blocked);
      for (const point of points) {
        expect(point.attributes).toMatchObject({ 'mcp_sunset.plan': String(id), 'mcp_sunset.refusal': 'brownout', 'mcp_sunset.era': 'legacy', 'mcp_sunset.outcome': 'blocked', 'error.type': 'blocked' });
        expect(point.attributes['mcp_sunset.caller']).toMatch(/^tok_/);
      }
      const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
      const lines = [...metrics.matchAll(/^mcp_sunset_refusals_total\{(.*)\} (\S+)$/gm)];
      expect(lines.reduce((sum, m) => sum + Number(m[2]), 0)).toBe(blocked);
      expect(lines.every((m) => m[1]!.includes(`mcp_sunset_plan="${id}"`) && m[1]!.includes('mcp_sunset_refusal="brownout"') && !m[1]!.includes('caller'))).toBe(true);
    } finally {
      await service.dispose();
      await peer.close();
      await receiver.close();
    }
  }, 40_000);
});

describe('OpenTelemetry export from the Express middleware, set by the standard variables alone, as OTLP/JSON', () => {
  const VARIABLES = ['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_METRIC_EXPORT_INTERVAL', 'OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_RESOURCE_ATTRIBUTES'];
  const saved = new Map(VARIABLES.map((name) => [name, process.env[name]]));
  afterAll(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test("a v2 dual-era app's counts arrive equal to its store", async () => {
    const receiver = await startOtlpReceiver();
    const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-otel-'));
    const db = join(folder, 'sunset.db');
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${receiver.origin}/v1/metrics`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '250',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-tenant=blue',
      OTEL_RESOURCE_ATTRIBUTES: 'service.namespace=payments,deployment.environment.name=test',
    });
    const middleware = meter({ db, node: 'app-1', flushIntervalMs: 200, logger: pino({ level: 'silent' }) });
    const app = await startMeteredApp('v2-dual', { json: false, metered: middleware });
    try {
      await runV2Session(app.url, 'pin');
      await runV1HttpSession(app.url);
      const stored = await until(() => storedRequests(db), (s) => [...s.values()].reduce((a, b) => a + b, 0) > 0);
      const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
      // Wait for the store to have all of it (both sessions), then for the export to match.
      const points = await until(() => latestPoints(receiver, REQUESTS), (p) => total(p) === [...storedRequests(db).values()].reduce((a, b) => a + b, 0) && total(p) >= storedTotal);
      expect(groupPoints(points)).toEqual(storedRequests(db));
      expect(new Set(points.map((p) => p.attributes['mcp_sunset.era']))).toEqual(new Set(['legacy', 'modern']));
      expect(receiver.received.at(-1)!.contentType).toMatch(/^application\/json/);
      expect(receiver.received.at(-1)!.resource).toMatchObject({ 'service.name': 'mcp-sunset', 'service.instance.id': 'app-1', 'service.namespace': 'payments', 'deployment.environment.name': 'test' });
      expect(receiver.received.at(-1)!.headers).toMatchObject({ authorization: 'Bearer abc', 'x-tenant': 'blue' });
      expect(middleware.otel()).toMatchObject({ state: 'ok', protocol: 'http/json' });
    } finally {
      await app.close();
      await middleware.close();
      await receiver.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 40_000);
});
