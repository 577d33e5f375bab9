const NEWLINE = 0x0a;

/**
 * Writes a stream's bytes through as they come, and lines of its own only between the stream's
 * lines, never inside one: a line added while the stream is in the middle of a line waits for that
 * line's newline.
 */
export class LineBoundaryWriter {
  private betweenLines = true;
  private waiting: string[] = [];

  /** `write` returns false when the destination asks the writer to wait, as a stream's write does. */
  constructor(private readonly write: (bytes: Buffer | string) => boolean) {}

  /** True while an added line waits for the stream's current line to end. */
  get holding(): boolean {
    return this.waiting.length > 0;
  }

  /** Passes on the stream's bytes; false when the destination asked to wait. */
  passOn(chunk: Buffer): boolean {
    if (chunk.length === 0) return true;
    let flowing = true;
    let rest = chunk;
    if (this.waiting.length > 0) {
      const newline = rest.indexOf(NEWLINE);
      if (newline >= 0) {
        flowing = this.write(rest.subarray(0, newline + 1));
        const lines = this.waiting.join('');
        this.waiting = [];
        flowing = this.write(lines) && flowing;
        rest = rest.subarray(newline + 1);
        this.betweenLines = true;
        if (rest.length === 0) return flowing;
      }
    }
    flowing = this.write(rest) && flowing;
    this.betweenLines = rest[rest.length - 1] === NEWLINE;
    return flowing;
  }

  /** Adds a line of its own (newline included): now when between lines, else after the current one. */
  add(line: string): boolean {
    if (this.betweenLines) return this.write(line);
    this.waiting.push(line);
    return true;
  }

  /** The stream ended: lines still waiting are dropped, as the line they waited for never ended. */
  end(): number {
    const dropped = this.waiting.length;
    this.waiting = [];
    return dropped;
  }
}
