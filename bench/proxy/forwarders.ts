/** `npx tsx bench/forwarders.ts`: the upstream leg through node:http's client against undici's pool; see run-forwarders.ts. Runs from tsc output. */
import { runCompiled } from './run-compiled.js';

await runCompiled('run-forwarders');
