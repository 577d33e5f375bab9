import { describe, expect, it } from 'vitest';
import { createMetrics, type MeteringGauges } from '../../server/lib/create-metrics.js';

const gauges: MeteringGauges = {
  droppedEvents: () => 0,
  retainedEvents: () => 0,
  spooledEvents: () => 0,
  pendingEvents: () => 0,
  overflowedEvents: () => 0,
  pendingAnswers: () => 0,
  sessions: () => 0,
  pausedPlans: () => 0,
  heldBytes: () => 0,
  bytesEvictions: () => 0,
  lastFlushAt: () => undefined,
  failedFlushes: () => 0,
};

function messageCount(text: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`mcp_sunset_messages_total{${labels}}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('createMetrics', () => {
  it('a scrape shows every message counted so far, each once, however many scrapes come between', async () => {
    const metrics = createMetrics(gauges);
    const served = 'era="legacy",transport="streamable-http",reason="initialize",outcome="served"';
    const failed = 'era="modern",transport="streamable-http",reason="meta",outcome="error"';
    metrics.countMessage('legacy', 'streamable-http', 'initialize', 'served');
    metrics.countMessage('legacy', 'streamable-http', 'initialize', 'served');
    let text = await metrics.registry.metrics();
    expect(messageCount(text, served)).toBe(2);
    expect(messageCount(text, failed)).toBeUndefined();

    text = await metrics.registry.metrics();
    expect(messageCount(text, served)).toBe(2);

    metrics.countMessage('legacy', 'streamable-http', 'initialize', 'served');
    metrics.countObservation({ message: { era: 'modern', transport: 'streamable-http', reason: 'meta' }, outcome: 'error', claimMismatch: true });
    text = await metrics.registry.metrics();
    expect(messageCount(text, served)).toBe(3);
    expect(messageCount(text, failed)).toBe(1);
    expect(text).toMatch(/^mcp_sunset_claim_mismatches_total 1$/m);
  });
});
