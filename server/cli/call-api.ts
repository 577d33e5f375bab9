/**
 * One call to a running dashboard's API for a command given `--api URL`: its errors become the
 * command's one line, with the exit code the command documents (UsageError for what the caller
 * asked wrong, a plain Error for an API that cannot be reached or refuses the token).
 */
import { UsageError } from './usage-error.js';

const TIMEOUT_MS = 30_000;

export interface ApiCall {
  token: string | undefined;
  method?: 'GET' | 'POST' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** The line for a 404, from what the API said (with a leading ": ", or empty). */
  notFound?: (detail: string) => string;
}

/** A path under the API's base URL, which may itself carry a path prefix. */
export function underApi(base: URL, path: string): URL {
  const root = new URL(base);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  return new URL(path, root);
}

/** Answers the parsed JSON of a 2xx answer; throws one line otherwise. */
export async function callApi(base: URL, path: string, call: ApiCall): Promise<unknown> {
  const url = underApi(base, path);
  let response: Response;
  try {
    response = await fetch(url, {
      method: call.method ?? 'GET',
      headers: {
        accept: 'application/json',
        // Every call that changes data is JSON, a body or none: the API refuses anything else (a cross-site form could send it).
        ...(call.body === undefined && (call.method ?? 'GET') === 'GET' ? {} : { 'content-type': 'application/json' }),
        ...(call.token === undefined ? {} : { authorization: `Bearer ${call.token}` }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot read the API at ${url.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok && body !== undefined) return body;
  const said = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  const detail = typeof said === 'string' ? `: ${said}` : '';
  if (response.status === 404) throw new UsageError(call.notFound?.(detail) ?? `the API at ${url.origin} found nothing${detail}`);
  if (response.status === 400 || response.status === 409) throw new UsageError(`the API refused the request${detail}`);
  if (response.status === 401) throw new Error(`the API at ${url.origin} refused the admin token (401); pass --token or set MCP_SUNSET_ADMIN_TOKEN`);
  throw new Error(`cannot read the API at ${url.origin}: ${response.ok ? 'the answer is not JSON' : `${response.status}${detail}`}`);
}
