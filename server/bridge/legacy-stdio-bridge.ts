import { randomBytes } from 'node:crypto';
import { bridgeStep, type BridgeStep } from '../protocol/bridge-step.js';
import { cancelledNotification } from '../protocol/cancelled-notification.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR } from '../protocol/error-codes.js';
import { inputRequiredOf, inputRetryParams, unmappableInputRequest, type EmbeddedInputRequest } from '../protocol/input-required-of.js';
import { isRecord } from '../protocol/is-record.js';
import { legacyInitializeResult } from '../protocol/legacy-initialize-result.js';
import { legacyNotificationOf, LIST_CHANGED_FILTER, META_SUBSCRIPTION_ID } from '../protocol/legacy-notification-of.js';
import { legacyResultOf } from '../protocol/legacy-result-of.js';
import { METHOD } from '../protocol/method-names.js';
import { rpcError } from '../protocol/rpc-error.js';
import { modernizeLegacyRequest, type HandshakeFacts } from '../protocol/modernize-legacy-request.js';
import { isId, parseJson, type JsonRpcId } from '../protocol/read-json-rpc.js';

/** Where the bridge writes: whole lines, without their newline. */
export interface LegacyStdioBridgePorts {
  toClient(line: string): void;
  toServer(line: string): void;
}

export interface LegacyStdioBridgeOptions {
  /** How long the bridge waits for the client to answer one round of an `input_required` result. */
  inputTimeoutMs: number;
  /** Rounds of `input_required` one request may take before the bridge gives up on it. */
  maxInputRounds?: number;
  /** A fault of the bridge's own; the request it was answering gets a JSON-RPC error. */
  onError?: (error: unknown) => void;
}

/**
 * A legacy stdio server in front of a modern-only one, for one process: the client's handshake is
 * held here (nothing is sealed, the process is the session), `initialize` is answered from the
 * server's `server/discover`, and every other request reaches the server self-contained under an
 * id of the bridge's own, its answer coming back to the client in the legacy shape under the
 * client's id. An `input_required` result becomes legacy requests to the client, and its answers
 * the modern retry. Whatever the server writes that answers none of the bridge's requests
 * (progress, a request the modern era does not allow, an answer to a request the client sent it
 * directly) is the client's to read, unchanged, as it is without the bridge; and a client answer or
 * cancel the bridge cannot place goes to the server unchanged, since it can only concern a request
 * of the server's or one the client sent the server directly.
 */
export interface LegacyStdioBridge {
  clientLine(line: string): void;
  /** True when the line answered a request of the bridge's: the client never sees it. */
  serverLine(line: string): boolean;
  /** A client line past the bound, unread: the client is told, as its id is unknown. */
  tooLong(maxBytes: number): void;
  close(): void;
}

type Message = Record<string, unknown>;
type Forward = Extract<BridgeStep, { kind: 'forward' }>;
type Initialize = Extract<BridgeStep, { kind: 'initialize' }>;

interface Negotiated {
  version: string;
  handshake: HandshakeFacts;
}

const DEFAULT_MAX_INPUT_ROUNDS = 8;
/** Resources one client may subscribe to through the bridge, whatever it sends. */
const MAX_SUBSCRIBED_URIS = 64;
/**
 * An SDK v1 client handles a notification a microtask after reading it but a response at once: when
 * a request's last progress and its answer come in one read, the request is settled first and the
 * progress dropped. So an answer waits this long after the server's last line passed to the client.
 */
const QUIET_AFTER_PASSED_MS = 20;

/** The request was cancelled by the client, or the bridge closed: nothing is answered. */
class Cancelled extends Error {}
/** The client failed an input request, or never answered it: the original request fails with this. */
class InputFailed extends Error {}


/** A batch is refused request by request, each under its own id, as a server answers a batch. */
function refuseBatch(batch: unknown[], message: string): unknown {
  const ids = batch.flatMap((element) => (isRecord(element) && typeof element.method === 'string' && isId(element.id) ? [element.id] : []));
  return ids.length === 0 ? rpcError(null, INVALID_REQUEST, message) : ids.map((id) => rpcError(id, INVALID_REQUEST, message));
}

function errorMessageOf(error: unknown): string | undefined {
  return isRecord(error) && typeof error.message === 'string' ? error.message : undefined;
}

export function createLegacyStdioBridge(ports: LegacyStdioBridgePorts, options: LegacyStdioBridgeOptions): LegacyStdioBridge {
  // Every id the bridge makes starts with this, random per process: no id of the client's or the
  // server's is ever taken for one of the bridge's, and a server line that lacks it is not read.
  const prefix = `mcp-sunset-bridge-${randomBytes(9).toString('base64url')}-`;
  let sequence = 0;
  const newId = () => `${prefix}${(sequence += 1).toString(36)}`;
  /** Requests sent to the server, by id, and requests sent to the client for input. */
  const serverWaits = new Map<string, (answer: Message) => void>();
  const clientWaits = new Map<string, (answer: { result: unknown; error: unknown }) => void>();
  /** The client's requests being answered, by `typeof id:id`, so a cancel finds them. */
  const carried = new Map<string, AbortController>();
  const maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  let negotiated: Negotiated | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  /** When a line of the server's last went to the client (performance.now()). */
  let passedAt = Number.NEGATIVE_INFINITY;
  /**
   * The legacy server's pushes, from a modern `subscriptions/listen` the bridge holds on the
   * client's behalf: the list changes, and the resources it subscribed to. A new filter is a new
   * listen; the one it replaces is cancelled once the server acknowledges the new one.
   */
  const subscribedUris = new Set<string>();
  let listening: string | undefined;
  let replacing: string | undefined;

  const keyOf = (id: JsonRpcId) => `${typeof id}:${id}`;
  const toClient = (message: unknown) => void (closed || ports.toClient(JSON.stringify(message)));
  const toServer = (message: unknown) => void (closed || ports.toServer(JSON.stringify(message)));

  /** One modern request to the server; a cancel on `signal` is passed on as the modern stdio cancel. */
  function askServer(method: string, params: unknown, handshake: HandshakeFacts, signal?: AbortSignal): Promise<Message> {
    if (signal?.aborted === true) return Promise.reject(new Cancelled());
    const id = newId();
    const { message } = modernizeLegacyRequest({ id, method, params }, handshake);
    return new Promise((resolve, reject) => {
      const aborted = () => {
        serverWaits.delete(id);
        toServer(cancelledNotification(id, signal?.reason));
        reject(new Cancelled());
      };
      signal?.addEventListener('abort', aborted, { once: true });
      serverWaits.set(id, (answer) => {
        signal?.removeEventListener('abort', aborted);
        resolve(answer);
      });
      toServer(message);
    });
  }

  /** One legacy request to the client; given up on (and the client told so) on timeout or abort. */
  function askClient(request: EmbeddedInputRequest, signal: AbortSignal): Promise<unknown> {
    const id = newId();
    return new Promise((resolve, reject) => {
      const settle = () => {
        clientWaits.delete(id);
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
      };
      const giveUp = (error: Error) => {
        settle();
        toClient(cancelledNotification(id, error.message));
        reject(error);
      };
      const aborted = () => giveUp(new Cancelled('the request was cancelled'));
      const timer = setTimeout(() => giveUp(new InputFailed(`the client did not answer ${request.method} within ${options.inputTimeoutMs} ms`)), options.inputTimeoutMs);
      signal.addEventListener('abort', aborted, { once: true });
      clientWaits.set(id, ({ result, error }) => {
        settle();
        if (error === undefined) return resolve(result);
        reject(new InputFailed(`the client answered ${request.method} with an error: ${errorMessageOf(error) ?? 'an error'}`));
      });
      toClient({ jsonrpc: '2.0', id, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) });
    });
  }

  /** The line as an answer to one of the bridge's requests, or undefined for any other line. */
  function ownAnswerOf(line: string): { id: string; answer: Message } | undefined {
    if (!line.includes(prefix)) return undefined;
    const parsed = parseJson(line);
    if (!parsed.ok || !isRecord(parsed.value) || 'method' in parsed.value) return undefined;
    const { id } = parsed.value;
    return typeof id === 'string' && id.startsWith(prefix) ? { id, answer: parsed.value } : undefined;
  }

  async function initialize(step: Initialize): Promise<void> {
    const { params } = step;
    const clientInfo = params.clientInfo;
    if (!isRecord(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      return toClient(rpcError(step.id, INVALID_PARAMS, 'mcp-sunset bridge: initialize needs clientInfo with a name and a version'));
    }
    const handshake = { clientCapabilities: isRecord(params.capabilities) ? params.capabilities : {}, clientInfo };
    const discovered = await askServer(METHOD.discover, undefined, handshake);
    const result = legacyInitializeResult(params.protocolVersion, discovered.result);
    if (result === undefined) {
      const why = errorMessageOf(discovered.error);
      return toClient(rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: the server did not answer ${METHOD.discover}${why === undefined ? '' : `: ${why}`}`));
    }
    negotiated = { version: result.protocolVersion, handshake };
    toClient({ jsonrpc: '2.0', id: step.id, result });
    listen(negotiated);
  }

  /** Opens a listen with the filter the client's subscriptions make now. */
  function listen(at: Negotiated): void {
    const id = newId();
    replacing = id;
    const notifications = subscribedUris.size === 0 ? LIST_CHANGED_FILTER : { ...LIST_CHANGED_FILTER, resourceSubscriptions: [...subscribedUris] };
    toServer(modernizeLegacyRequest({ id, method: 'subscriptions/listen', params: { notifications } }, at.handshake).message);
  }

  /** A notification of one of the bridge's listens: passed on in the legacy shape, or acted on. True when it was one. */
  function listenNotification(line: string): boolean {
    if (!line.includes(prefix)) return false;
    const parsed = parseJson(line);
    if (!parsed.ok || !isRecord(parsed.value) || typeof parsed.value.method !== 'string' || 'id' in parsed.value) return false;
    const params = parsed.value.params;
    const subscription = isRecord(params) && isRecord(params._meta) ? params._meta[META_SUBSCRIPTION_ID] : undefined;
    if (typeof subscription !== 'string' || !subscription.startsWith(prefix)) return false;
    if (parsed.value.method === 'notifications/subscriptions/acknowledged') {
      if (subscription === replacing) {
        const previous = listening;
        listening = subscription;
        replacing = undefined;
        if (previous !== undefined) toServer(cancelledNotification(previous, 'the subscriptions changed'));
      }
      return true;
    }
    // Until the new listen is acknowledged both run, so nothing falls between them; a duplicate is harmless.
    if (subscription !== listening && subscription !== replacing) return true;
    const legacy = legacyNotificationOf(parsed.value);
    if (legacy !== undefined) {
      passedAt = performance.now();
      toClient(legacy);
    }
    return true;
  }

  /** `resources/subscribe` and `resources/unsubscribe`: a new listen with the new filter, and an empty result. */
  async function subscribe(step: Extract<BridgeStep, { kind: 'subscribe' }>): Promise<void> {
    if (opening !== undefined) await opening;
    if (negotiated === undefined) return toClient(rpcError(step.id, INVALID_REQUEST, 'mcp-sunset bridge: send initialize first'));
    if (step.subscribe && !subscribedUris.has(step.uri) && subscribedUris.size >= MAX_SUBSCRIBED_URIS) {
      return toClient(rpcError(step.id, INVALID_PARAMS, `mcp-sunset bridge: a client subscribes to at most ${MAX_SUBSCRIBED_URIS} resources`));
    }
    const changed = step.subscribe ? !subscribedUris.has(step.uri) : subscribedUris.has(step.uri);
    if (step.subscribe) subscribedUris.add(step.uri);
    else subscribedUris.delete(step.uri);
    if (changed) listen(negotiated);
    toClient({ jsonrpc: '2.0', id: step.id, result: {} });
  }

  /** The answer to one forwarded request, after as many rounds of input as the server asks for. */
  async function relay(step: Forward, at: Negotiated, signal: AbortSignal): Promise<Message> {
    let params = step.params;
    for (let round = 1; ; round += 1) {
      const final = await askServer(step.method, params, at.handshake, signal);
      if ('error' in final) return { jsonrpc: '2.0', id: step.id, error: final.error };
      const input = inputRequiredOf(final.result);
      if (input === undefined) {
        const legacy = legacyResultOf(final.result);
        return legacy === undefined
          ? rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the server answered with a result the legacy era has no shape for')
          : { jsonrpc: '2.0', id: step.id, result: legacy };
      }
      if (round >= maxInputRounds) return rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: the server still asked for input after ${maxInputRounds} rounds`);
      for (const request of input.requests) {
        const why = unmappableInputRequest(request, at.version);
        if (why !== undefined) return rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: ${why}`);
      }
      // One failed input ends the round: the client is told the bridge gave up on the others.
      const roundOver = new AbortController();
      let responses: unknown[];
      try {
        responses = await Promise.all(input.requests.map((request) => askClient(request, AbortSignal.any([signal, roundOver.signal]))));
      } catch (error) {
        roundOver.abort();
        if (error instanceof InputFailed) return rpcError(step.id, INTERNAL_ERROR, `mcp-sunset bridge: ${error.message}`);
        throw error;
      }
      const inputResponses = Object.fromEntries(input.requests.map((request, index) => [request.key, responses[index]]));
      // The retry is a new request (26:basic/patterns/mrtr.mdx): askServer gives it a fresh id.
      params = inputRetryParams(step.params, inputResponses, input.requestState);
    }
  }

  async function carry(step: Forward): Promise<void> {
    const key = keyOf(step.id);
    const abort = new AbortController();
    carried.set(key, abort);
    try {
      // A request sent before its initialize was answered waits for the handshake it needs.
      if (opening !== undefined) await opening;
      const answer = negotiated === undefined
        ? rpcError(step.id, INVALID_REQUEST, 'mcp-sunset bridge: send initialize first; the modern server needs the client capabilities and client info it carries')
        : await relay(step, negotiated, abort.signal);
      const quietMs = passedAt + QUIET_AFTER_PASSED_MS - performance.now();
      if (quietMs > 0) await new Promise((resolve) => setTimeout(resolve, quietMs));
      if (!abort.signal.aborted) toClient(answer);
    } catch (error) {
      // Cancelled: a legacy server does not answer a request its client cancelled.
      if (abort.signal.aborted) return;
      options.onError?.(error);
      toClient(rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the request failed inside the bridge'));
    } finally {
      if (carried.get(key) === abort) carried.delete(key);
    }
  }

  return {
    clientLine(line) {
      const parsed = parseJson(line);
      if (!parsed.ok) return toClient(rpcError(null, PARSE_ERROR, 'mcp-sunset bridge: the line is not JSON'));
      const body = parsed.value;
      const step = bridgeStep(body);
      switch (step.kind) {
        case 'refuse':
          return toClient(Array.isArray(body) ? refuseBatch(body, step.message) : rpcError(step.id, step.code, step.message));
        case 'initialize':
          // `initialize` cannot be cancelled (1125:basic/utilities/cancellation.mdx), so it is not carried.
          opening = initialize(step).catch((error: unknown) => {
            options.onError?.(error);
            toClient(rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: initialize failed inside the bridge'));
          });
          return;
        case 'answer':
          return toClient({ jsonrpc: '2.0', id: step.id, result: step.result });
        case 'accept':
          return;
        case 'cancel': {
          const abort = carried.get(keyOf(step.requestId));
          if (abort !== undefined) return abort.abort(isRecord(body) && isRecord(body.params) ? body.params.reason : undefined);
          // Not a request of the bridge's: one the client sent the server directly, or one already answered.
          return ports.toServer(line);
        }
        case 'response': {
          if (typeof step.id === 'string' && step.id.startsWith(prefix)) return clientWaits.get(step.id)?.({ result: step.result, error: step.error });
          return ports.toServer(line);
        }
        case 'forward':
          return void carry(step);
        case 'subscribe':
          return void subscribe(step).catch((error: unknown) => {
            options.onError?.(error);
            toClient(rpcError(step.id, INTERNAL_ERROR, 'mcp-sunset bridge: the subscription failed inside the bridge'));
          });
      }
    },
    serverLine(line) {
      if (listenNotification(line)) return true;
      const own = ownAnswerOf(line);
      if (own === undefined) {
        passedAt = performance.now();
        return false;
      }
      const waiter = serverWaits.get(own.id);
      serverWaits.delete(own.id);
      waiter?.(own.answer);
      // An answer to a request the bridge cancelled is still the bridge's: the client never knew its id.
      return true;
    },
    tooLong(maxBytes) {
      toClient(rpcError(null, INVALID_REQUEST, `mcp-sunset bridge: a line longer than ${maxBytes} bytes is not read`));
    },
    close() {
      // Closed first: the requests given up on here tell nobody, the server being gone.
      closed = true;
      for (const abort of carried.values()) abort.abort();
      carried.clear();
    },
  };
}
