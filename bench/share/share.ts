/**
 * `npx tsx bench/share/share.ts` (part of `npm run bench`): the share/plan endpoints over a year of
 * hourly traffic for 500 integrations; see run-share-bench.ts. Runs from tsc output.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-share-bench.ts', import.meta.url));
