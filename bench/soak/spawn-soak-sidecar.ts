import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextReply } from '../support/next-reply.js';
import type { ProcessMemory, SoakChildOptions, SoakReply } from './soak-messages.js';

export interface SoakSidecar {
  url: URL;
  apiUrl: URL;
  pid: number;
  /** Whether the process is still running (it has not exited or been killed). */
  alive(): boolean;
  /** RSS and heap of the child, after a full GC when `gc` is set. */
  memory(gc: boolean): Promise<ProcessMemory>;
  /** Stops the service cleanly (final flush) and waits for the process to exit. */
  stop(): Promise<void>;
  /** SIGKILL: no final flush, no spool. */
  kill(): Promise<void>;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = fileURLToPath(new URL(FROM_SOURCE ? './soak-child.ts' : './soak-child.js', import.meta.url));
const REPLY_TIMEOUT_MS = 60_000;

/** Starts the sidecar (startService, real SQLite file) in its own Node process and waits until it listens. */
export async function spawnSoakSidecar(options: SoakChildOptions): Promise<SoakSidecar> {
  const child = fork(ENTRY, [JSON.stringify(options)], {
    execArgv: [...(FROM_SOURCE ? ['--import', 'tsx'] : []), '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await nextReply<SoakReply, 'ready'>(child, 'ready', REPLY_TIMEOUT_MS);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url: new URL(ready.url),
    apiUrl: new URL(ready.apiUrl),
    pid: child.pid!,
    alive,
    async memory(gc) {
      const reply = nextReply<SoakReply, 'memory'>(child, 'memory', REPLY_TIMEOUT_MS);
      child.send({ type: 'memory', gc });
      const { rssBytes, heapUsedBytes } = await reply;
      return { rssBytes, heapUsedBytes };
    },
    async stop() {
      if (!alive()) return;
      child.send({ type: 'stop' });
      await exited;
    },
    async kill() {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
