import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';

/** The four kinds of caller the demo imitates, one per era/transport combination worth watching. */
export type DemoClientKind = 'legacy-http' | 'legacy-sse' | 'modern-pin' | 'modern-auto';

type CallOptions = { timeout: number; onprogress?: () => void };

/** The few operations a demo session needs, the same shape over both SDK generations. */
type DemoClient = {
  connect(): Promise<void>;
  listTools(options: CallOptions): Promise<unknown>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown>;
  end(): Promise<void>;
  close(): Promise<void>;
};

type ClientInfo = { name: string; version: string };

export type DemoSessionOptions = {
  kind: DemoClientKind;
  /** The sidecar origin (a path prefix, if any, ends in `/`). */
  base: URL;
  /** Sent with every request: the caller's credentials. */
  headers: Record<string, string>;
  /** Rounds of tools/list, echo and add. */
  rounds: number;
  clientInfo?: ClientInfo;
};

const DEFAULT_CLIENT_INFO: ClientInfo = { name: 'mcp-sunset-demo-traffic', version: '1.0.0' };
const REQUEST_TIMEOUT_MS = 10_000;

/** Work requests in one session of `rounds` rounds: tools/list, echo and add per round, then count. */
export function countDemoSessionWork(rounds: number): number {
  return 3 * rounds + 1;
}

function createV1Client(kind: 'legacy-http' | 'legacy-sse', base: URL, headers: Record<string, string>, clientInfo: ClientInfo): DemoClient {
  const client = new V1Client(clientInfo);
  const http = kind === 'legacy-http' ? new V1HttpTransport(new URL('mcp', base), { requestInit: { headers } }) : undefined;
  // requestInit headers also reach the SSE GET: the v1 SSE transport builds its EventSource fetch from them.
  const transport = http ?? new V1SseTransport(new URL('sse', base), { requestInit: { headers } });
  return {
    connect: () => client.connect(transport),
    listTools: (options) => client.listTools(undefined, options),
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, undefined, options),
    // The v1 client sends DELETE only when asked; a well-behaved legacy integration asks.
    end: async () => http?.terminateSession(),
    close: () => client.close(),
  };
}

function createV2Client(kind: 'modern-pin' | 'modern-auto', base: URL, headers: Record<string, string>, clientInfo: ClientInfo): DemoClient {
  const client = new V2Client(clientInfo, { versionNegotiation: { mode: kind === 'modern-pin' ? { pin: '2026-07-28' } : 'auto' } });
  const transport = new V2HttpTransport(new URL('mcp', base), { requestInit: { headers } });
  return {
    connect: () => client.connect(transport),
    // The v2 client may answer tools/list from its response cache; the demo wants it on the wire.
    listTools: (options) => client.listTools(undefined, { ...options, cacheMode: 'refresh' }),
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, options),
    end: () => transport.terminateSession(),
    close: () => client.close(),
  };
}

function assertToolSucceeded(name: string, result: unknown): void {
  if ((result as { isError?: boolean }).isError === true) throw new Error(`tool ${name} returned an error result`);
}

async function converse(client: DemoClient, kind: DemoClientKind, rounds: number): Promise<void> {
  // Connect has no timeout of its own in either SDK.
  await withDeadline(client.connect(), REQUEST_TIMEOUT_MS, 'connect');
  const options = { timeout: REQUEST_TIMEOUT_MS };
  for (let round = 0; round < rounds; round++) {
    await client.listTools(options);
    assertToolSucceeded('echo', await client.callTool('echo', { text: `${kind} #${round}` }, options));
    assertToolSucceeded('add', await client.callTool('add', { a: round, b: 1 }, options));
  }
  // Progress before the result makes this the one streamed (SSE) answer per session.
  assertToolSucceeded('count', await client.callTool('count', { steps: 2, delayMs: 50 }, { ...options, onprogress: () => {} }));
  await client.end();
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One demo session: connect, `rounds` × (tools/list, echo, add), one streamed `count`, end, close.
 * Aborting `signal` closes the client and ends the session at once: closing rejects most of what
 * is in flight, but not a v1 HTTP+SSE connect still waiting for its stream, so the session does not
 * wait for it. The signal is deliberately not handed to each request, which would pile listeners onto it.
 */
export async function runDemoSession(options: DemoSessionOptions, signal: AbortSignal): Promise<void> {
  const { kind, base, headers, rounds, clientInfo = DEFAULT_CLIENT_INFO } = options;
  if (signal.aborted) throw new Error('session stopped');
  const client = kind === 'legacy-http' || kind === 'legacy-sse' ? createV1Client(kind, base, headers, clientInfo) : createV2Client(kind, base, headers, clientInfo);
  let closeOnAbort = (): void => {};
  const stopped = new Promise<never>((_, reject) => {
    closeOnAbort = () => {
      client.close().catch(() => {});
      reject(new Error('session stopped'));
    };
  });
  signal.addEventListener('abort', closeOnAbort, { once: true });
  const work = converse(client, kind, rounds);
  // Whichever loses the race settles unobserved.
  work.catch(() => {});
  stopped.catch(() => {});
  try {
    await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener('abort', closeOnAbort);
    await client.close().catch(() => {});
  }
}
