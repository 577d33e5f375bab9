/**
 * Classifies one HTTP request to an MCP endpoint into the messages it carries.
 * Pure: no I/O; session and channel knowledge come in through lookups. Every exchange that may
 * carry MCP (`isMcpRequest`) yields at least one message, so nothing is dropped: a body that turns
 * out to carry no MCP message is filed as `unknown`. A request that cannot carry MCP yields none.
 */
import { classified, MAX_CLIENT_INFO_CHARS, type ClassifiedMessage, type ClassifyLookups, type ClientInfoHint } from './classified-message.js';
import { classifyRpcMessage, hasModernHeaderClaim, legacyVersion, modernVersionOf, type PostContext } from './classify-rpc-message.js';
import { headerValue, headersAgree } from './headers-agree.js';
import { cancelledRequestId } from './cancelled-request-id.js';
import { isMcpRequest } from './is-mcp-request.js';
import { parseJson, readJsonRpc, type JsonRpcId, type JsonRpcMessage } from './read-json-rpc.js';
import { HEADER, isLegacyVersion, isModernVersion, META_CLIENT_INFO } from './versions.js';
import { NON_RPC_METHOD, type Reason } from './vocabulary.js';
import { capText } from './cap-text.js';
import { METHOD } from './method-names.js';
import { MAX_BATCH_MESSAGES } from './max-batch-messages.js';

export interface HttpRequestFacts {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  /** Node-style headers: names lower-cased. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body text, or undefined when it was not read. */
  body: string | undefined;
  /** True when the body passed the classification cap and was forwarded unread. */
  bodyTooLarge: boolean;
  /** Other readings a server may make of the same body bytes (another charset): judged, not counted. */
  otherReadings?: readonly string[];
  /** True when the body's Content-Encoding could not be undone: `body` is the bytes as sent (read-body-text.ts). */
  unreadableEncoding?: boolean;
  /** True when JSON parsers read the body differently (has-repeated-key.ts): no reading can be trusted. */
  ambiguousJson?: boolean;
}

export interface HttpRequestClassification {
  messages: ClassifiedMessage[];
  /**
   * Where answers to these messages may arrive later, when not on this exchange: any stream of a
   * legacy session (`session:<id>`) or an HTTP+SSE channel's stream (`sse:<endpoint>`).
   */
  answersArriveOn: string | undefined;
  /** Ids of the requests these messages cancel (`notifications/cancelled`). */
  cancels: JsonRpcId[];
  sessionId: string | undefined;
  clientInfo: ClientInfoHint | undefined;
  /** True when a modern request's mirrored headers disagree with its body. */
  claimMismatch: boolean;
  /** What the policy judges beside the messages (policy-shape.ts). */
  knownSession: boolean;
  batch: boolean;
  legacyVersion: string | null;
  httpSseStreamPath: boolean;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function unknownMessage(reason: Reason, method: string = NON_RPC_METHOD.unparsed): ClassifiedMessage {
  return classified({ kind: 'other', method, id: null, era: 'unknown', transport: 'streamable-http', reason, version: null });
}

function clientInfoOf(message: JsonRpcMessage): ClientInfoHint | undefined {
  if (message.kind !== 'request') return undefined;
  const raw = message.method === METHOD.initialize
    ? message.params?.clientInfo
    : (message.params?._meta as Record<string, unknown> | undefined)?.[META_CLIENT_INFO];
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { name, version } = raw as Record<string, unknown>;
  if (typeof name !== 'string') return undefined;
  return { name: capText(name, MAX_CLIENT_INFO_CHARS), version: typeof version === 'string' ? capText(version, MAX_CLIENT_INFO_CHARS) : '' };
}

function classifyStreamOrDelete(facts: HttpRequestFacts, ctx: PostContext, httpSseStreamPath: boolean): ClassifiedMessage {
  const isGet = facts.method === 'GET';
  // A GET where the server opened HTTP+SSE streams opens one, whatever session header it carries.
  if (isGet && httpSseStreamPath) return classified({ kind: 'stream-open', method: NON_RPC_METHOD.get, id: null, era: 'legacy', transport: 'streamable-http', reason: 'get-stream', version: null });
  const method = isGet ? NON_RPC_METHOD.get : NON_RPC_METHOD.delete;
  const resume = headerValue(facts.headers, HEADER.lastEventId) !== undefined;
  const reason = isGet ? (resume ? 'get-resume' : 'get-stream') : 'delete-session';
  return classified({ kind: isGet ? 'stream-open' : 'session-delete', method, id: null, era: 'legacy', transport: 'streamable-http', reason, version: legacyVersion(ctx) });
}

/** A body too large to read: the era is what the headers show, the reason says it is only that. */
function classifyOversized(ctx: PostContext): ClassifiedMessage {
  const method = ctx.headerMethod ?? NON_RPC_METHOD.unparsed;
  const transport = ctx.channel ? 'http+sse' : 'streamable-http';
  const legacySign = ctx.channel !== undefined || ctx.sessionId !== undefined || (ctx.headerVersion !== undefined && isLegacyVersion(ctx.headerVersion));
  if (legacySign) return classified({ kind: 'other', method, id: null, era: 'legacy', transport, reason: 'body-too-large', version: legacyVersion(ctx) });
  if (hasModernHeaderClaim(ctx)) return classified({ kind: 'other', method, id: null, era: 'modern', transport, reason: 'body-too-large', version: ctx.headerVersion ?? null });
  return classified({ kind: 'other', method, id: null, era: 'unknown', transport, reason: 'body-too-large', version: null });
}

/**
 * The first value of a header sent more than once, which Node hands over joined by commas: the
 * Python SDK's server routes by the first `MCP-Protocol-Version`, so the count follows it. (The
 * policy compares the whole value with the body, so a repeated header never agrees with one.)
 */
function firstOfList(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const comma = value.indexOf(',');
  return comma < 0 ? value : value.slice(0, comma).trim();
}

function answersArriveOnOf(ctx: PostContext): string | undefined {
  if (ctx.channel?.key !== undefined) return `sse:${ctx.channel.key}`;
  return ctx.sessionId !== undefined ? `session:${ctx.sessionId}` : undefined;
}

/**
 * Classifies an HTTP request: POST bodies message by message, GET/DELETE as exchanges. `readBody`
 * reads the body: the full parse by default, as it is the faster (see `readClassifiableJson`).
 */
export function classifyHttpRequest(facts: HttpRequestFacts, lookups: ClassifyLookups, readBody: typeof parseJson = parseJson): HttpRequestClassification {
  const sessionId = headerValue(facts.headers, HEADER.sessionId);
  const ctx: PostContext = {
    sessionId,
    sessionVersion: sessionId === undefined ? undefined : lookups.sessionVersion(sessionId),
    headerVersion: firstOfList(headerValue(facts.headers, HEADER.protocolVersion)),
    headerMethod: headerValue(facts.headers, HEADER.method),
    channel: facts.method === 'POST' ? lookups.httpSseChannel(facts.path) : undefined,
    inBatch: false,
    answeredMethod: undefined,
  };
  const answersArriveOn = answersArriveOnOf(ctx);
  const httpSseStreamPath = facts.method === 'GET' && lookups.isHttpSseStreamPath?.(facts.path) === true;
  const knownSession = ctx.sessionVersion !== undefined;
  const versionOfSession = legacyVersion(ctx);
  // One object of one shape, built field by field: the classification is made for every request.
  const result = (messages: ClassifiedMessage[], more?: { clientInfo: ClientInfoHint | undefined; claimMismatch: boolean; cancels: JsonRpcId[]; batch: boolean }): HttpRequestClassification => ({
    messages,
    answersArriveOn,
    cancels: more?.cancels ?? [],
    sessionId,
    clientInfo: more?.clientInfo,
    claimMismatch: more?.claimMismatch ?? false,
    knownSession,
    batch: more?.batch ?? false,
    legacyVersion: versionOfSession,
    httpSseStreamPath,
  });

  if (!isMcpRequest(facts) && !httpSseStreamPath) return result([]);
  if (facts.method === 'GET' || facts.method === 'DELETE') return result([classifyStreamOrDelete(facts, ctx, httpSseStreamPath)]);
  if (facts.bodyTooLarge) return result([classifyOversized(ctx)]);
  if (facts.ambiguousJson === true) return result([unknownMessage('ambiguous-json')]);
  const contentType = headerValue(facts.headers, HEADER.contentType);
  if (contentType !== undefined && !JSON_TYPE.test(contentType)) return result([unknownMessage('unsupported-content-type')]);
  const parsed = readBody(facts.body ?? '');
  if (!parsed.ok) return result([unknownMessage(facts.unreadableEncoding === true ? 'unsupported-content-encoding' : 'invalid-json')]);

  const isBatch = Array.isArray(parsed.value);
  const elements: unknown[] = isBatch ? (parsed.value as unknown[]) : [parsed.value];
  if (elements.length === 0) return result([unknownMessage('invalid-message')]);
  if (elements.length > MAX_BATCH_MESSAGES) {
    // Batches are legacy only (2025-03-26): one message, at the version a legacy reading gives.
    const transport = ctx.channel ? 'http+sse' : 'streamable-http';
    return result([classified({ kind: 'other', method: NON_RPC_METHOD.unparsed, id: null, era: 'legacy', transport, reason: 'batch-too-large', version: versionOfSession })], { clientInfo: undefined, claimMismatch: false, cancels: [], batch: true });
  }
  let clientInfo: ClientInfoHint | undefined;
  let claimMismatch = false;
  const cancels: JsonRpcId[] = [];
  const messages = elements.map((element) => {
    const rpc = readJsonRpc(element);
    clientInfo ??= clientInfoOf(rpc);
    const answeredMethod = rpc.kind === 'response' && rpc.id !== null && answersArriveOn !== undefined
      ? lookups.serverRequestMethod(answersArriveOn, rpc.id)
      : undefined;
    const cancelled = cancelledRequestId(rpc);
    if (cancelled !== undefined) cancels.push(cancelled);
    const message = classifyRpcMessage(rpc, { ...ctx, inBatch: isBatch, answeredMethod });
    if (message.reason === 'modern-meta' && rpc.kind === 'request' && !isBatch) {
      const version = modernVersionOf(rpc.params) ?? '';
      claimMismatch = !headersAgree(facts.headers, { method: rpc.method, version, params: rpc.params });
    }
    return message;
  });
  return result(messages, { clientInfo, claimMismatch, cancels, batch: isBatch });
}
