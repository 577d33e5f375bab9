/** `npx tsx bench/proxy/forwarders.ts`: the upstream leg through node:http's client against undici's pool; see run-forwarders.ts. Runs from tsc output. */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-forwarders.ts', import.meta.url));
