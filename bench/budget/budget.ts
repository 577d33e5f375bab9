/**
 * `npm run bench:budget`: checks the hot path against its budget and prints PASS or FAIL (about
 * two minutes; see run-budget.ts). Exits 1 when the budget is not met.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-budget.ts', import.meta.url));
