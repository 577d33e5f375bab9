/** `npm run docs:openapi`: writes docs/openapi.json from the route table and the API's types. */
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiText } from './generate-openapi.js';

writeFileSync(OPENAPI_FILE, openApiText());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
