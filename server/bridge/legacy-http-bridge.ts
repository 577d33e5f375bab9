import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { bridgeStep, type BridgeStep } from '../protocol/bridge-step.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, LEGACY_BAD_REQUEST, PARSE_ERROR, SESSION_NOT_FOUND } from '../protocol/error-codes.js';
import { inputRequiredOf, inputRetryParams, unmappableInputRequest, type EmbeddedInputRequest } from '../protocol/input-required-of.js';
import { isRecord } from '../protocol/is-record.js';
import { legacyInitializeResult } from '../protocol/legacy-initialize-result.js';
import { legacyResultOf } from '../protocol/legacy-result-of.js';
import { modernizeLegacyRequest, type HandshakeFacts } from '../protocol/modernize-legacy-request.js';
import { HEADER } from '../protocol/versions.js';
import { METHOD } from '../protocol/method-names.js';
import { rpcError } from '../protocol/rpc-error.js';
import { OpenList, type Listed } from '../lib/open-list.js';
import { createBridgeListens } from './bridge-listens.js';
import { createModernPoster, type UpstreamAnswer, type UpstreamMessage } from './modern-poster.js';
import { BridgeAnswer, UNMETERED, type AnswerSink, type BridgeExchange } from './bridge-answer.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';
import { channelToken, inputRequestId, isRelayed, readChannelToken, readInputRequestId, RELAY_HEADER, relayMac } from './bridge-relay.js';
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
  /** The server path for modern requests no client request places (HTTP+SSE channels, listens). Absent: the upstream URL's. */
  defaultPath?: string;
}

/** One legacy request as the sidecar read it: its body (undefined when too large to read whole, or a GET). */
export interface BridgedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
  bodyTooLarge: boolean;
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


/** The client failed an input request, or never answered it: the original request fails with this. */
class InputFailed extends Error {}

/**
 * A legacy Streamable HTTP endpoint in front of a modern-only server. The session lives in its id
 * (sealed, see seal-bridge-session.ts), so any bridge holding the key serves any request of it;
 * each request reaches the server self-contained, and its answer comes back in the legacy shape.
 * A JSON-RPC error from the server is passed on with HTTP 200: a legacy client reads 404 as "session
 * gone" and would start over, where the modern server meant "method not found".
 *
 * An `input_required` result becomes the legacy server-to-client requests on the request's event
 * stream; the client's answers are sent back as the modern retry, under a new id. An answer that
 * lands on another node is relayed to the one holding that stream (see bridge-relay.ts).
 */
export interface LegacyHttpBridge {
  /** Reads the request itself and answers it, unmetered. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a request the sidecar read and classified, reporting the answer to its exchange. */
  serve(req: IncomingMessage, res: ServerResponse, request: BridgedRequest, exchange: BridgeExchange, announce: readonly string[]): void;
  /** The negotiated version a session id carries, when this node can open it. */
  sessionVersion(token: string): string | undefined;
  /** The method of an input request this fleet sent under `id`, read from the id itself. */
  inputRequestMethod(id: string | number): string | undefined;
  /** True for a path only the bridge answers: the HTTP+SSE stream and message endpoint. */
  claims(path: string): boolean;
  /**
   * True for a request counted on another node: an answer relayed here after it was counted where it
   * landed, or an HTTP+SSE message this node passes to the node holding its channel, which counts it.
   */
  countedElsewhere(req: IncomingMessage): boolean;
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
  /** A standalone stream of notifications: nothing the client asked for is still to come on it. */
  idle: boolean;
}

/** An HTTP+SSE channel this node holds: its stream, and the session its `initialize` opened. */
interface Channel {
  id: string;
  stream: BridgeAnswer;
  session: BridgeSession | undefined;
  /** Aborted when the stream closes: everything forwarded for the channel stops with it. */
  closed: AbortSignal;
  /** Requests forwarded for it whose answer has not been written yet. */
  busy: number;
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

export function createLegacyHttpBridge(options: LegacyHttpBridgeOptions): LegacyHttpBridge {
  // Requests this node is forwarding, by session and request id, so a cancel can close their
  // connection; and the input requests it waits on, by session and the id it gave them. Null-prototype
  // objects rather than Maps: a Map churned per request keeps its obsolete tables linked, and with
  // them the requests they held (see lib/open-list.ts).
  const forwarding: Record<string, AbortController> = Object.create(null) as Record<string, AbortController>;
  const waiting: Record<string, (answer: { result: unknown; error: unknown }) => void> = Object.create(null) as Record<string, (answer: { result: unknown; error: unknown }) => void>;
  const serving = new OpenList<Serving>();
  const channels: Record<string, Channel> = Object.create(null) as Record<string, Channel>;
  const keyOf = (session: BridgeSession, id: string | number) => `${session.id} ${typeof id} ${id}`;
  const inputTimeoutMs = options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS;
  const maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;

  const poster = createModernPoster(options.upstream);
  // On a session's home node: its standalone streams and the listens behind them.
  // A listen is the server's work for the client that opened its stream: it carries that client's edge.
  const listenEdges = new WeakMap<BridgeSession, ClientEdge>();
  const listens = createBridgeListens((request, session, signal) => postUpstream(request, session, signal, listenEdges.get(session)), options.now);

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
  ): Promise<{ session: BridgeSession; result: Record<string, unknown> } | { status: number; error: Message } | { refusedBy: UpstreamAnswer }> {
    const { params } = step;
    const clientInfo = params.clientInfo;
    if (!isRecord(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      return { status: 200, error: rpcError(step.id, INVALID_PARAMS, 'mcp-sunset bridge: initialize needs clientInfo with a name and a version') };
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
      id: randomBytes(16).toString('base64url'),
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

  async function forward(answer: AnswerSink, step: Forward, session: BridgeSession, abort: AbortController, edge: ClientEdge = NO_EDGE): Promise<void> {
    const key = keyOf(session, step.id);
    forwarding[key] = abort;
    try {
      await relay(answer, step, session, abort.signal, edge);
    } finally {
      if (forwarding[key] === abort) delete forwarding[key];
    }
  }

  /** Sends one input request to the client on the stream and waits for its answer. */
  function ask(answer: AnswerSink, session: BridgeSession, request: EmbeddedInputRequest, signal: AbortSignal): Promise<unknown> {
    const id = inputRequestId(options.ring, options.nodeUrl?.() ?? '', request.method);
    const key = keyOf(session, id);
    return new Promise((resolve, reject) => {
      const done = () => {
        delete waiting[key];
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
      };
      const aborted = () => {
        done();
        reject(new InputFailed('the request was cancelled'));
      };
      const timer = setTimeout(() => {
        done();
        reject(new InputFailed(`the client did not answer ${request.method} within ${inputTimeoutMs} ms`));
      }, inputTimeoutMs);
      signal.addEventListener('abort', aborted);
      waiting[key] = ({ result, error }) => {
        done();
        if (error !== undefined) {
          const message = isRecord(error) && typeof error.message === 'string' ? error.message : 'an error';
          return reject(new InputFailed(`the client answered ${request.method} with an error: ${message}`));
        }
        resolve(result);
      };
      answer.event({ jsonrpc: '2.0', id, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) });
    });
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
        responses = await Promise.all(input.requests.map((request) => ask(answer, session, request, signal)));
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

  async function answerRequest(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest, abort: AbortController, entry: Serving): Promise<void> {
    const { signal } = abort;
    const pathname = pathnameOf(req.url ?? '/');
    if (pathname === SSE_PATH && request.method === 'GET') return openChannel(answer, abort, entry);
    if (pathname === MESSAGE_PATH && request.method === 'POST') return channelMessage(req, answer, request, signal);
    const token = request.headers[HEADER.sessionId];
    const edge = edgeOf(req, true);
    const presented = { credential: edge.credential };
    if (request.method === 'GET' && typeof token === 'string') {
      const opened = openBridgeSession(options.ring, token, options.now(), presented);
      if (!opened.ok || options.isRevoked?.(opened.session.id) === true) {
        return answer.json(404, rpcError(null, SESSION_NOT_FOUND, `mcp-sunset bridge: session not found (${opened.ok ? 'revoked' : opened.reason})`));
      }
      entry.idle = true;
      const away = awayHome(opened.session, request.headers);
      if (away !== undefined) return streamFromHome(req, answer, away, token, signal);
      listenEdges.set(opened.session, edge);
      return listens.listen(answer, opened.session, signal);
    }
    if (request.method !== 'POST') {
      // No termination, and no stream without a session: a legacy client is told so (405) and carries on.
      req.resume();
      return answer.empty(405, ['Allow', 'POST']);
    }
    const step = readStep(req, answer, request);
    if (step === undefined) return;
    if (step.kind === 'initialize') return initialize(answer, step, signal, edge);
    if (step.kind === 'refuse') return answer.json(step.id === null ? 400 : 200, rpcError(step.id, step.code, step.message));
    if (typeof token !== 'string') return answer.json(400, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: a session id is required after initialize'));
    const opened = openBridgeSession(options.ring, token, options.now(), presented);
    if (!opened.ok) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, `mcp-sunset bridge: session not found (${opened.reason})`));
    if (options.isRevoked?.(opened.session.id) === true) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: session not found (revoked)'));
    const { session } = opened;
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
        forwarding[keyOf(session, step.requestId)]?.abort();
        return answer.empty(202);
      case 'response': {
        const waiter = waiting[keyOf(session, step.id)];
        if (waiter !== undefined) {
          waiter({ result: step.result, error: step.error });
          return answer.empty(202);
        }
        const node = readInputRequestId(options.ring, step.id)?.node;
        // Relayed once at most: a node that was relayed an answer it does not wait for refuses it.
        if (node === undefined || node === options.nodeUrl?.() || isRelayed(options.ring, request.headers, HEADER.sessionId)) {
          return answer.json(400, rpcError(null, INVALID_REQUEST, 'mcp-sunset bridge: no request of this session is waiting for that answer'));
        }
        // A step was read, so the body was there.
        return passOn(req, answer, node, request.body!, signal, token);
      }
      case 'answer':
        return answer.json(200, { jsonrpc: '2.0', id: step.id, result: step.result });
      case 'forward':
        return forward(answer, step, session, abort, edge);
      case 'subscribe': {
        const away = awayHome(session, request.headers);
        if (away !== undefined) return passOn(req, answer, away, request.body!, signal, token);
        const refused = listens.subscribe(session, step.uri, step.subscribe);
        return answer.json(200, refused === undefined ? { jsonrpc: '2.0', id: step.id, result: {} } : rpcError(step.id, INVALID_PARAMS, `mcp-sunset bridge: ${refused}`));
      }
    }
  }

  /** The session's home node, when it is another node and the request was not relayed from there already. */
  function awayHome(session: BridgeSession, headers: IncomingHttpHeaders): string | undefined {
    const { home } = session;
    if (home === undefined || home === '' || home === options.nodeUrl?.()) return undefined;
    return isRelayed(options.ring, headers, HEADER.sessionId) ? undefined : home;
  }

  /** A standalone stream opened on another node than the session's home: passed on from the home node as it comes. */
  async function streamFromHome(req: IncomingMessage, answer: BridgeAnswer, home: string, token: string, signal: AbortSignal): Promise<void> {
    const upstream = await fetch(new URL(req.url ?? '/', home), {
      headers: { accept: 'text/event-stream', [HEADER.sessionId]: token, [RELAY_HEADER]: relayMac(options.ring, token) },
      signal,
    });
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
  function openChannel(answer: BridgeAnswer, abort: AbortController, entry: Serving): void {
    const id = randomBytes(16).toString('base64url');
    const channel: Channel = { id, stream: answer, session: undefined, closed: abort.signal, busy: 0 };
    channels[id] = channel;
    entry.channel = channel;
    abort.signal.addEventListener('abort', () => delete channels[id]);
    answer.namedEvent('endpoint', `${MESSAGE_PATH}?${CHANNEL_PARAM}=${channelToken(options.ring, options.nodeUrl?.() ?? '', id)}`);
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
  async function channelMessage(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest, signal: AbortSignal): Promise<void> {
    const claim = readChannelToken(options.ring, new URL(req.url ?? '/', 'http://bridge').searchParams.get(CHANNEL_PARAM));
    if (claim === undefined) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: no such channel'));
    if (claim.node !== '' && claim.node !== options.nodeUrl?.()) {
      if (request.body === undefined) {
        req.resume();
        return answer.json(413, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: request body too large'));
      }
      return passOn(req, answer, claim.node, request.body, signal);
    }
    const channel = channels[claim.channelId];
    if (channel === undefined) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: the channel is closed'));
    const step = readStep(req, answer, request);
    if (step === undefined) return;
    if (step.kind === 'refuse' && step.id === null) return answer.json(400, rpcError(null, step.code, step.message));
    const { session } = channel;
    if (step.kind === 'response') {
      const waiter = session === undefined ? undefined : waiting[keyOf(session, step.id)];
      if (waiter === undefined) return answer.json(400, rpcError(null, INVALID_REQUEST, 'mcp-sunset bridge: no request of this channel is waiting for that answer'));
      waiter({ result: step.result, error: step.error });
      return answer.empty(202);
    }
    // Accepted first, so the count of the message waits for its answer on the stream.
    answer.empty(202);
    switch (step.kind) {
      case 'refuse':
        return channel.stream.event(rpcError(step.id, step.code, step.message));
      case 'accept':
        return;
      case 'cancel':
        if (session !== undefined) forwarding[keyOf(session, step.requestId)]?.abort();
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
          const opened = await handshake(step, channel.closed, channelEdge, false);
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
   * Passes a POST on to the node that can act on it and answers the client as that node did. With the
   * session's `token` it goes marked as relayed, counted here and not there (a client's answer, a
   * subscription); without, it is a channel's message, which the node holding the channel counts.
   */
  async function passOn(req: IncomingMessage, answer: BridgeAnswer, node: string, body: Buffer, signal: AbortSignal, token?: string): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (token !== undefined) Object.assign(headers, { [HEADER.sessionId]: token, [RELAY_HEADER]: relayMac(options.ring, token) });
    let passed: Response;
    try {
      passed = await fetch(new URL(req.url ?? '/', node), { method: 'POST', headers, body, signal });
    } catch {
      return answer.json(502, rpcError(null, INTERNAL_ERROR, `mcp-sunset bridge: the node ${node} could not be reached`));
    }
    answer.raw(passed.status, passed.headers.get('content-type'), Buffer.from(await passed.arrayBuffer()));
  }

  function serve(req: IncomingMessage, res: ServerResponse, request: BridgedRequest, exchange: BridgeExchange, announce: readonly string[]): void {
    const abort = new AbortController();
    const entry: Serving = { res, abort, exchange, channel: undefined, idle: false, openSlot: -1 };
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

  return {
    handle(req, res) {
      readBody(req, options.maxBodyBytes).then(
        ({ body, tooLarge }) => serve(req, res, { method: req.method ?? 'GET', headers: req.headers, body, bodyTooLarge: tooLarge }, UNMETERED, []),
        () => res.destroy(),
      );
    },
    serve,
    claims: (path) => {
      const pathname = pathnameOf(path);
      return pathname === SSE_PATH || pathname === MESSAGE_PATH;
    },
    countedElsewhere(req) {
      if (req.headers[RELAY_HEADER] !== undefined) return isRelayed(options.ring, req.headers, HEADER.sessionId);
      const path = req.url ?? '/';
      if (req.method !== 'POST' || pathnameOf(path) !== MESSAGE_PATH) return false;
      const claim = readChannelToken(options.ring, new URL(path, 'http://bridge').searchParams.get(CHANNEL_PARAM));
      return claim !== undefined && claim.node !== '' && claim.node !== options.nodeUrl?.();
    },
    inputRequestMethod: (id) => readInputRequestId(options.ring, id)?.method,
    sessionVersion(token) {
      const opened = openBridgeSession(options.ring, token, options.now());
      return opened.ok ? opened.session.version : undefined;
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
    close: () => poster.close(),
  };
}
