import { describe, expect, test } from 'vitest';
import { LineSplitter } from '../../server/lib/line-splitter.js';

function split(chunks: Buffer[], maxLineBytes = 1024): (string | undefined)[] {
  const lines: (string | undefined)[] = [];
  const splitter = new LineSplitter(maxLineBytes, (line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  return lines;
}

describe('LineSplitter', () => {
  test('yields each complete line once, whatever the chunking, and holds back an unfinished one', () => {
    const stream = Buffer.from('{"a":1}\n{"b":"é✓"}\r\n{"c":', 'utf8');
    for (let at = 0; at <= stream.length; at += 1) {
      expect(split([stream.subarray(0, at), stream.subarray(at)]), `split at ${at}`).toEqual(['{"a":1}', '{"b":"é✓"}']);
    }
  });

  test('skips a line past the cap, says so once, and carries on with the next line', () => {
    const long = `${'x'.repeat(100)}\n{"ok":true}\n`;
    expect(split([Buffer.from(long.slice(0, 40)), Buffer.from(long.slice(40))], 32)).toEqual([undefined, '{"ok":true}']);
  });
});
