import type { Readable, Writable } from 'node:stream';
import { bridgedStdioClassification } from '../protocol/bridged-stdio-classification.js';
import { classifyStdioLine, type StdioLineClassification, type StdioProcessState } from '../protocol/classify-stdio-line.js';
import { LineBoundaryWriter } from '../lib/line-boundary-writer.js';
import { LineGate } from '../lib/line-gate.js';
import { LineSplitter } from '../lib/line-splitter.js';
import type { CompiledPolicy } from '../policy/compiled-policy.js';
import { decideStdioLine } from './decide-stdio-line.js';
import type { Caller } from './identify-caller.js';
import type { OpenStdioBridge, StdioBridge } from './stdio-bridge.js';
import type { StdioMeter } from './stdio-meter.js';
import { stdioRefusalAnswer } from './stdio-refusal-answer.js';

export interface BridgeStdioLinesOptions {
  open: OpenStdioBridge;
  meter: StdioMeter<Caller>;
  caller: Caller;
  maxLineBytes: number;
  maxServerLineBytes: number;
  policy: (() => CompiledPolicy) | undefined;
  now: () => number;
  /** False once metering failed: lines are then routed and bridged, unjudged and uncounted. */
  metering: () => boolean;
  /** A fault in metering or in the policy: metering stops. */
  fail: (error: unknown, where: string) => void;
  /** A fault of the bridge's own: reported, the lines keep flowing. */
  report: (error: unknown, where: string) => void;
}

/** Era is decided per line by its mechanism alone, so a line is routed without the meter's state. */
const UNMETERED_PROCESS: StdioProcessState = { initializeSeen: false, negotiatedVersion: undefined, serverRequestMethod: () => undefined };

/**
 * The byte path under the bridge. Each client line is read whole, classified, judged by the policy
 * in force (a refusal is answered here, before the bridge sees the line) and counted; a legacy line
 * then goes to the bridge, any other to the server as it came. Each server line is read whole too
 * (up to its own bound, past which it goes to the client unread): the bridge keeps the answers to
 * its own requests, the rest reaches the client. The meter reads what the client reads, the
 * bridge's answers among it, and never the modern lines the bridge writes to the server.
 * Each direction waits on the side it writes to, as a pipe would.
 */
export function bridgeStdioLines(options: BridgeStdioLinesOptions, stdin: Readable, stdout: Writable, serverIn: Writable, serverOut: Readable): StdioBridge {
  const { meter, caller } = options;
  const output = new LineBoundaryWriter((bytes) => (stdout.writableEnded ? true : stdout.write(bytes)));

  // Client input waits while the server's stdin is full, and while the client leaves our answers unread.
  const holds = new Set<'server' | 'client'>();
  const hold = (reason: 'server' | 'client') => {
    holds.add(reason);
    stdin.pause();
  };
  const release = (reason: 'server' | 'client') => {
    if (!holds.delete(reason) || holds.size > 0) return;
    stdin.resume();
  };
  serverIn.on('drain', () => release('server'));
  stdout.on('drain', () => release('client'));

  const meterServerLine = (line: string) => {
    if (!options.metering()) return;
    try {
      meter.serverLine(line);
    } catch (error) {
      options.fail(error, 'server-line');
    }
  };
  /** Counted before it is written, so the count includes it by the time the client reads it. */
  const toClient = (line: string) => {
    meterServerLine(line);
    if (!output.add(`${line}\n`)) hold('client');
  };
  const toServer = (line: string) => {
    if (serverIn.writableEnded || serverIn.destroyed) return;
    if (!serverIn.write(`${line}\n`)) hold('server');
  };
  const bridge = options.open({ toClient, toServer });
  const guarded = (where: string, run: () => void) => {
    try {
      run();
    } catch (error) {
      options.report(error, where);
    }
  };

  /** Judges and counts a classified line; false when the policy refused it (it is answered here). */
  const owns = (line: string): boolean => {
    try {
      return bridge.serverLine(line);
    } catch (error) {
      options.report(error, 'bridge-server-line');
      return false;
    }
  };

  const admit = (line: string, classification: StdioLineClassification): boolean => {
    const policy = options.policy?.();
    let attrs = caller;
    if (policy?.enforcing === true) {
      const { decision, refused } = decideStdioLine(policy, classification, caller.integration, options.now());
      if (decision.refusedBy !== null && refused !== undefined) {
        const answer = stdioRefusalAnswer(line, classification.messages, { ...decision.refusedBy.refusal, cause: decision.cause!, brownoutEndsAt: decision.brownoutEndsAt });
        meter.clientLineRefused(classification, caller, { plan: decision.refusedBy.id, cause: decision.cause! });
        if (answer !== undefined && !output.add(answer)) hold('client');
        return false;
      }
      if (decision.wouldBlock) attrs = { ...caller, wouldBlock: true };
    }
    meter.clientLineForwarded(classification, attrs);
    return true;
  };

  const deliver = (line: string, bridged: boolean) => {
    if (bridged) guarded('bridge-client-line', () => bridge.clientLine(line));
    else toServer(line);
  };

  const clientLines = new LineSplitter(options.maxLineBytes, (line) => {
    if (line === undefined) return guarded('bridge-client-line', () => bridge.tooLong(options.maxLineBytes));
    if (line.trim() === '') return;
    if (options.metering()) {
      try {
        const plain = meter.classifyClientLine(line);
        const relabelled = bridgedStdioClassification(plain, meter.negotiated ?? null);
        if (!admit(line, relabelled ?? plain)) return;
        return deliver(line, relabelled !== undefined);
      } catch (error) {
        // A fault in metering or in the policy lets the line through, unmetered.
        options.fail(error, 'client-line');
      }
    }
    deliver(line, bridgedStdioClassification(classifyStdioLine(line, UNMETERED_PROCESS), null) !== undefined);
  });
  stdin.on('data', (chunk: Buffer) => clientLines.push(chunk));
  stdin.on('end', () => serverIn.end());

  const serverLines = new LineGate(options.maxServerLineBytes, {
    forward: (bytes) => {
      if (output.passOn(bytes)) return;
      serverOut.pause();
      stdout.once('drain', () => serverOut.resume());
    },
    line: (text, held) => {
      if (held && owns(text)) return false;
      meterServerLine(text);
      return true;
    },
    // The server's own long lines go to the client as they come.
    tooLong: () => true,
  });
  serverOut.on('data', (chunk: Buffer) => serverLines.push(chunk, true));
  serverOut.on('end', () => {
    // A last line without its newline goes on as it came, as it would through a pipe.
    const rest = serverLines.end();
    if (rest !== undefined) output.passOn(rest);
    output.end();
    release('client');
    // As a pipe does: our own stdout is never ended, only a stream we were given.
    if (stdout !== process.stdout) stdout.end();
  });
  return bridge;
}
