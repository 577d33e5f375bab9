/**
 * The 2025-era client of the bridge bench: a legacy Streamable HTTP session, as an SDK v1 client
 * opens it (initialize, then notifications/initialized) and then uses it (tools/call of the demo
 * `add` tool), every POST after initialize with the negotiated version and the session id the
 * initialize answer gave, if it gave one.
 */
import { performance } from 'node:perf_hooks';
import type { LoadRequest } from '../load/load-request.js';

export const LEGACY_VERSION = '2025-11-25';

const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;
// The demo tool adds; the answer carries the sum as its one text item, in JSON or in an SSE event alike.
const SUM_TEXT = '"text":"5"';

/** How one answer came back: what a client must cope with on that path. */
export interface AnswerShape {
  status: number;
  contentType: string;
}

export interface LegacySession {
  /** The Mcp-Session-Id the initialize answer carried; a stateless server gives none. */
  sessionId: string | undefined;
  /** From sending initialize to the end of its answer, ms. */
  initializeMs: number;
  initialize: AnswerShape;
  initialized: AnswerShape;
  /** The session's tools/call, for the load generators. */
  request: LoadRequest;
}

export function legacyToolCallBody(id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
}

export function isSumAnswer(body: string): boolean {
  return body.includes(SUM_TEXT) && !body.includes('"error"');
}

const shapeOf = (response: Response): AnswerShape => ({ status: response.status, contentType: response.headers.get('content-type') ?? 'none' });

/** Opens a session at `endpoint`; throws when the handshake is refused. */
export async function openLegacySession(endpoint: URL): Promise<LegacySession> {
  const began = performance.now();
  const init = await fetch(endpoint, {
    method: 'POST',
    headers: BASE_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'bench-legacy', version: '1.0.0' } } }),
  });
  const initText = await init.text();
  const initializeMs = performance.now() - began;
  if (init.status !== 200 || !initText.includes(`"protocolVersion":"${LEGACY_VERSION}"`)) throw new Error(`${endpoint.href}: initialize answered ${init.status}: ${initText.slice(0, 300)}`);
  const sessionId = init.headers.get('mcp-session-id') ?? undefined;
  const headers: Record<string, string> = { ...BASE_HEADERS, 'mcp-protocol-version': LEGACY_VERSION, ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }) };
  const initialized = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`${endpoint.href}: notifications/initialized answered ${initialized.status}`);
  return { sessionId, initializeMs, initialize: shapeOf(init), initialized: shapeOf(initialized), request: { headers, body: legacyToolCallBody, isAnswer: isSumAnswer } };
}

/** One checked tools/call of the session: its answer's shape, or a thrown error when the sum is missing. */
export async function callOnce(endpoint: URL, session: LegacySession): Promise<AnswerShape> {
  const response = await fetch(endpoint, { method: 'POST', headers: session.request.headers, body: legacyToolCallBody(1) });
  const text = await response.text();
  if (response.status !== 200 || !isSumAnswer(text)) throw new Error(`${endpoint.href}: tools/call answered ${response.status}: ${text.slice(0, 300)}`);
  return shapeOf(response);
}
