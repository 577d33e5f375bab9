import iconv from 'iconv-lite';
import { describe, expect, test } from 'vitest';
import { declaredCharset, readBodyText } from '../../server/sidecar/read-body-text.js';

const body = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"name":"é"}}';

describe('readBodyText', () => {
  test('UTF-8 is read without its byte-order mark, as TextDecoder reads it', () => {
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);
    expect(readBodyText(marked, 'application/json')).toEqual({ text: new TextDecoder().decode(marked), others: [] });
    expect(readBodyText(marked, 'application/json').text).toBe(body);
    expect(readBodyText(Buffer.from(body), 'application/json; charset=utf-8')).toEqual({ text: body, others: [] });
  });

  test('a declared charset is read as iconv-lite reads it, and the UTF-8 reading is kept beside it', () => {
    for (const charset of ['utf-16le', 'UTF-16LE', 'latin1', 'utf-16be', 'ucs-2']) {
      const bytes = iconv.encode(body, charset, { addBOM: true });
      const read = readBodyText(bytes, `application/json; charset="${charset}"`);
      expect(read.text).toBe(body);
      expect(read.others).toEqual([new TextDecoder().decode(bytes)]);
    }
  });

  test('a charset iconv-lite does not know adds no reading, and a reading equal to UTF-8 is not repeated', () => {
    expect(readBodyText(Buffer.from(body), 'application/json; charset=klingon')).toEqual({ text: body, others: [] });
    expect(readBodyText(Buffer.from('{"a":1}'), 'application/json; charset=latin1')).toEqual({ text: '{"a":1}', others: [] });
  });

  test('declaredCharset reads quoted, unquoted and absent values', () => {
    expect(declaredCharset('application/json;charset="utf-16"')).toBe('utf-16');
    expect(declaredCharset('application/json; CHARSET = latin1; x=y')).toBe('latin1');
    expect(declaredCharset('application/json')).toBeUndefined();
    expect(declaredCharset(undefined)).toBeUndefined();
    expect(declaredCharset('application/json; charset=')).toBeUndefined();
  });
});
