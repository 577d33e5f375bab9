import type { IncomingMessage } from 'node:http';
import { loadConfig } from '../../server/config/load-config.js';
import { performance } from 'node:perf_hooks';
import { NO_LOOKUPS } from '../../server/protocol/classified-message.js';
import { classifyHttpRequest } from '../../server/protocol/classify-http-request.js';
import { readClassifiableJson } from '../../server/protocol/read-classifiable-json.js';
import { HttpMeter } from '../../server/sidecar/http-meter.js';
import { createCallerIdentifier, type Caller } from '../../server/sidecar/identify-caller.js';
import { Tally } from '../../server/tally/tally.js';
import { resultMessage, sseAnswerEvents } from '../load/mcp-answer.js';
import { HEADER_CLASSIFIABLE, INITIALIZE, LEGACY_1KB, LEGACY_SESSION, MODERN, MODERN_1KB } from './classify-requests.js';
import { median } from '../support/percentile.js';

export interface MicroResult {
  name: string;
  nsPerOp: number;
}

const BATCH_MS = 40;
const BATCHES = 9;
const WARMUP_MS = 150;

/** Results are folded into this so the JIT cannot drop the work being timed. */
let sink = 0;

/** Median ns/op over several timed batches, after a warm-up long enough for the optimizing JIT. */
export function measure(name: string, op: (i: number) => number): MicroResult {
  let i = 0;
  const warmEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmEnd) for (let k = 0; k < 100; k += 1) sink += op(i++);
  // Size a batch from the warm-up speed so timer resolution is negligible.
  const probeStart = performance.now();
  for (let k = 0; k < 1000; k += 1) sink += op(i++);
  const perOpMs = (performance.now() - probeStart) / 1000;
  const iterations = Math.max(1000, Math.round(BATCH_MS / Math.max(perOpMs, 1e-6)));
  const samples: number[] = [];
  for (let b = 0; b < BATCHES; b += 1) {
    const start = performance.now();
    for (let k = 0; k < iterations; k += 1) sink += op(i++);
    samples.push(((performance.now() - start) * 1e6) / iterations);
  }
  return { name, nsPerOp: median(samples) };
}

const CALLER: Caller = { integration: 'tok_0123456789abcdef', source: 'bearer-fingerprint' };

/**
 * The sidecar's per-request CPU work in isolation: classification alone, then the whole
 * metering lifecycle of one exchange with a no-op recorder, then the two other per-request
 * costs the proxy pays (caller fingerprint, tally increment).
 */
const BENCH_IDENTITY = loadConfig({ flags: { node: 'bench' } }).identity;

export function runMicroBenchmarks(): MicroResult[] {
  const meter = new HttpMeter<Caller>({ record: () => undefined });
  const jsonHeaders = { 'content-type': 'application/json', 'content-length': '96' };
  const sseHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
  const jsonText = resultMessage(42);
  const [progressEvent, resultEvent] = sseAnswerEvents(42);
  const identify = createCallerIdentifier({ ...BENCH_IDENTITY, secret: 'bench-install-secret-0123456789abcdef' });
  const tally = new Tally({ node: 'bench', now: Date.now });
  const timedTally = new Tally({ node: 'bench', now: Date.now });

  const results = [
    measure('classifyHttpRequest: modern tools/call with _meta', () => classifyHttpRequest(MODERN, NO_LOOKUPS).messages.length),
    measure('classifyHttpRequest: legacy session tools/call', () => classifyHttpRequest(LEGACY_SESSION, NO_LOOKUPS).messages.length),
    measure('classifyHttpRequest: legacy initialize', () => classifyHttpRequest(INITIALIZE, NO_LOOKUPS).messages.length),
    measure('classifyHttpRequest: header-classifiable (legacy session GET stream)', () => classifyHttpRequest(HEADER_CLASSIFIABLE, NO_LOOKUPS).messages.length),
    measure('classifyHttpRequest: modern tools/call, 1 KB body', () => classifyHttpRequest(MODERN_1KB, NO_LOOKUPS).messages.length),
    measure('classifyHttpRequest: modern tools/call, 1 KB body, scanner instead of JSON.parse', () => classifyHttpRequest(MODERN_1KB, NO_LOOKUPS, readClassifiableJson).messages.length),
    measure('classifyHttpRequest: legacy session tools/call, 1 KB body', () => classifyHttpRequest(LEGACY_1KB, NO_LOOKUPS).messages.length),
    measure('HttpMeter exchange, JSON answer (begin→head→chunk→end)', () => {
      const exchange = meter.begin(MODERN, CALLER);
      exchange.responseHead(200, jsonHeaders);
      exchange.responseChunk(jsonText);
      exchange.responseEnd();
      return exchange.isSettled ? 1 : 0;
    }),
    measure('HttpMeter exchange, SSE answer (progress + result events)', () => {
      const exchange = meter.begin(MODERN, CALLER);
      exchange.responseHead(200, sseHeaders);
      exchange.responseChunk(progressEvent);
      exchange.responseChunk(resultEvent);
      exchange.responseEnd();
      return exchange.isSettled ? 1 : 0;
    }),
    measure('identify caller (HMAC-SHA256 of bearer token, cached)', () => identify({ headers: MODERN.headers, socket: {} } as unknown as IncomingMessage).integration.length),
    measure('Tally.add (one settled message)', () => {
      tally.add({
        labels: { method: 'tools/call', kind: 'request', era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28', outcome: 'served', integration: CALLER.integration },
        integrationSource: CALLER.source,
        clientInfo: { name: 'bench', version: '1' },
        claimMismatch: false,
      });
      return 1;
    }),
    // The same, timed: the duration kept in the cell's buckets for mcp.server.operation.duration.
    measure('Tally.add (one settled message, with its duration)', (i) => {
      timedTally.add({
        labels: { method: 'tools/call', kind: 'request', era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28', outcome: 'served', integration: CALLER.integration },
        integrationSource: CALLER.source,
        clientInfo: { name: 'bench', version: '1' },
        claimMismatch: false,
        seconds: (i % 400) / 1000,
      });
      return 1;
    }),
    // What timing costs the exchange besides: one clock read when it begins and one when it settles.
    measure('performance.now() twice', () => performance.now() + performance.now()),
  ];
  if (sink === -1) console.log(sink);
  return results;
}
