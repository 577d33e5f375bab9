import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into newline-delimited lines for observation. A line longer than
 * `maxLineBytes` is skipped (reported once, as undefined), so a hostile peer costs bounded memory.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string | undefined) => void,
  ) {}

  push(chunk: Buffer): void {
    let text = this.decoder.write(chunk);
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n')) {
      const piece = text.slice(0, at);
      text = text.slice(at + 1);
      if (this.skipping) {
        this.skipping = false;
        this.partial = '';
        continue;
      }
      this.onLine((this.partial + piece).replace(/\r$/, ''));
      this.partial = '';
    }
    if (this.skipping) return;
    this.partial += text;
    if (Buffer.byteLength(this.partial) > this.maxLineBytes) {
      this.skipping = true;
      this.partial = '';
      this.onLine(undefined);
    }
  }
}
