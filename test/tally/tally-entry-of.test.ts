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
    });
  });

  test('carries a dry run\'s would-block mark from the exchange to the count', () => {
    const message = classified({ kind: 'request', method: 'tools/call', id: 7, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25' });
    const entry = tallyEntryOf({ message, outcome: 'served', claimMismatch: false, clientInfo: undefined, attrs: { integration: 'tok_abc', source: 'bearer-fingerprint', wouldBlock: true } });
    expect(entry.wouldBlock).toBe(true);
  });
});
