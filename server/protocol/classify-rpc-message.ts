/**
 * Classifies one JSON-RPC message POSTed over HTTP by the mechanism that carries it. Pure: the
 * caller supplies what it knows about sessions and channels.
 * Order matters: initialize, then the body envelope, then the HTTP+SSE endpoint, the session,
 * the version header, and finally the spec's absent-header assumption.
 */
import { classified, type ClassifiedMessage, type HttpSseChannel } from './classified-message.js';
import type { JsonRpcMessage } from './read-json-rpc.js';
import { ASSUMED_SESSIONLESS_VERSION, isLegacyVersion, META_PROTOCOL_VERSION } from './versions.js';
import { NON_RPC_METHOD, type Reason, type Transport } from './vocabulary.js';
import { METHOD } from './method-names.js';

/** What the HTTP exchange around the message tells about its lifecycle path. */
export interface PostContext {
  sessionId: string | undefined;
  sessionVersion: string | undefined;
  headerVersion: string | undefined;
  headerMethod: string | undefined;
  channel: HttpSseChannel | undefined;
  inBatch: boolean;
  /** Method of the server request a client response answers, when known. */
  answeredMethod: string | undefined;
}

/** The modern envelope's version, when the request carries one. */
export function modernVersionOf(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = (meta as Record<string, unknown>)[META_PROTOCOL_VERSION];
  return typeof version === 'string' ? version : undefined;
}

/** The version header, when it names a legacy version: a modern value cannot describe a legacy path. */
function legacyHeaderVersion(ctx: PostContext): string | undefined {
  return ctx.headerVersion !== undefined && isLegacyVersion(ctx.headerVersion) ? ctx.headerVersion : undefined;
}

/** Version of a legacy message: the session's (or HTTP+SSE channel's), then the header, then the spec's assumption. */
export function legacyVersion(ctx: PostContext): string | null {
  if (ctx.channel) return ctx.channel.version ?? legacyHeaderVersion(ctx) ?? null;
  return ctx.sessionVersion ?? legacyHeaderVersion(ctx) ?? ASSUMED_SESSIONLESS_VERSION;
}

function legacyReason(ctx: PostContext): Reason {
  if (ctx.inBatch) return 'batch';
  if (ctx.channel) return 'sse-message';
  if (ctx.sessionId !== undefined) return 'session-header';
  return legacyHeaderVersion(ctx) !== undefined ? 'legacy-version-header' : 'assumed-2025-03-26';
}

/**
 * True when the headers claim the modern era: a version header naming no legacy version.
 * `Mcp-Method` alone is no claim: without `MCP-Protocol-Version` a server assumes 2025-03-26
 * (the spec's absent-header rule), and the SDK's dual-era server serves such a request as legacy.
 */
export function hasModernHeaderClaim(ctx: PostContext): boolean {
  return ctx.headerVersion !== undefined && !isLegacyVersion(ctx.headerVersion);
}

/** Files one POSTed JSON-RPC message under era, reason and version. */
export function classifyRpcMessage(message: JsonRpcMessage, ctx: PostContext): ClassifiedMessage {
  const transport: Transport = ctx.channel ? 'http+sse' : 'streamable-http';
  switch (message.kind) {
    case 'invalid':
      return classified({ kind: 'other', method: NON_RPC_METHOD.unparsed, id: null, era: 'unknown', transport, reason: 'invalid-message', version: null });
    case 'response': {
      const method = ctx.answeredMethod ?? NON_RPC_METHOD.unknownResponse;
      return classified({ kind: 'response', method, id: message.id, era: 'legacy', transport, reason: ctx.inBatch ? 'batch' : 'client-response', version: legacyVersion(ctx) });
    }
    case 'notification': {
      const { method } = message;
      if (method === METHOD.initialized && !ctx.inBatch) {
        return classified({ kind: 'notification', method, id: null, era: 'legacy', transport, reason: 'initialize', version: legacyVersion(ctx) });
      }
      const noLegacySign = !ctx.channel && ctx.sessionId === undefined && !ctx.inBatch;
      if (noLegacySign && ctx.headerVersion !== undefined && !isLegacyVersion(ctx.headerVersion)) {
        return classified({ kind: 'notification', method, id: null, era: 'modern', transport, reason: 'modern-notification', version: ctx.headerVersion });
      }
      return classified({ kind: 'notification', method, id: null, era: 'legacy', transport, reason: legacyReason(ctx), version: legacyVersion(ctx) });
    }
    case 'request': {
      const { method, id } = message;
      if (method === METHOD.initialize) {
        const requested = message.params?.protocolVersion;
        const version = typeof requested === 'string' ? requested : null;
        return classified({ kind: 'request', method, id, era: 'legacy', transport, reason: ctx.inBatch ? 'batch' : 'initialize', version });
      }
      const modern = modernVersionOf(message.params);
      if (modern !== undefined) return classified({ kind: 'request', method, id, era: 'modern', transport, reason: 'modern-meta', version: modern });
      if (!ctx.channel && ctx.sessionId === undefined && !ctx.inBatch && hasModernHeaderClaim(ctx)) {
        return classified({ kind: 'request', method, id, era: 'modern', transport, reason: 'modern-malformed', version: ctx.headerVersion ?? null });
      }
      return classified({ kind: 'request', method, id, era: 'legacy', transport, reason: legacyReason(ctx), version: legacyVersion(ctx) });
    }
  }
}
