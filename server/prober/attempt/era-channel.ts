/**
 * What the era state machine needs from a transport: send a request and observe its answer, send a
 * notification, restart (stdio), and fall back to HTTP+SSE (HTTP). Types only; the stdio, HTTP
 * and HTTP+SSE channels implement it.
 */
import type { JsonRpcNotification, JsonRpcRequest } from '../wire/probe-messages.js';
import type { ProbeObservation } from '../wire/probe-observation.js';
import type { ProbeVerdict } from '../verdict.js';

/**
 * How a message travels. Modern: the HTTP headers mirror the body (`MCP-Protocol-Version`,
 * `Mcp-Method`). Legacy with version null: the `initialize` of a 2025 client, with no version
 * header. Legacy with a version: later requests carry it and the session id, if one was minted.
 */
export type MessageShape = { era: 'modern'; version: string } | { era: 'legacy'; version: string | null };

export type HttpSseOpening =
  | { ok: true; channel: EraChannel }
  | { ok: false; code: string; detail: string; state: 'unavailable' | 'incompatible' | 'auth-required' };

export interface EraChannel {
  readonly transport: ProbeVerdict['transport'];
  /** Sends a request and answers what came back for its id, or why nothing did, within the deadline. */
  request(message: JsonRpcRequest, shape: MessageShape, timeoutMs: number): Promise<ProbeObservation>;
  /** Sends a notification; answers the HTTP response (stdio and HTTP+SSE streams have none: null). */
  notify(message: JsonRpcNotification, shape: MessageShape, timeoutMs: number): Promise<ProbeObservation | null>;
  /** stdio: kills the process and spawns a fresh one, so nothing is written to a dead pipe. */
  restart(): Promise<void>;
  /** stdio: the process is gone (it may exit right after answering); HTTP: never. */
  isDead(): boolean;
  /** Streamable HTTP only: opens the deprecated HTTP+SSE transport at the same URL. */
  openHttpSse?(timeoutMs: number): Promise<HttpSseOpening>;
  /** Ends the process or session; never throws. */
  close(): Promise<void>;
}
