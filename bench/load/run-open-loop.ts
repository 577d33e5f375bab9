import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { MODERN_LOAD_REQUEST, type LoadRequest } from './load-request.js';
import { latencySummary } from '../support/percentile.js';

export interface OpenLoopOptions {
  url: URL;
  path: string;
  /** Requests per second, fired on a fixed schedule whatever the server does. */
  rate: number;
  durationSeconds: number;
  /** What to send; the proxy bench's modern tools/call when absent. */
  request?: LoadRequest;
}

export interface OpenLoopResult {
  /** Milliseconds from each request's *scheduled* send time to the end of its answer. */
  p50: number;
  p99: number;
  /** Milliseconds from the actual send to the end of the answer (no scheduling delay). */
  serviceP99: number;
  /** How late the generator itself fired (timer granularity, GC): part of every setup's numbers. */
  sendLagP99: number;
  completed: number;
  failures: number;
  /** Every answer's latency from its scheduled send time (ms), in the order they completed: to pool rounds. */
  samples: number[];
}

const REQUEST_TIMEOUT_MS = 10_000;
const SPIN_MS = 1.5;
let nextId = 1_000_000_000;

/**
 * Open-loop load: request i is due at start + i/rate, and its latency counts from then, so a
 * stalled server is charged for the requests it delayed (no coordinated omission).
 */
export function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const load = options.request ?? MODERN_LOAD_REQUEST;
  const check = load.isAnswer;
  const target = new URL(options.path, options.url);
  const total = Math.round(options.rate * options.durationSeconds);
  const intervalMs = 1000 / options.rate;
  const fromSchedule: number[] = [];
  const service: number[] = [];
  const sendLag: number[] = [];
  let failures = 0;
  let settled = 0;
  let fired = 0;

  return new Promise((resolve) => {
    const start = performance.now() + 10;

    const finish = () => {
      settled += 1;
      if (settled < total) return;
      agent.destroy();
      const latency = latencySummary(fromSchedule);
      resolve({
        p50: latency.p50,
        p99: latency.p99,
        serviceP99: latencySummary(service).p99,
        sendLagP99: latencySummary(sendLag).p99,
        completed: fromSchedule.length,
        failures,
        samples: fromSchedule,
      });
    };

    const fire = (due: number) => {
      const sentAt = performance.now();
      sendLag.push(sentAt - due);
      let done = false;
      const settle = (ok: boolean) => {
        if (done) return;
        done = true;
        const endedAt = performance.now();
        if (ok) {
          fromSchedule.push(endedAt - due);
          service.push(endedAt - sentAt);
        } else {
          failures += 1;
        }
        finish();
      };
      const body = load.body(nextId++);
      const request = http.request(target, {
        method: 'POST',
        agent,
        headers: { ...load.headers, 'content-length': Buffer.byteLength(body) },
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error('timeout')));
      request.on('response', (response) => {
        let text = '';
        if (check === undefined) response.resume();
        else response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => settle(response.statusCode === 200 && (check === undefined || check(text))));
        response.on('error', () => settle(false));
      });
      request.on('error', () => settle(false));
      request.end(body);
    };

    const tick = () => {
      const now = performance.now();
      // Catch up on everything already due: a late timer must not thin out the offered load.
      while (fired < total && start + fired * intervalMs <= now) {
        fire(start + fired * intervalMs);
        fired += 1;
      }
      if (fired >= total) return;
      // Timers fire up to ~1 ms late, which would sit inside every latency measured; so sleep
      // until just before the next due time and poll the last stretch through the event loop
      // (setImmediate still lets answers be read in between). Affordable only at moderate rates.
      const wait = start + fired * intervalMs - performance.now();
      if (wait > SPIN_MS) setTimeout(tick, wait - SPIN_MS);
      else setImmediate(tick);
    };
    setTimeout(tick, 10);
  });
}
