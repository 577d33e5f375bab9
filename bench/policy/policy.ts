/**
 * `npx tsx bench/policy/policy.ts` (also the last step of `npm run bench`): the retirement policy's CPU
 * cost per request, from decide() micro-benchmarks and from the sidecar with no plan, an
 * out-of-scope deny plan and an in-scope warn plan side by side (about a minute; see
 * run-policy-bench.ts). Appends a section to bench/RESULTS.md unless BENCH_RECORD=0.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-policy-bench.ts', import.meta.url));
