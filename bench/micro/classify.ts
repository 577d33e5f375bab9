/**
 * `npx tsx bench/classify.ts`: classifier micro-benchmark alone, full parse against the scanner
 * side by side (see run-classify-bench.ts), run from tsc output like the rest of the bench.
 */
import { runCompiled } from './run-compiled.js';

await runCompiled('run-classify-bench');
