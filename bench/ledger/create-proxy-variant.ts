import { createServer, type Server } from 'node:http';
import { loadConfig } from '../../server/config/load-config.js';
import type { HttpRequestClassification, HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import type { HttpExchange } from '../../server/sidecar/http-exchange.js';
import { HttpMeter } from '../../server/sidecar/http-meter.js';
import { ANONYMOUS, createCallerIdentifier, type Caller } from '../../server/sidecar/identify-caller.js';
import { createReverseProxy } from '../../server/sidecar/reverse-proxy.js';

export type ProxyVariant = 'unmetered' | 'classified' | 'unrecorded';

/** What a meter that looks at nothing answers for every request: no messages, nothing judged. */
const NOTHING: HttpRequestClassification = Object.freeze({
  messages: [],
  answersArriveOn: undefined,
  cancels: [],
  sessionId: undefined,
  clientInfo: undefined,
  claimMismatch: false,
  knownSession: false,
  batch: false,
  headersShowModern: false,
  legacyVersion: null,
  httpSseStreamPath: false,
}) as HttpRequestClassification;

/**
 * A meter that classifies nothing and follows nothing: the proxy then forwards every request as
 * it forwards one it does not meter. It does not throw, as a metering fault would: in a CPU profile
 * a throw and its catch per request took about 1 µs, which would be billed to forwarding.
 */
class OffMeter extends HttpMeter<Caller> {
  override classify(_facts: HttpRequestFacts): HttpRequestClassification {
    return NOTHING;
  }
  override follow(): HttpExchange<Caller> {
    return undefined as unknown as HttpExchange<Caller>;
  }
}

/** A meter that classifies every request and then follows no answer: classification alone. */
class ClassifyOnlyMeter extends HttpMeter<Caller> {
  override follow(): HttpExchange<Caller> {
    return undefined as unknown as HttpExchange<Caller>;
  }
}

/**
 * The sidecar's own reverse proxy, wired as `startService` wires it but with less behind it:
 * `unrecorded` classifies and follows every exchange but drops the observations (no tally, no
 * metrics, no store); `classified` identifies the caller and classifies the request but follows
 * no answer; `unmetered` skips caller identification and metering altogether (the body is still
 * read and decoded as for classification). The
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
