import fc from 'fast-check';

/** How the body goes on the wire: in one piece with a length, chunked in pieces, or half of it and then a reset. */
export type Delivery = 'whole' | 'chunked' | 'half';

export interface HostileRequest {
  shape: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  delivery: Delivery;
}

const TOKEN_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+.^_`|~-"];
// Node refuses to send other header bytes, so these are the hostile values a client can actually put on the wire.
const VALUE_CHARS = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), '\t'];
// Framing and routing headers the sender itself owns; the rest are fair game.
const RESERVED = new Set(['content-length', 'transfer-encoding', 'host', 'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'expect', 'x-soak-id']);

const headerName = fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 40 }).filter((n) => !RESERVED.has(n.toLowerCase()));
const headerValue = fc.oneof(
  fc.string({ unit: fc.constantFrom(...VALUE_CHARS), maxLength: 200 }),
  fc.string({ unit: fc.constantFrom(...VALUE_CHARS), minLength: 1000, maxLength: 6000 }),
);

const ODD_NAMES = [...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype', 'constructor', 'tools/call', 'initialize', 'server/discover', 'notifications/initialized', '', ' ', 'tools/call\u0000', 'a'.repeat(10_000)];
const method = fc.oneof(fc.constantFrom(...ODD_NAMES), fc.string({ unit: 'binary', maxLength: 300 }));
const version = fc.oneof(fc.constantFrom('2026-07-28', '2025-11-25', '2025-06-18', '2024-11-05', 'DRAFT-2026-v1', '__proto__', 'constructor', ''), fc.string({ unit: fc.constantFrom(...VALUE_CHARS), maxLength: 300 }));

// Ids no well-behaved client sends: huge and negative numbers, long strings, objects, 400-digit literals (raw text).
const oddIdText = fc.oneof(
  fc.double().map((d) => (Number.isFinite(d) ? JSON.stringify(d) : '1e999')),
  fc.bigInt({ min: -(10n ** 400n), max: 10n ** 400n }).map(String),
  fc.string({ unit: 'binary', maxLength: 5000 }).map((s) => JSON.stringify(s)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('null', 'true', '-0', '[]', '{}', '{"__proto__":{"polluted":1}}'),
);

const message = fc.record({ id: oddIdText, method, version }).map(({ id, method: m, version: v }) =>
  `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(m)},"params":{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":${JSON.stringify(v)},"__proto__":{"x":1}}}}`,
);

const body = (maxBodyBytes: number) =>
  fc.oneof(
    { weight: 4, arbitrary: message.map((text) => ({ shape: 'json-rpc, odd id/method/version', text })) },
    { weight: 2, arbitrary: fc.array(message, { maxLength: 40 }).map((items) => ({ shape: 'batch', text: `[${items.join(',')}]` })) },
    { weight: 2, arbitrary: message.chain((text) => fc.nat({ max: text.length - 1 }).map((cut) => ({ shape: 'truncated json', text: text.slice(0, cut) }))) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ shape: 'any json', text: JSON.stringify(v) ?? 'null' })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 2000 }).map((text) => ({ shape: 'random text', text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4000 }).map((bytes) => ({ shape: 'random bytes', bytes: Buffer.from(bytes) })) },
    { weight: 1, arbitrary: fc.constantFrom('', '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":1,"method":"ping"}'.repeat(3)).map((text) => ({ shape: 'empty, BOM or concatenated', text })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 * 1024 }).map((extra) => ({ shape: 'over maxBodyBytes', text: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"pad":"${'x'.repeat(maxBodyBytes + extra)}"}}` })) },
  );

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'text/event-stream', '*/*', 'application/json, application/json'];
const PATHS = ['/mcp', '/mcp', '/mcp', '/', '/messages', '/messages?sessionId=__proto__', '/sse', '/mcp?x=1&x=2', '/%00', '/..%2f..%2fetc%2fpasswd', '/__proto__', '/healthz', '/api/v1/plans', '//double//slash', '/mcp/' + 'a'.repeat(3000)];

/** Randomized hostile requests for the fuzz; `maxBodyBytes` is the sidecar's, so some bodies exceed it. */
export function hostileRequest(maxBodyBytes: number): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant('POST') }, { weight: 2, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'PROPFIND') }),
      path: fc.oneof(fc.constantFrom(...PATHS), fc.string({ unit: fc.constantFrom(...TOKEN_CHARS, '/', '%'), maxLength: 200 }).map((p) => `/${p}`)),
      contentType: fc.option(fc.constantFrom(...CONTENT_TYPES)),
      accept: fc.option(fc.constantFrom('application/json, text/event-stream', 'text/event-stream', 'application/json', '*/*', 'text/html')),
      protocolVersion: fc.option(version.filter((v) => /^[\t\x20-\x7e]*$/.test(v))),
      sessionId: fc.option(headerValue),
      authorization: fc.option(fc.oneof(headerValue, headerValue.map((v) => `Bearer ${v}`))),
      mcpMethod: fc.option(headerValue),
      extra: fc.dictionary(headerName, headerValue, { maxKeys: 6 }),
      body: body(maxBodyBytes),
      delivery: fc.oneof({ weight: 16, arbitrary: fc.constant<Delivery>('whole') }, { weight: 3, arbitrary: fc.constant<Delivery>('chunked') }, { weight: 1, arbitrary: fc.constant<Delivery>('half') }),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(r.extra)) headers[name.toLowerCase()] = value;
      if (r.contentType !== null) headers['content-type'] = r.contentType;
      if (r.accept !== null) headers.accept = r.accept;
      if (r.protocolVersion !== null) headers['mcp-protocol-version'] = r.protocolVersion;
      if (r.sessionId !== null) headers['mcp-session-id'] = r.sessionId;
      if (r.authorization !== null) headers.authorization = r.authorization;
      if (r.mcpMethod !== null) headers['mcp-method'] = r.mcpMethod;
      const bytes = 'bytes' in r.body ? r.body.bytes : Buffer.from(r.body.text, 'utf8');
      // Half a body needs at least two bytes to be half of anything.
      const delivery: Delivery = r.delivery === 'half' && bytes.length < 2 ? 'whole' : r.delivery;
      return { shape: r.body.shape, method: r.method, path: r.path, headers, body: bytes, delivery };
    });
}
