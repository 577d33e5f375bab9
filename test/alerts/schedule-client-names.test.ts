import { describe, expect, test } from 'vitest';
import type { ClientNamesRun } from '../../server/alerts/refresh-client-names.js';
import { scheduleClientNames } from '../../server/alerts/schedule-client-names.js';
import { createLogger } from '../../server/lib/create-logger.js';

const EMPTY: ClientNamesRun = { fetched: 0, named: 0, failed: 0, left: 0 };
const logger = createLogger('silent');

/** A run that ends only when the test lets it, and counts how many ran at once. */
function gatedRuns() {
  const gates: (() => void)[] = [];
  const state = { started: 0, running: 0, mostAtOnce: 0 };
  const run = async (): Promise<ClientNamesRun> => {
    state.started += 1;
    state.running += 1;
    state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
    await new Promise<void>((resolve) => gates.push(resolve));
    state.running -= 1;
    return { ...EMPTY, fetched: state.started };
  };
  /** Lets the oldest run waiting end, once one is waiting. */
  const release = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.shift()!();
  };
  const untilStarted = async (count: number) => {
    while (state.started < count) await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, release, untilStarted, state };
}

describe('scheduleClientNames', () => {
  test('runs once at start; a run asked for meanwhile follows it, never beside it', async () => {
    const { run, release, untilStarted, state } = gatedRuns();
    const schedule = scheduleClientNames(run, logger);
    await untilStarted(1);
    const asked = schedule.runNow();
    await release();
    await release();
    expect(await asked).toMatchObject({ fetched: 2 });
    expect(state.mostAtOnce).toBe(1);
    await schedule.stop();
  });

  test('stopping tells the run under way to end and waits for it; afterwards nothing runs', async () => {
    let started = 0;
    let ended = 0;
    // A run that goes on until it is told to stop, as one with many slow documents left would.
    const schedule = scheduleClientNames(async (signal) => {
      started += 1;
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      ended += 1;
      return EMPTY;
    }, logger);
    while (started === 0) await new Promise((resolve) => setImmediate(resolve));
    await schedule.stop();
    expect(ended).toBe(1);
    await expect(schedule.runNow()).rejects.toThrow('stopped');
    expect(started).toBe(1);
  });

  test('a failed run is no failure of the schedule: the next one runs', async () => {
    let calls = 0;
    const schedule = scheduleClientNames(async () => {
      calls += 1;
      if (calls === 1) throw new Error('store down');
      return EMPTY;
    }, logger);
    expect(await schedule.runNow()).toEqual(EMPTY);
    expect(calls).toBe(2);
    await schedule.stop();
  });
});
