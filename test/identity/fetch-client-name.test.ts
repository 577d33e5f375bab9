import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { fetchClientName, MAX_CLIENT_DOCUMENT_BYTES, type FetchClientNameOptions } from '../../server/identity/fetch-client-name.js';
import { startClientDocuments, type ClientDocuments } from '../support/client-documents.js';

/** A host name only these tests know: the fetcher is given a resolver that answers it with 127.0.0.1. */
const TEST_HOST = 'cimd.test';

/**
 * The fetcher against a real HTTPS server on 127.0.0.1 whose certificate a test CA signed, serving
 * Client ID Metadata Documents. Whether the fetcher connected at all is read from what the server saw.
 */
describe('fetchClientName', () => {
  let documents: ClientDocuments;
  let trusted: FetchClientNameOptions;
  const urlOf = (path: string) => `${documents.origin}${path}`;

  beforeAll(async () => {
    documents = await startClientDocuments([TEST_HOST]);
    trusted = { timeoutMs: 5_000, allowPrivateAddresses: true, ca: documents.ca };
    documents.serve('/client.json', { json: { client_id: urlOf('/client.json'), client_name: 'Support Desk', redirect_uris: ['https://desk.example/cb'] } });
  });
  afterAll(async () => {
    await documents?.close();
  });
  beforeEach(() => {
    documents.requests.length = 0;
  });

  test('with the test CA trusted and private addresses allowed, it reads the name the document gives', async () => {
    expect(await fetchClientName(urlOf('/client.json'), trusted)).toEqual({ kind: 'named', name: 'Support Desk' });
    expect(documents.requests).toEqual([{ path: '/client.json', host: `127.0.0.1:${documents.port}` }]);
  });

  test('without the test CA, the server\'s certificate is not trusted and nothing is read', async () => {
    const { ca: _ca, ...untrusted } = trusted;
    const answer = await fetchClientName(urlOf('/client.json'), untrusted);
    expect(answer).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/certificate/i) });
  });

  test('with private addresses refused, 127.0.0.1 is refused before any connection: the server sees no request', async () => {
    const answer = await fetchClientName(urlOf('/client.json'), { ...trusted, allowPrivateAddresses: false });
    expect(answer).toEqual({ kind: 'failed', reason: '127.0.0.1 is not a public address' });
    expect(documents.requests).toEqual([]);
  });

  test('a host name that resolves to a private address is refused before any connection, with the system resolver or another', async () => {
    const viaSystem = await fetchClientName(`https://localhost:${documents.port}/client.json`, { ...trusted, allowPrivateAddresses: false });
    expect(viaSystem).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^localhost resolves to .+, which is not a public address$/) });
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const viaOwn = await fetchClientName(`https://${TEST_HOST}:${documents.port}/client.json`, { ...trusted, allowPrivateAddresses: false, resolve });
    expect(viaOwn).toEqual({ kind: 'failed', reason: `${TEST_HOST} resolves to 127.0.0.1, which is not a public address` });
    // A name with one public and one private address is refused too: the connection could take either.
    const mixed = async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }];
    const viaMixed = await fetchClientName(`https://${TEST_HOST}:${documents.port}/client.json`, { ...trusted, allowPrivateAddresses: false, resolve: mixed });
    expect(viaMixed).toEqual({ kind: 'failed', reason: `${TEST_HOST} resolves to 10.0.0.7, which is not a public address` });
    expect(documents.requests).toEqual([]);
  });

  test('the connection goes to the address the fetcher resolved and checked, never resolved again', async () => {
    const url = `https://${TEST_HOST}:${documents.port}/named-host.json`;
    documents.serve('/named-host.json', { json: { client_id: url, client_name: 'Named Host' } });
    const resolved: string[] = [];
    const resolve = async (hostname: string) => {
      resolved.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    expect(await fetchClientName(url, { ...trusted, resolve })).toEqual({ kind: 'named', name: 'Named Host' });
    // The system resolver does not know the name: the socket reached the server through the fetcher's answer alone.
    expect(resolved).toEqual([TEST_HOST]);
    expect(documents.requests).toEqual([{ path: '/named-host.json', host: `${TEST_HOST}:${documents.port}` }]);
  });

  test('a redirect is a failure and its target is never requested', async () => {
    documents.serve('/moved.json', { status: 302, headers: { location: '/client.json' } });
    expect(await fetchClientName(urlOf('/moved.json'), trusted)).toEqual({ kind: 'failed', reason: 'HTTP 302: redirect not followed' });
    expect(documents.requests.map((r) => r.path)).toEqual(['/moved.json']);
  });

  test('a document past 5 KiB is cut off unread and refused; one just under is read', async () => {
    const padded = (bytes: number) => {
      const base = { client_id: urlOf('/big.json'), client_name: 'Big', padding: '' };
      return { ...base, padding: 'x'.repeat(bytes - JSON.stringify(base).length) };
    };
    documents.serve('/big.json', { json: padded(MAX_CLIENT_DOCUMENT_BYTES + 1) });
    expect(await fetchClientName(urlOf('/big.json'), trusted)).toEqual({ kind: 'failed', reason: 'the document is larger than 5120 bytes' });
    documents.serve('/big.json', { json: padded(MAX_CLIENT_DOCUMENT_BYTES) });
    expect(await fetchClientName(urlOf('/big.json'), trusted)).toEqual({ kind: 'named', name: 'Big' });
  });

  test('a document that names another client_id, even one differing only in form, names nobody', async () => {
    documents.serve('/other.json', { json: { client_id: urlOf('/client.json'), client_name: 'Impostor' } });
    expect(await fetchClientName(urlOf('/other.json'), trusted)).toEqual({ kind: 'failed', reason: 'the document names another client_id' });
    documents.serve('/form.json', { json: { client_id: `${documents.origin.toUpperCase()}/form.json`, client_name: 'Impostor' } });
    expect(await fetchClientName(urlOf('/form.json'), trusted)).toEqual({ kind: 'failed', reason: 'the document names another client_id' });
  });

  test('an answer that is not a JSON object, or another status, names nobody', async () => {
    documents.serve('/page.html', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><title>Desk</title></html>' });
    expect(await fetchClientName(urlOf('/page.html'), trusted)).toEqual({ kind: 'failed', reason: 'the answer is not JSON' });
    documents.serve('/list.json', { status: 200, headers: { 'content-type': 'application/json' }, body: '["Desk"]' });
    expect(await fetchClientName(urlOf('/list.json'), trusted)).toEqual({ kind: 'failed', reason: 'the answer is not a JSON object' });
    expect(await fetchClientName(urlOf('/missing.json'), trusted)).toEqual({ kind: 'failed', reason: 'HTTP 404' });
    documents.serve('/nameless.json', { json: { client_id: urlOf('/nameless.json'), client_name: 42 } });
    expect(await fetchClientName(urlOf('/nameless.json'), trusted)).toEqual({ kind: 'failed', reason: 'the document has no client_name' });
  });

  test('only an https URL with a path is fetched: a plain http URL or a bare origin is never requested', async () => {
    expect(await fetchClientName(`http://127.0.0.1:${documents.port}/client.json`, trusted)).toEqual({ kind: 'failed', reason: 'the client_id not an https URL' });
    expect(await fetchClientName(`${documents.origin}/`, trusted)).toEqual({ kind: 'failed', reason: 'the client_id has no path' });
    expect(documents.requests).toEqual([]);
  });

  test('a name with control characters and 500 characters comes back without them, trimmed and cut to 128', async () => {
    const name = `  Desk\u0007 App\n\u202Eevil\u202C ${'é'.repeat(500)}`;
    documents.serve('/dirty.json', { json: { client_id: urlOf('/dirty.json'), client_name: name } });
    const answer = await fetchClientName(urlOf('/dirty.json'), trusted);
    expect(answer).toEqual({ kind: 'named', name: `Desk App evil ${'é'.repeat(128 - 'Desk App evil '.length)}` });
  });

  test('a fetch under way ends when it is told to stop', async () => {
    documents.serve('/stalled.json', { hang: true });
    const stopping = new AbortController();
    const answer = fetchClientName(urlOf('/stalled.json'), { ...trusted, timeoutMs: 600_000, signal: stopping.signal });
    while (documents.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    stopping.abort();
    expect(await answer).toEqual({ kind: 'failed', reason: 'stopped' });
  });

  test('a server that never answers is given up at the deadline', async () => {
    documents.serve('/slow.json', { hang: true });
    expect(await fetchClientName(urlOf('/slow.json'), { ...trusted, timeoutMs: 300 })).toEqual({ kind: 'failed', reason: 'timed out after 300 ms' });
  });
});
