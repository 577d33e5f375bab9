/**
 * `npx tsx bench/bridge/bridge.ts`: the latency the legacy bridge adds for a 2025-era client, against a
 * dual-era server answering it directly and against the sidecar without the bridge (about three
 * minutes; see run-bridge-bench.ts, settings in bridge-settings.ts). Appends a section to
 * bench/RESULTS.md unless smoke settings or BENCH_RECORD=0.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-bridge-bench.ts', import.meta.url));
