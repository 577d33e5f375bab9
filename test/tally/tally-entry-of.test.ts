import { describe, expect, test } from 'vitest';
import { classified } from '../../server/protocol/classified-message.js';
import { tallyEntryOf } from '../../server/tally/tally-entry-of.js';

describe('tallyEntryOf', () => {
  test('files a settled message under its own labels and the identified caller, keeping the claim as a hint', () => {
    const message = classified({ kind: 'request', method: 'tools/call', id: 7, era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28' });
    const entry = tallyEntryOf({ message, outcome: 'served', claimMismatch: true, clientInfo: { name: 'ide', version: '1.0' }, attrs: { integration: 'tok_abc', source: 'bearer-fingerprint' } });
    expect(entry).toEqual({
      labels: { era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28', method: 'tools/call', kind: 'request', outcome: 'served', integration: 'tok_abc' },
      integrationSource: 'bearer-fingerprint',
      clientInfo: { name: 'ide', version: '1.0' },
      claimMismatch: true,
      wouldBlock: false,
      subject: undefined,
      // A named caller is not the unknown base: nothing it claims describes it.
      unnamed: false,
      userAgent: undefined,
    });
  });

  test('an unnamed caller is marked so, with its User-Agent, and a verified person travels with the count', () => {
    const message = classified({ kind: 'request', method: 'tools/call', id: 7, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25' });
    const anonymous = tallyEntryOf({ message, outcome: 'served', claimMismatch: false, clientInfo: undefined, attrs: { integration: 'anonymous', source: 'anonymous', userAgent: 'python-httpx/0.28.1' } });
    expect(anonymous).toMatchObject({ unnamed: true, userAgent: 'python-httpx/0.28.1' });
    const person = tallyEntryOf({ message, outcome: 'served', claimMismatch: false, clientInfo: undefined, attrs: { integration: 'oauth:app', source: 'oauth', subject: 'digest' } });
    expect(person).toMatchObject({ unnamed: false, subject: 'digest' });
  });

  test('carries a dry run\'s would-block mark from the exchange to the count', () => {
    const message = classified({ kind: 'request', method: 'tools/call', id: 7, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25' });
    const entry = tallyEntryOf({ message, outcome: 'served', claimMismatch: false, clientInfo: undefined, attrs: { integration: 'tok_abc', source: 'bearer-fingerprint', wouldBlock: true } });
    expect(entry.wouldBlock).toBe(true);
  });
});
