import { request, type Dispatcher } from 'undici';

export interface FetchJsonOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Bytes of answer read at most; a longer answer is a failure, and the rest is never read. */
  maxBytes: number;
  dispatcher?: Dispatcher;
}

/** An answer read whole: its status and its body parsed as JSON (undefined when it is not JSON). */
export interface JsonAnswer {
  status: number;
  json: unknown;
}

/** Why a request to an authorization server (or a client's metadata document) brought nothing usable. */
export class FetchProblem extends Error {}

/**
 * One bounded request: no redirect is followed (a redirect is an answer like any other status), the
 * whole exchange has a deadline, and the answer is read up to `maxBytes`. Throws a FetchProblem
 * for a network failure, a timeout or an answer too large; any status is returned.
 */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<JsonAnswer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(url, {
      method: options.method ?? 'GET',
      headers: { accept: 'application/json', 'user-agent': 'mcp-sunset', ...options.headers },
      ...(options.body === undefined ? {} : { body: options.body }),
      signal,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
  } catch (error) {
    throw new FetchProblem(describe(error, options.timeoutMs));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) {
        answer.body.destroy();
        throw new FetchProblem(`answer larger than ${options.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FetchProblem) throw error;
    throw new FetchProblem(describe(error, options.timeoutMs));
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: answer.statusCode, json };
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
