import autocannon from 'autocannon';
import { MCP_REQUEST_HEADERS, mcpRequestBody } from './mcp-request.js';
import { latencySummary } from './percentile.js';

export interface ClosedLoopOptions {
  url: URL;
  path: string;
  connections: number;
  durationSeconds: number;
}

export interface ClosedLoopResult {
  requestsPerSecond: number;
  /** Milliseconds, from each 2xx response's own send time: queueing behind the 32 connections included. */
  p50: number;
  p99: number;
  responses: number;
  failures: number;
}

let nextId = 1;

/**
 * Max throughput: `connections` keep-alive connections, each sending its next request as soon as
 * the previous answer is complete. Latencies are collected per response rather than from
 * autocannon's histogram, which only resolves whole milliseconds.
 */
export function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const samples: number[] = [];
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
            headers: { ...MCP_REQUEST_HEADERS },
            // A fresh id per request, as a client would send; the answer echoes it.
            setupRequest: (request) => ({ ...request, body: mcpRequestBody(nextId++) }),
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
          failures: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  });
}
