import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { Caller } from './identify-caller.js';
import { LineSplitter } from '../lib/line-splitter.js';
import type { StdioMeter } from './stdio-meter.js';

export interface WrapStdioOptions {
  command: string;
  args: readonly string[];
  meter: StdioMeter<Caller>;
  caller: Caller;
  maxLineBytes: number;
  onInternalError: (error: unknown, where: string) => void;
  stdin?: Readable;
  stdout?: Writable;
}

export interface WrappedProcess {
  /** Resolves with the exit code to pass on (128 + signal number style codes for signals). */
  exited: Promise<number>;
  /** Passes a signal on to the wrapped server. */
  kill(signal: NodeJS.Signals): void;
}

/**
 * Runs an MCP server over stdio with the sidecar in between: bytes pass through both ways
 * untouched, and a copy of each line is classified. stderr is the server's own and goes straight
 * to ours. A metering failure is reported and metering stops; the server keeps running.
 */
export function wrapStdio(options: WrapStdioOptions): WrappedProcess {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const child = spawn(options.command, [...options.args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let metering = true;
  const guard = (where: string, run: () => void) => {
    if (!metering) return;
    try {
      run();
    } catch (error) {
      metering = false;
      options.onInternalError(error, where);
    }
  };
  const clientLines = new LineSplitter(options.maxLineBytes, (line) => guard('client-line', () => line !== undefined && options.meter.clientLine(line, options.caller)));
  const serverLines = new LineSplitter(options.maxLineBytes, (line) => guard('server-line', () => line !== undefined && options.meter.serverLine(line)));

  stdin.on('data', (chunk: Buffer) => guard('client-line', () => clientLines.push(chunk)));
  stdin.pipe(child.stdin);
  // The server may exit while the client still writes; that is the server's business, not a crash of ours.
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => guard('server-line', () => serverLines.push(chunk)));
  child.stdout.pipe(stdout);

  const exited = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      options.onInternalError(error, 'spawn');
      resolve(127);
    });
    child.on('close', (code, signal) => {
      guard('close', () => options.meter.close());
      stdin.unpipe(child.stdin);
      resolve(code ?? (signal === null ? 1 : 128 + (constants.signals[signal] ?? 0)));
    });
  });
  return { exited, kill: (signal) => void child.kill(signal) };
}
