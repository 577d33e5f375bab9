import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createParser } from 'eventsource-parser';
import { bridgeStep, type BridgeStep } from '../protocol/bridge-step.js';
import { INTERNAL_ERROR, INVALID_PARAMS, LEGACY_BAD_REQUEST, PARSE_ERROR, SESSION_NOT_FOUND } from '../protocol/error-codes.js';
import { legacyInitializeResult } from '../protocol/legacy-initialize-result.js';
import { legacyResultOf } from '../protocol/legacy-result-of.js';
import { modernizeLegacyRequest, type HandshakeFacts } from '../protocol/modernize-legacy-request.js';
import { HEADER } from '../protocol/versions.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';
import { openBridgeSession } from './open-bridge-session.js';
import { sealBridgeSession } from './seal-bridge-session.js';
import { isRecord } from '../protocol/is-record.js';

export interface LegacyHttpBridgeOptions {
  /** The modern server's MCP endpoint. */
  upstream: URL;
  ring: BridgeKeyRing;
  sessionTtlMs: number;
  maxBodyBytes: number;
  now: () => number;
}

type JsonRpcId = string | number | null;
type Message = { jsonrpc?: string; id?: JsonRpcId; method?: string; result?: unknown; error?: unknown };

const DISCOVER_ID = 'mcp-sunset-bridge-discover';

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, id: JsonRpcId, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', id, error: { code, message } });
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The answer a modern response carries: the body itself when JSON, else each event of its stream in turn. */
async function* messagesOf(response: Response): AsyncGenerator<Message> {
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    let message: Message;
    try {
      message = (await response.json()) as Message;
    } catch {
      return; // not JSON (a proxy's error page, say): no message at all
    }
    yield message;
    return;
  }
  const events: string[] = [];
  const parser = createParser({ onEvent: (event) => void (event.data !== '' && events.push(event.data)) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (events.length > 0) yield JSON.parse(events.shift()!) as Message;
  }
}

/**
 * A legacy Streamable HTTP endpoint in front of a modern-only server. The session lives in its id
 * (sealed, see seal-bridge-session.ts), so any bridge holding the key serves any request of it;
 * each request reaches the server self-contained, and its answer comes back in the legacy shape.
 * A JSON-RPC error from the server is passed on with HTTP 200: a legacy client reads 404 as "session
 * gone" and would start over, where the modern server meant "method not found".
 */
export interface LegacyHttpBridge {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Requests this node has passed on whose answer is not through yet. */
  inFlight(): number;
}

export function createLegacyHttpBridge(options: LegacyHttpBridgeOptions): LegacyHttpBridge {
  // Requests this node is forwarding, by session and request id, so a cancel can close their
  // connection. A null-prototype object rather than a Map: a Map churned per request keeps its
  // obsolete tables linked, and with them the requests they held (see lib/open-list.ts).
  const forwarding: Record<string, AbortController> = Object.create(null) as Record<string, AbortController>;
  let forwardingCount = 0;
  const forwardingKey = (session: BridgeSession, id: string | number) => `${session.id} ${typeof id} ${id}`;

  async function postUpstream(request: { id: string | number; method: string; params?: unknown }, handshake: HandshakeFacts, signal: AbortSignal): Promise<Response> {
    const { message, headers } = modernizeLegacyRequest(request, handshake);
    return fetch(options.upstream, { method: 'POST', headers, body: JSON.stringify(message), signal });
  }

  async function initialize(res: ServerResponse, step: Extract<BridgeStep, { kind: 'initialize' }>, signal: AbortSignal): Promise<void> {
    const { params } = step;
    const clientInfo = params.clientInfo;
    if (!isRecord(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      return sendError(res, 200, step.id, INVALID_PARAMS, 'mcp-sunset bridge: initialize needs clientInfo with a name and a version');
    }
    const handshake = { clientCapabilities: isRecord(params.capabilities) ? params.capabilities : {}, clientInfo };
    let discovered: Message | undefined;
    for await (const message of messagesOf(await postUpstream({ id: DISCOVER_ID, method: 'server/discover' }, handshake, signal))) {
      if (message.id === DISCOVER_ID) discovered = message;
    }
    const result = legacyInitializeResult(params.protocolVersion, discovered?.result);
    if (result === undefined) return sendError(res, 502, step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server did not answer server/discover');
    const now = options.now();
    const session: BridgeSession = {
      id: randomBytes(16).toString('base64url'),
      version: result.protocolVersion,
      clientCapabilities: handshake.clientCapabilities,
      clientInfo: clientInfo as BridgeSession['clientInfo'],
      issuedAt: now,
      expiresAt: now + options.sessionTtlMs,
    };
    const sealed = sealBridgeSession(options.ring, session);
    if (!sealed.ok) return sendError(res, 200, step.id, INVALID_PARAMS, 'mcp-sunset bridge: the client capabilities are too large to carry in a session id');
    sendJson(res, 200, { jsonrpc: '2.0', id: step.id, result }, { [HEADER.sessionId]: sealed.token });
  }

  async function forward(res: ServerResponse, step: Extract<BridgeStep, { kind: 'forward' }>, session: BridgeSession, abort: AbortController): Promise<void> {
    const key = forwardingKey(session, step.id);
    forwarding[key] = abort;
    forwardingCount += 1;
    try {
      await relay(res, step, session, abort.signal);
    } finally {
      if (forwarding[key] === abort) delete forwarding[key];
      forwardingCount -= 1;
    }
  }

  async function relay(res: ServerResponse, step: Extract<BridgeStep, { kind: 'forward' }>, session: BridgeSession, signal: AbortSignal): Promise<void> {
    const upstream = await postUpstream(step, session, signal);
    const stream = (upstream.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (stream) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let answered = false;
    for await (const message of messagesOf(upstream)) {
      let out: Message = message;
      if (message.id === step.id && message.method === undefined) {
        answered = true;
        if (message.result !== undefined) {
          const legacy = legacyResultOf(message.result);
          out = legacy === undefined
            ? { jsonrpc: '2.0', id: step.id, error: { code: INTERNAL_ERROR, message: 'mcp-sunset bridge: the server asked the client for input (input_required), which this bridge does not carry yet' } }
            : { jsonrpc: '2.0', id: step.id, result: legacy };
        }
      }
      if (!stream) return sendJson(res, 200, out);
      res.write(`event: message\ndata: ${JSON.stringify(out)}\n\n`);
    }
    const missing = { jsonrpc: '2.0', id: step.id, error: { code: INTERNAL_ERROR, message: 'mcp-sunset bridge: the server ended its answer without a JSON-RPC result' } };
    if (!stream) return sendJson(res, 502, missing);
    if (!answered) res.write(`event: message\ndata: ${JSON.stringify(missing)}\n\n`);
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse, abort: AbortController): Promise<void> {
    const { signal } = abort;
    const token = req.headers[HEADER.sessionId];
    if (req.method !== 'POST') {
      // No standalone stream and no termination: a legacy client is told so (405) and carries on.
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const raw = await readBody(req, options.maxBodyBytes);
    if (raw === undefined) return sendError(res, 413, null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: request body too large');
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return sendError(res, 400, null, PARSE_ERROR, 'mcp-sunset bridge: the body is not JSON');
    }
    const step = bridgeStep(body);
    if (step.kind === 'initialize') return initialize(res, step, signal);
    if (step.kind === 'refuse') return sendError(res, step.id === null ? 400 : 200, step.id, step.code, step.message);
    if (typeof token !== 'string') return sendError(res, 400, null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: a session id is required after initialize');
    const opened = openBridgeSession(options.ring, token, options.now());
    if (!opened.ok) return sendError(res, 404, null, SESSION_NOT_FOUND, `mcp-sunset bridge: session not found (${opened.reason})`);
    if (step.kind === 'accept') return void res.writeHead(202).end();
    if (step.kind === 'cancel') {
      // Only the node forwarding the request can close it; on another node the cancel is acknowledged
      // and the request runs to its end, its answer still reaching the client.
      forwarding[forwardingKey(opened.session, step.requestId)]?.abort();
      return void res.writeHead(202).end();
    }
    if (step.kind === 'answer') return sendJson(res, 200, { jsonrpc: '2.0', id: step.id, result: step.result });
    return forward(res, step, opened.session, abort);
  }

  return {
    handle(req, res) {
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      handle(req, res, abort).catch(() => {
        if (res.headersSent || abort.signal.aborted) return void res.destroy();
        sendError(res, 502, null, INTERNAL_ERROR, 'mcp-sunset bridge: the server could not be reached');
      });
    },
    inFlight: () => forwardingCount,
  };
}
