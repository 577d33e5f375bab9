/**
 * The deprecated HTTP+SSE transport (2024-11-05), opened only for a peer with `allowHttpSse`:
 * GET the URL for an event stream whose first event must be `endpoint` naming a same-origin URL
 * (else fail closed); POST messages there and read their answers, matched by id, from the stream.
 */
import { HTTP_SSE_ENDPOINT_EVENT } from '../../protocol/settle-stream-open.js';
import { HEADER } from '../../protocol/versions.js';
import type { EraChannel, HttpSseOpening } from '../attempt/era-channel.js';
import { exchangeHttp } from './exchange-http.js';
import { fetchSameOrigin } from './fetch-same-origin.js';
import { userHeaders, type HttpChannelSettings } from './http-channel-settings.js';
import type { HttpTarget } from '../targets/peer-config.js';
import { isReplyTo, type ProbeObservation } from '../wire/probe-observation.js';
import { readSseEvents } from './read-sse-events.js';

// The stream lives for one probe; this only bounds a peer that floods it.
const STREAM_MAX_BYTES = 64 * 1024 * 1024;

type Waiter = { id: string | number; settle: (observation: ProbeObservation) => void };

const refused = (code: string, detail: string, state: 'unavailable' | 'incompatible' | 'auth-required' = 'incompatible'): HttpSseOpening => ({ ok: false, code, detail, state });

export async function openHttpSseChannel(target: HttpTarget, settings: HttpChannelSettings & { timeoutMs: number }): Promise<HttpSseOpening> {
  const url = new URL(target.url);
  const stream = new AbortController();
  const deadline = setTimeout(() => stream.abort(), settings.timeoutMs);
  let endpoint: URL | undefined;
  let firstEvent: (problem: HttpSseOpening | undefined) => void = () => undefined;
  const opened = new Promise<HttpSseOpening | undefined>((resolve) => (firstEvent = resolve));
  const waiters = new Set<Waiter>();
  let ended = false;

  const endAll = (detail: string) => {
    ended = true;
    for (const waiter of waiters) waiter.settle({ kind: 'closed', detail });
    waiters.clear();
  };

  try {
    const headers = { ...userHeaders(target), [HEADER.accept]: 'text/event-stream' };
    const result = await fetchSameOrigin({ url, method: 'GET', headers, maxRedirects: settings.maxRedirects, signal: stream.signal });
    if (result.kind !== 'response') return refused('cross-origin-redirect', `the HTTP+SSE GET was redirected to ${result.location}; not followed`, 'unavailable');
    const { response } = result;
    const type = response.headers.get('content-type') ?? '';
    if (response.status === 401 || response.status === 403) return refused('auth-required', `the HTTP+SSE GET got HTTP ${response.status}`, 'auth-required');
    if (response.status >= 500 || response.status === 429) return refused('server-error', `the HTTP+SSE GET got HTTP ${response.status}`, 'unavailable');
    if (response.status !== 200 || !type.includes('text/event-stream') || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      return refused('http-sse-unavailable', `the HTTP+SSE GET got HTTP ${response.status} ${type || 'without a content type'}`);
    }
    void readSseEvents(response.body, ({ event, data }) => {
      if (endpoint === undefined) {
        if (event !== HTTP_SSE_ENDPOINT_EVENT) {
          firstEvent(refused('http-sse-no-endpoint', `the first event of the HTTP+SSE stream is "${event}", not "${HTTP_SSE_ENDPOINT_EVENT}"`));
          return true;
        }
        let named: URL;
        try {
          named = new URL(data.trim(), result.url);
        } catch {
          firstEvent(refused('http-sse-no-endpoint', `the endpoint event names no URL: ${data.slice(0, 120)}`));
          return true;
        }
        if (named.origin !== url.origin) {
          firstEvent(refused('http-sse-cross-origin-endpoint', `the endpoint event names ${named.href}, another origin than ${url.origin}`));
          return true;
        }
        endpoint = named;
        firstEvent(undefined);
        return false;
      }
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        return false;
      }
      for (const waiter of waiters) if (isReplyTo(value, waiter.id)) waiter.settle({ kind: 'reply', message: value });
      return false;
    }, STREAM_MAX_BYTES)
      .catch(() => undefined)
      .finally(() => {
        firstEvent(stream.signal.aborted
          ? refused('http-sse-timeout', 'no endpoint event on the HTTP+SSE stream before the deadline', 'unavailable')
          : refused('http-sse-no-endpoint', 'the HTTP+SSE stream ended before an endpoint event', 'unavailable'));
        endAll('the HTTP+SSE stream ended');
      });
    const problem = await opened;
    if (problem !== undefined) {
      stream.abort();
      return problem;
    }
  } catch {
    stream.abort();
    return refused(stream.signal.aborted ? 'http-sse-timeout' : 'unreachable', 'the HTTP+SSE GET failed or timed out before an endpoint event', 'unavailable');
  } finally {
    clearTimeout(deadline);
  }

  const to = endpoint as URL;
  const post = (message: { method: string }, version: string | null, timeoutMs: number, expectId: string | number | undefined) => {
    const headers: Record<string, string> = { ...userHeaders(target), [HEADER.contentType]: 'application/json', [HEADER.accept]: 'application/json, text/event-stream' };
    if (version !== null) headers[HEADER.protocolVersion] = version;
    return exchangeHttp({ url: to, method: 'POST', headers, body: JSON.stringify(message), timeoutMs, maxRedirects: settings.maxRedirects, maxBodyBytes: settings.maxBodyBytes, expectId });
  };

  const channel: EraChannel = {
    transport: 'http+sse',
    request(message, shape, timeoutMs) {
      return new Promise<ProbeObservation>((resolve) => {
        if (ended) return resolve({ kind: 'closed', detail: 'the HTTP+SSE stream ended' });
        const timer = setTimeout(() => waiter.settle({ kind: 'timeout' }), timeoutMs);
        const waiter: Waiter = { id: message.id, settle: (o) => (clearTimeout(timer), waiters.delete(waiter), resolve(o)) };
        waiters.add(waiter);
        // The POST is only accepted (202); a refusal of the POST itself is the observation.
        void post(message, shape.version, timeoutMs, undefined).then((o) => {
          if (o.kind !== 'http' || o.response.status < 200 || o.response.status >= 300) waiter.settle(o);
        });
      });
    },
    notify: (message, shape, timeoutMs) => post(message, shape.version, timeoutMs, undefined),
    async restart() {},
    isDead: () => ended,
    async close() {
      stream.abort();
    },
  };
  return { ok: true, channel };
}
