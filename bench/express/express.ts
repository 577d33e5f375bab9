/** `npx tsx bench/express/express.ts`: the Express middleware's cost; see run-express.ts. Runs from tsc output, as hosts run the package. */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-express.ts', import.meta.url));
