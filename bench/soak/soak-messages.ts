/** The IPC vocabulary between the soak driver and its sidecar child. */

export interface SoakChildOptions {
  upstream: string;
  db: string;
  flushIntervalMs: number;
  maxBodyBytes: number;
}

export type SoakRequest = { type: 'memory'; gc: boolean } | { type: 'stop' };

export interface ProcessMemory {
  rssBytes: number;
  heapUsedBytes: number;
}

export type SoakReply =
  | { type: 'ready'; url: string; apiUrl: string }
  | ({ type: 'memory' } & ProcessMemory)
  | { type: 'stopped' };
