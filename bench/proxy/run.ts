/**
 * `npm run bench`: the sidecar's cost against the same upstream reached directly and through a
 * bare pass-through proxy, at max throughput and at a fixed moderate rate, for JSON and SSE
 * answers, plus micro-benchmarks of the classifier and the metering lifecycle. Prints the
 * results and appends them to bench/RESULTS.md. The work itself is in run-bench.ts, run from
 * tsc output (see run-compiled.ts). Settings: bench-settings.ts.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-bench.ts', import.meta.url));
