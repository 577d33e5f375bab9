import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { LineBoundaryWriter } from '../lib/line-boundary-writer.js';
import { LineGate } from '../lib/line-gate.js';
import { LineSplitter } from '../lib/line-splitter.js';
import type { CompiledPolicy } from '../policy/compiled-policy.js';
import { bridgeStdioLines } from './bridge-stdio-lines.js';
import { decideStdioLine } from './decide-stdio-line.js';
import type { Caller } from './identify-caller.js';
import type { OpenStdioBridge, StdioBridge } from './stdio-bridge.js';
import type { StdioMeter } from './stdio-meter.js';
import { stdioRefusalAnswer } from './stdio-refusal-answer.js';
import { unreadLine } from '../protocol/classify-stdio-line.js';

export interface WrapStdioOptions {
  command: string;
  args: readonly string[];
  meter: StdioMeter<Caller>;
  caller: Caller;
  maxLineBytes: number;
  onInternalError: (error: unknown, where: string) => void;
  /** The retirement policy in force now: read per client chunk, compiled elsewhere. Absent: nothing is enforced. */
  policy?: () => CompiledPolicy;
  now?: () => number;
  /** Answers legacy clients in front of a modern-only server (`wrap --bridge`); absent, lines pass through. */
  bridge?: OpenStdioBridge;
  /**
   * Longest server line the bridge reads whole (an answer can be far larger than any request);
   * a longer one reaches the client unread. Default `maxLineBytes`.
   */
  maxServerLineBytes?: number;
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
 * With a policy that enforces, each client line is judged before it is passed on: a refused one
 * never reaches the server, and the wrapper answers it itself between the server's lines.
 * With a bridge, legacy client lines are judged the same way first, then answered by the bridge
 * in front of a modern-only server (see bridge-stdio-lines.ts).
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
  // The server may exit while the client still writes; that is the server's business, not a crash of ours.
  child.stdin.on('error', () => undefined);

  let bridge: StdioBridge | undefined;
  if (options.bridge !== undefined) {
    // The bridge reads both sides line by line, and meters what the client sends and reads itself.
    bridge = bridgeStdioLines(
      {
        open: options.bridge,
        meter: options.meter,
        caller: options.caller,
        maxLineBytes: options.maxLineBytes,
        maxServerLineBytes: options.maxServerLineBytes ?? options.maxLineBytes,
        policy: options.policy,
        now: options.now ?? Date.now,
        metering: () => metering,
        fail: (error, where) => {
          metering = false;
          options.onInternalError(error, where);
        },
        report: options.onInternalError,
      },
      stdin,
      stdout,
      child.stdin,
      child.stdout,
    );
  } else {
    const serverLines = new LineSplitter(options.maxLineBytes, (line) => guard('server-line', () => line !== undefined && options.meter.serverLine(line)));
    child.stdout.on('data', (chunk: Buffer) => guard('server-line', () => serverLines.push(chunk)));
    if (options.policy === undefined) {
      const clientLines = new LineSplitter(options.maxLineBytes, (line) => guard('client-line', () => line !== undefined && options.meter.clientLine(line, options.caller)));
      stdin.on('data', (chunk: Buffer) => guard('client-line', () => clientLines.push(chunk)));
      stdin.pipe(child.stdin);
      child.stdout.pipe(stdout);
    } else {
      gateClientLines({ ...options, policy: options.policy }, stdin, stdout, child.stdin, child.stdout, () => metering, (error) => {
        metering = false;
        options.onInternalError(error, 'client-line');
      });
    }
  }

  const exited = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      options.onInternalError(error, 'spawn');
      resolve(127);
    });
    child.on('close', (code, signal) => {
      bridge?.close();
      guard('close', () => options.meter.close());
      stdin.unpipe(child.stdin);
      resolve(code ?? (signal === null ? 1 : 128 + (constants.signals[signal] ?? 0)));
    });
  });
  return { exited, kill: (signal) => void child.kill(signal) };
}

/**
 * The byte path under a policy: client lines pass through a gate that judges each one while the
 * policy enforces (and passes chunks through whole while it does not), and the server's stdout is
 * written line-aware so an answer of the wrapper's own never lands inside a server line. Each
 * direction waits on the side it writes to, as a pipe would.
 */
function gateClientLines(
  options: WrapStdioOptions & { policy: () => CompiledPolicy },
  stdin: Readable,
  stdout: Writable,
  serverIn: Writable,
  serverOut: Readable,
  metering: () => boolean,
  fail: (error: unknown) => void,
): void {
  const now = options.now ?? Date.now;
  const { meter, caller } = options;
  const output = new LineBoundaryWriter((bytes) => (stdout.writableEnded ? true : stdout.write(bytes)));
  let judging = false;
  let answered = false;

  const judge = (text: string | undefined, held: boolean): boolean => {
    if (!metering() || text?.trim() === '') return true;
    try {
      if (!held || !judging) {
        if (text === undefined) meter.clientLineForwarded(unreadLine(), caller);
        else meter.clientLine(text, caller);
        return true;
      }
      // A line past the bound is judged unread: under a cut, only a line shown modern goes on.
      const classification = text === undefined ? unreadLine() : meter.classifyClientLine(text);
      const { decision, refused } = decideStdioLine(options.policy(), classification, caller.integration, now());
      if (decision.refusedBy !== null && refused !== undefined) {
        const answer = stdioRefusalAnswer(text ?? '', classification.messages, { ...decision.refusedBy.refusal, cause: decision.cause!, brownoutEndsAt: decision.brownoutEndsAt });
        meter.clientLineRefused(classification, caller, { plan: decision.refusedBy.id, cause: decision.cause! });
        if (answer !== undefined) {
          output.add(answer);
          answered = true;
        }
        return false;
      }
      meter.clientLineForwarded(classification, decision.wouldBlock ? { ...caller, wouldBlock: true } : caller);
      return true;
    } catch (error) {
      // A fault in metering or in the policy lets the line through, unmetered.
      fail(error);
      return true;
    }
  };
  const gate = new LineGate(options.maxLineBytes, {
    forward: (bytes) => {
      if (!serverIn.write(bytes)) hold('server');
    },
    line: judge,
    // Counted once, as one unread message; kept back whole when a plan refuses what it cannot read.
    tooLong: (held) => judge(undefined, held),
  });

  // Client input waits while the server's stdin is full, and while answers of our own wait to be written.
  const holds = new Set<'server' | 'answers'>();
  const hold = (reason: 'server' | 'answers') => {
    holds.add(reason);
    stdin.pause();
  };
  const release = (reason: 'server' | 'answers') => {
    if (!holds.delete(reason) || holds.size > 0) return;
    stdin.resume();
  };
  serverIn.on('drain', () => release('server'));
  const answersWritten = () => {
    if (!output.holding && !stdout.writableNeedDrain) release('answers');
  };

  stdin.on('data', (chunk: Buffer) => {
    let policy: CompiledPolicy | undefined;
    try {
      policy = options.policy();
    } catch (error) {
      fail(error);
    }
    judging = metering() && policy?.enforcing === true;
    answered = false;
    gate.push(chunk, judging);
    // Only a client that keeps sending refused requests without reading our answers is slowed down.
    if (answered && (output.holding || stdout.writableNeedDrain)) hold('answers');
  });
  stdin.on('end', () => {
    const rest = gate.end();
    if (rest !== undefined) serverIn.write(rest);
    serverIn.end();
  });

  serverOut.on('data', (chunk: Buffer) => {
    if (!output.passOn(chunk)) {
      serverOut.pause();
      stdout.once('drain', () => serverOut.resume());
    }
    answersWritten();
  });
  stdout.on('drain', answersWritten);
  serverOut.on('end', () => {
    output.end();
    release('answers');
    // As a pipe does: our own stdout is never ended, only a stream we were given.
    if (stdout !== process.stdout) stdout.end();
  });
}
