import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { createBodyObserver } from './body-observer.js';
import { EndpointRewriter } from './endpoint-rewriter.js';
import { connectionNamedHeaders, forwardHeaders } from './forward-headers.js';
import type { GuardedExchange } from './guarded-exchange.js';
import type { HttpMeter } from './http-meter.js';
import type { Caller } from './identify-caller.js';
import { isMcpRequest } from '../protocol/is-mcp-request.js';
import { isUnderPublicPrefix, toPublicEndpoint, toUpstreamTarget, type PathMapping } from './path-mapping.js';
import { placeRequestTarget } from './place-request-target.js';
import { readCappedBody, type CappedBody } from './read-capped-body.js';
import { readChunksText } from './read-body-text.js';
import { OpenList, type Listed } from '../lib/open-list.js';
import { gateExchange, refusalHeaders, ungated, type BridgeLookup, type GatedExchange } from './gate-exchange.js';
import type { HttpRequestFacts } from '../protocol/classify-http-request.js';
import type { HttpRefusal } from '../protocol/policy-refusal.js';
import type { CompiledPolicy } from '../policy/compiled-policy.js';
import { BRIDGE_RELAY_HEADER as RELAY_HEADER } from '../lib/bridge-relay-header.js';
import { callerOfText, callerText } from './relayed-caller.js';
import type { AuthChallenge } from './auth-challenge.js';

/**
 * The legacy bridge, as the proxy uses it: it answers legacy requests in front of a modern-only
 * server, and shows its answers to the exchange so they are counted like an upstream's.
 */
export interface ProxyBridge extends BridgeLookup {
  /** True for a path only the bridge answers (the HTTP+SSE stream and message endpoint). */
  claims(path: string): boolean;
  /**
   * Whether the request is gated and counted here (false: on another node of the fleet, see the
   * bridge's routing), and the caller to count it under when another node identified it. `body`
   * answers the body as read (undefined when not read whole), only for a request that needs it.
   */
  admit(req: IncomingMessage, body: () => Buffer | undefined): { counts: boolean; caller: string | undefined };
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    request: { method: string; headers: IncomingMessage['headers']; body: Buffer | undefined; bodyTooLarge: boolean; caller?: string },
    exchange: GuardedExchange<Caller>,
    announce: readonly string[],
  ): void;
  inFlight(): number;
  cutInFlight(): number;
  close(): void;
}

export interface ReverseProxyOptions {
  upstream: URL;
  /** Public path prefix in front of the upstream's own; defaults to the upstream URL's path. */
  publicPrefix?: string;
  maxBodyBytes: number;
  connectTimeoutMs: number;
  meter: HttpMeter<Caller>;
  identify: (req: IncomingMessage) => Caller;
  /**
   * A bounded wait for the request's credential to be verified before it is identified (see
   * CallerIdentifier.ready); undefined when there is nothing to wait for.
   */
  identityReady?: (req: IncomingMessage) => Promise<void> | undefined;
  /** How the server asks a client to sign in: learned from its 401s, told to refused clients with no credential. */
  authChallenge?: AuthChallenge;
  /** A request that cannot be MCP (outside the public prefix, `/.well-known/`, …): passed on, not metered. */
  onNonMcp?: () => void;
  /** Paths the operator declares non-MCP (and everything below them): passed on, never judged. */
  nonMcpPaths?: readonly string[];
  /** Failures of the sidecar's own code: reported, never passed on to traffic. */
  onInternalError: (error: unknown, where: string) => void;
  /** The retirement policy in force now: read per request, compiled elsewhere. Absent: nothing is enforced. */
  policy?: () => CompiledPolicy;
  /** Answers legacy requests itself, in front of a modern-only upstream. Absent: everything is passed on. */
  bridge?: ProxyBridge;
  now?: () => number;
}

export interface ReverseProxy {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Exchanges passed on whose answer is not through yet. An event stream whose messages are all
   * counted holds nothing back unless `answersAwaited`: answers to other requests may still come on it.
   */
  inFlight(answersAwaited: boolean): number;
  /** Ends every exchange still open, counting what it carried as cancelled; answers how many. */
  cutInFlight(): number;
  close(): void;
}

interface Forwarded extends Listed {
  res: ServerResponse;
  upstreamReq: http.ClientRequest;
  exchange: GuardedExchange<Caller>;
  /** A GET event stream: once its own messages are counted it only carries answers to others. */
  stream: boolean;
}

const DROP_LENGTH = new Set(['content-length']);

function wholeBody(body: CappedBody): Buffer {
  return body.chunks.length === 1 ? body.chunks[0]! : Buffer.concat(body.chunks);
}
/** A relay seal between bridge nodes is for the nodes: a server that echoes headers must never see one. */
const DROP_RELAY = new Set([RELAY_HEADER]);

/**
 * A byte-transparent reverse proxy in front of one MCP server. Request and answer bytes and
 * headers pass unchanged (Host and Origin included, so the upstream's own checks still hold), SSE
 * streams chunk by chunk, and a client that goes away is propagated upstream. Metering watches a
 * copy; if it fails, traffic carries on unmetered.
 */
export function createReverseProxy(options: ReverseProxyOptions): ReverseProxy {
  const { upstream } = options;
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const upstreamPrefix = upstream.pathname.replace(/\/+$/, '');
  const mapping: PathMapping = { upstreamPrefix, publicPrefix: options.publicPrefix ?? upstreamPrefix };
  const forwarded = new OpenList<Forwarded>();

  const now = options.now ?? Date.now;
  // Matched on the placed path, as the server routes it: `/TOKEN/../token` is `/token`.
  const declaredNonMcp = (options.nonMcpPaths ?? []).map((p) => p.replace(/\/+$/, '').toLowerCase());
  const isDeclaredNonMcp = (path: string): boolean => {
    if (declaredNonMcp.length === 0) return false;
    const query = path.indexOf('?');
    const pathname = (query < 0 ? path : path.slice(0, query)).toLowerCase();
    return declaredNonMcp.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  };
  const challenge = options.authChallenge === undefined ? undefined : () => options.authChallenge!.current();

  function begin(req: IncomingMessage, body: CappedBody | undefined, path: string): GatedExchange<Caller> & { relayCaller?: string } {
    let caller: Caller;
    let facts: HttpRequestFacts;
    try {
      const method = req.method ?? 'GET';
      // A GET where HTTP+SSE streams open is one, wherever the path lies and whatever its Accept says.
      const streamPath = method === 'GET' && options.meter.isHttpSseStreamPath(path);
      const mcp = streamPath || (!isDeclaredNonMcp(path) && (isUnderPublicPrefix(path, mapping) || options.meter.isMessageEndpoint(path) || options.bridge?.claims(path) === true) && isMcpRequest({ method, path, headers: req.headers }));
      if (!mcp) {
        options.onNonMcp?.();
        return ungated(options.onInternalError);
      }
      const admitted = options.bridge?.admit(req, () => (body?.complete === true ? wholeBody(body) : undefined));
      if (admitted?.counts === false) {
        // Gated and counted on the node it is passed to, under the caller identified here.
        return { ...ungated<Caller>(options.onInternalError), bridged: true, relayCaller: callerText(options.identify(req)) };
      }
      caller = callerOfText(admitted?.caller) ?? options.identify(req);
      const read = body?.complete ? readChunksText(body.chunks, req.headers['content-type'], req.headers['content-encoding'], options.maxBodyBytes) : undefined;
      facts = { method, path, headers: req.headers, body: read?.text, bodyTooLarge: body !== undefined && !body.complete };
      if (read !== undefined && read.others.length > 0) facts.otherReadings = read.others;
      if (read?.encodingUnread === true) facts.unreadableEncoding = true;
    } catch (error) {
      // A fault in metering lets the request through, unmetered and unannounced.
      options.onInternalError(error, 'identify');
      return ungated(options.onInternalError);
    }
    return gateExchange(options.meter, facts, caller, options.policy?.(), now, options.onInternalError, options.bridge, challenge);
  }

  /** Forwards a request; a fault of the sidecar's own answers 502 rather than leave the client hanging. */
  function run(req: IncomingMessage, res: ServerResponse, body: CappedBody | undefined): void {
    try {
      forward(req, res, body);
    } catch (error) {
      options.onInternalError(error, 'forward');
      if (!res.headersSent) res.writeHead(502).end();
    }
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: CappedBody | undefined): void {
    // Decided on where the server routes it, and forwarded so; a target no server can route is judged as sent.
    const path = placeRequestTarget(req.url ?? '/') ?? req.url ?? '/';
    const { exchange, decision, refusal, bridged, relayCaller } = begin(req, body, path);
    if (refusal !== undefined) return refuse(req, res, body, refusal, decision.headers);
    if (bridged && options.bridge !== undefined) {
      const text = body?.complete === true ? wholeBody(body) : undefined;
      const request = { method: req.method ?? 'GET', headers: req.headers, body: text, bodyTooLarge: body !== undefined && !body.complete, ...(relayCaller === undefined ? {} : { caller: relayCaller }) };
      return options.bridge.serve(req, res, request, exchange, decision.headers);
    }
    // The target as judged: placed (dot segments, unreserved escapes, a fragment resolved) and
    // under the prefix as the server writes it. Nearly every target is already that, byte for byte.
    const upstreamPath = toUpstreamTarget(path, mapping);
    const kept = forwardHeaders(req.rawHeaders, req.headers[RELAY_HEADER] === undefined ? undefined : DROP_RELAY);
    // Node frames a body of unknown length by itself only for some methods; a chunked GET, DELETE or
    // OPTIONS body sent on unframed would be read upstream as further requests, never counted here.
    // (A copy: `kept` may be the request's own header list.)
    const headers = req.headers['transfer-encoding'] !== undefined ? kept.concat('Transfer-Encoding', 'chunked') : kept;
    const upstreamReq = (secure ? https : http).request({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: upstreamPath,
      headers,
      setHost: false,
      agent,
    });
    let answered = false;
    armConnectTimeout(upstreamReq, options.connectTimeoutMs);
    const entry: Forwarded = { res, upstreamReq, exchange, stream: false, openSlot: -1 };
    forwarded.add(entry);

    res.on('close', () => {
      forwarded.delete(entry);
      if (res.writableFinished) return;
      upstreamReq.destroy();
      exchange.clientClosed();
    });

    upstreamReq.on('error', (error) => {
      exchange.upstreamFailed();
      if (answered) return void res.destroy();
      answered = true;
      if (!res.headersSent && !res.destroyed) sendUnreachable(res, upstream, error, exchange);
    });

    upstreamReq.on('response', (upRes) => {
      answered = true;
      entry.stream = req.method === 'GET' && (upRes.headers['content-type'] ?? '').startsWith('text/event-stream');
      try {
        relay(req, upRes, res, upstreamPath, exchange, decision.headers);
      } catch (error) {
        // Node refused to pass on what the upstream sent (an invalid header, say).
        options.onInternalError(error, 'relay');
        upRes.destroy();
        res.destroy();
        exchange.upstreamFailed();
      }
    });

    if (body !== undefined) {
      for (const chunk of body.chunks) upstreamReq.write(chunk);
      if (body.complete) upstreamReq.end();
      else {
        req.pipe(upstreamReq);
        req.resume();
      }
    } else {
      req.pipe(upstreamReq);
    }
  }

  /** Answers a refused request in the upstream's place; nothing of it is passed on. */
  function refuse(req: IncomingMessage, res: ServerResponse, body: CappedBody | undefined, refusal: HttpRefusal, announce: readonly string[]): void {
    // The unread rest of an oversized body, or a GET's, is drained so the connection stays usable.
    if (body === undefined || !body.complete) req.resume();
    res.writeHead(refusal.status, refusalHeaders(refusal, announce));
    res.end(refusal.body);
  }

  function relay(req: IncomingMessage, upRes: IncomingMessage, res: ServerResponse, upstreamPath: string, exchange: GuardedExchange<Caller>, announce: readonly string[]): void {
    const status = upRes.statusCode ?? 502;
    exchange.responseHead(status, upRes.headers);
    if (exchange.active) options.authChallenge?.observe(status, req.headers.authorization !== undefined, upRes.headers['www-authenticate']);
    const eventStream = (upRes.headers['content-type'] ?? '').startsWith('text/event-stream');
    const rewriter = eventStream && req.method === 'GET'
      ? new EndpointRewriter((data) => toPublicEndpoint(data, new URL(upstreamPath, upstream), mapping))
      : undefined;
    // A rewritten first event may change length; SSE answers are chunked anyway.
    // Announcement headers are added after the upstream's own, which pass unchanged.
    const headers = forwardHeaders(upRes.rawHeaders, rewriter ? DROP_LENGTH : undefined);
    // Node reads the list and does not change it; it may be the upstream's own.
    res.writeHead(status, upRes.statusMessage, (announce.length === 0 ? headers : headers.concat(announce)) as string[]);
    // An event stream may stay silent for a long time: the client must see its headers now. If
    // the first event came in the same read, it already carried them and no extra write is made.
    // (`res.headersSent` cannot tell: it is true as soon as writeHead() has run.)
    let bodyWritten = false;
    if (eventStream) setImmediate(() => bodyWritten || res.writableEnded || res.destroyed || res.flushHeaders());
    const observer = exchange.active ? createBodyObserver(upRes.headers['content-encoding'], (bytes) => exchange.responseBytes(bytes)) : undefined;

    const send = (chunk: Buffer) => {
      if (chunk.length === 0) return;
      bodyWritten = true;
      if (!res.write(chunk)) {
        upRes.pause();
        res.once('drain', () => upRes.resume());
      }
      observer?.write(chunk);
    };
    upRes.on('data', rewriter ? (chunk: Buffer) => send(rewriter.push(chunk)) : send);
    upRes.on('end', () => {
      if (rewriter) send(rewriter.flush());
      if (observer === undefined) return void res.end();
      // The count lands before the client sees the end, so a read right after it includes it.
      // Only a compressed answer makes this wait, for the last inflated bytes.
      let ended = false;
      const finish = () => {
        if (ended) return;
        ended = true;
        exchange.responseEnd();
        res.end();
      };
      try {
        observer.end(finish);
      } catch (error) {
        options.onInternalError(error, 'observe');
        finish();
      }
    });
    const failed = () => {
      res.destroy();
      exchange.upstreamFailed();
    };
    upRes.on('aborted', failed);
    upRes.on('error', failed);
  }

  return {
    handle(req, res) {
      leaveOutConnectionNamed(req);
      const guarded = (body: CappedBody | undefined) => {
        let waiting: Promise<void> | undefined;
        try {
          waiting = options.identityReady?.(req);
        } catch (error) {
          options.onInternalError(error, 'identify');
        }
        if (waiting === undefined) return run(req, res, body);
        // A token seen for the first time: its verdict (or the wait's bound) first, then the request.
        // A client gone meanwhile sent nothing on, and nothing of it is counted.
        const go = () => (res.destroyed || req.socket.destroyed ? undefined : run(req, res, body));
        waiting.then(go, go);
      };
      if (req.method !== 'POST') return guarded(undefined);
      readCappedBody(req, options.maxBodyBytes, (error, body) => {
        // A client that vanished mid-body: there is nobody left to answer, and nothing was sent on.
        if (error !== undefined) return void res.destroy();
        guarded(body);
      });
    },
    inFlight(answersAwaited) {
      let count = 0;
      for (const entry of forwarded.values()) if (answersAwaited || !entry.stream || !entry.exchange.settled) count += 1;
      return count + (options.bridge?.inFlight() ?? 0);
    },
    cutInFlight() {
      const open = forwarded.takeAll();
      for (const entry of open) {
        // Counted before the sockets go, so the final flush that follows includes them.
        entry.exchange.clientClosed();
        entry.upstreamReq.destroy();
        entry.res.destroy();
      }
      return open.length + (options.bridge?.cutInFlight() ?? 0);
    },
    close() {
      agent.destroy();
      options.bridge?.close();
    },
  };
}

/**
 * Takes the headers a `Connection` header names out of what every decision reads (the caller, the
 * era, the session, the path's kind), because the proxy does not pass them on: a request is judged
 * exactly as the server will receive it. A modern-looking `MCP-Protocol-Version` listed there would
 * otherwise be judged, then dropped, and the body served on the server's legacy path.
 */
function leaveOutConnectionNamed(req: IncomingMessage): void {
  const named = connectionNamedHeaders(req.rawHeaders);
  if (named === undefined) return;
  // Node builds `req.headers` once from the raw list and keeps it: every later reader sees this.
  const headers = req.headers;
  for (const name of named) delete headers[name];
}

function armConnectTimeout(request: http.ClientRequest, timeoutMs: number): void {
  request.on('socket', (socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(() => request.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })), timeoutMs);
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
}

function sendUnreachable(res: ServerResponse, upstream: URL, error: Error & { code?: string }, exchange: GuardedExchange<Caller>): void {
  const requests = exchange.classification?.messages.filter((m) => m.kind === 'request') ?? [];
  const id = requests.length === 1 ? requests[0]!.id : null;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code: -32603, message: `mcp-sunset: upstream ${upstream.origin} is unreachable (${error.code ?? error.message})` },
  });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
