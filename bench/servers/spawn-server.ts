import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextReply } from '../support/next-reply.js';
import type { ChildReply, ChildStats, ServerKind } from './child-messages.js';

export interface ServerChild {
  kind: ServerKind;
  url: URL;
  pid: number;
  /** CPU used so far and, for the sidecar, its metering health. */
  stats(): Promise<ChildStats>;
  /** Asks the child to stop cleanly and waits for it to exit. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  upstream?: URL;
  /** When set, the child runs under `--cpu-prof` and writes its profile here on exit. */
  cpuProfileDir?: string;
  /** Further Node or V8 flags for the child. */
  nodeFlags?: readonly string[];
}

// Compiled (the normal case, see run-compiled.ts) the children run as plain JS; from source, through tsx.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = fileURLToPath(new URL(FROM_SOURCE ? './serve-child.ts' : './serve-child.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** Starts one server in its own Node process (TypeScript through tsx) and waits until it listens. */
export async function spawnServer(kind: ServerKind, options: SpawnOptions = {}): Promise<ServerChild> {
  const profile = options.cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`];
  const child = fork(ENTRY, options.upstream === undefined ? [kind] : [kind, options.upstream.href], {
    execArgv: [...(FROM_SOURCE ? ['--import', 'tsx'] : []), ...profile, ...(options.nodeFlags ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextReply<ChildReply, 'ready'>(child, 'ready', START_TIMEOUT_MS);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    kind,
    url: new URL(ready.url),
    pid: child.pid!,
    async stats() {
      const reply = nextReply<ChildReply, 'stats'>(child, 'stats', START_TIMEOUT_MS);
      child.send({ type: 'stats' });
      const { cpuMicros, gcMicros, health } = await reply;
      return { cpuMicros, gcMicros, health };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      await exited;
    },
  };
}
