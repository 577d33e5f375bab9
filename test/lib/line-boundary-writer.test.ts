import { describe, expect, test } from 'vitest';
import { LineBoundaryWriter } from '../../server/lib/line-boundary-writer.js';

function harness() {
  const written: string[] = [];
  const writer = new LineBoundaryWriter((bytes) => {
    written.push(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
    return true;
  });
  return { writer, written, text: () => written.join('') };
}

describe('LineBoundaryWriter', () => {
  test('writes a line of its own at once while the stream is between lines', () => {
    const { writer, text } = harness();
    writer.add('{"own":0}\n');
    writer.passOn(Buffer.from('{"server":1}\n'));
    writer.add('{"own":1}\n');
    expect(text()).toBe('{"own":0}\n{"server":1}\n{"own":1}\n');
    expect(writer.holding).toBe(false);
  });

  test('never puts its line inside a server line: it waits for that line\'s newline, then the rest follows', () => {
    for (const cut of [1, 5, 12]) {
      const { writer, text } = harness();
      const server = '{"server":1}\r\n{"server":2}\n';
      writer.passOn(Buffer.from(server.slice(0, cut)));
      writer.add('{"own":1}\n');
      expect(writer.holding).toBe(true);
      expect(text()).toBe(server.slice(0, cut));
      writer.passOn(Buffer.from(server.slice(cut)));
      expect(text()).toBe('{"server":1}\r\n{"own":1}\n{"server":2}\n');
      expect(writer.holding).toBe(false);
    }
  });

  test('a server line spread over several chunks keeps every waiting line behind it, in order', () => {
    const { writer, text } = harness();
    writer.passOn(Buffer.from('{"ser'));
    writer.add('{"own":1}\n');
    writer.passOn(Buffer.from('ver":'));
    writer.add('{"own":2}\n');
    writer.passOn(Buffer.from('1}\n'));
    expect(text()).toBe('{"server":1}\n{"own":1}\n{"own":2}\n');
  });

  test('a stream that ends inside a line drops the lines waiting for it', () => {
    const { writer, text } = harness();
    writer.passOn(Buffer.from('{"cut'));
    writer.add('{"own":1}\n');
    expect(writer.end()).toBe(1);
    expect(text()).toBe('{"cut');
  });

  test('reports the destination asking to wait', () => {
    const writer = new LineBoundaryWriter(() => false);
    expect(writer.passOn(Buffer.from('{"server":1}\n'))).toBe(false);
  });
});
