import fc from 'fast-check';
import { classifyHttpRequest, type HttpRequestClassification, type HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import { classifyStdioLine, type StdioLineClassification } from '../../server/protocol/classify-stdio-line.js';
import type { ClassifyLookups } from '../../server/protocol/classified-message.js';
import { readClassifiableJson } from '../../server/protocol/read-classifiable-json.js';
import { parseJson } from '../../server/protocol/read-json-rpc.js';

/**
 * JSON-RPC texts for checking the scanner against JSON.parse: messages built from the members
 * classification reads, spelled in every way JSON allows (whitespace, escaped keys and strings,
 * duplicate keys, number spellings), plus mutations that break or bend them.
 */

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/** A number literal JSON.parse reads as `n`, in one of the spellings that mean it. */
function spellNumber(n: number, rnd: () => number): string {
  const plain = Object.is(n, -0) ? '-0' : JSON.stringify(n);
  const pick = Math.floor(rnd() * 6);
  if (!Number.isInteger(n) || Math.abs(n) > 1e15) return pick < 3 ? plain : plain.replace('e', 'E');
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  const abs = Math.abs(n);
  switch (pick) {
    case 0: return `${sign}${abs}.0`;
    case 1: return `${sign}${abs}e0`;
    case 2: return abs === 0 ? `${sign}0E-1` : `${sign}${abs}0E-1`;
    case 3: return abs === 0 ? `${sign}0.000e+7` : `${sign}${abs}00e-2`;
    default: return plain;
  }
}

/** A string literal for `s`, some characters escaped as `\uXXXX` (or `\/`) where JSON allows it. */
function spellString(s: string, rnd: () => number): string {
  const escapeRate = rnd() < 0.5 ? 0 : rnd() * 0.6;
  let out = '"';
  for (const ch of s) {
    for (let k = 0; k < ch.length; k += 1) {
      const unit = ch[k] as string;
      const code = unit.charCodeAt(0);
      const standard = JSON.stringify(unit).slice(1, -1);
      if (standard.length > 1 || (code >= 0xd800 && code <= 0xdfff)) out += rnd() < 0.5 ? `\\u${code.toString(16).padStart(4, '0')}` : standard;
      else if (unit === '/' && rnd() < escapeRate) out += '\\/';
      else if (rnd() < escapeRate) {
        const hex = code.toString(16).padStart(4, '0');
        out += `\\u${rnd() < 0.5 ? hex : hex.toUpperCase()}`;
      }
      else out += unit;
    }
  }
  return `${out}"`;
}

function space(rnd: () => number): string {
  if (rnd() < 0.7) return '';
  return [' ', '\n', '\r\n', '\t', '  '][Math.floor(rnd() * 5)] as string;
}

/** JSON text for `value`: varied whitespace and spellings, and sometimes a decoy duplicate before a key. */
export function spell(value: unknown, rnd: () => number): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return spellNumber(value, rnd);
  if (typeof value === 'string') return spellString(value, rnd);
  if (Array.isArray(value)) return `[${space(rnd)}${value.map((v) => `${spell(v, rnd)}${space(rnd)}`).join(`,${space(rnd)}`)}]`;
  const members: string[] = [];
  // JSON.parse makes `__proto__` an own member, never a prototype: it must not leak into a message.
  if (rnd() < 0.05) members.push(`"__proto__":${spell({ id: 1, method: 'initialize', _meta: { [META_VERSION]: '2026-07-28' } }, rnd)}`);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    // JSON.parse keeps the last of duplicate keys: a decoy first must change nothing.
    if (rnd() < 0.15) members.push(`${spellString(key, rnd)}:${spell(DECOYS[Math.floor(rnd() * DECOYS.length)], rnd)}`);
    members.push(`${space(rnd)}${spellString(key, rnd)}${space(rnd)}:${space(rnd)}${spell(v, rnd)}${space(rnd)}`);
  }
  return `{${members.join(',')}}`;
}

const DECOYS: unknown[] = ['2026-07-28', 'initialize', 7, null, { name: 'decoy', version: '0' }, { [META_VERSION]: '2026-07-28' }, [1], true];

const versions = fc.constantFrom('2026-07-28', '2025-06-18', '2025-11-25', '2025-03-26', 'DRAFT-2026-v1', '', 'x'.repeat(140));
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const unicodeText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: anyUnit, maxLength: 20 }) },
  // Long enough for the scanner to cross part of it natively rather than char by char.
  { weight: 1, arbitrary: fc.string({ unit: fc.oneof({ weight: 9, arbitrary: fc.constantFrom('a', ' ', 'é', '"', '\\', '/') }, { weight: 1, arbitrary: anyUnit }), minLength: 20, maxLength: 120 }) },
);
const methods = fc.oneof(
  fc.constantFrom('initialize', 'notifications/initialized', 'notifications/cancelled', 'tools/call', 'tools/list', 'prompts/get', 'resources/read', 'server/discover', 'ping'),
  unicodeText,
);
const ids = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.constantFrom(-0, 0, 1e21, 2 ** 53 + 1, 0.1, -1.5e-7, 1e308),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  unicodeText,
  fc.constantFrom(null, true, {}, [1], 'srv-1'),
);
const scalars = fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), unicodeText);
/** Arbitrary JSON values, some deeper than the scanner tracks. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalars,
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(unicodeText, tie('json'), { maxKeys: 4 }),
  ),
})).json;
const deep = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.boolean()).map(([depth, objects]) => {
  let value: unknown = 'bottom';
  for (let k = 0; k < depth; k += 1) value = objects ? { a: value } : [value];
  return value;
});
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const clientInfo = fc.oneof(fc.record({ name: fc.oneof(unicodeText, fc.constant(7)), version: sometimes(fc.oneof(unicodeText, fc.constant(null))) }, { requiredKeys: [] }), scalars);
const meta = fc.oneof(
  fc.record({ [META_VERSION]: fc.oneof(versions, scalars), [META_CLIENT_INFO]: clientInfo, other: anyJson }, { requiredKeys: [] }),
  anyJson,
);
const params = fc.oneof(
  fc.record({
    protocolVersion: fc.oneof(versions, scalars),
    clientInfo,
    capabilities: anyJson,
    _meta: meta,
    requestId: ids,
    name: fc.oneof(fc.constantFrom('echo', 'x'), unicodeText),
    uri: unicodeText,
    arguments: fc.oneof(anyJson, deep),
  }, { requiredKeys: [] }),
  anyJson,
);
/** One JSON-RPC message object: members chosen independently, so every kind and malformed one comes up. */
export const message: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ jsonrpc: fc.constant('2.0'), id: ids, method: methods, params, result: anyJson, error: anyJson }, { requiredKeys: ['jsonrpc'] }) },
  { weight: 1, arbitrary: anyJson },
);
/** A body: one message, or a batch of them. */
export const body: fc.Arbitrary<unknown> = fc.oneof({ weight: 3, arbitrary: message }, { weight: 1, arbitrary: fc.array(message, { maxLength: 4 }) });

const MUTATION_CHARS = ['{', '}', '[', ']', '"', ',', ':', '\\', ' ', '0', '1', '-', '+', '.', 'e', 'E', 't', 'n', 'u', 'a', '/', '\uFEFF', '\u00a0', '\u2028', '\x00', '\x1f', '\n', 'é', '\ud83d'];

/** Random insertions, deletions and replacements of characters that matter to JSON. */
export function mutate(text: string, rnd: () => number, count: number): string {
  let out = text;
  for (let k = 0; k < count; k += 1) {
    const at = Math.floor(rnd() * (out.length + 1));
    const ch = MUTATION_CHARS[Math.floor(rnd() * MUTATION_CHARS.length)] as string;
    const op = Math.floor(rnd() * 3);
    if (op === 0) out = out.slice(0, at) + ch + out.slice(at);
    else if (op === 1) out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + ch + out.slice(at + 1);
  }
  return out;
}

/** Contexts a body may arrive in: none, a legacy session, modern mirrored headers, an HTTP+SSE channel. */
const CONTEXTS: { headers: HttpRequestFacts['headers']; path: string }[] = [
  { headers: { 'content-type': 'application/json' }, path: '/mcp' },
  { headers: { 'mcp-session-id': 's-1' }, path: '/mcp' },
  { headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, path: '/mcp' },
  { headers: { 'mcp-protocol-version': '2025-06-18' }, path: '/messages?sessionId=abc' },
];

const LOOKUPS: ClassifyLookups = {
  sessionVersion: (id) => (id === 's-1' ? '2025-06-18' : undefined),
  httpSseChannel: (path) => (path.startsWith('/messages') ? { key: path, version: '2024-11-05' } : undefined),
  serverRequestMethod: (_scope, id) => (id === 'srv-1' || id === 7 ? 'roots/list' : undefined),
};

/** The classification of `text` in each context and on stdio, by the scanner (`fast`) and by JSON.parse (`full`). */
export function classifyBothWays(text: string): { fast: unknown[]; full: unknown[] } {
  const http = (read: typeof parseJson): HttpRequestClassification[] => CONTEXTS.map(({ headers, path }) =>
    classifyHttpRequest({ method: 'POST', path, headers, body: text, bodyTooLarge: false }, LOOKUPS, read));
  const stdio = (read: typeof parseJson): StdioLineClassification[] => [false, true].map((initializeSeen) =>
    classifyStdioLine(text, { initializeSeen, negotiatedVersion: initializeSeen ? '2025-06-18' : undefined, serverRequestMethod: (id) => (id === 'srv-1' ? 'sampling/createMessage' : undefined) }, read));
  return { fast: [...http(readClassifiableJson), ...stdio(readClassifiableJson)], full: [...http(parseJson), ...stdio(parseJson)] };
}
