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
import iconv from 'iconv-lite';

export interface BodyText {
  /** The reading the request is counted by. */
  text: string;
  /** Other readings a server may make of the same bytes, judged too. Empty in the common case. */
  others: readonly string[];
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

/** The readings of a body held as chunks. */
export function readChunksText(chunks: readonly Buffer[], contentType: string | undefined): BodyText {
  return readBodyText(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), contentType);
}
