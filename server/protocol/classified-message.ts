/**
 * The result types of classification, shared by the HTTP and stdio classifiers, and their one
 * constructor. Pure.
 */
import type { JsonRpcId } from './read-json-rpc.js';
import type { Era, MessageKind, Reason, Transport } from './vocabulary.js';

/** One countable message (or a GET/DELETE exchange) with the lifecycle path that carried it. */
export interface ClassifiedMessage {
  kind: MessageKind;
  method: string;
  id: JsonRpcId | null;
  era: Era;
  transport: Transport;
  reason: Reason;
  /** The protocol version the mechanism carried, or null when none can be determined. */
  version: string | null;
}

/** Longest method or version counted under its own name: longer ones are counted as `other`. */
export const MAX_LABEL_CHARS = 128;

/** Longest clientInfo name or version kept: the rest is cut before it is held or stored. */
export const MAX_CLIENT_INFO_CHARS = 128;

/** Self-reported client identity: kept as a hint beside the integration, never used to decide. */
export interface ClientInfoHint {
  name: string;
  version: string;
}

/** Lookups into state the caller keeps (session table, HTTP+SSE channels, server requests). */
export interface ClassifyLookups {
  /** Negotiated version of a legacy session the caller has seen initialized. */
  sessionVersion(sessionId: string): string | undefined;
  /** The HTTP+SSE channel a POST path belongs to, when the path is a message endpoint. */
  httpSseChannel(path: string): HttpSseChannel | undefined;
  /** True for a path where the server opened an HTTP+SSE stream (absent: none known). */
  isHttpSseStreamPath?(path: string): boolean;
  /** Method of a server-initiated request sent where answers arrive (`answersArriveOn`), so a client's answer is grouped under it. */
  serverRequestMethod(answersArriveOn: string, id: JsonRpcId): string | undefined;
}

export interface HttpSseChannel {
  /** Stable key of the channel (the endpoint path and query), or undefined when only the path matched. */
  key: string | undefined;
  version: string | undefined;
}

export const NO_LOOKUPS: ClassifyLookups = {
  sessionVersion: () => undefined,
  httpSseChannel: () => undefined,
  serverRequestMethod: () => undefined,
};

/**
 * Builds a message as one object literal: every classified message has the same shape, and
 * spreading into a literal with extra keys is a slow path in V8 on this hot path.
 */
export function classified(fields: ClassifiedMessage): ClassifiedMessage {
  const { kind, method, id, era, transport, reason, version } = fields;
  return { kind, method, id, era, transport, reason, version };
}
