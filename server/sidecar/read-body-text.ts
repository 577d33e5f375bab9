/**
 * The texts a server may read from a request body's bytes, so the sidecar classifies and judges
 * what the server will parse, not what is convenient. The official SDK servers read bodies two ways:
 * - Web-standard handlers (the v2 SDK, v1's Streamable HTTP outside Express) decode UTF-8 with
 *   `TextDecoder`: a UTF-8 byte-order mark is dropped and the declared charset is ignored;
 * - body-parser and raw-body (Express's `express.json()`, v1's HTTP+SSE transport) decode by the
 *   declared `charset` with iconv-lite, which also drops a byte-order mark.
 * - the Python SDK's servers hand the bytes to Python's `json`, which finds UTF-16 or UTF-32 from a
 *   byte-order mark or the pattern of zero bytes in the first four (RFC 4627 §3), whatever the
 *   declared charset says.
 * So the body is read as UTF-8 without its mark, in the declared charset when iconv-lite knows it,
 * and in the encoding Python detects when that is not UTF-8. The declared reading comes first;
 * when readings differ, the first that is JSON is the one counted, and the policy judges every
 * reading that is JSON (one that is not serves nothing) and refuses the request if it refuses any.
 */
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { parseJson } from '../protocol/read-json-rpc.js';

export interface BodyText {
  /** The reading the request is counted by. */
  text: string;
  /** Other readings a server may make of the same bytes, judged too. Empty in the common case. */
  others: readonly string[];
  /** True when a declared Content-Encoding could not be undone: `text` is the bytes as sent. */
  encodingUnread?: boolean;
}

const NONE: readonly string[] = Object.freeze([]);
const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;
const UTF8 = /^utf-?8$/i;

/** The charset a Content-Type declares, or undefined. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const match = CHARSET.exec(contentType);
  const value = match?.[1] ?? match?.[2];
  return value === undefined || value === '' ? undefined : value;
}

/** UTF-8 as a Web-standard server decodes it: a leading byte-order mark is not part of the text. */
function utf8Reading(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return (bom ? bytes.subarray(3) : bytes).toString('utf8');
}

/** The encoding Python's `json.detect_encoding` finds in the first bytes, or undefined for UTF-8. */
export function pythonDetectedEncoding(bytes: Buffer): string | undefined {
  const [a, b, c, d] = bytes;
  if (bytes.length >= 4 && ((a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff) || (a === 0xff && b === 0xfe && c === 0x00 && d === 0x00))) return 'utf-32';
  if (bytes.length >= 2 && ((a === 0xfe && b === 0xff) || (a === 0xff && b === 0xfe))) return 'utf-16';
  if (bytes.length >= 4) {
    if (a === 0) return b !== 0 ? 'utf-16be' : 'utf-32be';
    if (b === 0) return c !== 0 || d !== 0 ? 'utf-16le' : 'utf-32le';
  } else if (bytes.length === 2) {
    if (a === 0) return 'utf-16be';
    if (b === 0) return 'utf-16le';
  }
  return undefined;
}

function decoded(bytes: Buffer, encoding: string | undefined): string | undefined {
  if (encoding === undefined || UTF8.test(encoding)) return undefined;
  try {
    return iconv.encodingExists(encoding) ? iconv.decode(bytes, encoding) : undefined;
  } catch {
    return undefined;
  }
}

/** A reading a server could serve: JSON, as the servers' parsers take it. */
function isJsonText(text: string): boolean {
  return parseJson(text).ok;
}

/** The body's readings (see above). Never throws: an encoding iconv-lite cannot decode adds no reading. */
export function readBodyText(bytes: Buffer, contentType: string | undefined): BodyText {
  const utf8 = utf8Reading(bytes);
  const declared = decoded(bytes, declaredCharset(contentType));
  // The common case, a UTF-8 body with no other charset declared: one reading, nothing parsed here.
  const detected = bytes.length > 0 && (bytes[0] === 0 || bytes[1] === 0 || bytes[0]! >= 0xfe) ? decoded(bytes, pythonDetectedEncoding(bytes)) : undefined;
  if (declared === undefined && detected === undefined) return { text: utf8, others: NONE };
  const readings: string[] = [];
  for (const reading of [declared, utf8, detected]) if (reading !== undefined && !readings.includes(reading)) readings.push(reading);
  if (readings.length === 1) return { text: readings[0]!, others: NONE };
  const counted = readings.find(isJsonText) ?? readings[0]!;
  return { text: counted, others: readings.filter((reading) => reading !== counted && isJsonText(reading)) };
}

/**
 * The bytes a server reads from a body sent with a `Content-Encoding`, or undefined when the
 * sidecar cannot read them: a coding it does not know, bytes that do not decode, or more than
 * `maxBytes` once decoded. body-parser (`express.json()`, as the SDK's Express servers use it)
 * inflates `gzip`, `deflate` and `br`, and holds the inflated body to its own limit; a Web-standard
 * handler reads the coded bytes as they are, and finds no JSON in them. So the decoded bytes are
 * the one reading a server may serve. Decoding stops at `maxBytes` of output, so a small body that
 * inflates enormously costs no more than a body of that size.
 */
export function decodeContent(bytes: Buffer, contentEncoding: string, maxBytes: number): Buffer | undefined {
  const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  let out = bytes;
  try {
    // Codings are listed in the order they were applied: undone last first.
    for (let i = codings.length - 1; i >= 0; i -= 1) {
      const options = { maxOutputLength: maxBytes };
      switch (codings[i]) {
        case 'gzip':
        case 'x-gzip':
          out = zlib.gunzipSync(out, options);
          break;
        case 'deflate':
          out = zlib.inflateSync(out, options);
          break;
        case 'br':
          out = zlib.brotliDecompressSync(out, options);
          break;
        default:
          return undefined;
      }
    }
  } catch {
    // Corrupt, truncated, or past maxBytes (ERR_BUFFER_TOO_LARGE): nothing a server would serve either.
    return undefined;
  }
  return out;
}

/**
 * The readings of a body held as chunks. With a Content-Encoding, servers differ: body-parser
 * reads the decoded bytes, a Web-standard handler the bytes as sent (it ignores the header). The
 * decoded reading is counted; the bytes as sent are a further reading only when they are JSON at
 * all (coded bytes never are, in practice). When the coding cannot be undone, only the bytes as
 * sent can be served, by a server that ignores the header: they are the reading.
 */
export function readChunksText(chunks: readonly Buffer[], contentType: string | undefined, contentEncoding?: string | string[], maxBytes = Number.MAX_SAFE_INTEGER): BodyText {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  if (contentEncoding === undefined) return readBodyText(bytes, contentType);
  // Two Content-Encoding headers are one list (RFC 9110 §5.3), as Node joins them.
  const decoded = decodeContent(bytes, Array.isArray(contentEncoding) ? contentEncoding.join(',') : contentEncoding, maxBytes);
  const asSent = readBodyText(bytes, contentType);
  if (decoded === undefined) return { ...asSent, encodingUnread: true };
  if (decoded === bytes) return asSent;
  const read = readBodyText(decoded, contentType);
  const sentIsJson = [asSent.text, ...asSent.others].filter(isJsonText);
  return sentIsJson.length === 0 ? read : { text: read.text, others: [...read.others, ...sentIsJson] };
}

