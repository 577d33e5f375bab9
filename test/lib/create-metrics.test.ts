import { describe, expect, it, test } from 'vitest';
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

  test('mcp_sunset_people reads its source at every scrape, one series per era and no other label', async () => {
    let people = { legacy: 3, modern: 2 };
    const metrics = createMetrics({ ...gauges, people: async () => people });
    expect(peopleLines(await metrics.registry.metrics())).toEqual(['mcp_sunset_people{era="legacy"} 3', 'mcp_sunset_people{era="modern"} 2']);
    people = { legacy: 1, modern: 4 };
    expect(peopleLines(await metrics.registry.metrics())).toEqual(['mcp_sunset_people{era="legacy"} 1', 'mcp_sunset_people{era="modern"} 4']);
  });

  test('a store that fails, or is not there, reports no people for that scrape, and the scrape still answers', async () => {
    let fail = false;
    const metrics = createMetrics({ ...gauges, people: async () => (fail ? Promise.reject(new Error('database is locked')) : { legacy: 5, modern: 0 }) });
    expect(peopleLines(await metrics.registry.metrics())).toHaveLength(2);
    fail = true;
    const text = await metrics.registry.metrics();
    // Not the last values as if they were current: nothing.
    expect(peopleLines(text)).toEqual([]);
    expect(text).toMatch(/^# TYPE mcp_sunset_people gauge$/m);
    expect(text).toMatch(/^mcp_sunset_pending_events 0$/m);
    expect(peopleLines(await createMetrics({ ...gauges, people: async () => null }).registry.metrics())).toEqual([]);
    expect(peopleLines(await createMetrics(gauges).registry.metrics())).toEqual([]);
  });
});

function peopleLines(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('mcp_sunset_people'));
}
