import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { cleanClientName } from './clean-client-name.js';
import { clientIdUrlProblem } from './client-id-url-problem.js';
import { isPublicAddress } from './is-public-address.js';
import { fetchJson, FetchProblem } from './fetch-json.js';

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

function nameOf(document: unknown, url: string): ClientNameAnswer {
  if (document === undefined) return { kind: 'failed', reason: 'the answer is not JSON' };
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return { kind: 'failed', reason: 'the answer is not a JSON object' };
  const fields = document as Record<string, unknown>;
  // A document that names another client speaks for that client, not this one.
  if (fields.client_id !== url) return { kind: 'failed', reason: 'the document names another client_id' };
  const name = cleanClientName(fields.client_name);
  return name === undefined ? { kind: 'failed', reason: 'the document has no client_name' } : { kind: 'named', name };
}

async function fetchWith(url: string, agent: Agent, options: FetchClientNameOptions): Promise<ClientNameAnswer> {
  let answer;
  try {
    answer = await fetchJson(url, { timeoutMs: options.timeoutMs, maxBytes: MAX_CLIENT_DOCUMENT_BYTES, dispatcher: agent, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  } catch (error) {
    if (options.signal?.aborted === true) return { kind: 'failed', reason: 'stopped' };
    if (error instanceof FetchProblem && error.tooLarge) return { kind: 'failed', reason: `the document is larger than ${MAX_CLIENT_DOCUMENT_BYTES} bytes` };
    // A refused address is said as it is, wherever undici wrapped it.
    const refused = error instanceof FetchProblem && refusedAddress(error.cause);
    return { kind: 'failed', reason: refused === false ? (error instanceof Error ? error.message : String(error)) : refused };
  }
  // A redirect is refused, never followed: the document must be at the URL that is the client's id.
  if (answer.status >= 300 && answer.status < 400) return { kind: 'failed', reason: `HTTP ${answer.status}: redirect not followed` };
  if (answer.status !== 200) return { kind: 'failed', reason: `HTTP ${answer.status}` };
  return nameOf(answer.json, url);
}

/** The message of an AddressRefused anywhere in an error's causes, or false. */
function refusedAddress(error: unknown): string | false {
  for (let at = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth += 1) if (at instanceof AddressRefused) return at.message;
  return false;
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
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
