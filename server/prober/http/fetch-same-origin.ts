/**
 * fetch with redirects under the prober's control: `redirect: 'manual'`, and only redirects that
 * stay on the original origin (scheme, host and port) are followed, a bounded number of times. A
 * redirect elsewhere is reported, never followed: credentials and the era verdict stay bound to
 * the configured endpoint.
 */

export interface SameOriginRequest {
  url: URL;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  maxRedirects: number;
  signal: AbortSignal;
}

export type SameOriginResult =
  | { kind: 'response'; response: Response; url: URL }
  | { kind: 'redirect-refused'; location: string }
  | { kind: 'too-many-redirects'; location: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchSameOrigin(request: SameOriginRequest): Promise<SameOriginResult> {
  let url = request.url;
  for (let hops = 0; ; hops++) {
    const response = await fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: request.signal,
    });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return { kind: 'response', response, url };
    await response.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { kind: 'redirect-refused', location };
    }
    if (next.origin !== request.url.origin) return { kind: 'redirect-refused', location: next.href };
    if (hops >= request.maxRedirects) return { kind: 'too-many-redirects', location: next.href };
    // The method and body are kept even on 301-303: an MCP endpoint only takes the POST.
    url = next;
  }
}
