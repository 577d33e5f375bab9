/**
 * Writes a value for `Mcp-Name` or `Mcp-Param-*` as a modern client must: plain when it is
 * visible ASCII with no surrounding space, else in the `=?base64?…?=` form over its UTF-8 bytes. A
 * plain value that happens to look like that form is encoded too, so a server decoding it gets the
 * value back (26:basic/transports/streamable-http.mdx §Value Encoding). Pure.
 */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const utf8 = new TextEncoder();

export function encodeHeaderValue(value: string): string {
  if (PLAIN.test(value) && !value.startsWith('=?base64?')) return value;
  let binary = '';
  for (const byte of utf8.encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
