import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { startDemoServer } from '../../server/demo/demo-server.js';
import { startDemoTraffic } from '../../server/demo/demo-traffic.js';

describe('startDemoTraffic', () => {
  test('drives every demo client against the demo server for a few seconds without an error', async () => {
    const server = await startDemoServer();
    const failures: string[] = [];
    try {
      const traffic = startDemoTraffic({ target: new URL(server.origin), log: (line) => failures.push(line) });
      await sleep(3_000);
      const stoppedAt = Date.now();
      await traffic.stop();
      // stop() cuts in-flight sessions short instead of waiting out their timeouts.
      expect(Date.now() - stoppedAt).toBeLessThan(2_000);

      const stats = traffic.stats();
      expect(failures).toEqual([]);
      expect(stats.errors).toBe(0);
      expect(stats.sessions).toBeGreaterThan(0);
      for (const [kind, tally] of Object.entries(stats.byClient)) {
        expect({ kind, sessions: tally.sessions > 0 }).toEqual({ kind, sessions: true });
      }
    } finally {
      await server.close();
    }
  });

  test('counts a failed session instead of throwing when the target is unreachable', async () => {
    const server = await startDemoServer();
    const origin = new URL(server.origin);
    await server.close();
    const traffic = startDemoTraffic({ target: origin, pace: 4 });
    await sleep(1_000);
    await traffic.stop();
    expect(traffic.stats().errors).toBeGreaterThan(0);
    expect(traffic.stats().sessions).toBe(0);
  });
});
