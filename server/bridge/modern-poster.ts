import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createParser } from 'eventsource-parser';

/** A JSON-RPC message as the server sent it, read loosely: the bridge checks what it uses. */
export type UpstreamMessage = { jsonrpc?: string; id?: string | number | null; method?: string; result?: unknown; error?: unknown };

/** The server's answer to one POST: the messages its body carries, a JSON body's one or an event stream's each in turn. */
export interface UpstreamAnswer {
  status: number;
  stream: boolean;
  headers: IncomingHttpHeaders;
  messages(): AsyncGenerator<UpstreamMessage>;
  /** The body as it came, for an answer passed on whole (the server's 401 or 403, say). */
  bytes(): Promise<Buffer>;
}

export interface ModernPoster {
  /** POSTs to `path` (and query) on the server; undefined: the upstream URL's own. */
  post(path: string | undefined, headers: readonly [string, string][], body: string, signal: AbortSignal): Promise<UpstreamAnswer>;
  close(): void;
}

function readBytes(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('the server broke off its answer')));
  });
}

async function* jsonMessages(res: IncomingMessage): AsyncGenerator<UpstreamMessage> {
  const text = (await readBytes(res)).toString('utf8');
  let message: UpstreamMessage;
  try {
    message = JSON.parse(text) as UpstreamMessage;
  } catch {
    return; // not JSON (a proxy's error page, say): no message at all
  }
  yield message;
}

async function* streamMessages(res: IncomingMessage): AsyncGenerator<UpstreamMessage> {
  const events: string[] = [];
  const parser = createParser({ onEvent: (event) => void (event.data !== '' && events.push(event.data)) });
  res.setEncoding('utf8');
  try {
    for await (const chunk of res as AsyncIterable<string>) {
      parser.feed(chunk);
      while (events.length > 0) yield JSON.parse(events.shift()!) as UpstreamMessage;
    }
  } finally {
    // Left before its end (the answer came): the rest drains, so the connection can be reused.
    if (!res.complete) res.resume();
  }
}

/**
 * POSTs the bridge's modern requests to the server over node:http with kept-alive connections.
 * fetch would do, but costs several times as much CPU per request on this path (undici's request
 * objects, web streams and abort plumbing), and every legacy request of a bridged client pays it.
 * An abort closes the request's connection, which is how the modern era cancels.
 */
export function createModernPoster(upstream: URL): ModernPoster {
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const ownPath = upstream.pathname + upstream.search;
  return {
    post(path, headers, body, signal) {
      return new Promise((resolve, reject) => {
        if (signal.aborted) return reject(new Error('aborted'));
        // Node sets no Host of its own when headers come as a list.
        const flat: string[] = ['Host', upstream.host];
        for (const [name, value] of headers) flat.push(name, value);
        flat.push('Content-Length', String(Buffer.byteLength(body)));
        const req = (secure ? https : http).request({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, path: path ?? ownPath, method: 'POST', headers: flat, agent });
        const abort = () => req.destroy(new Error('aborted'));
        signal.addEventListener('abort', abort, { once: true });
        req.on('error', (error) => {
          signal.removeEventListener('abort', abort);
          reject(error);
        });
        req.on('response', (res) => {
          res.on('close', () => signal.removeEventListener('abort', abort));
          const stream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
          resolve({ status: res.statusCode ?? 502, stream, headers: res.headers, messages: () => (stream ? streamMessages(res) : jsonMessages(res)), bytes: () => readBytes(res) });
        });
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
