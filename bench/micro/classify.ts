/**
 * `npx tsx bench/micro/classify.ts`: classifier micro-benchmark alone, full parse against the scanner
 * side by side (see run-classify-bench.ts), run from tsc output like the rest of the bench.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-classify-bench.ts', import.meta.url));
