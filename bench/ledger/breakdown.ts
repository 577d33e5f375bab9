/**
 * `npx tsx bench/ledger/breakdown.ts`: splits the sidecar's per-request CPU cost into layers (about
 * two and a half minutes; see run-breakdown.ts). Appends a section to bench/RESULTS.md unless
 * BENCH_RECORD=0.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-breakdown.ts', import.meta.url));
