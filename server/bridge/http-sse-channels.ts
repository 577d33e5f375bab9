import type { IncomingMessage } from 'node:http';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, LEGACY_BAD_REQUEST, SESSION_NOT_FOUND } from '../protocol/error-codes.js';
import { rpcError } from '../protocol/rpc-error.js';
import type { AnswerSink, BridgeAnswer } from './bridge-answer.js';
import { BridgeChannels, sameCredential, type Channel } from './bridge-channels.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeListens } from './bridge-listens.js';
import type { BridgeModernServer, ClientEdge } from './bridge-modern-server.js';
import { channelToken, readChannelToken } from './bridge-relay.js';
import type { BridgeSession } from './bridge-session.js';
import type { BridgeSessions } from './bridge-sessions.js';
import type { BridgedRequest } from './bridged-request.js';
import type { InputRounds } from './input-rounds.js';
import type { NodeRelays } from './node-relays.js';
import { readBridgeStep } from './read-bridge-step.js';
import { refuseSession } from './refuse-session.js';
import type { BridgeRoute, BridgeTarget } from './route-bridge-request.js';
import type { RelayVerdict } from './seal-node-relay.js';

/**
 * Where HTTP+SSE clients find the bridge: the stream at `/sse` of the sidecar's address, and the
 * message endpoint it names, `/messages?bridge=<channel token>`.
 */
export const SSE_PATH = '/sse';
export const MESSAGE_PATH = '/messages';
export const CHANNEL_PARAM = 'bridge';

/** The channel token a message endpoint's target carries, or null. Never throws. */
export function channelParam(path: string): string | null {
  try {
    return new URL(path, 'http://bridge.invalid').searchParams.get(CHANNEL_PARAM);
  } catch {
    return null;
  }
}

export interface HttpSseChannelsOptions {
  ring: BridgeKeyRing;
  now: () => number;
  /** What a channel is bound to: the credential its stream was opened with, or what it names (see LegacyHttpBridgeOptions.bindingOf). */
  bindingOf: (req: IncomingMessage) => string | undefined;
  /** This node's URL, '' when it has none: channel tokens name it. */
  self: () => string;
  route: (relay: RelayVerdict, target: BridgeTarget) => BridgeRoute;
  onRelayRefused: (answer: BridgeAnswer, why: string) => void;
  sessions: BridgeSessions;
  rounds: InputRounds;
  listens: BridgeListens;
  modern: BridgeModernServer;
  relays: NodeRelays;
  /** The edge of a message: its own headers and credential, for the modern requests made for it. */
  edgeOf: (req: IncomingMessage) => ClientEdge;
  /** The edge a session's listens go with: the one its `initialize` came with. */
  onListenEdge: (session: BridgeSession, edge: ClientEdge) => void;
}

/**
 * The HTTP+SSE side of the bridge: a stream per channel, whose first event names its message
 * endpoint, and the POSTs to that endpoint, each accepted with 202 and answered on the stream. A POST
 * that lands on a node other than the one holding the stream is passed to that node, which gates
 * and counts it.
 */
export class HttpSseChannels {
  private readonly channels = new BridgeChannels();

  constructor(private readonly options: HttpSseChannelsOptions) {}

  get size(): number {
    return this.channels.size;
  }

  /** Opens a channel on the stream `answer`: undefined when this node holds as many as it may (answered 503). */
  open(answer: BridgeAnswer, abort: AbortController, credential: string | undefined): Channel | undefined {
    const channel = this.channels.add(answer, abort.signal, () => {
      abort.abort();
      answer.end();
    }, credential);
    if (channel === undefined) {
      answer.json(503, rpcError(null, INTERNAL_ERROR, 'mcp-sunset bridge: this node holds as many HTTP+SSE channels as it may'));
      return undefined;
    }
    answer.namedEvent('endpoint', `${MESSAGE_PATH}?${CHANNEL_PARAM}=${channelToken(this.options.ring, this.options.self(), channel.id)}`);
    return channel;
  }

  /** One POST to a message endpoint. */
  async message(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest, relayed: RelayVerdict, signal: AbortSignal): Promise<void> {
    const { options } = this;
    const token = channelParam(req.url ?? '/');
    const claim = readChannelToken(options.ring, token, options.now());
    if (claim === undefined || token === null) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: no such channel'));
    const routed = options.route(relayed, { kind: 'channel-message', holder: claim.node });
    if (routed.answer.by === 'refuse') return options.onRelayRefused(answer, routed.answer.why);
    if (routed.answer.by === 'relay') {
      if (request.body === undefined) {
        req.resume();
        return answer.json(413, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: request body too large'));
      }
      // Built from the token, not from the target the client sent.
      return options.relays.passOn(req, answer, 'channel', routed.answer.to, request, signal, undefined, `${MESSAGE_PATH}?${CHANNEL_PARAM}=${encodeURIComponent(token)}`);
    }
    const channel = this.channels.get(claim.channelId);
    if (channel === undefined) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: the channel is closed'));
    // Bound to the credential its stream was opened with: a leaked message URL is no use with another.
    if (!sameCredential(channel, this.options.bindingOf(req))) return answer.json(404, rpcError(null, SESSION_NOT_FOUND, 'mcp-sunset bridge: no such channel (other-credential)'));
    const { session } = channel;
    if (session !== undefined) {
      const why = options.sessions.refusal(session);
      if (why !== undefined) {
        refuseSession(answer, why);
        return channel.end();
      }
    }
    const step = readBridgeStep(req, answer, request);
    if (step === undefined) return;
    if (step.kind === 'refuse' && step.id === null) return answer.json(400, rpcError(null, step.code, step.message));
    if (step.kind === 'response') {
      if (session !== undefined && options.rounds.answered(session, step.id, { result: step.result, error: step.error })) return answer.empty(202);
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
        if (session !== undefined) options.rounds.cancel(session, step.requestId);
        return;
      case 'answer':
        return channel.stream.event({ jsonrpc: '2.0', id: step.id, result: step.result });
      case 'subscribe': {
        if (session === undefined) return channel.stream.event(rpcError(step.id, INVALID_REQUEST, 'mcp-sunset bridge: initialize first'));
        const refused = options.listens.subscribe(session, step.uri, step.subscribe);
        return channel.stream.event(refused === undefined ? { jsonrpc: '2.0', id: step.id, result: {} } : rpcError(step.id, INVALID_PARAMS, `mcp-sunset bridge: ${refused}`));
      }
      case 'initialize':
        return work(channel, async () => {
          const edge = options.edgeOf(req);
          const opened = await options.modern.handshake(step, channel.closed, edge, false, channel.id);
          if ('refusedBy' in opened) return channel.stream.event(rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: the server refused the credential (HTTP ${opened.refusedBy.status})`));
          if ('error' in opened) return channel.stream.event(opened.error);
          channel.session = opened.session;
          channel.stream.event({ jsonrpc: '2.0', id: step.id, result: opened.result });
          // The channel's stream is also the legacy server's push channel: list changes and subscribed resources.
          options.onListenEdge(opened.session, edge);
          options.listens.attachChannel(channel.stream, opened.session, channel.closed);
        });
      case 'forward':
        if (session === undefined) return channel.stream.event(rpcError(step.id, INVALID_REQUEST, 'mcp-sunset bridge: initialize first'));
        return work(channel, async () => {
          const abort = new AbortController();
          const stop = () => abort.abort();
          channel.closed.addEventListener('abort', stop);
          try {
            await options.modern.forward(sinkOf(channel, step.id), step, session, abort, options.edgeOf(req));
          } catch {
            if (!channel.closed.aborted) channel.stream.event(rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server could not be reached'));
          } finally {
            channel.closed.removeEventListener('abort', stop);
          }
        });
    }
  }
}

/** The stream of a channel as the place a forwarded request's answer goes: messages only, the stream stays open. */
function sinkOf(channel: Channel, id: string | number | null = null): AnswerSink {
  return {
    openStream() {},
    event: (message) => channel.stream.event(message),
    final: (_status, message) => channel.stream.event(message),
    // An HTTP+SSE client was answered 202 already: the server's refusal reaches it as the request's error.
    refused: (status) => channel.stream.event(rpcError(id, INTERNAL_ERROR, `mcp-sunset bridge: the server refused the credential (HTTP ${status})`)),
  };
}

/** Runs work for a channel after its POST was answered, keeping the channel's stream in flight meanwhile. */
function work(channel: Channel, task: () => Promise<void>): void {
  channel.busy += 1;
  task()
    .catch(() => undefined)
    .finally(() => {
      channel.busy -= 1;
    });
}
