/**
 * What an MCP client sends, tallied the way docs/counting.md says the sidecar counts
 * it: each JSON-RPC message of a POST body under its method (a batch element by element), and each
 * GET or DELETE exchange once, unless it carries nothing that makes it MCP (no session, no version
 * header, no `Last-Event-ID`, no `Accept: text/event-stream`). So an expected count comes from what
 * the client did, not from a number written into the test.
 */

export type MethodTally = Record<string, number>;

function add(tally: MethodTally, method: string): void {
  tally[method] = (tally[method] ?? 0) + 1;
}

function isMcpExchange(headers: Headers): boolean {
  return headers.has('mcp-session-id') || headers.has('mcp-protocol-version') || headers.has('last-event-id') || (headers.get('accept') ?? '').includes('text/event-stream');
}

function tallyRequest(tally: MethodTally, method: string, headers: Headers, body: unknown): void {
  if (method === 'GET' || method === 'DELETE') {
    if (isMcpExchange(headers)) add(tally, method);
    return;
  }
  if (method !== 'POST') return;
  if (typeof body !== 'string') throw new Error(`a POST whose body the tally cannot read: ${typeof body}`);
  const parsed: unknown = JSON.parse(body);
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const name = (message as { method?: unknown }).method;
    // A client's answer to a server request is filed under that request: these clients send none.
    if (typeof name !== 'string') throw new Error(`the client sent a message without a method: ${body}`);
    add(tally, name);
  }
}

/**
 * Runs `work` with the global fetch (which both SDKs' HTTP transports call) wrapped, tallying the
 * requests it sends to `origin`. Not reentrant: one tally at a time.
 */
export async function tallyClientMessages<T>(origin: string, work: () => Promise<T>): Promise<{ result: T; tally: MethodTally }> {
  const original = globalThis.fetch;
  const tally: MethodTally = {};
  globalThis.fetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input));
    if (url.origin === origin) {
      const headers = new Headers(init?.headers ?? request?.headers);
      tallyRequest(tally, (init?.method ?? request?.method ?? 'GET').toUpperCase(), headers, init?.body ?? (request === undefined ? undefined : await request.clone().text()));
    }
    return original(input, init);
  };
  try {
    return { result: await work(), tally };
  } finally {
    globalThis.fetch = original;
  }
}

/** The sum of a tally. */
export function totalOf(tally: MethodTally): number {
  return Object.values(tally).reduce((sum, count) => sum + count, 0);
}
