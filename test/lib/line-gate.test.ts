import { describe, expect, test } from 'vitest';
import { LineGate } from '../../server/lib/line-gate.js';

interface Run {
  forwarded: Buffer;
  lines: [string, boolean][];
  tooLong: number;
}

/** Pushes the chunks through a gate that refuses lines containing `refuse`; `judging` per chunk. */
function run(chunks: Buffer[], options: { judging?: (index: number) => boolean; maxLineBytes?: number; refuse?: string; keepBackLong?: boolean } = {}): Run {
  const out: Buffer[] = [];
  const lines: [string, boolean][] = [];
  let tooLong = 0;
  const gate = new LineGate(options.maxLineBytes ?? 1024, {
    forward: (bytes) => out.push(Buffer.from(bytes)),
    line: (text, held) => {
      lines.push([text, held]);
      return options.refuse === undefined || !text.includes(options.refuse);
    },
    tooLong: (held) => {
      tooLong += 1;
      return !(held && options.keepBackLong === true);
    },
  });
  chunks.forEach((chunk, index) => gate.push(chunk, options.judging?.(index) ?? true));
  const rest = gate.end();
  if (rest !== undefined) out.push(rest);
  return { forwarded: Buffer.concat(out), lines, tooLong };
}

/** Every way of cutting the stream in two and in three. */
function cuts(stream: Buffer): Buffer[][] {
  const all: Buffer[][] = [];
  for (let a = 0; a <= stream.length; a += 1) {
    all.push([stream.subarray(0, a), stream.subarray(a)]);
    for (let b = a; b <= stream.length; b += 3) all.push([stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)]);
  }
  return all;
}

const MIXED = Buffer.from('{"a":1}\r\n{"b":"é✓"}\n\r\n{"c":3}\r\n{"d":4}\n', 'utf8');

describe('LineGate', () => {
  test('passes on mixed CRLF and LF lines byte for byte, each judged once and whole, however the stream is cut', () => {
    for (const chunks of cuts(MIXED)) {
      const { forwarded, lines } = run(chunks);
      expect(forwarded.equals(MIXED), `cut ${chunks.map((c) => c.length).join('+')}`).toBe(true);
      expect(lines).toEqual([['{"a":1}', true], ['{"b":"é✓"}', true], ['', true], ['{"c":3}', true], ['{"d":4}', true]]);
    }
  });

  test('keeps back a refused line in the middle and passes on the lines around it exactly', () => {
    const stream = Buffer.from('{"a":1}\r\n{"refuse":2}\r\n{"c":3}\n', 'utf8');
    for (const chunks of cuts(stream)) {
      expect(run(chunks, { refuse: 'refuse' }).forwarded.toString('utf8')).toBe('{"a":1}\r\n{"c":3}\n');
    }
  });

  test('holds an unfinished line until its newline arrives', () => {
    const out: string[] = [];
    const gate = new LineGate(1024, { forward: (bytes) => out.push(bytes.toString('utf8')), line: () => true, tooLong: () => true });
    gate.push(Buffer.from('{"a":1}\n{"b":'), true);
    expect(out).toEqual(['{"a":1}\n']);
    gate.push(Buffer.from('2}\r\n'), true);
    expect(out).toEqual(['{"a":1}\n', '{"b":2}\r\n']);
  });

  test('not judging, chunks go out whole as they come and lines are still read, told they were not held', () => {
    const out: string[] = [];
    const lines: [string, boolean][] = [];
    const gate = new LineGate(1024, { forward: (bytes) => out.push(bytes.toString('utf8')), line: (text, held) => (lines.push([text, held]), false), tooLong: () => true });
    gate.push(Buffer.from('{"a":1}\n{"b":'), false);
    gate.push(Buffer.from('2}\n'), false);
    expect(out).toEqual(['{"a":1}\n{"b":', '2}\n']);
    expect(lines).toEqual([['{"a":1}', false], ['{"b":2}', false]]);
  });

  test('a line begun while not judging cannot be kept back: its rest follows even when refused, and the next line is judged', () => {
    const chunks = [Buffer.from('{"refuse":1,'), Buffer.from('"x":2}\n{"refuse":3}\n{"ok":4}\n')];
    const { forwarded, lines } = run(chunks, { judging: (index) => index > 0, refuse: 'refuse' });
    expect(forwarded.toString('utf8')).toBe('{"refuse":1,"x":2}\n{"ok":4}\n');
    expect(lines).toEqual([['{"refuse":1,"x":2}', false], ['{"refuse":3}', true], ['{"ok":4}', true]]);
  });

  test('a line past the bound goes out unread as it comes, and judging resumes with the next line', () => {
    const long = `{"refuse":"${'x'.repeat(100)}"}\r\n`;
    const stream = Buffer.from(`${long}{"refuse":1}\n{"ok":2}\n`, 'utf8');
    const { forwarded, lines, tooLong } = run([stream.subarray(0, 40), stream.subarray(40, 90), stream.subarray(90)], { maxLineBytes: 32, refuse: 'refuse' });
    expect(forwarded.toString('utf8')).toBe(`${long}{"ok":2}\n`);
    expect(tooLong).toBe(1);
    expect(lines).toEqual([['{"refuse":1}', true], ['{"ok":2}', true]]);
  });

  test('a held line past the bound can be kept back whole, however its chunks fall, and the next line is judged', () => {
    const long = `{"refuse":"${'x'.repeat(100)}"}\r\n`;
    const stream = Buffer.from(`{"ok":0}\n${long}{"refuse":1}\n{"ok":2}\n`, 'utf8');
    for (const chunks of cuts(stream)) {
      const { forwarded, lines, tooLong } = run(chunks, { maxLineBytes: 32, refuse: 'refuse', keepBackLong: true });
      expect(forwarded.toString('utf8'), `cut ${chunks.map((c) => c.length).join('+')}`).toBe('{"ok":0}\n{"ok":2}\n');
      // Read whole when it came whole in one chunk (a chunk is bounded), otherwise told past the bound: once either way.
      const readWhole = lines.some(([text]) => text === long.trimEnd());
      expect(tooLong + (readWhole ? 1 : 0)).toBe(1);
      expect(lines.filter(([text]) => text !== long.trimEnd())).toEqual([['{"ok":0}', true], ['{"refuse":1}', true], ['{"ok":2}', true]]);
    }
  });

  test('a long line kept back that never ends is not passed on when the input ends', () => {
    const { forwarded } = run([Buffer.from(`{"a":1}\n{"x":"${'y'.repeat(100)}`)], { maxLineBytes: 32, keepBackLong: true });
    expect(forwarded.toString('utf8')).toBe('{"a":1}\n');
  });

  test('an unfinished last line is passed on unjudged when the input ends', () => {
    const { forwarded, lines } = run([Buffer.from('{"a":1}\n{"refuse":')], { refuse: 'refuse' });
    expect(forwarded.toString('utf8')).toBe('{"a":1}\n{"refuse":');
    expect(lines).toEqual([['{"a":1}', true]]);
  });
});
