import { describe, expect, test } from 'vitest';
import { isLegacyWorkServed } from '../../server/protocol/served.js';
import { MESSAGE_KINDS } from '../../server/protocol/vocabulary.js';
import { classifyRequest, countsToward, isNegotiation, isWorkRequest, REQUEST_CLASSES } from '../../server/protocol/work-request.js';

describe('work requests', () => {
  test('files the handshakes of both eras as negotiation', () => {
    expect(classifyRequest('request', 'initialize')).toBe('negotiation');
    expect(classifyRequest('request', 'server/discover')).toBe('negotiation');
    expect(isNegotiation('initialize')).toBe(true);
    expect(isNegotiation('tools/call')).toBe(false);
  });

  test('files ping and logging/setLevel as plumbing and every other request as work', () => {
    expect(classifyRequest('request', 'ping')).toBe('plumbing');
    expect(classifyRequest('request', 'logging/setLevel')).toBe('plumbing');
    for (const method of ['tools/call', 'tools/list', 'resources/read', 'prompts/get', 'other']) expect(isWorkRequest('request', method)).toBe(true);
  });

  test('no notification, stream open or close, client response or other exchange is a request', () => {
    for (const kind of MESSAGE_KINDS.filter((k) => k !== 'request')) {
      expect(classifyRequest(kind, 'tools/call')).toBeNull();
      expect(isWorkRequest(kind, 'tools/call')).toBe(false);
    }
  });

  test('the all-requests basis counts every class, the work basis only work', () => {
    expect(REQUEST_CLASSES.map((c) => countsToward('all-requests', c))).toEqual([true, true, true]);
    expect(REQUEST_CLASSES.map((c) => countsToward('work-requests', c))).toEqual([true, false, false]);
  });

  test('a refused sessionless GET or a served initialize is no legacy work', () => {
    expect(isLegacyWorkServed({ era: 'legacy', outcome: 'client-error', kind: 'stream-open', method: 'GET' })).toBe(false);
    expect(isLegacyWorkServed({ era: 'legacy', outcome: 'served', kind: 'request', method: 'initialize' })).toBe(false);
    expect(isLegacyWorkServed({ era: 'legacy', outcome: 'served', kind: 'request', method: 'tools/call' })).toBe(true);
    expect(isLegacyWorkServed({ era: 'modern', outcome: 'served-as-legacy', kind: 'request', method: 'tools/call' })).toBe(true);
  });
});
