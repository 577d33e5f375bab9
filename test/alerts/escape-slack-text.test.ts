import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapeSlackText } from '../../server/alerts/escape-slack-text.js';
import { shownSlackText, slackMarkup } from './slack-markup.js';

const HOSTILE = '<!channel> <https://evil.example/login|Re-authenticate here>';

/** Strings heavy in what the chats read as markup, beside arbitrary ones. */
const markupy = fc.string({ unit: fc.constantFrom('<', '>', '&', '@', '!', '|', '[', ']', '(', ')', '`', '*', 'a', ' ', ';', 'amp', 'lt;', '\n', '\u202e', '\u2060', 'channel', 'https://x') });
const anyText = fc.oneof(markupy, fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));

/** What escaping keeps of a text: line breaks as spaces, other control and format characters gone. */
const kept = (text: string) => text.replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, ' ').replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, '');

describe('escapeSlackText', () => {
  test('a channel-wide mention and a masked link are shown as written, not acted on', () => {
    const escaped = escapeSlackText(HOSTILE);
    expect(escaped).toBe('&lt;!channel&gt; &lt;https://evil.example/login|Re-authenticate here&gt;');
    expect(slackMarkup(escaped)).toEqual([]);
    expect(shownSlackText(escaped)).toBe(HOSTILE);
  });

  test.each([
    ['a & b', 'a &amp; b'],
    ['&amp; stays as typed', '&amp;amp; stays as typed'],
    ['> a quote', '&gt; a quote'],
    ['two\nlines\r\nhere', 'two lines  here'],
    ['\u202eevil.exe\u202c', 'evil.exe'],
    ['@channel and @here', '@\u2060channel and @\u2060here'],
    ['ops@example.com', 'ops@example.com'],
    ['[Re-authenticate](https://evil.example)', '[Re-authenticate]\u2060(https://evil.example)'],
    ['![x](https://evil.example/pixel.png)', '![x]\u2060(https://evil.example/pixel.png)'],
    ['Plan "Retire the legacy era" Policy: https://example.com/p?a=1&b=2', 'Plan "Retire the legacy era" Policy: https://example.com/p?a=1&amp;b=2'],
  ])('%j becomes %j', (text, escaped) => {
    expect(escapeSlackText(text)).toBe(escaped);
  });

  test('plain words pass unchanged', () => {
    const plain = 'New legacy caller Payments batch (tok_0123456789abcdef): first served legacy work on 2026-12-01';
    expect(escapeSlackText(plain)).toBe(plain);
  });

  test('after escaping no raw <, > or & is left outside an entity, nor any line break or markup', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const escaped = escapeSlackText(text);
        expect(escaped).not.toMatch(/[<>]/);
        expect(escaped).not.toMatch(/&(?!(amp|lt|gt);)/);
        expect(escaped).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
        expect(slackMarkup(escaped)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  test('what the reader is shown is the text itself, on one line', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(shownSlackText(escapeSlackText(text))).toBe(kept(text));
      }),
      { numRuns: 2000 },
    );
  });

  test('a text with no line break, control or format character reads back exactly', () => {
    fc.assert(
      fc.property(fc.oneof(markupy, fc.string({ unit: 'grapheme' })).filter((text) => text === kept(text)), (text) => {
        expect(shownSlackText(escapeSlackText(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  test('escaping parts and joining them is escaping the whole, so each sentence can be escaped on its own', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        expect(escapeSlackText(`${a} ${b}`)).toBe(`${escapeSlackText(a)} ${escapeSlackText(b)}`);
      }),
      { numRuns: 1000 },
    );
  });
});
