import { describe, expect, test } from 'vitest';
import { checkInitializeResult, CHECKLIST_ITEMS } from '../../server/prober/judge/check-initialize-result.js';
import { classifyInitializeReply } from '../../server/prober/judge/classify-initialize-reply.js';
import { FAILING_ITEMS, goodInitializeAnswer } from './fakes/initialize-answers.js';

const ACCEPT = ['2025-11-25', '2025-06-18'];
const good = () => goodInitializeAnswer(1);

describe('the positive-evidence checklist', () => {
  test('a well-formed InitializeResult passes', () => {
    expect(checkInitializeResult(good(), 1, ACCEPT)).toEqual({ ok: true, version: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'legacy', version: '1.0.0' } });
  });

  test.each(CHECKLIST_ITEMS.map((item) => [item]))('fails the %s item', (item) => {
    expect(checkInitializeResult(FAILING_ITEMS[item](good()), 1, ACCEPT)).toMatchObject({ ok: false, item });
  });

  test('a version inside the legacy set but outside the advertised intersection fails', () => {
    expect(checkInitializeResult(good(), 1, ['2025-06-18'])).toMatchObject({ ok: false, item: 'protocol-version' });
  });

  test('an error-only answer fails the result item', () => {
    expect(checkInitializeResult({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } }, 1, ACCEPT)).toMatchObject({ ok: false, item: 'result-only' });
  });
});

describe('classifyInitializeReply', () => {
  const ctx = { sentId: 1, accept: ACCEPT, modernVersions: ['2026-07-28'], now: 0 };
  const http = (status: number, body: unknown) => ({ kind: 'http' as const, response: { status, body: body === undefined ? { kind: 'empty' as const } : { kind: 'json' as const, value: body }, sessionId: null, retryAfter: null, authenticate: null, hadSession: false } });

  test('-32022 naming a mutual modern version is modern evidence', () => {
    const message = { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported', data: { supported: ['2026-07-28'], requested: '2025-11-25' } } };
    expect(classifyInitializeReply({ kind: 'reply', message }, ctx)).toMatchObject({ kind: 'modern', retryWith: '2026-07-28' });
  });

  test('-32601 or any other JSON-RPC refusal fails closed, with no HTTP+SSE', () => {
    expect(classifyInitializeReply(http(400, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } }), ctx)).toMatchObject({ kind: 'fail', code: 'initialize-rejected', state: 'incompatible' });
  });

  test('400, 404 and 405 without a JSON-RPC body may lead on to HTTP+SSE; other statuses do not', () => {
    for (const status of [400, 404, 405]) expect(classifyInitializeReply(http(status, undefined), ctx)).toMatchObject({ kind: 'try-http-sse' });
    expect(classifyInitializeReply(http(401, undefined), ctx)).toMatchObject({ kind: 'fail', state: 'auth-required' });
    expect(classifyInitializeReply(http(502, undefined), ctx)).toMatchObject({ kind: 'fail', state: 'unavailable' });
    expect(classifyInitializeReply(http(202, undefined), ctx)).toMatchObject({ kind: 'fail', code: 'initialize-no-answer' });
  });

  test('a timeout or a close leaves the peer unavailable', () => {
    expect(classifyInitializeReply({ kind: 'timeout' }, ctx)).toMatchObject({ kind: 'fail', code: 'initialize-timeout', state: 'unavailable' });
    expect(classifyInitializeReply({ kind: 'closed', detail: 'exit' }, ctx)).toMatchObject({ kind: 'fail', code: 'initialize-closed', state: 'unavailable' });
  });

  test('a failing checklist item names itself in the code', () => {
    expect(classifyInitializeReply(http(200, FAILING_ITEMS.id(good())), ctx)).toMatchObject({ kind: 'fail', code: 'initialize-id', state: 'unavailable' });
  });
});
