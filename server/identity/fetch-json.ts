import { request, type Dispatcher } from 'undici';

export interface FetchJsonOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Bytes of answer read at most; a longer answer is a failure, and the rest is never read. */
  maxBytes: number;
  dispatcher?: Dispatcher;
  /** Ends the request early (at shutdown), besides the deadline. */
  signal?: AbortSignal;
}

/** An answer read whole: its status and its body parsed as JSON (undefined when it is not JSON). */
export interface JsonAnswer {
  status: number;
  json: unknown;
}

/** Why a request to an authorization server (or a client's metadata document) brought nothing usable; `cause` is the error beneath. */
export class FetchProblem extends Error {
  constructor(
    message: string,
    /** True when the answer was longer than `maxBytes` (the rest was never read). */
    readonly tooLarge = false,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * One bounded request: no redirect is followed (a redirect is an answer like any other status), the
 * whole exchange has a deadline, and the answer is read up to `maxBytes`. Throws a FetchProblem
 * for a network failure, a timeout or an answer too large; any status is returned.
 */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<JsonAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
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
    throw new FetchProblem(describe(error, options.timeoutMs), false, { cause: error });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) {
        // The rest is never read: a server must not be able to make this side read without end.
        answer.body.on('error', () => undefined);
        answer.body.destroy();
        throw new FetchProblem(`answer larger than ${options.maxBytes} bytes`, true);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FetchProblem) throw error;
    throw new FetchProblem(describe(error, options.timeoutMs), false, { cause: error });
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
  // undici keeps what went wrong on the socket (a refused address, a certificate) in the cause.
  const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (root instanceof Error) {
    const code = (root as { code?: unknown }).code;
    return typeof code === 'string' ? `${root.message} (${code})` : root.message;
  }
  return String(root);
}
