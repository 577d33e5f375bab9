/** `npx tsx bench/fleet/fleet-queries.ts`: share and plan queries over a year of fleet history, Postgres against SQLite; see run-fleet-queries.ts. Runs from tsc output. */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-fleet-queries.ts', import.meta.url));
