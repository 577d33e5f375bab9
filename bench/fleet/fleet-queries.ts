/** `npx tsx bench/fleet-queries.ts`: share and plan queries over a year of fleet history, Postgres against SQLite; see run-fleet-queries.ts. Runs from tsc output. */
import { runCompiled } from './run-compiled.js';

await runCompiled('run-fleet-queries');
