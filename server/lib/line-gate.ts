export interface LineGateHandlers {
  /** Bytes to pass on, in order: at most one call per push. */
  forward(bytes: Buffer): void;
  /**
   * A complete line, without its line ending. `held` is true when none of it has been passed on:
   * returning false then keeps it back for good. A line that went out as it came is only told.
   */
  line(text: string, held: boolean): boolean;
  /**
   * An unfinished line grew past the bound. `held` is true when none of it has been passed on:
   * returning false then keeps the whole line back, up to its end; otherwise it goes out as it
   * comes, unread.
   */
  tooLong(held: boolean): boolean;
}

const NEWLINE = 0x0a;

/** The line's text: decoded whole, so a character split across chunks is never torn. */
function textOf(raw: Buffer): string {
  let end = raw.length;
  if (raw[end - 1] === NEWLINE) end -= 1;
  if (raw[end - 1] === 0x0d) end -= 1;
  return raw.toString('utf8', 0, end);
}

/**
 * Splits a byte stream into newline-delimited lines and, while judging, passes each complete line
 * on only once it has been judged, in its exact bytes (CRLF or LF as it came). Not judging, chunks
 * go out as they come and lines are only read. A line begun while not judging, or past
 * `maxLineBytes` unfinished, cannot be held back any more: the rest of it follows as it comes, so
 * a hostile peer costs bounded memory and a long line is delayed by no more than the bound.
 */
export class LineGate {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Part of the unfinished line went out already. */
  private headSent = false;
  /** The unfinished line is past the bound: it goes out unread up to its end. */
  private unread = false;
  /** The unfinished line is past the bound and kept back: dropped up to its end. */
  private dropping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly handlers: LineGateHandlers,
  ) {}

  push(chunk: Buffer, judging: boolean): void {
    const out: Buffer[] = judging ? [] : [chunk];
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      if (this.dropping) {
        if (newline >= 0) this.dropping = false;
        continue;
      }
      if (this.unread) {
        if (judging) out.push(piece);
        if (newline >= 0) this.unread = false;
        continue;
      }
      const passing = !judging || this.headSent;
      if (passing && judging) out.push(piece);
      if (newline < 0) {
        this.headSent = passing;
        this.pending.push(piece);
        this.pendingBytes += piece.length;
        if (this.pendingBytes > this.maxLineBytes) {
          const held = judging && !this.headSent;
          const passOn = this.handlers.tooLong(held) || !held;
          if (passOn && !this.headSent) out.push(...this.pending);
          this.reset();
          if (passOn) this.unread = true;
          else this.dropping = true;
        }
        continue;
      }
      const raw = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.reset();
      const held = !passing;
      if (this.handlers.line(textOf(raw), held) && held) out.push(raw);
    }
    if (out.length > 0) this.handlers.forward(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  /**
   * The input ended: an unfinished last line that is still held, as it came (no server reads a
   * line without its newline, so it is passed on unjudged rather than dropped).
   */
  end(): Buffer | undefined {
    const rest = this.headSent || this.dropping || this.pending.length === 0 ? undefined : Buffer.concat(this.pending);
    this.dropping = false;
    this.reset();
    return rest;
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.headSent = false;
  }
}
