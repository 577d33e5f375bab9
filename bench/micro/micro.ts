/** `npx tsx bench/micro/micro.ts`: the micro-benchmarks alone (a few seconds), as `npm run bench` runs them. */
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { runMicroBenchmarks } from './run-micro-benchmarks.js';

process.stdout.write(`${machineLine(describeMachine())}\n`);
for (const result of runMicroBenchmarks()) process.stdout.write(`${result.nsPerOp.toFixed(0).padStart(8)} ns  ${result.name}\n`);
