/**
 * One HTTP exchange of the prober, turned into an observation: the status and the JSON or SSE
 * answer, or why there is none (timeout, outage, refused redirect). The deadline covers the
 * whole exchange, body included; it is enforced by aborting the request.
 */
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';
import { HEADER } from '../../protocol/versions.js';
import { fetchSameOrigin, type SameOriginRequest } from './fetch-same-origin.js';
import { excerptOf, isReplyTo, type HttpBody, type ProbeObservation } from '../wire/probe-observation.js';
import { readSseEvents } from './read-sse-events.js';

export interface HttpExchange extends Omit<SameOriginRequest, 'signal'> {
  timeoutMs: number;
  maxBodyBytes: number;
  /** The request id whose answer ends an SSE body; undefined for notifications. */
  expectId: JsonRpcId | undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readBody(response: Response, exchange: HttpExchange): Promise<HttpBody> {
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('text/event-stream')) {
    // A notification's stream is not waited on: nothing in it is ours.
    if (exchange.expectId === undefined || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'sse', messages: [] };
    }
    const id = exchange.expectId;
    const messages: unknown[] = [];
    await readSseEvents(response.body, ({ data }) => {
      const value = parseJson(data);
      if (value === undefined) return false;
      messages.push(value);
      // A null-id error on the request's own stream still answers it (row 14).
      return isReplyTo(value, id) || (typeof value === 'object' && value !== null && (value as { id?: unknown }).id === null);
    }, exchange.maxBodyBytes);
    return { kind: 'sse', messages };
  }
  const text = await readCapped(response, exchange.maxBodyBytes);
  if (text === undefined) return { kind: 'text', contentType, excerpt: `(more than ${exchange.maxBodyBytes} bytes)` };
  if (text.trim() === '') return { kind: 'empty' };
  const looksJson = contentType === '' || /[/+]json\b/.test(contentType);
  const value = looksJson ? parseJson(text) : undefined;
  return value === undefined ? { kind: 'text', contentType, excerpt: excerptOf(text) } : { kind: 'json', value };
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

export async function exchangeHttp(exchange: HttpExchange): Promise<ProbeObservation> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), exchange.timeoutMs);
  try {
    const result = await fetchSameOrigin({ ...exchange, signal: controller.signal });
    if (result.kind === 'redirect-refused') return { kind: 'redirect-refused', location: result.location };
    if (result.kind === 'too-many-redirects') return { kind: 'unreachable', detail: `more than ${exchange.maxRedirects} redirects (last to ${result.location})` };
    const { response } = result;
    const body = await readBody(response, exchange);
    const header = (name: string) => response.headers.get(name);
    return {
      kind: 'http',
      response: {
        status: response.status,
        body,
        sessionId: header(HEADER.sessionId),
        retryAfter: header('retry-after'),
        authenticate: header('www-authenticate'),
        hadSession: exchange.headers[HEADER.sessionId] !== undefined,
      },
    };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout' };
    return { kind: 'unreachable', detail: `${exchange.method} ${exchange.url.href} failed: ${describeNetworkError(error)}` };
  } finally {
    clearTimeout(timer);
  }
}
