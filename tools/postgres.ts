/**
 * `npm run postgres`: a local Postgres for a fleet on one machine (data in .data/postgres, port 5433
 * unless given), up until Ctrl-C. Prints the URL to pass as `--db`.
 */
import { parseArgs } from 'node:util';
import { startLocalPostgres } from './start-local-postgres.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '5433' }, dir: { type: 'string', default: '.data/postgres' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
  process.stderr.write(`postgres: --port must be a port number, got ${values.port}\n`);
  process.exit(2);
}
let postgres;
try {
  postgres = await startLocalPostgres({ dir: values.dir, port });
} catch (error) {
  process.stderr.write(`postgres: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
  process.exit(1);
}
process.stdout.write(`postgres ready: ${postgres.url}\n  stop with Ctrl-C\n`);
const stop = async () => {
  await postgres.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
