import autocannon from 'autocannon';
import { MODERN_LOAD_REQUEST, type LoadRequest } from './load-request.js';
import { latencySummary } from '../support/percentile.js';

export interface ClosedLoopOptions {
  url: URL;
  path: string;
  connections: number;
  durationSeconds: number;
  /** What to send; the proxy bench's modern tools/call when absent. */
  request?: LoadRequest;
}

export interface ClosedLoopResult {
  requestsPerSecond: number;
  /** Milliseconds, from each 2xx response's own send time: queueing behind the 32 connections included. */
  p50: number;
  p99: number;
  responses: number;
  failures: number;
  /** Every 2xx response's latency (ms), in the order they completed: to pool rounds. */
  samples: number[];
}

let nextId = 1;

/**
 * Max throughput: `connections` keep-alive connections, each sending its next request as soon as
 * the previous answer is complete. Latencies are collected per response rather than from
 * autocannon's histogram, which only resolves whole milliseconds.
 */
export function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const samples: number[] = [];
  const load = options.request ?? MODERN_LOAD_REQUEST;
  const check = load.isAnswer;
  let wrongAnswers = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: new URL(options.path, options.url).href,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationSeconds,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            headers: { ...load.headers },
            // A fresh id per request, as a client would send; the answer echoes it.
            setupRequest: (request) => ({ ...request, body: load.body(nextId++) }),
            // Only when asked: with onResponse set, autocannon buffers every body.
            ...(check === undefined ? {} : { onResponse: (status: number, body: string) => void (status >= 200 && status < 300 && !check(body) && (wrongAnswers += 1)) }),
          },
        ],
      },
      (error: unknown, result) => {
        if (error) return reject(error);
        const { p50, p99 } = latencySummary(samples);
        resolve({
          requestsPerSecond: samples.length / result.duration,
          p50,
          p99,
          responses: samples.length,
          failures: result.errors + result.timeouts + result.non2xx + wrongAnswers,
          samples,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  });
}
