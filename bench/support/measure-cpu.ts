import { runClosedLoop } from '../load/run-closed-loop.js';
import type { ServerChild } from '../servers/spawn-server.js';

export interface CpuMeasure {
  requestsPerSecond: number;
  /** The child's user + system CPU over the phase, per answer. */
  cpuMicros: number;
  /** The child's main-thread GC pauses over the phase, per answer. */
  gcMicros: number;
}

/** Closed-loop load on one child for `seconds`, and what each answer cost that child. Throws when a request failed. */
export async function measureCpu(child: ServerChild, path: string, connections: number, seconds: number): Promise<CpuMeasure> {
  const before = await child.stats();
  const result = await runClosedLoop({ url: child.url, path, connections, durationSeconds: seconds });
  const after = await child.stats();
  if (result.failures > 0) throw new Error(`${child.kind} ${path}: ${result.failures} failed requests`);
  return {
    requestsPerSecond: result.requestsPerSecond,
    cpuMicros: (after.cpuMicros - before.cpuMicros) / result.responses,
    gcMicros: (after.gcMicros - before.gcMicros) / result.responses,
  };
}
