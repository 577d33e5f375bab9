import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { forwardHeaders } from '../../server/sidecar/forward-headers.js';

describe('forwardHeaders', () => {
  test('keeps every end-to-end header with its case, order and repeats', () => {
    const raw = [
      'Host', '127.0.0.1:3000',
      'Origin', 'http://localhost',
      'Content-Type', 'application/json',
      'MCP-Protocol-Version', '2026-07-28',
      'Mcp-Session-Id', 'abc',
      'X-Trace', 'one',
      'x-trace', 'two',
      'Set-Cookie', 'a=1',
      'Set-Cookie', 'b=2',
      'Authorization', 'Bearer t',
    ];
    expect(forwardHeaders(raw)).toEqual(raw);
  });

  test.each(['Connection', 'Keep-Alive', 'Proxy-Connection', 'Transfer-Encoding', 'TE', 'Trailer', 'Upgrade', 'KEEP-ALIVE', 'transfer-encoding'])('drops the hop-by-hop header %s', (name) => {
    expect(forwardHeaders(['Accept', 'text/event-stream', name, 'x', 'Content-Type', 'application/json'])).toEqual(['Accept', 'text/event-stream', 'Content-Type', 'application/json']);
  });

  test('drops the headers Connection names, whatever their case and wherever they stand', () => {
    const raw = ['X-Before', '1', 'Connection', 'keep-alive, X-Hop , x-other', 'X-Hop', 'secret', 'X-Other', 'o', 'X-After', '2'];
    expect(forwardHeaders(raw)).toEqual(['X-Before', '1', 'X-After', '2']);
  });

  test('honours every Connection header when there are several', () => {
    const raw = ['Connection', 'x-one', 'X-One', '1', 'connection', 'X-Two', 'X-Two', '2', 'X-Three', '3'];
    expect(forwardHeaders(raw)).toEqual(['X-Three', '3']);
  });

  test('drops the extra names asked for, matching case-insensitively', () => {
    const raw = ['Content-Type', 'text/event-stream', 'Content-Length', '42', 'Cache-Control', 'no-cache'];
    expect(forwardHeaders(raw, new Set(['content-length']))).toEqual(['Content-Type', 'text/event-stream', 'Cache-Control', 'no-cache']);
  });

  test('keeps empty values', () => {
    expect(forwardHeaders(['X-Empty', ''])).toEqual(['X-Empty', '']);
  });

  test('answers nothing for nothing', () => {
    expect(forwardHeaders([])).toEqual([]);
  });

  test('never changes the list it was given', () => {
    const raw = ['Connection', 'close', 'X-A', '1'];
    const copy = [...raw];
    forwardHeaders(raw);
    expect(raw).toEqual(copy);
  });

  test('answers what the plain rule gives, for any header list', () => {
    // The rule written plainly: every name lower-cased, every Connection token collected first.
    const reference = (raw: string[], drop?: ReadonlySet<string>) => {
      const named = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
      for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'connection') for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
      const out: string[] = [];
      for (let i = 0; i < raw.length; i += 2) if (!named.has(raw[i]!.toLowerCase()) && drop?.has(raw[i]!.toLowerCase()) !== true) out.push(raw[i]!, raw[i + 1]!);
      return out;
    };
    const name = fc.oneof(
      fc.constantFrom('Connection', 'connection', 'CONNECTION', 'Keep-Alive', 'keep-alive', 'TE', 'te', 'Trailer', 'Upgrade', 'Transfer-Encoding', 'Proxy-Connection', 'Close', 'close', 'User-Agent', 'Mcp-Method', 'X-Hop', 'x-hop', 'Host', 'Content-Type'),
      fc.stringMatching(/^[A-Za-z-]{1,18}$/),
    );
    const value = fc.oneof(fc.constantFrom('keep-alive', 'close', 'Keep-Alive, X-Hop', ' x-hop ,close', 'upgrade', 'TE, trailer', ''), fc.string({ maxLength: 12 }));
    const raw = fc.array(fc.tuple(name, value), { maxLength: 12 }).map((pairs) => pairs.flat());
    const drop = fc.option(fc.constantFrom(new Set(['content-length']), new Set(['x-hop', 'host'])), { nil: undefined });
    fc.assert(
      fc.property(raw, drop, (list, dropped) => {
        expect([...forwardHeaders(list, dropped)]).toEqual(reference(list, dropped));
      }),
      { numRuns: 3000 },
    );
  });
});
