import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import type { AlertRun, AlertRunner } from '../../server/alerts/run-alerts.js';
import { scheduleAlerts } from '../../server/alerts/schedule-alerts.js';

function capturingLogger() {
  const lines: { level: number; msg: string; err?: { message: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

function fakeRunner(run: () => Promise<AlertRun>): Omit<AlertRunner, 'busy'> & { busy: boolean; runs: number; closed: boolean } {
  const runner = {
    runs: 0,
    closed: false,
    busy: false,
    async run() {
      runner.runs += 1;
      return run();
    },
    async close() {
      runner.closed = true;
    },
  };
  return runner;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduleAlerts', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  test('runs on the cron schedule and stops, closing the runner', async () => {
    const runner = fakeRunner(async () => ({ evaluatedAt: 0, transitions: [], notices: [] }));
    stop = scheduleAlerts({ expression: '* * * * * *', runner, logger: capturingLogger().logger });
    await wait(2_300);
    expect(runner.runs).toBeGreaterThanOrEqual(1);
    await stop();
    stop = undefined;
    const runs = runner.runs;
    await wait(1_200);
    expect(runner.runs).toBe(runs);
    expect(runner.closed).toBe(true);
  });

  test('a failing run is logged and the schedule goes on', async () => {
    const { logger, lines } = capturingLogger();
    const runner = fakeRunner(async () => {
      throw new Error('database is locked');
    });
    stop = scheduleAlerts({ expression: '* * * * * *', runner, logger });
    await wait(2_300);
    expect(runner.runs).toBeGreaterThanOrEqual(2);
    expect(lines.filter((l) => l.msg === 'alert run failed; will retry on schedule').map((l) => l.err?.message)).toContain('database is locked');
  });

  test('an invalid expression is logged, not thrown, and schedules nothing', async () => {
    const { logger, lines } = capturingLogger();
    const runner = fakeRunner(async () => ({ evaluatedAt: 0, transitions: [], notices: [] }));
    stop = scheduleAlerts({ expression: 'every quarter hour', runner, logger });
    expect(lines.some((l) => l.level === 50 && /invalid cron expression/.test(l.msg))).toBe(true);
    await wait(1_100);
    expect(runner.runs).toBe(0);
  });

  test('a tick while a run is still delivering is skipped', async () => {
    const { logger, lines } = capturingLogger();
    const runner = fakeRunner(async () => ({ evaluatedAt: 0, transitions: [], notices: [] }));
    runner.busy = true;
    stop = scheduleAlerts({ expression: '* * * * * *', runner, logger });
    await wait(1_300);
    expect(runner.runs).toBe(0);
    expect(lines.some((l) => /still delivering/.test(l.msg))).toBe(true);
  });
});
