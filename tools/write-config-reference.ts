/** `npm run docs:config`: writes the configuration reference into docs/configuration.md, between its markers. */
import { readFileSync, writeFileSync } from 'node:fs';
import { REFERENCE_FILE, buildReference, spliceReference } from './config-reference.js';

const before = readFileSync(REFERENCE_FILE, 'utf8');
const after = spliceReference(before, await buildReference());
if (after === before) process.stdout.write('docs/configuration.md is up to date\n');
else {
  writeFileSync(REFERENCE_FILE, after);
  process.stdout.write('docs/configuration.md: reference rewritten\n');
}
