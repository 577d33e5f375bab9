/** `npx tsx bench/fleet-ingest.ts`: Postgres ingest from 200 simulated sidecars; see run-fleet-ingest.ts. Runs from tsc output. */
import { runCompiled } from './run-compiled.js';

await runCompiled('run-fleet-ingest');
