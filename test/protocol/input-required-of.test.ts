import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputRequiredOf, inputRetryParams, unmappableInputRequest } from '../../server/protocol/input-required-of.js';

describe('inputRequiredOf', () => {
  it('lists the embedded requests in order, with the server state', () => {
    const result = {
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'ok?' } }, roots: { method: 'roots/list' } },
      requestState: 's1',
    };
    expect(inputRequiredOf(result)).toEqual({
      requests: [
        { key: 'confirm', method: 'elicitation/create', params: { message: 'ok?' } },
        { key: 'roots', method: 'roots/list', params: undefined },
      ],
      requestState: 's1',
    });
    expect(inputRequiredOf({ resultType: 'input_required', requestState: 'only' })).toEqual({ requests: [], requestState: 'only' });
  });

  it('answers nothing for a complete result or a malformed one', () => {
    expect(inputRequiredOf({ resultType: 'complete', content: [] })).toBeUndefined();
    expect(inputRequiredOf({ content: [] })).toBeUndefined();
    expect(inputRequiredOf({ resultType: 'input_required' })).toBeUndefined();
    expect(inputRequiredOf({ resultType: 'input_required', inputRequests: { a: 'no' } })).toBeUndefined();
    expect(inputRequiredOf({ resultType: 'input_required', inputRequests: { a: { method: 'roots/list', params: 3 } } })).toBeUndefined();
    expect(inputRequiredOf({ resultType: 'input_required', requestState: 5 })).toBeUndefined();
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => void inputRequiredOf(value)));
    fc.assert(fc.property(fc.jsonValue(), (inputRequests) => void inputRequiredOf({ resultType: 'input_required', inputRequests })));
  });
});

describe('unmappableInputRequest', () => {
  it('maps elicitation from 2025-06-18 on, sampling and roots from the first version, and nothing unknown', () => {
    const elicit = { key: 'k', method: 'elicitation/create', params: {} };
    expect(unmappableInputRequest(elicit, '2025-06-18')).toBeUndefined();
    expect(unmappableInputRequest(elicit, '2025-11-25')).toBeUndefined();
    expect(unmappableInputRequest(elicit, '2025-03-26')).toMatch(/2025-03-26 does not have/);
    expect(unmappableInputRequest({ key: 'k', method: 'roots/list', params: undefined }, '2024-11-05')).toBeUndefined();
    expect(unmappableInputRequest({ key: 'k', method: 'tasks/get', params: {} }, '2025-11-25')).toMatch(/no request for \(tasks\/get\)/);
  });
});

describe('inputRetryParams', () => {
  it('carries the client answers and the server state on the original params, replacing an earlier round', () => {
    const params = { name: 'confirm', arguments: { x: 1 }, inputResponses: { old: {} }, requestState: 'old' };
    expect(inputRetryParams(params, { k: { action: 'accept' } }, 's2')).toEqual({ name: 'confirm', arguments: { x: 1 }, inputResponses: { k: { action: 'accept' } }, requestState: 's2' });
    expect(inputRetryParams({ name: 'n' }, {}, 'only')).toEqual({ name: 'n', requestState: 'only' });
    expect(inputRetryParams(undefined, { k: 1 }, undefined)).toEqual({ inputResponses: { k: 1 } });
  });
});
