/**
 * `npx tsx bench/ledger/ledger.ts` (part of `npm run bench`): the sidecar's cost ledger, stage by stage,
 * for JSON and SSE answers of three sizes (about seven minutes; see run-ledger.ts).
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-ledger.ts', import.meta.url));
