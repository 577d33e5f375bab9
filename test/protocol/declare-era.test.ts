import { describe, expect, test } from 'vitest';
import { classified } from '../../server/protocol/classified-message.js';
import { declareEra } from '../../server/protocol/declare-era.js';

describe('declareEra', () => {
  const observed = classified({ kind: 'request', method: 'tools/call', id: 4, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25' });

  test('files the message under the declared era with reason declared-by-app, keeping what was observed of it', () => {
    expect(declareEra(observed, 'modern')).toEqual({ ...observed, era: 'modern', reason: 'declared-by-app' });
  });

  test('leaves the observed message as it was', () => {
    declareEra(observed, 'modern');
    expect(observed.era).toBe('legacy');
    expect(observed.reason).toBe('session-header');
  });
});
