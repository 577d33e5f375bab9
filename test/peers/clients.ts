import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';

/** What one client session saw: the listed tool names and the text of the echo and add results. */
export type SessionSummary = { toolNames: string[]; echo: string; sum: string };

/** The `count` tool's text result and when (Date.now()) the client received it. */
export type CountOutcome = { text: string; atMs: number };

export type ProgressListener = (progress: number, atMs: number) => void;

type Tokened = { token?: string };

type SessionClient = {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
};

export const CLIENT_INFO = { name: 'mcp-sunset-test-peer', version: '1.0.0' };

// Both SDKs copy requestInit.headers onto every request they make: POSTs, the GET stream and the DELETE.
function requestInitFor(token: string | undefined): { requestInit?: RequestInit } {
  return token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
}

/** The text of the first text content block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((block) => block.type === 'text')?.text ?? '';
}

async function summarizeSession(client: SessionClient): Promise<SessionSummary> {
  const { tools } = await client.listTools();
  const echo = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  const sum = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  return { toolNames: tools.map((t) => t.name), echo: textOf(echo), sum: textOf(sum) };
}

/** A v1 client over legacy Streamable HTTP; `terminate` (default true) sends the session DELETE. */
export async function runV1HttpSession(url: URL, opts: Tokened & { terminate?: boolean } = {}): Promise<SessionSummary> {
  const client = new V1Client(CLIENT_INFO);
  const transport = new V1HttpTransport(url, requestInitFor(opts.token));
  await client.connect(transport);
  try {
    const summary = await summarizeSession(client);
    // close() alone never sends DELETE: only an explicit terminateSession() does.
    if (opts.terminate ?? true) await transport.terminateSession();
    return summary;
  } finally {
    await client.close();
  }
}

/** A v1 client over the deprecated HTTP+SSE transport; `url` is the `/sse` endpoint. */
export async function runV1SseSession(url: URL, opts: Tokened = {}): Promise<SessionSummary> {
  const client = new V1Client(CLIENT_INFO);
  await client.connect(new V1SseTransport(url, requestInitFor(opts.token)));
  try {
    return await summarizeSession(client);
  } finally {
    await client.close();
  }
}

function createV2Client(mode: 'pin' | 'auto'): V2Client {
  return new V2Client(CLIENT_INFO, { versionNegotiation: { mode: mode === 'pin' ? { pin: '2026-07-28' } : 'auto' } });
}

/** A v2 client pinned to 2026-07-28 (`pin`) or negotiating with a fallback to legacy (`auto`). */
export async function runV2Session(url: URL, mode: 'pin' | 'auto', opts: Tokened = {}): Promise<SessionSummary> {
  const client = createV2Client(mode);
  const transport = new V2HttpTransport(url, requestInitFor(opts.token));
  await client.connect(transport);
  try {
    const summary = await summarizeSession(client);
    // A no-op in the modern era (no session); an `auto` client that fell back to legacy ends its session.
    await transport.terminateSession();
    return summary;
  } finally {
    await client.close();
  }
}

/**
 * Connects a v1 (legacy) client to `url` and returns what `connect()` threw. Meant for a modern-only
 * server, which answers the `initialize` POST with 400 -32022; rejects if the connect succeeds.
 */
export async function captureV1ConnectError(url: URL, opts: Tokened = {}): Promise<Error> {
  const client = new V1Client(CLIENT_INFO);
  try {
    await client.connect(new V1HttpTransport(url, requestInitFor(opts.token)));
  } catch (error) {
    return error as Error;
  } finally {
    await client.close();
  }
  throw new Error(`a v1 client connected to ${url.href}; expected the connect to fail`);
}

/** Calls `count` from a v1 client over Streamable HTTP with an `onprogress` callback. */
export async function runV1CountWithProgress(url: URL, steps: number, delayMs: number, onProgress: ProgressListener): Promise<CountOutcome> {
  const client = new V1Client(CLIENT_INFO);
  const transport = new V1HttpTransport(url);
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'count', arguments: { steps, delayMs } }, undefined, {
      onprogress: (p) => onProgress(p.progress, Date.now()),
    });
    const outcome = { text: textOf(result), atMs: Date.now() };
    await transport.terminateSession();
    return outcome;
  } finally {
    await client.close();
  }
}

/** Calls `count` from a v2 client (pinned modern by default) with an `onprogress` callback. */
export async function runV2CountWithProgress(
  url: URL,
  steps: number,
  delayMs: number,
  onProgress: ProgressListener,
  mode: 'pin' | 'auto' = 'pin',
): Promise<CountOutcome> {
  const client = createV2Client(mode);
  await client.connect(new V2HttpTransport(url));
  try {
    const result = await client.callTool(
      { name: 'count', arguments: { steps, delayMs } },
      { onprogress: (p) => onProgress(p.progress, Date.now()) },
    );
    return { text: textOf(result), atMs: Date.now() };
  } finally {
    await client.close();
  }
}
