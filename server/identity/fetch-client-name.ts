import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import { cleanClientName } from './clean-client-name.js';
import { clientIdUrlProblem } from './client-id-url-problem.js';
import { isPublicAddress } from './is-public-address.js';

/** The draft's recommended upper bound on a Client ID Metadata Document; a longer one is refused. */
export const MAX_CLIENT_DOCUMENT_BYTES = 5 * 1024;

export interface FetchClientNameOptions {
  /** Deadline of the whole fetch: connecting, the answer's head and its body. */
  timeoutMs: number;
  /** Also fetch from loopback, private, link-local and other non-public addresses. */
  allowPrivateAddresses: boolean;
  /** CA certificates (PEM) trusted besides the system's. */
  ca?: string;
  /** Resolves a host name to all its addresses: the system's resolver unless a test brings its own. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Ends the fetch early (at shutdown). */
  signal?: AbortSignal;
}

/** What a client's metadata document says its name is, or why it says nothing. */
export type ClientNameAnswer = { kind: 'named'; name: string } | { kind: 'failed'; reason: string };

/** A host (or the address it resolved to) that is not on the public internet, while only public ones are fetched from. */
class AddressRefused extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED';
}

function resolveWithSystem(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => lookup(hostname, { all: true }, (error, addresses) => (error === null ? resolve(addresses) : reject(error))));
}

/**
 * The connector's lookup: resolves the name once, refuses it when any of its addresses is not
 * public, and hands the socket exactly the addresses it checked. Checking here rather than before
 * the request is what keeps a name from answering a public address to the check and a private one
 * to the connection (DNS rebinding).
 */
function guardedLookup(resolve: (hostname: string) => Promise<LookupAddress[]>, allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
        if (refused !== undefined) return callback(new AddressRefused(`${hostname} resolves to ${refused.address}, which is not a public address`), '', 0);
        const usable = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const [first] = usable;
        if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all === true) return callback(null, usable);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function describe(error: unknown, options: FetchClientNameOptions): string {
  if (options.signal?.aborted === true) return 'stopped';
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `timed out after ${options.timeoutMs} ms`;
  // undici keeps what went wrong on the socket (a refused address, a certificate) in the cause.
  const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (root instanceof AddressRefused) return root.message;
  if (root instanceof Error) {
    const code = (root as { code?: unknown }).code;
    return typeof code === 'string' ? `${root.message} (${code})` : root.message;
  }
  return String(root);
}

/** Stops reading an answer; the abort this raises on the stream is expected, not a fault. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_CLIENT_DOCUMENT_BYTES) {
      // The rest is never read: a client's server must not be able to make this side read without end.
      discard(body);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function nameOf(text: string, url: string): ClientNameAnswer {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { kind: 'failed', reason: 'the answer is not JSON' };
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return { kind: 'failed', reason: 'the answer is not a JSON object' };
  const fields = document as Record<string, unknown>;
  // A document that names another client speaks for that client, not this one.
  if (fields.client_id !== url) return { kind: 'failed', reason: 'the document names another client_id' };
  const name = cleanClientName(fields.client_name);
  return name === undefined ? { kind: 'failed', reason: 'the document has no client_name' } : { kind: 'named', name };
}

async function fetchWith(url: string, agent: Agent, options: FetchClientNameOptions): Promise<ClientNameAnswer> {
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'mcp-sunset' },
      signal: options.signal === undefined ? AbortSignal.timeout(options.timeoutMs) : AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]),
      dispatcher: agent,
    });
  } catch (error) {
    return { kind: 'failed', reason: describe(error, options) };
  }
  if (answer.statusCode !== 200) {
    discard(answer.body);
    // A redirect is refused, never followed: the document must be at the URL that is the client's id.
    if (answer.statusCode >= 300 && answer.statusCode < 400) return { kind: 'failed', reason: `HTTP ${answer.statusCode}: redirect not followed` };
    return { kind: 'failed', reason: `HTTP ${answer.statusCode}` };
  }
  let bytes: Buffer | undefined;
  try {
    bytes = await readCapped(answer.body);
  } catch (error) {
    return { kind: 'failed', reason: describe(error, options) };
  }
  if (bytes === undefined) return { kind: 'failed', reason: `the document is larger than ${MAX_CLIENT_DOCUMENT_BYTES} bytes` };
  return nameOf(bytes.toString('utf8'), url);
}

/**
 * Fetches the Client ID Metadata Document a client id names and answers the `client_name` it
 * gives, cleaned for display. Guarded as a fetch a stranger chooses must be: only an `https` URL
 * with a path; no redirect followed; unless `allowPrivateAddresses`, no connection to a host that is
 * or resolves to a non-public address, and the connection goes to the address that was checked;
 * bounded in time and to 5 KiB read; and the document must name exactly this URL as its `client_id`.
 * Never throws: a failure is an answer with its reason.
 */
export async function fetchClientName(url: string, options: FetchClientNameOptions): Promise<ClientNameAnswer> {
  if (options.signal?.aborted === true) return { kind: 'failed', reason: 'stopped' };
  const problem = clientIdUrlProblem(url);
  if (problem !== undefined) return { kind: 'failed', reason: `the client_id ${problem}` };
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  // An address written in the URL is never looked up, so the connector's check would not see it.
  if (isIP(host) !== 0 && !options.allowPrivateAddresses && !isPublicAddress(host)) return { kind: 'failed', reason: `${host} is not a public address` };
  const agent = new Agent({
    connect: {
      lookup: guardedLookup(options.resolve ?? resolveWithSystem, options.allowPrivateAddresses),
      timeout: options.timeoutMs,
      ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: 1,
  });
  try {
    return await fetchWith(url, agent, options);
  } catch (error) {
    return { kind: 'failed', reason: describe(error, options) };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
