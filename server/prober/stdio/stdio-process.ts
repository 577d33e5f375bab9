/**
 * One spawned stdio MCP server, seen as the prober needs it: write a line, wait for the answer to
 * one id under a deadline enforced by killing the process, and tell a closed process from a
 * silent one. Non-JSON lines, foreign ids, null ids and server messages are ignored while waiting.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';
import { LineSplitter } from '../../lib/line-splitter.js';
import type { StdioTarget } from '../targets/peer-config.js';
import { excerptOf, isReplyTo, type ProbeObservation } from '../wire/probe-observation.js';

const MAX_LINE_BYTES = 4 * 1024 * 1024;
const STDERR_TAIL_CHARS = 400;
const CLOSE_GRACE_MS = 1000;

interface Waiter {
  id: JsonRpcId;
  settle(observation: ProbeObservation): void;
}

export class StdioProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private waiter: Waiter | undefined;
  private stderrTail = '';
  private spawnError: string | undefined;
  private ended: string | undefined;
  /** Lines seen while waiting that were not the answer (row 23), for the diagnostic. */
  ignored = 0;
  readonly closed: Promise<void>;

  constructor(target: StdioTarget) {
    this.child = spawn(target.command, [...(target.args ?? [])], {
      cwd: target.cwd,
      env: { ...process.env, ...target.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = new LineSplitter(MAX_LINE_BYTES, (line) => this.onLine(line));
    this.child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    // A write racing the process's exit must not crash the prober (EPIPE).
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (error: NodeJS.ErrnoException) => {
      this.spawnError ??= `could not start ${target.command}: ${error.code ?? error.message}`;
    });
    this.closed = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.ended = signal === null ? `exit code ${code}` : `signal ${signal}`;
        this.settle(this.endObservation());
        resolve();
      });
    });
  }

  get alive(): boolean {
    return this.ended === undefined && this.spawnError === undefined && this.child.stdin.writable;
  }

  private endObservation(): ProbeObservation {
    if (this.spawnError !== undefined) return { kind: 'unreachable', detail: this.spawnError };
    const stderr = this.stderrTail.trim() === '' ? '' : `; stderr: ${excerptOf(this.stderrTail, 200)}`;
    return { kind: 'closed', detail: `${this.ended ?? 'the process closed its pipes'}${stderr}` };
  }

  private settle(observation: ProbeObservation): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.settle(observation);
  }

  private onLine(line: string | undefined): void {
    if (this.waiter === undefined || line === undefined) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.ignored += 1;
      return;
    }
    if (isReplyTo(value, this.waiter.id)) this.settle({ kind: 'reply', message: value });
    else this.ignored += 1;
  }

  /** Writes one message; false when the process is gone (nothing is written to a dead pipe). */
  write(message: unknown): boolean {
    if (!this.alive) return false;
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  /** Writes a request and waits for the line answering its id; at the deadline the process is killed. */
  request(message: { id: JsonRpcId }, timeoutMs: number): Promise<ProbeObservation> {
    return new Promise((resolve) => {
      if (!this.alive) {
        resolve(this.endObservation());
        return;
      }
      const timer = setTimeout(() => {
        this.settle({ kind: 'timeout' });
        this.kill();
      }, timeoutMs);
      this.waiter = { id: message.id, settle: (observation) => (clearTimeout(timer), resolve(observation)) };
      this.write(message);
    });
  }

  /** Kills the process at once and waits until it is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.closed;
  }

  /** Closes stdin so the server can exit on its own, then kills it if it lingers. */
  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await this.closed;
    clearTimeout(timer);
  }
}
