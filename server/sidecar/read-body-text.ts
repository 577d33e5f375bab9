/**
 * The texts a server may read from a request body's bytes, so the sidecar classifies and judges
 * what the server will parse, not what is convenient. The official SDK servers read bodies two ways:
 * - Web-standard handlers (the v2 SDK, v1's Streamable HTTP outside Express) decode UTF-8 with
 *   `TextDecoder`: a UTF-8 byte-order mark is dropped and the declared charset is ignored;
 * - body-parser and raw-body (Express's `express.json()`, v1's HTTP+SSE transport) decode by the
 *   declared `charset` with iconv-lite, which also drops a byte-order mark.
 * So the body is read as UTF-8 without its mark and, when a charset other than UTF-8 is declared
 * and iconv-lite knows it, also in that charset. The declared reading comes first (it is the one
 * counted); the policy judges every reading and refuses the request if it refuses any.
 */
import zlib from 'node:zlib';
import iconv from 'iconv-lite';

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

/** The body's readings (see above). Never throws: a charset iconv-lite cannot decode adds no reading. */
export function readBodyText(bytes: Buffer, contentType: string | undefined): BodyText {
  const utf8 = utf8Reading(bytes);
  const charset = declaredCharset(contentType);
  if (charset === undefined || UTF8.test(charset)) return { text: utf8, others: NONE };
  let declared: string;
  try {
    if (!iconv.encodingExists(charset)) return { text: utf8, others: NONE };
    declared = iconv.decode(bytes, charset);
  } catch {
    return { text: utf8, others: NONE };
  }
  return declared === utf8 ? { text: utf8, others: NONE } : { text: declared, others: [utf8] };
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
  const sentIsJson = [asSent.text, ...asSent.others].filter(isJson);
  return sentIsJson.length === 0 ? read : { text: read.text, others: [...read.others, ...sentIsJson] };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
