import { describe, expect, test } from 'vitest';
import { EndpointRewriter, rewriteEndpointEvent } from '../../server/sidecar/endpoint-rewriter.js';

const toPublic = (data: string) => `/public${data}`;

/** Pushes the chunks through one rewriter and answers everything it let through, in order. */
function through(chunks: Buffer[], rewrite = toPublic): Buffer {
  const rewriter = new EndpointRewriter(rewrite);
  const out = chunks.map((chunk) => rewriter.push(chunk));
  out.push(rewriter.flush());
  return Buffer.concat(out);
}

function splitAt(bytes: Buffer, at: number): Buffer[] {
  return [bytes.subarray(0, at), bytes.subarray(at)];
}

describe('rewriteEndpointEvent', () => {
  test.each([
    { block: 'event: endpoint\ndata: /messages?sessionId=1\n\n', expected: 'event: endpoint\ndata: /public/messages?sessionId=1\n\n' },
    { block: 'event:endpoint\ndata:/messages\n\n', expected: 'event:endpoint\ndata:/public/messages\n\n' },
    { block: 'data: /messages\nevent: endpoint\n\n', expected: 'data: /public/messages\nevent: endpoint\n\n' },
    { block: 'event: endpoint\r\ndata: /messages\r\n\r\n', expected: 'event: endpoint\r\ndata: /public/messages\r\n\r\n' },
    { block: 'event: endpoint\rdata: /messages\r\r', expected: 'event: endpoint\rdata: /public/messages\r\r' },
    { block: 'id: 1\nevent: endpoint\ndata: /messages\n\n', expected: 'id: 1\nevent: endpoint\ndata: /public/messages\n\n' },
  ])('rewrites the data of $block', ({ block, expected }) => {
    expect(rewriteEndpointEvent(block, toPublic)).toBe(expected);
  });

  test.each([
    'event: message\ndata: /messages\n\n',
    'data: {"jsonrpc":"2.0","method":"notifications/message"}\n\n',
    'event: endpoints\ndata: /messages\n\n',
    ': event: endpoint\ndata: /messages\n\n',
  ])('leaves %j untouched', (block) => {
    expect(rewriteEndpointEvent(block, toPublic)).toBe(block);
  });
});

describe('EndpointRewriter', () => {
  const endpoint = Buffer.from('event: endpoint\ndata: /messages?sessionId=1\n\n', 'utf8');
  const later = Buffer.from('event: message\ndata: {"jsonrpc":"2.0","id":0,"result":{}}\n\nevent: endpoint\ndata: /x\n\n', 'utf8');

  test('rewrites the first event and passes every later byte untouched', () => {
    expect(through([endpoint, later]).toString('utf8')).toBe(`event: endpoint\ndata: /public/messages?sessionId=1\n\n${later.toString('utf8')}`);
  });

  test('holds bytes back only until the first event is complete', () => {
    const rewriter = new EndpointRewriter(toPublic);
    expect(rewriter.push(endpoint.subarray(0, 10)).length).toBe(0);
    expect(rewriter.push(endpoint.subarray(10)).toString('utf8')).toBe('event: endpoint\ndata: /public/messages?sessionId=1\n\n');
    expect(rewriter.push(later)).toBe(later);
  });

  test('rewrites a first event split at any byte, also with the next event in the same chunk', () => {
    const stream = Buffer.concat([endpoint, later]);
    const expected = through([stream]);
    for (let at = 0; at <= stream.length; at += 1) {
      expect(through(splitAt(stream, at)).equals(expected), `split at ${at}`).toBe(true);
    }
  });

  test('keeps a multi-byte character split across the chunk boundary intact', () => {
    const stream = Buffer.from('event: endpoint\ndata: /messages?name=café☕\n\nevent: message\ndata: "naïve ✓"\n\n', 'utf8');
    const expected = Buffer.from('event: endpoint\ndata: /public/messages?name=café☕\n\nevent: message\ndata: "naïve ✓"\n\n', 'utf8');
    for (let at = 0; at <= stream.length; at += 1) {
      expect(through(splitAt(stream, at)).equals(expected), `split at ${at}`).toBe(true);
    }
    expect(through([...stream].map((byte) => Buffer.from([byte]))).equals(expected)).toBe(true);
  });

  test('rewrites an event with CRLF line endings, split at any byte', () => {
    const stream = Buffer.from('event: endpoint\r\ndata: /messages?sessionId=1\r\n\r\nevent: message\r\ndata: {}\r\n\r\n', 'utf8');
    const expected = Buffer.from('event: endpoint\r\ndata: /public/messages?sessionId=1\r\n\r\nevent: message\r\ndata: {}\r\n\r\n', 'utf8');
    for (let at = 0; at <= stream.length; at += 1) {
      expect(through(splitAt(stream, at)).equals(expected), `split at ${at}`).toBe(true);
    }
  });

  test('leaves a stream whose first event is not endpoint byte-for-byte untouched, split at any byte', () => {
    const stream = Buffer.from('id: ev-1\ndata: \n\nevent: message\ndata: {"text":"héllo ✓"}\n\n', 'utf8');
    for (let at = 0; at <= stream.length; at += 1) {
      expect(through(splitAt(stream, at)).equals(stream), `split at ${at}`).toBe(true);
    }
  });

  test('a comment line before the endpoint event does not hide it', () => {
    const stream = Buffer.from(': connected\n\nevent: endpoint\ndata: /messages?sessionId=1\n\n', 'utf8');
    expect(through([stream]).toString('utf8')).toBe(': connected\n\nevent: endpoint\ndata: /public/messages?sessionId=1\n\n');
  });

  test('passes keep-alive comments on at once, while the first event is still incomplete', () => {
    const rewriter = new EndpointRewriter(toPublic);
    expect(rewriter.push(Buffer.from(': keep-alive\n\nevent: endp')).toString()).toBe(': keep-alive\n\n');
    expect(rewriter.push(Buffer.from('oint\ndata: /messages?sessionId=1\n\n')).toString()).toBe('event: endpoint\ndata: /public/messages?sessionId=1\n\n');
  });

  test('gives up on a first event longer than 64 KiB and passes it on unchanged', () => {
    const rewriter = new EndpointRewriter(toPublic);
    const head = Buffer.from(`event: endpoint\ndata: /${'x'.repeat(64 * 1024)}`, 'utf8');
    const passed = rewriter.push(head);
    expect(passed.equals(head)).toBe(true);
    const rest = Buffer.from('\n\n', 'utf8');
    expect(rewriter.push(rest)).toBe(rest);
  });

  test('flush hands back a first event that never completed, unchanged', () => {
    const rewriter = new EndpointRewriter(toPublic);
    const partial = Buffer.from('event: endpoint\ndata: /messa', 'utf8');
    expect(rewriter.push(partial).length).toBe(0);
    expect(rewriter.flush().equals(partial)).toBe(true);
    expect(rewriter.flush().length).toBe(0);
  });
});
