import { randomBytes } from 'node:crypto';
import type { BridgeStep } from '../protocol/bridge-step.js';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../protocol/error-codes.js';
import { inputRequiredOf, inputRetryParams, unmappableInputRequest } from '../protocol/input-required-of.js';
import { isRecord } from '../protocol/is-record.js';
import { legacyInitializeResult } from '../protocol/legacy-initialize-result.js';
import { legacyResultOf } from '../protocol/legacy-result-of.js';
import { modernizeLegacyRequest, type HandshakeFacts } from '../protocol/modernize-legacy-request.js';
import { METHOD } from '../protocol/method-names.js';
import { rpcError } from '../protocol/rpc-error.js';
import type { AnswerSink } from './bridge-answer.js';
import type { BridgeSession } from './bridge-session.js';
import { InputFailed, type InputRounds } from './input-rounds.js';
import type { ModernPoster, UpstreamAnswer, UpstreamMessage } from './modern-poster.js';

/** What the client's request gives the modern requests made for it: where they go, its own headers, its credential. */
export interface ClientEdge {
  path: string | undefined;
  headers: readonly [string, string][];
  credential: string | undefined;
}

const NO_EDGE: ClientEdge = Object.freeze({ path: undefined, headers: [], credential: undefined });

export type Initialize = Extract<BridgeStep, { kind: 'initialize' }>;
export type Forward = Extract<BridgeStep, { kind: 'forward' }>;

export type Handshake = { session: BridgeSession; result: Record<string, unknown> } | { status: number; error: UpstreamMessage } | { refusedBy: UpstreamAnswer };

export interface BridgeModernServerOptions {
  poster: ModernPoster;
  /** The server path for modern requests no client request places. */
  defaultPath: string | undefined;
  rounds: InputRounds;
  maxInputRounds: number;
  sessionTtlMs: number;
  now: () => number;
  nodeUrl?: () => string | undefined;
  revocationsKnown?: () => boolean;
}

const DISCOVER_ID = 'mcp-sunset-bridge-discover';

/** The server's answer when it refused the client's credential: passed on whole, so the client can sign in. */
function isAuthRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * The bridge's side of the modern server: every modern request it makes for a legacy client, the
 * handshake built from `server/discover`, and a forwarded request with its `input_required` rounds.
 */
export class BridgeModernServer {
  constructor(private readonly options: BridgeModernServerOptions) {}

  post(request: { id: string | number; method: string; params?: unknown }, handshake: HandshakeFacts, signal: AbortSignal, edge: ClientEdge = NO_EDGE): Promise<UpstreamAnswer> {
    const { message, headers } = modernizeLegacyRequest(request, handshake);
    return this.options.poster.post(edge.path ?? this.options.defaultPath, edge.headers.length === 0 ? headers : [...headers, ...edge.headers], JSON.stringify(message), signal);
  }

  /**
   * The handshake: the client's facts and the legacy InitializeResult built from the server's
   * discovery, or the error to answer. `bind` ties the session to the edge's credential; `id` is the
   * session's id when it must be one already given out (a channel's, so its token revokes it).
   */
  async handshake(step: Initialize, signal: AbortSignal, edge: ClientEdge, bind: boolean, id = randomBytes(16).toString('base64url')): Promise<Handshake> {
    const { params } = step;
    const clientInfo = params.clientInfo;
    if (!isRecord(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      return { status: 200, error: rpcError(step.id, INVALID_PARAMS, 'mcp-sunset bridge: initialize needs clientInfo with a name and a version') };
    }
    // A node that does not know which sessions are revoked opens none: it could not honour a revocation of it.
    if (this.options.revocationsKnown?.() === false) {
      return { status: 503, error: rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the revoked sessions cannot be read, so no session is opened') };
    }
    const facts = { clientCapabilities: isRecord(params.capabilities) ? params.capabilities : {}, clientInfo };
    let discovered: UpstreamMessage | undefined;
    const discovery = await this.post({ id: DISCOVER_ID, method: METHOD.discover }, facts, signal, edge);
    if (isAuthRefusal(discovery.status)) return { refusedBy: discovery };
    for await (const message of discovery.messages()) {
      if (message.id === DISCOVER_ID) discovered = message;
    }
    const result = legacyInitializeResult(params.protocolVersion, discovered?.result);
    if (result === undefined) return { status: 502, error: rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server did not answer server/discover') };
    const now = this.options.now();
    const home = this.options.nodeUrl?.();
    const session: BridgeSession = {
      id,
      version: result.protocolVersion,
      clientCapabilities: facts.clientCapabilities,
      clientInfo: clientInfo as BridgeSession['clientInfo'],
      issuedAt: now,
      expiresAt: now + this.options.sessionTtlMs,
      ...(home === undefined ? {} : { home }),
      // Bound to the credential that opened it: the same id with another credential, or none, is refused.
      ...(bind ? { credential: edge.credential ?? null } : {}),
    };
    return { session, result: result as unknown as Record<string, unknown> };
  }

  /** The server's 401 or 403 as it gave it, `WWW-Authenticate` included, so a legacy client signs in as against a legacy server. */
  async passAuthRefusal(answer: AnswerSink, refused: UpstreamAnswer): Promise<void> {
    const body = await refused.bytes();
    const challenge = refused.headers['www-authenticate'];
    const headers = challenge === undefined ? [] : ['WWW-Authenticate', Array.isArray(challenge) ? challenge.join(', ') : challenge];
    answer.refused(refused.status, refused.headers['content-type'] ?? null, body, headers);
  }

  /** Forwards one request of a session, cancellable by the client while it runs. */
  forward(answer: AnswerSink, step: Forward, session: BridgeSession, abort: AbortController, edge: ClientEdge = NO_EDGE): Promise<void> {
    return this.options.rounds.run(session, step.id, abort, () => this.rounds(answer, step, session, abort.signal, edge));
  }

  /** The request, and each retry the server's `input_required` asks for, until a result the legacy era can take. */
  private async rounds(answer: AnswerSink, step: Forward, session: BridgeSession, signal: AbortSignal, edge: ClientEdge): Promise<void> {
    const { maxInputRounds, rounds } = this.options;
    let upstreamId: string | number = step.id;
    let params = step.params;
    for (let round = 0; ; round += 1) {
      const upstream = await this.post({ id: upstreamId, method: step.method, params }, session, signal, edge);
      if (isAuthRefusal(upstream.status) && round === 0) return this.passAuthRefusal(answer, upstream);
      if (upstream.stream) answer.openStream();
      let final: UpstreamMessage | undefined;
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
}
