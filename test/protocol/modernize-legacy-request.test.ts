import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeHeaderValue, headersAgree } from '../../server/protocol/headers-agree.js';
import { encodeHeaderValue } from '../../server/protocol/encode-header-value.js';
import { modernizeLegacyRequest } from '../../server/protocol/modernize-legacy-request.js';
import { FIRST_MODERN_VERSION, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../server/protocol/versions.js';
import type { Peer } from '../peers/listen-peer.js';
import { answerOf } from '../support/answer-of.js';
import { startV2Server } from '../peers/v2-server.js';

const HANDSHAKE = { clientCapabilities: { elicitation: {} }, clientInfo: { name: 'legacy-client', version: '1.4.0' } };

describe('encodeHeaderValue', () => {
  it('any string survives encoding and the decoding a server does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (value) => {
        const encoded = encodeHeaderValue(value);
        expect(encoded).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$|^$/);
        expect(decodeHeaderValue(encoded)).toBe(value);
      }),
    );
  });

  it('leaves a plain name plain, and encodes one that merely looks encoded', () => {
    expect(encodeHeaderValue('get_weather')).toBe('get_weather');
    expect(encodeHeaderValue('file:///docs/a b.md')).toBe('file:///docs/a b.md');
    expect(encodeHeaderValue('=?base64?abc?=')).toMatch(/^=\?base64\?[A-Za-z0-9+/=]+\?=$/);
    expect(encodeHeaderValue('café')).toBe('=?base64?Y2Fmw6k=?=');
    expect(encodeHeaderValue(' padded ')).not.toBe(' padded ');
  });
});

describe('modernizeLegacyRequest', () => {
  it('puts the handshake in _meta, keeps the client\'s own _meta keys, and mirrors the body in agreeing headers', () => {
    const { message, headers } = modernizeLegacyRequest(
      { id: 4, method: 'tools/call', params: { name: 'naïve tool', arguments: { q: 1 }, _meta: { progressToken: 'p1' } } },
      HANDSHAKE,
    );
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: {
        name: 'naïve tool',
        arguments: { q: 1 },
        _meta: { progressToken: 'p1', [META_PROTOCOL_VERSION]: FIRST_MODERN_VERSION, [META_CLIENT_CAPABILITIES]: HANDSHAKE.clientCapabilities, [META_CLIENT_INFO]: HANDSHAKE.clientInfo },
      },
    });
    const asObject = Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
    expect(headersAgree(asObject, { method: message.method, version: FIRST_MODERN_VERSION, params: message.params })).toBe(true);
  });

  it('the headers agree with the body for any method and name a legacy client can send', () => {
    const request = fc.record({
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
      method: fc.constantFrom('tools/call', 'prompts/get', 'resources/read', 'tools/list', 'resources/templates/list', 'completion/complete'),
      name: fc.string({ unit: 'grapheme', maxLength: 30 }),
    });
    fc.assert(
      fc.property(request, ({ id, method, name }) => {
        const params = method === 'resources/read' ? { uri: name } : method === 'tools/list' ? {} : { name };
        const { message, headers } = modernizeLegacyRequest({ id, method, params }, HANDSHAKE);
        const asObject = Object.fromEntries(headers.map(([n, v]) => [n.toLowerCase(), v]));
        expect(headersAgree(asObject, { method, version: FIRST_MODERN_VERSION, params: message.params })).toBe(true);
      }),
    );
  });

  describe('against a modern-only SDK v2 server', () => {
    let server: Peer;
    beforeAll(async () => {
      server = await startV2Server('modern');
    });
    afterAll(async () => {
      await server?.close();
    });

    async function send(request: { id: number; method: string; params?: unknown }) {
      const { message, headers } = modernizeLegacyRequest(request, HANDSHAKE);
      const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(message) });
      return { status: response.status, body: await answerOf(response) };
    }

    it('serves a legacy session\'s requests, each made self-contained, with no handshake', async () => {
      const listed = await send({ id: 1, method: 'tools/list' });
      expect(listed.status).toBe(200);
      expect((listed.body.result?.tools as { name: string }[]).map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'add']));

      const echoed = await send({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
      expect(echoed).toMatchObject({ status: 200, body: { id: 2, result: { content: [{ type: 'text', text: 'hi era=modern' }] } } });

      const added = await send({ id: 3, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 40 } } });
      expect(added.body.result?.content).toEqual([{ type: 'text', text: '42' }]);
    });

    it('the same request without the handshake facts in _meta is one the server refuses: the translation is what makes it servable', async () => {
      const { message, headers } = modernizeLegacyRequest({ id: 9, method: 'tools/list' }, HANDSHAKE);
      const bare = { ...message, params: {} };
      const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(bare) });
      expect(response.status).toBe(400);
    });
  });
});
