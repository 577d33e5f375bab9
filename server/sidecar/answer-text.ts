import { TextDecoder } from 'node:util';

/**
 * An answer's bytes as its client reads them. The SDK clients decode answers the Web way: a JSON
 * body with `response.json()`, an event stream through `TextDecoderStream`. Both decode UTF-8 with
 * replacement characters and drop one byte-order mark at the start, so the meter does the same,
 * and a server's BOM never turns an answer the client read into one the meter could not.
 */

const BOM = '\uFEFF';

/** The whole of an answer's bytes as text, as `response.json()` reads it before parsing. */
export function answerText(chunks: readonly Buffer[]): string {
  const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * An answer's bytes as text, chunk by chunk, as `TextDecoderStream` gives them: a character split
 * across chunks comes out whole with the chunk that completes it.
 * A chunk that ends on a plain ASCII byte, with nothing held from the one before, is decoded on its
 * own; only a chunk that ends inside a character brings in a streaming decoder (constructing one
 * costs several times a small chunk's decoding), which then reads every chunk after it.
 */
export class AnswerTextDecoder {
  private decoder: TextDecoder | undefined;
  private started = false;

  write(chunk: Buffer): string {
    if (chunk.length === 0) return '';
    let text: string;
    if (this.decoder === undefined && chunk[chunk.length - 1]! < 0x80) text = chunk.toString('utf8');
    else {
      // The mark is dropped here, once, at the start of the whole answer: not at the decoder's own start.
      this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
      text = this.decoder.decode(chunk, { stream: true });
    }
    return this.first(text);
  }

  /** What is still held of an incomplete character, as replacement characters. */
  end(): string {
    return this.decoder === undefined ? '' : this.first(this.decoder.decode());
  }

  private first(text: string): string {
    if (this.started || text === '') return text;
    this.started = true;
    return text.startsWith(BOM) ? text.slice(1) : text;
  }
}
