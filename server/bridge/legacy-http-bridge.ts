import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BridgeStep } from '../protocol/bridge-step.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, LEGACY_BAD_REQUEST } from '../protocol/error-codes.js';
import { HEADER } from '../protocol/versions.js';
import { rpcError } from '../protocol/rpc-error.js';
import { OpenList, type Listed } from '../lib/open-list.js';
import { OnceWithin } from '../lib/once-within.js';
import { createBridgeListens } from './bridge-listens.js';
import { createModernPoster } from './modern-poster.js';
import { BridgeAnswer, UNMETERED, type BridgeExchange } from './bridge-answer.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { Channel } from './bridge-channels.js';
import { BridgeModernServer, type ClientEdge, type Initialize } from './bridge-modern-server.js';
import type { BridgeSession } from './bridge-session.js';
import { BridgeSessions } from './bridge-sessions.js';
import type { BridgedRequest } from './bridged-request.js';
import { readChannelToken, readInputRequestId } from './bridge-relay.js';
import { channelParam, HttpSseChannels, MESSAGE_PATH, SSE_PATH } from './http-sse-channels.js';
import { InputRounds } from './input-rounds.js';
import { NodeRelays } from './node-relays.js';
import { readBridgeStep } from './read-bridge-step.js';
import { refuseSession } from './refuse-session.js';
import { routeBridgeRequest, type BridgeRoute, type BridgeTarget } from './route-bridge-request.js';
import { openNodeRelay, RELAY_HEADER, RELAY_WINDOW_MS, type RelayVerdict } from './seal-node-relay.js';
import { openBridgeSession } from './open-bridge-session.js';
import { sealBridgeSession } from './seal-bridge-session.js';
import { credentialOf, endToEndHeaders } from './end-to-end-headers.js';

export type { BridgedRequest } from './bridged-request.js';

export interface LegacyHttpBridgeOptions {
  /** The modern server's MCP endpoint. */
  upstream: URL;
  ring: BridgeKeyRing;
  sessionTtlMs: number;
  maxBodyBytes: number;
  now: () => number;
  /** Session ids (BridgeSession.id) no longer honoured, though genuine and unexpired. */
  isRevoked?: (sessionId: string) => boolean;
  /** False while this node does not know which sessions are revoked: it then honours none. Absent: known. */
  revocationsKnown?: () => boolean;
  /** How often open streams and channels are checked for expiry and revocation. Default 5 s. */
  sweepEveryMs?: number;
  /** How long the bridge waits for the client to answer one round of an `input_required` result. */
  inputTimeoutMs?: number;
  /** Rounds of `input_required` one request may take before the bridge gives up on it. */
  maxInputRounds?: number;
  /**
   * Where the other nodes reach this one, to pass it answers to the input requests it sent. Absent:
   * answers must come back to this node (one node, or a balancer with affinity).
   */
  nodeUrl?: () => string | undefined;
  /**
   * The server path a legacy Streamable HTTP request's modern requests go to: the one the proxy
   * would forward the client's own request to. Undefined (or absent): `defaultPath`.
   */
  modernPathOf?: (clientPath: string) => string | undefined;
  /**
   * The path and query a request-target is served at, when it lies inside the public prefix; a
   * relay to another node goes there and nowhere else. Absent: the target as a URL parser resolves it.
   */
  relayPathOf?: (target: string) => string | undefined;
  /** The server path for modern requests no client request places (HTTP+SSE channels, listens). Absent: the upstream URL's. */
  defaultPath?: string;
  /**
   * What a session or channel opened with a request is bound to (see CallerIdentifier.bindingOf):
   * the application and person a verified OAuth token names, so a refreshed token keeps its session.
   * Absent: the request's `Authorization` itself.
   */
  bindingOf?: (req: IncomingMessage) => string | undefined;
}

/** Who gates and counts a request here, and the caller to count it under when another node identified it. */
export interface BridgeAdmission {
  counts: boolean;
  /** For a relayed HTTP+SSE message: the caller the node it landed on identified. */
  caller: string | undefined;
}

export interface BridgeHealth {
  channels: number;
  listens: number;
  /** Requests carrying a relay header that was not accepted (forged, replayed, stale, or for something else). */
  relaysRefused: number;
}

const DEFAULT_INPUT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_INPUT_ROUNDS = 8;
const DEFAULT_SWEEP_EVERY_MS = 5_000;
const NOT_RELAYED: RelayVerdict = Object.freeze({ relayed: false });
/** Relays remembered to refuse a replay: more than a fleet relays within a window. */
const MAX_RELAYS_REMEMBERED = 100_000;

function readBody(req: IncomingMessage, maxBytes: number): Promise<{ body: Buffer | undefined; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? { body: undefined, tooLarge: true } : { body: Buffer.concat(chunks), tooLarge: false }));
    req.on('error', reject);
  });
}

/**
 * A legacy Streamable HTTP endpoint in front of a modern-only server. The session lives in its id
 * (sealed, see seal-bridge-session.ts), so any bridge holding the key serves any request of it;
 * each request reaches the server self-contained, and its answer comes back in the legacy shape.
 * A JSON-RPC error from the server is passed on with HTTP 200: a legacy client reads 404 as "session
 * gone" and would start over, where the modern server meant "method not found".
 *
 * An `input_required` result becomes the legacy server-to-client requests on the request's event
 * stream; the client's answers are sent back as the modern retry, under a new id. What only one
 * node can act on (an answer, a subscription, a listen, an HTTP+SSE message) is relayed to it, as
 * route-bridge-request.ts decides and seal-node-relay.ts seals.
 */
export interface LegacyHttpBridge {
  /** Reads the request itself and answers it, unmetered. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a request the sidecar read and classified, reporting the answer to its exchange. */
  serve(req: IncomingMessage, res: ServerResponse, request: BridgedRequest, exchange: BridgeExchange, announce: readonly string[]): void;
  /**
   * Whether the sidecar gates and counts a request here (see route-bridge-request.ts). `body`
   * answers the body as read (undefined when not whole); it is asked only for a relay's seal.
   */
  admit(req: IncomingMessage, body: () => Buffer | undefined): BridgeAdmission;
  /** The negotiated version a session id carries, when this node can open it. */
  sessionVersion(token: string): string | undefined;
  /** The method of an input request this fleet sent under `id`, read from the id itself. */
  inputRequestMethod(id: string | number): string | undefined;
  /** True for a path only the bridge answers: the HTTP+SSE stream and message endpoint. */
  claims(path: string): boolean;
  /** Ends the streams and channels of sessions expired or revoked since they opened. */
  sweep(): void;
  health(): BridgeHealth;
  /** Requests this node is answering whose answer is not through yet. */
  inFlight(): number;
  /** Ends every request still being answered, counting each as cancelled; answers how many. */
  cutInFlight(): number;
  /** Closes the kept-alive connections to the server. */
  close(): void;
}

interface Serving extends Listed {
  res: ServerResponse;
  abort: AbortController;
  exchange: BridgeExchange;
  /** Set when this response is an HTTP+SSE channel's stream. */
  channel: Channel | undefined;
  /** Set when this response is a session's standalone stream, here or passed on from its home node. */
  listening: { session: BridgeSession; end: () => void } | undefined;
  /** A standalone stream of notifications: nothing the client asked for is still to come on it. */
  idle: boolean;
}

function pathnameOf(path: string): string {
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/** The target as a URL parser resolves it, for a bridge used without a sidecar to place it. */
function resolvedPath(target: string): string | undefined {
  if (!target.startsWith('/')) return undefined;
  try {
    const url = new URL(`http://bridge.invalid${target}`);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

export function createLegacyHttpBridge(options: LegacyHttpBridgeOptions): LegacyHttpBridge {
  const serving = new OpenList<Serving>();
  const sessions = new BridgeSessions(options);
  const self = (): string => options.nodeUrl?.() ?? '';
  const rounds = new InputRounds(options.ring, self, options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS);
  // A relay is taken once: the same seal again, within its window, is a replay.
  const relaysTaken = new OnceWithin(2 * RELAY_WINDOW_MS, MAX_RELAYS_REMEMBERED);
  const verdicts = new WeakMap<IncomingMessage, RelayVerdict>();
  let relaysRefused = 0;

  const poster = createModernPoster(options.upstream);
  const modern = new BridgeModernServer({
    poster,
    defaultPath: options.defaultPath,
    rounds,
    maxInputRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
    sessionTtlMs: options.sessionTtlMs,
    now: options.now,
    ...(options.nodeUrl === undefined ? {} : { nodeUrl: options.nodeUrl }),
    ...(options.revocationsKnown === undefined ? {} : { revocationsKnown: options.revocationsKnown }),
  });
  // On a session's home node: its standalone streams and the listens behind them.
  // A listen is the server's work for the client that opened its stream: it carries that client's edge.
  const listenEdges = new WeakMap<BridgeSession, ClientEdge>();
  const listens = createBridgeListens((request, session, signal) => modern.post(request, session, signal, listenEdges.get(session)), options.now);
  const relayRefused = (answer: BridgeAnswer, why: string): void => {
    relaysRefused += 1;
    answer.json(400, rpcError(null, INVALID_REQUEST, `mcp-sunset bridge: ${why}`));
  };
  const relays = new NodeRelays({ ring: options.ring, now: options.now, relayPathOf: options.relayPathOf ?? resolvedPath, onRefused: relayRefused });
  const bindingOf = options.bindingOf ?? ((req: IncomingMessage) => credentialOf(req.headers));
  const channels = new HttpSseChannels({
    ring: options.ring,
    bindingOf,
    now: options.now,
    self,
    route,
    onRelayRefused: relayRefused,
    sessions,
    rounds,
    listens,
    modern,
    relays,
    edgeOf: (req) => edgeOf(req, false),
    onListenEdge: (session, edge) => listenEdges.set(session, edge),
  });
  const sweeper = setInterval(() => sweep(), options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS);
  sweeper.unref();

  /** Whether a request is a relay from another node, read once per request: a second read would see it as a replay. */
  function relayOf(req: IncomingMessage, bodyOf: () => Buffer | undefined): RelayVerdict {
    const header = req.headers[RELAY_HEADER];
    // Most requests carry none: nothing to check or remember.
    if (header === undefined) return NOT_RELAYED;
    const known = verdicts.get(req);
    if (known !== undefined) return known;
    const token = req.headers[HEADER.sessionId];
    let verdict = openNodeRelay(options.ring, header, { method: req.method ?? 'GET', target: req.url ?? '/', body: bodyOf(), token: typeof token === 'string' ? token : undefined }, options.now());
    if (verdict.relayed && !relaysTaken.first(String(header), options.now())) verdict = { relayed: false, refused: 'replayed' };
    if (!verdict.relayed && verdict.refused !== undefined) relaysRefused += 1;
    verdicts.set(req, verdict);
    return verdict;
  }

  function route(relay: RelayVerdict, target: BridgeTarget): BridgeRoute {
    return routeBridgeRequest({ self: self(), relayed: relay.relayed ? relay.kind : undefined, target });
  }

  /** The edge of a client request; `placed` for a Streamable HTTP request, whose path says where the server is. */
  function edgeOf(req: IncomingMessage, placed: boolean): ClientEdge {
    return {
      path: placed ? options.modernPathOf?.(req.url ?? '/') : undefined,
      headers: endToEndHeaders(req.headers, RELAY_HEADER),
      credential: bindingOf(req),
    };
  }

  async function initialize(answer: BridgeAnswer, step: Initialize, signal: AbortSignal, edge: ClientEdge): Promise<void> {
    const opened = await modern.handshake(step, signal, edge, true);
    if ('refusedBy' in opened) return modern.passAuthRefusal(answer, opened.refusedBy);
    if ('error' in opened) return answer.json(opened.status, opened.error);
    const sealed = sealBridgeSession(options.ring, opened.session);
    if (!sealed.ok) return answer.json(200, rpcError(step.id, INVALID_PARAMS, 'mcp-sunset bridge: the client capabilities are too large to carry in a session id'));
    answer.json(200, { jsonrpc: '2.0', id: step.id, result: opened.result }, [HEADER.sessionId, sealed.token]);
  }

  /** The routing target of a Streamable HTTP step of an open session. */
  function targetOf(step: BridgeStep, session: BridgeSession): BridgeTarget {
    if (step.kind === 'subscribe') return { kind: 'subscribe', home: session.home };
    if (step.kind === 'response') return { kind: 'answer', waiting: rounds.waits(session, step.id), asker: readInputRequestId(options.ring, step.id, options.now())?.node };
    return { kind: 'other' };
  }

  async function answerRequest(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest, abort: AbortController, entry: Serving): Promise<void> {
    const { signal } = abort;
    const relayed = relayOf(req, () => request.body);
    const pathname = pathnameOf(req.url ?? '/');
    if (pathname === SSE_PATH && request.method === 'GET') {
      const routed = route(relayed, { kind: 'other' });
      if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
      entry.channel = channels.open(answer, abort, bindingOf(req));
      return;
    }
    if (pathname === MESSAGE_PATH && request.method === 'POST') return channels.message(req, answer, request, relayed, signal);
    const token = request.headers[HEADER.sessionId];
    const edge = edgeOf(req, true);
    if (request.method === 'GET' && typeof token === 'string') {
      const opened = sessions.open(token, edge.credential);
      if (!opened.ok) return refuseSession(answer, opened.reason);
      const { session } = opened;
      entry.idle = true;
      entry.listening = { session, end: () => answer.end() };
      const routed = route(relayed, { kind: 'listen', home: session.home });
      if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
      if (routed.answer.by === 'relay') return relays.streamFrom(req, answer, routed.answer.to, token, request, signal);
      listenEdges.set(session, edge);
      return listens.listen(answer, session, signal);
    }
    if (request.method !== 'POST') {
      // No termination, and no stream without a session: a legacy client is told so (405) and carries on.
      req.resume();
      return answer.empty(405, ['Allow', 'POST']);
    }
    const step = readBridgeStep(req, answer, request);
    if (step === undefined) return;
    if (step.kind === 'initialize' || step.kind === 'refuse') {
      const routed = route(relayed, { kind: 'other' });
      if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
      if (step.kind === 'initialize') return initialize(answer, step, signal, edge);
      return answer.json(step.id === null ? 400 : 200, rpcError(step.id, step.code, step.message));
    }
    if (typeof token !== 'string') return answer.json(400, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: a session id is required after initialize'));
    const opened = sessions.open(token, edge.credential);
    if (!opened.ok) return refuseSession(answer, opened.reason);
    const { session } = opened;
    const routed = route(relayed, targetOf(step, session));
    if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
    if (routed.answer.by === 'relay') return relays.passOn(req, answer, routed.answer.kind, routed.answer.to, request, signal, token);
    // Sealed with a key being rotated out: the client takes the id resealed with the current key
    // from this answer (legacy clients adopt the session id of any answer), before the old one lapses.
    if (opened.stale) {
      const resealed = sealBridgeSession(options.ring, session.credential === undefined ? session : { ...session, credential: edge.credential ?? null });
      if (resealed.ok) answer.addHeader(HEADER.sessionId, resealed.token);
    }
    switch (step.kind) {
      case 'accept':
        return answer.empty(202);
      case 'cancel':
        // Only the node forwarding the request can close it; on another node the cancel is acknowledged
        // and the request runs to its end, its answer still reaching the client.
        rounds.cancel(session, step.requestId);
        return answer.empty(202);
      case 'response':
        if (rounds.answered(session, step.id, { result: step.result, error: step.error })) return answer.empty(202);
        return answer.json(400, rpcError(null, INVALID_REQUEST, 'mcp-sunset bridge: no request of this session is waiting for that answer'));
      case 'answer':
        return answer.json(200, { jsonrpc: '2.0', id: step.id, result: step.result });
      case 'forward':
        return modern.forward(answer, step, session, abort, edge);
      case 'subscribe': {
        const refused = listens.subscribe(session, step.uri, step.subscribe);
        return answer.json(200, refused === undefined ? { jsonrpc: '2.0', id: step.id, result: {} } : rpcError(step.id, INVALID_PARAMS, `mcp-sunset bridge: ${refused}`));
      }
    }
  }

  function serve(req: IncomingMessage, res: ServerResponse, request: BridgedRequest, exchange: BridgeExchange, announce: readonly string[]): void {
    const abort = new AbortController();
    const entry: Serving = { res, abort, exchange, channel: undefined, listening: undefined, idle: false, openSlot: -1 };
    serving.add(entry);
    const answer = new BridgeAnswer(res, exchange, announce);
    res.on('close', () => {
      serving.delete(entry);
      if (res.writableFinished) return;
      abort.abort();
      exchange.clientClosed();
    });
    answerRequest(req, answer, request, abort, entry).catch(() => {
      if (abort.signal.aborted) return void res.destroy();
      // The server could not be reached, or broke off its answer.
      exchange.upstreamFailed();
      if (res.headersSent) return void res.destroy();
      answer.unmetered(502, rpcError(null, INTERNAL_ERROR, 'mcp-sunset bridge: the server could not be reached'));
    });
  }

  function sweep(): void {
    // A copy: ending a stream takes its entry out of the list.
    for (const entry of [...serving.values()]) {
      const session = entry.channel?.session ?? entry.listening?.session;
      if (session === undefined || sessions.refusal(session) === undefined) continue;
      // The stream ends: a legacy client opens it again (a listen) or starts over (a channel), and is told then.
      if (entry.channel !== undefined) entry.channel.end();
      else {
        entry.abort.abort();
        entry.listening?.end();
      }
    }
  }

  return {
    handle(req, res) {
      readBody(req, options.maxBodyBytes).then(
        ({ body, tooLarge }) => serve(req, res, { method: req.method ?? 'GET', headers: req.headers, body, bodyTooLarge: tooLarge }, UNMETERED, []),
        () => res.destroy(),
      );
    },
    serve,
    admit(req, body) {
      const relayed = relayOf(req, body);
      const path = req.url ?? '/';
      const target: BridgeTarget = req.method === 'POST' && pathnameOf(path) === MESSAGE_PATH
        ? { kind: 'channel-message', holder: readChannelToken(options.ring, channelParam(path), options.now())?.node ?? '' }
        : { kind: 'unread' };
      const routed = route(relayed, target);
      return { counts: routed.counts, caller: relayed.relayed && routed.counts ? relayed.caller : undefined };
    },
    claims: (path) => {
      const pathname = pathnameOf(path);
      return pathname === SSE_PATH || pathname === MESSAGE_PATH;
    },
    inputRequestMethod: (id) => readInputRequestId(options.ring, id, options.now())?.method,
    sessionVersion(token) {
      const opened = openBridgeSession(options.ring, token, options.now());
      return opened.ok ? opened.session.version : undefined;
    },
    sweep,
    health() {
      let listening = 0;
      for (const entry of serving.values()) if (entry.listening !== undefined) listening += 1;
      return { channels: channels.size, listens: listening, relaysRefused };
    },
    inFlight() {
      // A channel's stream holds nothing back while nothing forwarded for it is still to be answered.
      let count = 0;
      for (const entry of serving.values()) if (entry.channel === undefined ? !entry.idle : entry.channel.busy > 0) count += 1;
      return count;
    },
    cutInFlight() {
      const open = serving.takeAll();
      for (const entry of open) {
        // Counted before the sockets go, so the final flush that follows includes them.
        entry.exchange.clientClosed();
        entry.abort.abort();
        entry.res.destroy();
      }
      return open.length;
    },
    close: () => {
      clearInterval(sweeper);
      poster.close();
    },
  };
}
