import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { formatSoak } from './format-soak.js';
import { runCardinality } from './run-cardinality.js';
import { runCrash, type CrashRun } from './run-crash.js';
import { runFuzz } from './run-fuzz.js';
import { readSoakSettings } from './soak-settings.js';

const settings = readSoakSettings(process.env);
const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-soak-'));
const started = Date.now();
try {
  process.stderr.write(`fuzz: ${settings.fuzzRequests} hostile requests (seed ${settings.seed})…\n`);
  const fuzz = await runFuzz({ requests: settings.fuzzRequests, seed: settings.seed, concurrency: settings.fuzzConcurrency, maxBodyBytes: settings.fuzzMaxBodyBytes, dir });
  process.stderr.write(`cardinality: ${settings.identities} distinct identities…\n`);
  const cardinality = await runCardinality({ identities: settings.identities, concurrency: 32, dir });
  const random = createSeededRandom(settings.seed);
  const crashes: CrashRun[] = [];
  for (let run = 0; run < settings.crashRuns; run += 1) {
    // A random moment between 2 and 4 s in: after at least one flush, at any phase of the flush interval.
    const killAfterMs = 2000 + Math.round(random() * 2000);
    process.stderr.write(`crash ${run + 1}/${settings.crashRuns}: SIGKILL after ${killAfterMs} ms at ${settings.crashRate} req/s…\n`);
    crashes.push(await runCrash({ rate: settings.crashRate, killAfterMs, dir, run }));
  }
  const section = formatSoak({
    at: new Date(),
    machine: machineLine(describeMachine()),
    code: describeCode(dirname(RESULTS_FILE)),
    seconds: (Date.now() - started) / 1000,
    fuzz,
    cardinality,
    crashRate: settings.crashRate,
    crashes,
  });
  process.stdout.write(`${section}\n`);
  if (settings.record) appendResults(section);
  else process.stderr.write('not recorded (sizes overridden; SOAK_RECORD=1 records)\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
