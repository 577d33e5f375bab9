/** `npx tsx bench/fleet/fleet-ingest.ts`: Postgres ingest from 200 simulated sidecars; see run-fleet-ingest.ts. Runs from tsc output. */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-fleet-ingest.ts', import.meta.url));
