/**
 * A corpus of MCP requests as an attacker past a cut would write them, down to the bytes: how the
 * body is framed, encoded and spelled, which headers carry (or contradict) the era, and the path
 * and credential it comes with. `cutVariant` is the fast-check generator; `renderVariant` turns a
 * variant into the exact bytes of one HTTP/1.1 request. Nothing here knows a server or the
 * sidecar, so any suite (the Python interop one too) can send the same corpus.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

export const MODERN_VERSION = '2026-07-28';
export const VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * The request a client means to send, as such a client would send it: a legacy `initialize`; a
 * modern `tools/call` or `server/discover` (`_meta` naming 2026-07-28, headers mirroring it); a
 * modern-looking `tools/call` whose `_meta` names 2025-06-18; a `tools/call` whose only modern
 * sign is its headers (no `_meta`); a legacy `initialize` dressed in a modern request's headers
 * (`MCP-Protocol-Version: 2026-07-28`, `Mcp-Method: tools/list`).
 */
export type MessageKind = 'initialize-2025-11-25' | 'initialize-2025-06-18' | 'initialize-dressed-modern' | 'tools-call' | 'tools-call-meta-2025-06-18' | 'tools-call-headers-only' | 'server-discover';
/** `_meta` protocol version in the body: the kind's own, the modern one, a legacy one, junk, or no `_meta` at all. */
export type MetaVersion = 'client' | '2026-07-28' | '2025-06-18' | 'anything' | 'absent';
/** `client`: as the kind's client sends it; `same`: mirroring the body; `other`: a value that disagrees with it. */
export type Mirror = 'client' | 'absent' | 'same' | 'other';
export type VersionHeader = 'client' | 'absent' | 'same' | '2026-07-28' | '2025-11-25';
export type Session = 'none' | 'live' | 'bogus';
export type HeaderCase = 'canonical' | 'lower' | 'upper';
export type Duplicate = 'none' | 'version-same' | 'version-other' | 'method-other' | 'session-twice';
export type Framing = 'content-length' | 'chunked';
export type Encoding = 'identity' | 'gzip' | 'deflate' | 'br' | 'gzip-undeclared' | 'declared-not-applied';
export type Charset = 'none' | 'utf-8' | 'utf-16le' | 'latin1' | 'utf-8-bom' | 'utf-16le-bom' | 'utf-16le-undeclared';
export type DuplicateKey = 'none' | 'meta-decoy-first' | 'meta-decoy-last' | 'method-decoy-first' | 'method-decoy-last';
export type Credential = 'none' | 'Bearer t' | 'bearer t' | 'Bearer t extra' | 'Bearer  t';

export const PATH_FORMS = ['/mcp', '/MCP', '/mcp/', '/%6Dcp', '/./mcp', '/x/../mcp', '//mcp', '/mcp;x', '/mcp?x'] as const;
export type PathForm = (typeof PATH_FORMS)[number];
/** Hop-by-hop lists a client may send: `Connection` naming MCP headers makes a proxy drop them. */
export const CONNECTION_LISTS = ['', 'mcp-protocol-version', 'mcp-method', 'mcp-protocol-version, mcp-method', 'Mcp-Session-Id', 'mcp-name, mcp-protocol-version, mcp-method'] as const;

export interface CutVariant {
  message: MessageKind;
  meta: MetaVersion;
  versionHeader: VersionHeader;
  methodHeader: Mirror;
  nameHeader: Mirror;
  session: Session;
  headerCase: HeaderCase;
  duplicate: Duplicate;
  connection: (typeof CONNECTION_LISTS)[number];
  framing: Framing;
  encoding: Encoding;
  charset: Charset;
  /** Spaces and newlines between JSON tokens. */
  spaced: boolean;
  duplicateKey: DuplicateKey;
  /** Keys spelled with escapes: `"\u006dethod"`, `"_\u006deta"`, `"io.modelcontextprotocol\/protocolVersion"`. */
  escapedKeys: boolean;
  /** 0: a single message; else a JSON-RPC batch of that many copies. */
  batch: 0 | 1 | 2 | 101;
  path: PathForm;
  credential: Credential;
}

/** Each dimension of the corpus and the values it takes (printed by the suites as the corpus size). */
export const CORPUS_DIMENSIONS = {
  message: ['initialize-2025-11-25', 'initialize-2025-06-18', 'initialize-dressed-modern', 'tools-call', 'tools-call-meta-2025-06-18', 'tools-call-headers-only', 'server-discover'],
  meta: ['client', '2026-07-28', '2025-06-18', 'anything', 'absent'],
  versionHeader: ['client', 'absent', 'same', '2026-07-28', '2025-11-25'],
  methodHeader: ['client', 'absent', 'same', 'other'],
  nameHeader: ['client', 'absent', 'same', 'other'],
  session: ['none', 'live', 'bogus'],
  headerCase: ['canonical', 'lower', 'upper'],
  duplicate: ['none', 'version-same', 'version-other', 'method-other', 'session-twice'],
  connection: CONNECTION_LISTS,
  framing: ['content-length', 'chunked'],
  encoding: ['identity', 'gzip', 'deflate', 'br', 'gzip-undeclared', 'declared-not-applied'],
  charset: ['none', 'utf-8', 'utf-16le', 'latin1', 'utf-8-bom', 'utf-16le-bom', 'utf-16le-undeclared'],
  spaced: [false, true],
  duplicateKey: ['none', 'meta-decoy-first', 'meta-decoy-last', 'method-decoy-first', 'method-decoy-last'],
  escapedKeys: [false, true],
  batch: [0, 1, 2, 101],
  path: PATH_FORMS,
  credential: ['none', 'Bearer t', 'bearer t', 'Bearer t extra', 'Bearer  t'],
} as const satisfies { [K in keyof CutVariant]: readonly CutVariant[K][] };

/** The number of distinct variants the generator can produce. */
export function corpusSize(): number {
  return Object.values(CORPUS_DIMENSIONS).reduce((product, values) => product * values.length, 1);
}

/**
 * Values that keep a request plain (what a real client sends) come first and are drawn `plainPct`
 * times in a hundred (80 unless told), so a variant changes two or three things at once and a
 * bypass that takes a few of them together is drawn often enough to be found. Drawn as an index
 * whose low values name the plain one, so shrinking walks towards a plain request.
 */
function dimension<T>(values: readonly T[], plainPct = 80): fc.Arbitrary<T> {
  const rest = values.length - 1;
  const plainSlots = Math.round((rest * plainPct) / (100 - plainPct));
  return fc.integer({ min: 0, max: plainSlots + rest - 1 }).map((index) => values[index < plainSlots ? 0 : index - plainSlots + 1]!);
}

export const cutVariant: fc.Arbitrary<CutVariant> = fc.record({
  message: fc.constantFrom(...CORPUS_DIMENSIONS.message),
  meta: dimension(CORPUS_DIMENSIONS.meta),
  versionHeader: dimension(CORPUS_DIMENSIONS.versionHeader),
  methodHeader: dimension(CORPUS_DIMENSIONS.methodHeader),
  nameHeader: dimension(CORPUS_DIMENSIONS.nameHeader),
  session: dimension(CORPUS_DIMENSIONS.session),
  headerCase: dimension(CORPUS_DIMENSIONS.headerCase),
  duplicate: dimension(CORPUS_DIMENSIONS.duplicate),
  connection: dimension(CORPUS_DIMENSIONS.connection),
  framing: dimension(CORPUS_DIMENSIONS.framing),
  encoding: dimension(CORPUS_DIMENSIONS.encoding),
  charset: dimension(CORPUS_DIMENSIONS.charset),
  spaced: dimension(CORPUS_DIMENSIONS.spaced, 50),
  duplicateKey: dimension(CORPUS_DIMENSIONS.duplicateKey),
  escapedKeys: dimension(CORPUS_DIMENSIONS.escapedKeys),
  batch: dimension(CORPUS_DIMENSIONS.batch, 85),
  path: dimension(CORPUS_DIMENSIONS.path),
  credential: dimension(CORPUS_DIMENSIONS.credential),
});

/** What a rendering needs from the world: where it goes and the legacy session a `live` variant names. */
export interface RenderContext {
  host: string;
  /** A session the server holds, opened before the cut; absent where the server keeps none. */
  liveSessionId?: string;
  /** The first JSON-RPC id to use (a batch takes the ones after it too). */
  firstId: number;
}

export interface RenderedRequest {
  /** The request-target as sent. */
  target: string;
  /** Header lines as sent (without the framing and `Connection: close` lines the sender adds). */
  headers: [string, string][];
  body: Buffer;
  framing: Framing;
  /** The whole request, byte for byte. */
  bytes: Buffer;
}

const METHOD_OF: Record<MessageKind, string> = {
  'initialize-2025-11-25': 'initialize',
  'initialize-2025-06-18': 'initialize',
  'initialize-dressed-modern': 'initialize',
  'tools-call': 'tools/call',
  'tools-call-meta-2025-06-18': 'tools/call',
  'tools-call-headers-only': 'tools/call',
  'server-discover': 'server/discover',
};
/** The `_meta` version each kind's client puts in the body (undefined: no `_meta`). */
const CLIENT_META: Record<MessageKind, string | undefined> = {
  'initialize-2025-11-25': undefined,
  'initialize-2025-06-18': undefined,
  'initialize-dressed-modern': undefined,
  'tools-call': MODERN_VERSION,
  'tools-call-meta-2025-06-18': '2025-06-18',
  'tools-call-headers-only': undefined,
  'server-discover': MODERN_VERSION,
};
/** The kinds whose client sends no MCP headers at all: a legacy client's `initialize`. */
const sendsNoHeaders = (kind: MessageKind) => kind === 'initialize-2025-11-25' || kind === 'initialize-2025-06-18';

function metaVersionOf(variant: CutVariant): string | undefined {
  if (variant.meta === 'client') return CLIENT_META[variant.message];
  return variant.meta === 'absent' ? undefined : variant.meta;
}
/**
 * True when the variant's request, as `JSON.parse` reads it (the last of repeated keys), is a
 * request other than `initialize` carrying the modern envelope (`_meta` with a protocol version),
 * whatever version it names.
 */
export function carriesEnvelope(variant: CutVariant): boolean {
  const method = METHOD_OF[variant.message];
  const read = variant.duplicateKey === 'method-decoy-last' ? decoyMethodOf(method) : method;
  return read !== 'initialize' && metaVersionOf(variant) !== undefined;
}

/** The other method a repeated `method` key names. */
function decoyMethodOf(method: string): string {
  return method === 'initialize' ? OTHER_METHOD : 'initialize';
}
const OTHER_METHOD = 'tools/list';
const TOOL = 'echo';

type Json = string | number | boolean | null | Json[] | Entries;
/** A JSON object as an ordered list of members, so a key may repeat. */
class Entries {
  constructor(readonly members: [string, Json][]) {}
}

function metaFor(version: string): Entries {
  return new Entries([
    [VERSION_META_KEY, version],
    ['io.modelcontextprotocol/clientInfo', new Entries([['name', 'corpus'], ['version', '1']])],
    ['io.modelcontextprotocol/clientCapabilities', new Entries([])],
  ]);
}

/** The message as members; the decoy of a duplicated key sits before or after the real one. */
function messageOf(variant: CutVariant, id: number): Entries {
  const method = METHOD_OF[variant.message];
  const params: [string, Json][] = [];
  if (method === 'initialize') {
    params.push(['protocolVersion', variant.message === 'initialize-2025-06-18' ? '2025-06-18' : '2025-11-25'], ['capabilities', new Entries([])], ['clientInfo', new Entries([['name', 'corpus'], ['title', 'héllo'], ['version', '1']])]);
  } else if (method === 'tools/call') {
    params.push(['name', TOOL], ['arguments', new Entries([['text', 'héllo']])]);
  }
  const metaVersion = metaVersionOf(variant);
  if (metaVersion !== undefined) {
    const real = metaFor(metaVersion);
    const decoy = metaFor(metaVersion === MODERN_VERSION ? '2025-06-18' : MODERN_VERSION);
    if (variant.duplicateKey === 'meta-decoy-first') params.push(['_meta', decoy]);
    params.push(['_meta', real]);
    if (variant.duplicateKey === 'meta-decoy-last') params.push(['_meta', decoy]);
  }
  const decoyMethod = decoyMethodOf(method);
  const members: [string, Json][] = [['jsonrpc', '2.0'], ['id', id]];
  if (variant.duplicateKey === 'method-decoy-first') members.push(['method', decoyMethod]);
  members.push(['method', method]);
  if (variant.duplicateKey === 'method-decoy-last') members.push(['method', decoyMethod]);
  members.push(['params', new Entries(params)]);
  return new Entries(members);
}

const ESCAPED_KEYS: Record<string, string> = {
  method: '"\\u006dethod"',
  _meta: '"_\\u006deta"',
  [VERSION_META_KEY]: '"io.modelcontextprotocol\\/protocolVersion"',
};

function stringify(value: Json, variant: CutVariant, depth = 0): string {
  const gap = variant.spaced ? '\n' + '  '.repeat(depth + 1) : '';
  const close = variant.spaced ? '\n' + '  '.repeat(depth) : '';
  const colon = variant.spaced ? ' : ' : ':';
  if (value instanceof Entries) {
    if (value.members.length === 0) return '{}';
    const parts = value.members.map(([key, member]) => `${gap}${(variant.escapedKeys && ESCAPED_KEYS[key]) || JSON.stringify(key)}${colon}${stringify(member, variant, depth + 1)}`);
    return `{${parts.join(',')}${close}}`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => gap + stringify(item, variant, depth + 1)).join(',')}${close}]`;
  return JSON.stringify(value);
}

/** The body text before any charset or content coding. */
export function bodyTextOf(variant: CutVariant, firstId: number): string {
  if (variant.batch === 0) return stringify(messageOf(variant, firstId), variant);
  const items = Array.from({ length: variant.batch }, (_unused, index) => messageOf(variant, firstId + index));
  return stringify(items as unknown as Json, variant);
}

function encodeCharset(text: string, charset: Charset): { bytes: Buffer; contentType: string } {
  switch (charset) {
    case 'none':
      return { bytes: Buffer.from(text), contentType: 'application/json' };
    case 'utf-8':
      return { bytes: Buffer.from(text), contentType: 'application/json; charset=utf-8' };
    case 'utf-16le':
      return { bytes: Buffer.from(text, 'utf16le'), contentType: 'application/json; charset=utf-16le' };
    case 'latin1':
      return { bytes: Buffer.from(text, 'latin1'), contentType: 'application/json; charset=latin1' };
    case 'utf-8-bom':
      return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), contentType: 'application/json' };
    case 'utf-16le-bom':
      return { bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), contentType: 'application/json; charset=utf-16le' };
    case 'utf-16le-undeclared':
      return { bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), contentType: 'application/json' };
  }
}

function encodeContent(bytes: Buffer, encoding: Encoding): { bytes: Buffer; header: string | undefined } {
  switch (encoding) {
    case 'identity':
      return { bytes, header: undefined };
    case 'gzip':
      return { bytes: gzipSync(bytes), header: 'gzip' };
    case 'deflate':
      return { bytes: deflateSync(bytes), header: 'deflate' };
    case 'br':
      return { bytes: brotliCompressSync(bytes), header: 'br' };
    case 'gzip-undeclared':
      return { bytes: gzipSync(bytes), header: undefined };
    case 'declared-not-applied':
      return { bytes, header: 'gzip' };
  }
}

function cased(name: string, headerCase: HeaderCase): string {
  return headerCase === 'lower' ? name.toLowerCase() : headerCase === 'upper' ? name.toUpperCase() : name;
}

function versionHeaderValue(variant: CutVariant): string | undefined {
  // A legacy client sends no version header with `initialize`; every other kind mirrors its claim.
  if (variant.versionHeader === 'absent' || (variant.versionHeader === 'client' && sendsNoHeaders(variant.message))) return undefined;
  if (variant.versionHeader !== 'same' && variant.versionHeader !== 'client') return variant.versionHeader;
  // What a client mirrors: the body's `_meta` version, else (no `_meta`) the modern one it claims.
  return metaVersionOf(variant) ?? MODERN_VERSION;
}

/** Whether a mirrored header is sent and, if so, whether it agrees with the body. */
function mirrorOf(mirror: Mirror, kind: MessageKind, applies = true): 'absent' | 'same' | 'other' {
  if (mirror === 'client') return sendsNoHeaders(kind) || !applies ? 'absent' : 'same';
  return mirror;
}

/** The MCP and session headers of a variant, in the order a client would send them. */
function mcpHeaders(variant: CutVariant, context: RenderContext): [string, string][] {
  const headers: [string, string][] = [];
  const method = METHOD_OF[variant.message];
  const version = versionHeaderValue(variant);
  if (version !== undefined) headers.push(['MCP-Protocol-Version', version]);
  if (variant.duplicate === 'version-same' && version !== undefined) headers.push(['MCP-Protocol-Version', version]);
  if (variant.duplicate === 'version-other') headers.push(['MCP-Protocol-Version', version === '2025-11-25' ? MODERN_VERSION : '2025-11-25']);
  // Dressed as modern, an `initialize` names a method a modern client sends.
  const methodHeader = variant.message === 'initialize-dressed-modern' && variant.methodHeader === 'client' ? 'other' : mirrorOf(variant.methodHeader, variant.message);
  if (methodHeader !== 'absent') headers.push(['Mcp-Method', methodHeader === 'same' ? method : OTHER_METHOD]);
  if (variant.duplicate === 'method-other') headers.push(['Mcp-Method', method === 'initialize' ? OTHER_METHOD : 'initialize']);
  const nameHeader = mirrorOf(variant.nameHeader, variant.message, method === 'tools/call');
  if (nameHeader !== 'absent') headers.push(['Mcp-Name', nameHeader === 'same' ? TOOL : 'add']);
  if (variant.session !== 'none') {
    const id = variant.session === 'live' && context.liveSessionId !== undefined ? context.liveSessionId : '00000000-0000-4000-8000-00000000b09u';
    headers.push(['Mcp-Session-Id', id]);
    if (variant.duplicate === 'session-twice') headers.push(['Mcp-Session-Id', id]);
  }
  return headers;
}

/** Splits a body into up to three chunks in chunked transfer coding. */
function chunked(body: Buffer): Buffer {
  const cuts = body.length < 3 ? [body] : [body.subarray(0, 1), body.subarray(1, Math.ceil(body.length / 2)), body.subarray(Math.ceil(body.length / 2))];
  const parts = cuts.filter((part) => part.length > 0).flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
  return Buffer.concat([...parts, Buffer.from('0\r\n\r\n')]);
}

/** The exact bytes of the variant as one POST, ending with `Connection: close` so the answer ends the socket. */
export function renderVariant(variant: CutVariant, context: RenderContext): RenderedRequest {
  const text = bodyTextOf(variant, context.firstId);
  const charset = encodeCharset(text, variant.charset);
  const content = encodeContent(charset.bytes, variant.encoding);
  const headers: [string, string][] = [
    ['Content-Type', charset.contentType],
    ['Accept', 'application/json, text/event-stream'],
    ...mcpHeaders(variant, context),
  ];
  if (content.header !== undefined) headers.push(['Content-Encoding', content.header]);
  if (variant.credential !== 'none') headers.push(['Authorization', variant.credential]);
  if (variant.connection !== '') headers.push(['Connection', variant.connection]);
  const named = headers.map(([name, value]): [string, string] => [cased(name, variant.headerCase), value]);
  const framing: [string, string] = variant.framing === 'chunked' ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(content.bytes.length)];
  const head = [`POST ${variant.path} HTTP/1.1`, `Host: ${context.host}`, ...[...named, framing, ['Connection', 'close']].map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
  const body = variant.framing === 'chunked' ? chunked(content.bytes) : content.bytes;
  return { target: variant.path, headers: named, body: content.bytes, framing: variant.framing, bytes: Buffer.concat([Buffer.from(head, 'latin1'), body]) };
}

/** The variant in one line, only what differs from a plain request (for failure messages and logs). */
export function describeVariant(variant: CutVariant): string {
  const plain: Partial<CutVariant> = { meta: 'client', versionHeader: 'client', methodHeader: 'client', nameHeader: 'client', session: 'none', headerCase: 'canonical', duplicate: 'none', connection: '', framing: 'content-length', encoding: 'identity', charset: 'none', spaced: false, duplicateKey: 'none', escapedKeys: false, batch: 0, path: '/mcp', credential: 'none' };
  const parts = Object.entries(variant)
    .filter(([key, value]) => !(key in plain) || plain[key as keyof CutVariant] !== value)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return parts.join(' ');
}
