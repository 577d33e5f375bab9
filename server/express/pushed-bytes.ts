/** The bytes of one chunk the HTTP parser (or anyone) pushes into a request stream; undefined for what is not bytes or text. */
export function pushedBytes(chunk: unknown, encoding: BufferEncoding | undefined): Buffer | undefined {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding ?? 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}
