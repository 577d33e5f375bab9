import { createServer, type Server } from 'node:http';
import { loadConfig } from '../server/config/load-config.js';
import type { HttpRequestFacts } from '../server/protocol/classify-http-request.js';
import type { HttpExchange } from '../server/sidecar/http-exchange.js';
import { HttpMeter } from '../server/sidecar/http-meter.js';
import { ANONYMOUS, createCallerIdentifier, type Caller } from '../server/sidecar/identify-caller.js';
import { createReverseProxy } from '../server/sidecar/reverse-proxy.js';

export type ProxyVariant = 'unmetered' | 'classified' | 'unrecorded';

// Thrown, not constructed, per request: capturing a stack each time would bill the variant for it.
const METERING_OFF = new Error('metering off');

/**
 * A meter that refuses to classify; the proxy then forwards unmetered, as it does after a metering
 * fault. The gate calls `classify` first (gate-exchange.ts), so that is where it must refuse.
 */
class OffMeter extends HttpMeter<Caller> {
  override classify(_facts: HttpRequestFacts): never {
    throw METERING_OFF;
  }
}

/** A meter that classifies every request and then refuses to follow its answer: classification alone. */
class ClassifyOnlyMeter extends HttpMeter<Caller> {
  override follow(): HttpExchange<Caller> {
    throw METERING_OFF;
  }
}

/**
 * The sidecar's own reverse proxy, wired as `startService` wires it but with less behind it:
 * `unrecorded` classifies and follows every exchange but drops the observations (no tally, no
 * metrics, no store); `classified` identifies the caller and classifies the request but follows
 * no answer; `unmetered` skips caller identification and metering altogether (the body is still
 * read and decoded as for classification, and one cheap throw/catch per request remains). The
 * steps between these and the full sidecar show what each layer costs.
 */
export function createProxyVariant(upstream: URL, variant: ProxyVariant): Server {
  const config = loadConfig({ flags: { node: 'bench' } });
  const options = { record: () => undefined, maxAnswerBytes: config.maxAnswerBytes, httpSseMessagePaths: config.httpSseMessagePaths };
  const proxy = createReverseProxy({
    upstream,
    maxBodyBytes: config.maxBodyBytes,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    meter: variant === 'unmetered' ? new OffMeter(options) : variant === 'classified' ? new ClassifyOnlyMeter(options) : new HttpMeter<Caller>(options),
    identify: variant === 'unmetered' ? () => ANONYMOUS : createCallerIdentifier({ secret: 'bench-install-secret', ...config.identity }),
    onInternalError: () => undefined,
  });
  const server = createServer({ requestTimeout: 0 }, (req, res) => proxy.handle(req, res));
  server.keepAliveTimeout = 65_000;
  server.on('close', () => proxy.close());
  return server;
}
