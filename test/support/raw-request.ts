import http from 'node:http';

export interface RawResponse {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/** Sends a request with exactly these raw headers (case, order and repeats kept). */
export function rawRequest(url: URL, method: string, rawHeaders: string[], body?: Buffer | string): Promise<RawResponse> {
  const names = new Set(rawHeaders.filter((_v, i) => i % 2 === 0).map((name) => name.toLowerCase()));
  const headers = [...rawHeaders];
  if (!names.has('host')) headers.unshift('Host', url.host);
  if (body !== undefined && !names.has('content-length')) headers.push('Content-Length', String(Buffer.byteLength(body)));
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, setHost: false, agent: false });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }));
    });
    request.end(body);
  });
}

/** Raw headers without the per-connection ones, which each hop sets for itself. */
export function endToEnd(rawHeaders: string[]): [string, string][] {
  const hop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
  const pairs: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!hop.has(rawHeaders[i]!.toLowerCase())) pairs.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  }
  return pairs;
}
