/**
 * `npm run soak`: hostile-input fuzz, 10⁵ distinct identities and SIGKILL-under-traffic against
 * the sidecar in a child process, on loopback; prints the figures and appends them to
 * bench/RESULTS.md. The work is in run-soak.ts, run from tsc output (see run-compiled.ts).
 * Settings: soak-settings.ts.
 */
import { runCompiled } from '../support/run-compiled.js';

await runCompiled(new URL('./run-soak.ts', import.meta.url));
