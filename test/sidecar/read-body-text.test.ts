import iconv from 'iconv-lite';
import { describe, expect, test } from 'vitest';
import { declaredCharset, pythonDetectedEncoding, readBodyText } from '../../server/sidecar/read-body-text.js';

const body = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"name":"é"}}';

describe('readBodyText', () => {
  test('UTF-8 is read without its byte-order mark, as TextDecoder reads it', () => {
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);
    expect(readBodyText(marked, 'application/json')).toEqual({ text: new TextDecoder().decode(marked), others: [] });
    expect(readBodyText(marked, 'application/json').text).toBe(body);
    expect(readBodyText(Buffer.from(body), 'application/json; charset=utf-8')).toEqual({ text: body, others: [] });
  });

  test('a declared charset is read as iconv-lite reads it; other readings are kept beside it only when a server could serve them (JSON)', () => {
    for (const charset of ['utf-16le', 'UTF-16LE', 'latin1', 'utf-16be', 'ucs-2']) {
      const bytes = iconv.encode(body, charset, { addBOM: true });
      const read = readBodyText(bytes, `application/json; charset="${charset}"`);
      expect(read.text).toBe(body);
      const utf8 = new TextDecoder().decode(bytes);
      expect(read.others).toEqual(isJson(utf8) && utf8 !== body ? [utf8] : []);
    }
  });

  test('UTF-16 and UTF-32 are found as Python\'s json finds them, from a byte-order mark or the zero bytes, whatever is declared', () => {
    for (const [encoding, bom] of [['utf-16le', true], ['utf-16be', true], ['utf-16le', false], ['utf-16be', false], ['utf-32le', false], ['utf-32be', false]] as const) {
      const bytes = iconv.encode(body, encoding, { addBOM: bom });
      expect(readBodyText(bytes, 'application/json').text, `${encoding} ${bom}`).toBe(body);
    }
    expect(pythonDetectedEncoding(Buffer.from('{"a":1}'))).toBeUndefined();
    expect(pythonDetectedEncoding(Buffer.from([0xff, 0xfe, 0x7b, 0x00]))).toBe('utf-16');
    expect(pythonDetectedEncoding(Buffer.from([0xff, 0xfe, 0x00, 0x00]))).toBe('utf-32');
    expect(pythonDetectedEncoding(Buffer.from([0x7b, 0x00, 0x00, 0x00]))).toBe('utf-32le');
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

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
