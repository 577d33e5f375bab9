/**
 * The cut corpus (cut-corpus.ts) rendered for stdio: the dimensions that mean something on a pipe
 * where a message is one line of JSON and there are no headers. The message kind, the `_meta`
 * version, the batch shape and the JSON spelling (spaces, repeated and escaped keys) are the HTTP
 * corpus's own, rendered by its `bodyTextOf`; added here are a `NaN` in the message (not JSON, yet
 * what a lenient reader takes), how the line ends (LF, CRLF), how it is cut into writes, and a line
 * past the wrapper's bound. `stdioVariant` is the fast-check generator; `renderStdioVariant` turns a
 * variant into the writes a client makes. Nothing here knows a server or the wrapper.
 */
import fc from 'fast-check';
import { bodyTextOf, type CutVariant, type DuplicateKey, type MessageKind, type MetaVersion } from './cut-corpus.js';

/** The kinds a stdio client can send: the header-only dressings of the HTTP corpus have no stdio form. */
export type StdioMessageKind = Exclude<MessageKind, 'initialize-dressed-modern'>;
export type LineEnd = 'LF' | 'CRLF';

export interface StdioVariant {
  message: StdioMessageKind;
  meta: MetaVersion;
  /** 0: a single message; else a JSON-RPC batch of that many copies, on one line. */
  batch: 0 | 1 | 2 | 5;
  /** Spaces and tabs between JSON tokens (never a newline: that would end the line). */
  spaced: boolean;
  duplicateKey: DuplicateKey;
  escapedKeys: boolean;
  /** A member `"n": NaN` in each message. */
  nan: boolean;
  lineEnd: LineEnd;
  /** The line written in this many pieces (the last one ends it). */
  pieces: 1 | 2 | 3 | 7;
  /** A member long enough to put the line past the wrapper's bound. */
  pastBound: boolean;
}

export const STDIO_CORPUS_DIMENSIONS = {
  message: ['initialize-2025-11-25', 'initialize-2025-06-18', 'tools-call', 'tools-call-meta-2025-06-18', 'tools-call-headers-only', 'server-discover'],
  meta: ['client', '2026-07-28', '2025-06-18', 'anything', 'absent'],
  batch: [0, 1, 2, 5],
  spaced: [false, true],
  duplicateKey: ['none', 'meta-decoy-first', 'meta-decoy-last', 'method-decoy-first', 'method-decoy-last'],
  escapedKeys: [false, true],
  nan: [false, true],
  lineEnd: ['LF', 'CRLF'],
  pieces: [1, 2, 3, 7],
  pastBound: [false, true],
} as const satisfies { [K in keyof StdioVariant]: readonly StdioVariant[K][] };

export function stdioCorpusSize(): number {
  return Object.values(STDIO_CORPUS_DIMENSIONS).reduce((product, values) => product * values.length, 1);
}

/** As in cut-corpus.ts: the plain value first, drawn `plainPct` times in a hundred, so shrinking walks towards it. */
function dimension<T>(values: readonly T[], plainPct = 75): fc.Arbitrary<T> {
  const rest = values.length - 1;
  const plainSlots = Math.round((rest * plainPct) / (100 - plainPct));
  return fc.integer({ min: 0, max: plainSlots + rest - 1 }).map((index) => values[index < plainSlots ? 0 : index - plainSlots + 1]!);
}

export const stdioVariant: fc.Arbitrary<StdioVariant> = fc.record({
  message: fc.constantFrom(...STDIO_CORPUS_DIMENSIONS.message),
  meta: dimension(STDIO_CORPUS_DIMENSIONS.meta),
  batch: dimension(STDIO_CORPUS_DIMENSIONS.batch, 85),
  spaced: dimension(STDIO_CORPUS_DIMENSIONS.spaced, 50),
  duplicateKey: dimension(STDIO_CORPUS_DIMENSIONS.duplicateKey),
  escapedKeys: dimension(STDIO_CORPUS_DIMENSIONS.escapedKeys),
  nan: dimension(STDIO_CORPUS_DIMENSIONS.nan, 85),
  lineEnd: dimension(STDIO_CORPUS_DIMENSIONS.lineEnd, 50),
  pieces: dimension(STDIO_CORPUS_DIMENSIONS.pieces, 50),
  pastBound: dimension(STDIO_CORPUS_DIMENSIONS.pastBound, 90),
});

/** The HTTP variant whose body is one message of this stdio variant (its header and framing dimensions plain). */
function asCutVariant(variant: StdioVariant): CutVariant {
  return {
    message: variant.message,
    meta: variant.meta,
    versionHeader: 'client',
    methodHeader: 'client',
    nameHeader: 'client',
    session: 'none',
    headerCase: 'canonical',
    duplicate: 'none',
    connection: '',
    framing: 'content-length',
    encoding: 'identity',
    charset: 'none',
    spaced: variant.spaced,
    duplicateKey: variant.duplicateKey,
    escapedKeys: variant.escapedKeys,
    batch: 0,
    path: '/mcp',
    credential: 'none',
  };
}

/** The line's text, without its end: one message, or a batch of the same message under successive ids. */
export function stdioLineOf(variant: StdioVariant, firstId: number, boundBytes: number): string {
  const one = (id: number) => bodyTextOf(asCutVariant(variant), id);
  let text = variant.batch === 0 ? one(firstId) : `[${Array.from({ length: variant.batch }, (_unused, index) => one(firstId + index)).join(variant.spaced ? ', ' : ',')}]`;
  // Spaced JSON breaks lines between tokens; on stdio the gaps are spaces and tabs. No string holds a raw newline.
  if (variant.spaced) text = text.replace(/\n( *)/g, (_line, indent: string) => ` \t${indent}`);
  if (variant.nan) text = text.replace(/"jsonrpc"\s*:\s*"2\.0"/g, (member) => `${member},"n":NaN`);
  if (variant.pastBound) text = text.replace(/"jsonrpc"\s*:\s*"2\.0"/, (member) => `${member},"pad":"${'x'.repeat(boundBytes + 64)}"`);
  return text;
}

/** The writes a client makes for the variant: the line, cut into its pieces, the last one ending it. */
export function renderStdioVariant(variant: StdioVariant, firstId: number, boundBytes: number): Buffer[] {
  const line = Buffer.from(`${stdioLineOf(variant, firstId, boundBytes)}${variant.lineEnd === 'CRLF' ? '\r\n' : '\n'}`);
  const size = Math.ceil(line.length / variant.pieces);
  const pieces: Buffer[] = [];
  for (let at = 0; at < line.length; at += size) pieces.push(line.subarray(at, at + size));
  return pieces;
}

/** How many messages the variant's line holds (a batch's elements each count). */
export function messagesOf(variant: StdioVariant): number {
  return Math.max(1, variant.batch);
}

/** The variant in one line, only what differs from a plain one. */
export function describeStdioVariant(variant: StdioVariant): string {
  const plain: Partial<StdioVariant> = { meta: 'client', batch: 0, spaced: false, duplicateKey: 'none', escapedKeys: false, nan: false, lineEnd: 'LF', pieces: 1, pastBound: false };
  return Object.entries(variant)
    .filter(([key, value]) => !(key in plain) || plain[key as keyof StdioVariant] !== value)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(' ');
}
