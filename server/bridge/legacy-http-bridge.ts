import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { bridgeStep, type BridgeStep } from '../protocol/bridge-step.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, LEGACY_BAD_REQUEST, PARSE_ERROR, SESSION_NOT_FOUND } from '../protocol/error-codes.js';
import { inputRequiredOf, inputRetryParams, unmappableInputRequest } from '../protocol/input-required-of.js';
import { isRecord } from '../protocol/is-record.js';
import { legacyInitializeResult } from '../protocol/legacy-initialize-result.js';
import { legacyResultOf } from '../protocol/legacy-result-of.js';
import { modernizeLegacyRequest, type HandshakeFacts } from '../protocol/modernize-legacy-request.js';
import { HEADER } from '../protocol/versions.js';
import { METHOD } from '../protocol/method-names.js';
import { rpcError } from '../protocol/rpc-error.js';
import { OpenList, type Listed } from '../lib/open-list.js';
import { OnceWithin } from '../lib/once-within.js';
import { createBridgeListens } from './bridge-listens.js';
import { createModernPoster, type UpstreamAnswer, type UpstreamMessage } from './modern-poster.js';
import { BridgeAnswer, UNMETERED, type AnswerSink, type BridgeExchange } from './bridge-answer.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';
import { BridgeChannels, sameCredential, type Channel } from './bridge-channels.js';
import { BridgeSessions } from './bridge-sessions.js';
import { channelToken, readChannelToken, readInputRequestId } from './bridge-relay.js';
import { InputFailed, InputRounds } from './input-rounds.js';
import { NodeRelayFailed, relayToNode, type NodeRelay } from './relay-to-node.js';
import { routeBridgeRequest, type BridgeRoute, type BridgeTarget } from './route-bridge-request.js';
import { openNodeRelay, RELAY_HEADER, RELAY_WINDOW_MS, type RelayKind, type RelayVerdict } from './seal-node-relay.js';
import { openBridgeSession } from './open-bridge-session.js';
import { sealBridgeSession } from './seal-bridge-session.js';
import { credentialOf, endToEndHeaders } from './end-to-end-headers.js';

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
}

/** One legacy request as the sidecar read it: its body (undefined when too large to read whole, or a GET). */
export interface BridgedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
  bodyTooLarge: boolean;
  /** The caller the sidecar identified, opaque here: an HTTP+SSE message relayed on is counted under it. */
  caller?: string;
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

type Message = UpstreamMessage;

/** What the client's request gives the modern requests made for it: where they go, its own headers, its credential. */
interface ClientEdge {
  path: string | undefined;
  headers: readonly [string, string][];
  credential: string | undefined;
}

const NO_EDGE: ClientEdge = Object.freeze({ path: undefined, headers: [], credential: undefined });

/** The server's answer when it refused the client's credential: passed on whole, so the client can sign in. */
function isAuthRefusal(status: number): boolean {
  return status === 401 || status === 403;
}
type Forward = Extract<BridgeStep, { kind: 'forward' }>;

const DISCOVER_ID = 'mcp-sunset-bridge-discover';
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
  /** Whether the sidecar gates and counts a request here (see route-bridge-request.ts); `body` as read, undefined when not whole. */
  admit(req: IncomingMessage, body: Buffer | undefined): BridgeAdmission;
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

/**
 * Where HTTP+SSE clients find the bridge: the stream at `/sse` of the sidecar's address, and the
 * message endpoint it names, `/messages?bridge=<channel token>`.
 */
const SSE_PATH = '/sse';
const MESSAGE_PATH = '/messages';
const CHANNEL_PARAM = 'bridge';

function pathnameOf(path: string): string {
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

function channelParam(path: string): string | null {
  try {
    return new URL(path, 'http://bridge.invalid').searchParams.get(CHANNEL_PARAM);
  } catch {
    return null;
  }
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
  const channels = new BridgeChannels();
  const sessions = new BridgeSessions(options);
  const self = (): string => options.nodeUrl?.() ?? '';
  const rounds = new InputRounds(options.ring, self, options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS);
  const maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  const relayPathOf = options.relayPathOf ?? resolvedPath;
  // A relay is taken once: the same seal again, within its window, is a replay.
  const relaysTaken = new OnceWithin(2 * RELAY_WINDOW_MS, MAX_RELAYS_REMEMBERED);
  const verdicts = new WeakMap<IncomingMessage, RelayVerdict>();
  let relaysRefused = 0;

  const poster = createModernPoster(options.upstream);
  // On a session's home node: its standalone streams and the listens behind them.
  // A listen is the server's work for the client that opened its stream: it carries that client's edge.
  const listenEdges = new WeakMap<BridgeSession, ClientEdge>();
  const listens = createBridgeListens((request, session, signal) => postUpstream(request, session, signal, listenEdges.get(session)), options.now);
  const sweeper = setInterval(() => sweep(), options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS);
  sweeper.unref();

  /** Whether a request is a relay from another node, read once per request: a second read would see it as a replay. */
  function relayOf(req: IncomingMessage, body: Buffer | undefined): RelayVerdict {
    const header = req.headers[RELAY_HEADER];
    // Most requests carry none: nothing to check or remember.
    if (header === undefined) return NOT_RELAYED;
    const known = verdicts.get(req);
    if (known !== undefined) return known;
    const token = req.headers[HEADER.sessionId];
    let verdict = openNodeRelay(options.ring, header, { method: req.method ?? 'GET', target: req.url ?? '/', body, token: typeof token === 'string' ? token : undefined }, options.now());
    if (verdict.relayed && !relaysTaken.first(String(header), options.now())) verdict = { relayed: false, refused: 'replayed' };
    if (!verdict.relayed && verdict.refused !== undefined) relaysRefused += 1;
    verdicts.set(req, verdict);
    return verdict;
  }

  function route(relay: RelayVerdict, target: BridgeTarget): BridgeRoute {
    return routeBridgeRequest({ self: self(), relayed: relay.relayed ? relay.kind : undefined, target });
  }

  function postUpstream(request: { id: string | number; method: string; params?: unknown }, handshake: HandshakeFacts, signal: AbortSignal, edge: ClientEdge = NO_EDGE): Promise<UpstreamAnswer> {
    const { message, headers } = modernizeLegacyRequest(request, handshake);
    return poster.post(edge.path ?? options.defaultPath, edge.headers.length === 0 ? headers : [...headers, ...edge.headers], JSON.stringify(message), signal);
  }

  /** The edge of a client request; `placed` for a Streamable HTTP request, whose path says where the server is. */
  function edgeOf(req: IncomingMessage, placed: boolean): ClientEdge {
    return {
      path: placed ? options.modernPathOf?.(req.url ?? '/') : undefined,
      headers: endToEndHeaders(req.headers, RELAY_HEADER),
      credential: credentialOf(req.headers),
    };
  }

  /** The handshake: the client's facts and the legacy InitializeResult built from the server's discovery, or the error to answer. */
  async function handshake(
    step: Extract<BridgeStep, { kind: 'initialize' }>,
    signal: AbortSignal,
    edge: ClientEdge,
    bind: boolean,
    /** The session's id, when it must be one already given out (a channel's, so its token revokes it). */
    id = randomBytes(16).toString('base64url'),
  ): Promise<{ session: BridgeSession; result: Record<string, unknown> } | { status: number; error: Message } | { refusedBy: UpstreamAnswer }> {
    const { params } = step;
    const clientInfo = params.clientInfo;
    if (!isRecord(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      return { status: 200, error: rpcError(step.id, INVALID_PARAMS, 'mcp-sunset bridge: initialize needs clientInfo with a name and a version') };
    }
    // A node that does not know which sessions are revoked opens none: it could not honour a revocation of it.
    if (options.revocationsKnown?.() === false) {
      return { status: 503, error: rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the revoked sessions cannot be read, so no session is opened') };
    }
    const facts = { clientCapabilities: isRecord(params.capabilities) ? params.capabilities : {}, clientInfo };
    let discovered: Message | undefined;
    const discovery = await postUpstream({ id: DISCOVER_ID, method: METHOD.discover }, facts, signal, edge);
    if (isAuthRefusal(discovery.status)) return { refusedBy: discovery };
    for await (const message of discovery.messages()) {
      if (message.id === DISCOVER_ID) discovered = message;
    }
    const result = legacyInitializeResult(params.protocolVersion, discovered?.result);
    if (result === undefined) return { status: 502, error: rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server did not answer server/discover') };
    const now = options.now();
    const home = options.nodeUrl?.();
    const session: BridgeSession = {
      id,
      version: result.protocolVersion,
      clientCapabilities: facts.clientCapabilities,
      clientInfo: clientInfo as BridgeSession['clientInfo'],
      issuedAt: now,
      expiresAt: now + options.sessionTtlMs,
      ...(home === undefined ? {} : { home }),
      // Bound to the credential that opened it: the same id with another credential, or none, is refused.
      ...(bind ? { credential: edge.credential ?? null } : {}),
    };
    return { session, result: result as unknown as Record<string, unknown> };
  }

  async function initialize(answer: BridgeAnswer, step: Extract<BridgeStep, { kind: 'initialize' }>, signal: AbortSignal, edge: ClientEdge): Promise<void> {
    const opened = await handshake(step, signal, edge, true);
    if ('refusedBy' in opened) return passAuthRefusal(answer, opened.refusedBy);
    if ('error' in opened) return answer.json(opened.status, opened.error);
    const sealed = sealBridgeSession(options.ring, opened.session);
    if (!sealed.ok) return answer.json(200, rpcError(step.id, INVALID_PARAMS, 'mcp-sunset bridge: the client capabilities are too large to carry in a session id'));
    answer.json(200, { jsonrpc: '2.0', id: step.id, result: opened.result }, [HEADER.sessionId, sealed.token]);
  }

  /** The server's 401 or 403 as it gave it, `WWW-Authenticate` included, so a legacy client signs in as against a legacy server. */
  async function passAuthRefusal(answer: AnswerSink, refused: UpstreamAnswer): Promise<void> {
    const body = await refused.bytes();
    const challenge = refused.headers['www-authenticate'];
    const headers = challenge === undefined ? [] : ['WWW-Authenticate', Array.isArray(challenge) ? challenge.join(', ') : challenge];
    answer.refused(refused.status, refused.headers['content-type'] ?? null, body, headers);
  }

  function forward(answer: AnswerSink, step: Forward, session: BridgeSession, abort: AbortController, edge: ClientEdge = NO_EDGE): Promise<void> {
    return rounds.run(session, step.id, abort, () => relay(answer, step, session, abort.signal, edge));
  }

  async function relay(answer: AnswerSink, step: Forward, session: BridgeSession, signal: AbortSignal, edge: ClientEdge): Promise<void> {
    let upstreamId: string | number = step.id;
    let params = step.params;
    for (let round = 0; ; round += 1) {
      const upstream = await postUpstream({ id: upstreamId, method: step.method, params }, session, signal, edge);
      if (isAuthRefusal(upstream.status) && round === 0) return passAuthRefusal(answer, upstream);
      if (upstream.stream) answer.openStream();
      let final: Message | undefined;
      for await (const message of upstream.messages()) {
        if (message.id === upstreamId && message.method === undefined) {
          final = message;
          break;
        }
        answer.event(message);
      }
      if (final === undefined) return answer.final(502, rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server ended its answer without a JSON-RPC result'));
      if (final.result === undefined) return answer.final(200, { ...final, id: step.id });
      const input = inputRequiredOf(final.result);
      if (input === undefined) {
        const legacy = legacyResultOf(final.result);
        return answer.final(200, legacy === undefined
          ? rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server answered with a result the legacy era has no shape for')
          : { jsonrpc: '2.0', id: step.id, result: legacy });
      }
      if (round >= maxInputRounds) return answer.final(200, rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: the server still asked for input after ${maxInputRounds} rounds`));
      for (const request of input.requests) {
        const why = unmappableInputRequest(request, session.version);
        if (why !== undefined) return answer.final(200, rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: ${why}`));
      }
      answer.openStream();
      let responses: unknown[];
      try {
        responses = await Promise.all(input.requests.map((request) => rounds.ask(answer, session, request, signal)));
      } catch (error) {
        if (!(error instanceof InputFailed)) throw error;
        return answer.final(200, rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: ${error.message}`));
      }
      const inputResponses = Object.fromEntries(input.requests.map((request, index) => [request.key, responses[index]]));
      params = inputRetryParams(step.params, inputResponses, input.requestState);
      // The retry is a new request (26:basic/patterns/mrtr.mdx): a fresh id the client never sees.
      upstreamId = `mcp-sunset-bridge-retry-${randomBytes(9).toString('base64url')}`;
    }
  }

  /** The step a POST's body asks for; undefined once a body too large, or not JSON, has been answered. */
  function readStep(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest): BridgeStep | undefined {
    if (request.bodyTooLarge || request.body === undefined) {
      req.resume();
      answer.json(413, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: request body too large'));
      return undefined;
    }
    try {
      return bridgeStep(JSON.parse(request.body.toString('utf8')));
    } catch {
      answer.json(400, rpcError(null, PARSE_ERROR, 'mcp-sunset bridge: the body is not JSON'));
      return undefined;
    }
  }

  function sessionRefused(answer: BridgeAnswer, reason: string): void {
    answer.json(reason === 'revocations-unknown' ? 503 : 404, rpcError(null, SESSION_NOT_FOUND, `mcp-sunset bridge: session not found (${reason})`));
  }

  function relayRefused(answer: BridgeAnswer, why: string): void {
    relaysRefused += 1;
    answer.json(400, rpcError(null, INVALID_REQUEST, `mcp-sunset bridge: ${why}`));
  }

  /** The routing target of a Streamable HTTP step of an open session. */
  function targetOf(step: BridgeStep, session: BridgeSession): BridgeTarget {
    if (step.kind === 'subscribe') return { kind: 'subscribe', home: session.home };
    if (step.kind === 'response') return { kind: 'answer', waiting: rounds.waits(session, step.id), asker: readInputRequestId(options.ring, step.id, options.now())?.node };
    return { kind: 'other' };
  }

  async function answerRequest(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest, abort: AbortController, entry: Serving): Promise<void> {
    const { signal } = abort;
    const relayed = relayOf(req, request.body);
    const pathname = pathnameOf(req.url ?? '/');
    if (pathname === SSE_PATH && request.method === 'GET') {
      const routed = route(relayed, { kind: 'other' });
      if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
      return openChannel(answer, abort, entry, credentialOf(req.headers));
    }
    if (pathname === MESSAGE_PATH && request.method === 'POST') return channelMessage(req, answer, request, relayed, signal);
    const token = request.headers[HEADER.sessionId];
    const edge = edgeOf(req, true);
    if (request.method === 'GET' && typeof token === 'string') {
      const opened = sessions.open(token, edge.credential);
      if (!opened.ok) return sessionRefused(answer, opened.reason);
      const { session } = opened;
      entry.idle = true;
      entry.listening = { session, end: () => answer.end() };
      const routed = route(relayed, { kind: 'listen', home: session.home });
      if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
      if (routed.answer.by === 'relay') return streamFromHome(req, answer, routed.answer.to, token, request, signal);
      listenEdges.set(session, edge);
      return listens.listen(answer, session, signal);
    }
    if (request.method !== 'POST') {
      // No termination, and no stream without a session: a legacy client is told so (405) and carries on.
      req.resume();
      return answer.empty(405, ['Allow', 'POST']);
    }
    const step = readStep(req, answer, request);
    if (step === undefined) return;
    if (step.kind === 'initialize' || step.kind === 'refuse') {
      const routed = route(relayed, { kind: 'other' });
      if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
      if (step.kind === 'initialize') return initialize(answer, step, signal, edge);
      return answer.json(step.id === null ? 400 : 200, rpcError(step.id, step.code, step.message));
    }
    if (typeof token !== 'string') return answer.json(400, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: a session id is required after initialize'));
    const opened = sessions.open(token, edge.credential);
    if (!opened.ok) return sessionRefused(answer, opened.reason);
    const { session } = opened;
    const routed = route(relayed, targetOf(step, session));
    if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
    if (routed.answer.by === 'relay') return passOn(req, answer, routed.answer.kind, routed.answer.to, request, signal, token);
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
        return forward(answer, step, session, abort, edge);
      case 'subscribe': {
        const refused = listens.subscribe(session, step.uri, step.subscribe);
        return answer.json(200, refused === undefined ? { jsonrpc: '2.0', id: step.id, result: {} } : rpcError(step.id, INVALID_PARAMS, `mcp-sunset bridge: ${refused}`));
      }
    }
  }

  /** The relay of a request to `node`, at the path this node placed it, or undefined when it cannot be placed inside the public prefix. */
  function relayFor(kind: RelayKind, node: string, path: string | undefined, req: IncomingMessage, request: BridgedRequest, signal: AbortSignal, token: string | undefined): NodeRelay | undefined {
    if (path === undefined) return undefined;
    return {
      kind, node, path, method: kind === 'listen' ? 'GET' : 'POST', body: kind === 'listen' ? undefined : request.body,
      clientHeaders: req.headers, token, sessionHeader: HEADER.sessionId, caller: request.caller ?? '', signal,
    };
  }

  /** A standalone stream opened on another node than the session's home: passed on from the home node as it comes. */
  async function streamFromHome(req: IncomingMessage, answer: BridgeAnswer, home: string, token: string, request: BridgedRequest, signal: AbortSignal): Promise<void> {
    const relay = relayFor('listen', home, relayPathOf(req.url ?? '/'), req, request, signal, token);
    if (relay === undefined) return relayRefused(answer, 'this request cannot be relayed from its path');
    let upstream: Response;
    try {
      upstream = await relayToNode(options.ring, options.now(), relay);
    } catch (error) {
      if (!(error instanceof NodeRelayFailed)) throw error;
      return answer.json(502, rpcError(null, INTERNAL_ERROR, `mcp-sunset bridge: ${error.message}`));
    }
    const type = upstream.headers.get('content-type');
    if (!(type ?? '').startsWith('text/event-stream') || upstream.body === null) {
      return answer.raw(upstream.status, type, Buffer.from(await upstream.arrayBuffer()));
    }
    answer.openStream();
    const decoder = new TextDecoder();
    for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) answer.rawChunk(decoder.decode(chunk, { stream: true }));
    answer.end();
  }

  /** Opens an HTTP+SSE channel: a stream whose first event names the message endpoint, with the token of this channel and node. */
  function openChannel(answer: BridgeAnswer, abort: AbortController, entry: Serving, credential: string | undefined): void {
    const channel = channels.add(answer, abort.signal, () => {
      abort.abort();
      answer.end();
    }, credential);
    if (channel === undefined) return answer.json(503, rpcError(null, INTERNAL_ERROR, 'mcp-sunset bridge: this node holds as many HTTP+SSE channels as it may'));
    entry.channel = channel;
    answer.namedEvent('endpoint', `${MESSAGE_PATH}?${CHANNEL_PARAM}=${channelToken(options.ring, self(), channel.id)}`);
  }

  /** The stream of a channel as the place a forwarded request's answer goes: messages only, the stream stays open. */
  function channelSink(channel: Channel, id: string | number | null = null): AnswerSink {
    return {
      openStream() {},
      event: (message) => channel.stream.event(message),
      final: (_status, message) => channel.stream.event(message),
      // An HTTP+SSE client was answered 202 already: the server's refusal reaches it as the request's error.
      refused: (status) => channel.stream.event(rpcError(id, INTERNAL_ERROR, `mcp-sunset bridge: the server refused the credential (HTTP ${status})`)),
    };
  }

  /**
   * One POST to an HTTP+SSE message endpoint: accepted with 202, its answer written to the channel's
   * stream. A POST that lands on a node other than the one holding the stream is passed to that node.
   */
  async function channelMessage(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest, relayed: RelayVerdict, signal: AbortSignal): Promise<void> {
    const token = channelParam(req.url ?? '/');
    const claim = readChannelToken(options.ring, token, options.now());
    if (claim === undefined || token === null) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: no such channel'));
    const routed = route(relayed, { kind: 'channel-message', holder: claim.node });
    if (routed.answer.by === 'refuse') return relayRefused(answer, routed.answer.why);
    if (routed.answer.by === 'relay') {
      if (request.body === undefined) {
        req.resume();
        return answer.json(413, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: request body too large'));
      }
      // Built from the token, not from the target the client sent.
      return passOn(req, answer, 'channel', routed.answer.to, request, signal, undefined, `${MESSAGE_PATH}?${CHANNEL_PARAM}=${encodeURIComponent(token)}`);
    }
    const channel = channels.get(claim.channelId);
    if (channel === undefined) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: the channel is closed'));
    // Bound to the credential its stream was opened with: a leaked message URL is no use with another.
    if (!sameCredential(channel, credentialOf(req.headers))) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: no such channel (other-credential)'));
    const { session } = channel;
    if (session !== undefined) {
      const why = sessions.refusal(session);
      if (why !== undefined) {
        sessionRefused(answer, why);
        return channel.end();
      }
    }
    const step = readStep(req, answer, request);
    if (step === undefined) return;
    if (step.kind === 'refuse' && step.id === null) return answer.json(400, rpcError(null, step.code, step.message));
    if (step.kind === 'response') {
      if (session !== undefined && rounds.answered(session, step.id, { result: step.result, error: step.error })) return answer.empty(202);
      return answer.json(400, rpcError(null, INVALID_REQUEST, 'mcp-sunset bridge: no request of this channel is waiting for that answer'));
    }
    // Accepted first, so the count of the message waits for its answer on the stream.
    answer.empty(202);
    switch (step.kind) {
      case 'refuse':
        return channel.stream.event(rpcError(step.id, step.code, step.message));
      case 'accept':
        return;
      case 'cancel':
        if (session !== undefined) rounds.cancel(session, step.requestId);
        return;
      case 'answer':
        return channel.stream.event({ jsonrpc: '2.0', id: step.id, result: step.result });
      case 'subscribe': {
        if (session === undefined) return channel.stream.event(rpcError(step.id, INVALID_REQUEST, 'mcp-sunset bridge: initialize first'));
        const refused = listens.subscribe(session, step.uri, step.subscribe);
        return channel.stream.event(refused === undefined ? { jsonrpc: '2.0', id: step.id, result: {} } : rpcError(step.id, INVALID_PARAMS, `mcp-sunset bridge: ${refused}`));
      }
      case 'initialize':
        return channelWork(channel, async () => {
          const channelEdge = edgeOf(req, false);
          const opened = await handshake(step, channel.closed, channelEdge, false, channel.id);
          if ('refusedBy' in opened) return channel.stream.event(rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: the server refused the credential (HTTP ${opened.refusedBy.status})`));
          if ('error' in opened) return channel.stream.event(opened.error);
          channel.session = opened.session;
          channel.stream.event({ jsonrpc: '2.0', id: step.id, result: opened.result });
          // The channel's stream is also the legacy server's push channel: list changes and subscribed resources.
          listenEdges.set(opened.session, channelEdge);
          listens.attachChannel(channel.stream, opened.session, channel.closed);
        });
      case 'forward':
        if (session === undefined) return channel.stream.event(rpcError(step.id, INVALID_REQUEST, 'mcp-sunset bridge: initialize first'));
        return channelWork(channel, async () => {
          const abort = new AbortController();
          const stop = () => abort.abort();
          channel.closed.addEventListener('abort', stop);
          try {
            await forward(channelSink(channel, step.id), step, session, abort, edgeOf(req, false));
          } catch {
            if (!channel.closed.aborted) channel.stream.event(rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server could not be reached'));
          } finally {
            channel.closed.removeEventListener('abort', stop);
          }
        });
    }
  }

  /** Runs work for a channel after its POST was answered, keeping the channel's stream in flight meanwhile. */
  function channelWork(channel: Channel, work: () => Promise<void>): void {
    channel.busy += 1;
    work()
      .catch(() => undefined)
      .finally(() => {
        channel.busy -= 1;
      });
  }

  /**
   * Passes a POST on to the node that can act on it and answers the client as that node did. It is
   * counted where route-bridge-request.ts says: here for an answer or a subscription, on the node
   * holding the channel for an HTTP+SSE message.
   */
  async function passOn(req: IncomingMessage, answer: BridgeAnswer, kind: RelayKind, node: string, request: BridgedRequest, signal: AbortSignal, token: string | undefined, path = relayPathOf(req.url ?? '/')): Promise<void> {
    const relay = relayFor(kind, node, path, req, request, signal, token);
    if (relay === undefined) return relayRefused(answer, 'this request cannot be relayed from its path');
    let passed: Response;
    try {
      passed = await relayToNode(options.ring, options.now(), relay);
    } catch (error) {
      if (!(error instanceof NodeRelayFailed)) throw error;
      return answer.json(502, rpcError(null, INTERNAL_ERROR, `mcp-sunset bridge: ${error.message}`));
    }
    answer.raw(passed.status, passed.headers.get('content-type'), Buffer.from(await passed.arrayBuffer()));
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
