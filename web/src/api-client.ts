/** Calls /api/v1 with the admin token when there is one, and turns error bodies into ApiError. */
import type { ApiErrorBody } from './api-types.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly parameter: string | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClient {
  get<T>(path: string, params?: Record<string, string | undefined>): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** The address of an answer, for a link. */
  href(path: string, params?: Record<string, string | undefined>): string;
  /** An answer that is a file (a CSV), fetched with the token a plain link would not carry. */
  getFile(path: string, params?: Record<string, string | undefined>): Promise<Blob>;
}

export interface ApiClientOptions {
  token(): string | null;
  /** Called on every 401, before the error is thrown. */
  onUnauthorized(error: ApiError): void;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).error?.message === 'string';
}

/** Relative URLs, so the dashboard also works behind a reverse proxy's path prefix. */
function apiUrl(path: string, params: Record<string, string | undefined> = {}): URL {
  const url = new URL(`api/v1${path}`, document.baseURI);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  async function call<T>(method: string, url: URL, body?: unknown, asFile = false): Promise<T> {
    // A file's error still comes as JSON.
    const headers: Record<string, string> = { accept: asFile ? 'text/csv, application/json;q=0.9' : 'application/json' };
    const token = options.token();
    if (token !== null) headers.authorization = `Bearer ${token}`;
    // The API refuses a change sent as anything but JSON, body or not: that is what keeps other sites out.
    if (method !== 'GET') headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (error) {
      throw new ApiError(0, 'network', `The API could not be reached (${error instanceof Error ? error.message : String(error)}).`, undefined);
    }
    if (asFile && response.ok) return (await response.blob()) as T;
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.ok) return parsed as T;
    const error = isErrorBody(parsed)
      ? new ApiError(response.status, parsed.error.code, parsed.error.message, parsed.error.parameter)
      : new ApiError(response.status, 'http', `The API answered ${response.status} ${response.statusText}.`, undefined);
    if (response.status === 401) options.onUnauthorized(error);
    throw error;
  }
  return {
    get: (path, params) => call('GET', apiUrl(path, params)),
    send: (method, path, body) => call(method, apiUrl(path), body),
    href: (path, params) => apiUrl(path, params).href,
    getFile: (path, params) => call<Blob>('GET', apiUrl(path, params), undefined, true),
  };
}
