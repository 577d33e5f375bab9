import { describe, expect, test } from 'vitest';
import { decodeHeaderValue, headersAgree, headerValue } from '../../server/protocol/headers-agree.js';

const MODERN = '2026-07-28';

function base64Sentinel(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

function toolsCallBody(name: unknown = 'echo') {
  return { method: 'tools/call', version: MODERN, params: { name, arguments: {} } as Record<string, unknown> };
}

describe('headerValue', () => {
  test('answers a single value as it is', () => {
    expect(headerValue({ 'mcp-method': 'tools/call' }, 'mcp-method')).toBe('tools/call');
  });

  test('answers the first of repeated values', () => {
    expect(headerValue({ 'mcp-method': ['tools/call', 'tools/list'] }, 'mcp-method')).toBe('tools/call');
  });

  test('answers undefined for an absent header', () => {
    expect(headerValue({}, 'mcp-method')).toBeUndefined();
  });
});

describe('decodeHeaderValue', () => {
  test.each([
    { raw: 'echo', decoded: 'echo' },
    { raw: '', decoded: '' },
    { raw: base64Sentinel('echo'), decoded: 'echo' },
    { raw: base64Sentinel('café ☕'), decoded: 'café ☕' },
    { raw: base64Sentinel('line\nbreak'), decoded: 'line\nbreak' },
    { raw: base64Sentinel('=?base64?x?='), decoded: '=?base64?x?=' },
    { raw: '=?base64?aGVsbG8?=', decoded: 'hello' },
    { raw: '=?base64??=', decoded: '' },
    // Markers are case-sensitive: an upper-case look-alike is a plain value.
    { raw: '=?BASE64?aGVsbG8=?=', decoded: '=?BASE64?aGVsbG8=?=' },
    { raw: 'x=?base64?aGVsbG8=?=', decoded: 'x=?base64?aGVsbG8=?=' },
    { raw: '=?base64?not base64?=', decoded: undefined },
    { raw: '=?base64?aGVsbG8=', decoded: undefined },
    { raw: '=?base64?a?=', decoded: undefined },
    // 0xFF is not UTF-8.
    { raw: '=?base64?/w==?=', decoded: undefined },
  ])('decodes $raw as $decoded', ({ raw, decoded }) => {
    expect(decodeHeaderValue(raw)).toBe(decoded);
  });
});

describe('headersAgree', () => {
  const rows: { name: string; headers: Record<string, string | string[]>; agree: boolean }[] = [
    { name: 'every mirrored header matches', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, agree: true },
    { name: 'the name is in the base64 form', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': base64Sentinel('echo') }, agree: true },
    { name: 'the version differs', headers: { 'mcp-protocol-version': '2026-07-29', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, agree: false },
    { name: 'the version is missing', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, agree: false },
    { name: 'the method differs', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', 'mcp-name': 'echo' }, agree: false },
    { name: 'the method differs only in case', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'Tools/Call', 'mcp-name': 'echo' }, agree: false },
    { name: 'the method is missing', headers: { 'mcp-protocol-version': MODERN, 'mcp-name': 'echo' }, agree: false },
    { name: 'the name differs', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'ekko' }, agree: false },
    { name: 'the name is missing', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }, agree: false },
    { name: 'the base64 name decodes to another name', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': base64Sentinel('ekko') }, agree: false },
    { name: 'the base64 name is malformed', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': '=?base64?%%%?=' }, agree: false },
    { name: 'the first of repeated names matches', headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': ['echo', 'ekko'] }, agree: true },
  ];
  for (const { name, headers, agree } of rows) {
    test(`is ${agree} when ${name}`, () => {
      expect(headersAgree(headers, toolsCallBody('echo'))).toBe(agree);
    });
  }

  test('compares a non-ASCII name after decoding', () => {
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': base64Sentinel('naïve 工具') };
    expect(headersAgree(headers, toolsCallBody('naïve 工具'))).toBe(true);
  });

  test('a plain value that looks like the sentinel must itself be encoded', () => {
    const lookalike = '=?base64?ZWNobw==?=';
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': lookalike }, toolsCallBody(lookalike))).toBe(false);
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': base64Sentinel(lookalike) }, toolsCallBody(lookalike))).toBe(true);
  });

  test.each([
    { method: 'tools/call', key: 'name', value: 'echo' },
    { method: 'prompts/get', key: 'name', value: 'greeting' },
    { method: 'resources/read', key: 'uri', value: 'file:///notes/a.md' },
  ])('$method mirrors params.$key into Mcp-Name', ({ method, key, value }) => {
    const body = { method, version: MODERN, params: { [key]: value } };
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': method, 'mcp-name': value }, body)).toBe(true);
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': method, 'mcp-name': `${value}x` }, body)).toBe(false);
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': method }, body)).toBe(false);
  });

  test('a named method whose body has no name agrees only without Mcp-Name', () => {
    const body = { method: 'tools/call', version: MODERN, params: {} };
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }, body)).toBe(true);
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, body)).toBe(false);
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }, { ...body, params: undefined })).toBe(true);
  });

  test('a method without a name ignores Mcp-Name', () => {
    const body = { method: 'tools/list', version: MODERN, params: {} };
    expect(headersAgree({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', 'mcp-name': 'anything' }, body)).toBe(true);
  });
});
