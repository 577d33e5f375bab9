/** `npx tsx bench/express.ts`: the Express middleware's cost; see run-express.ts. Runs from tsc output, as hosts run the package. */
import { runCompiled } from './run-compiled.js';

await runCompiled('run-express');
