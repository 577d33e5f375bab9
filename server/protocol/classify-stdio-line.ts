/**
 * Classifies one client→server stdio line (spec-digest.md §6). Pure. On stdio an `initialize`
 * opens a legacy scope for the whole process, yet each line that carries the modern envelope is
 * still modern: eras are decided per message.
 */
import type { ClassifiedMessage } from './classified-message.js';
import { modernVersionOf } from './classify-rpc-message.js';
import { parseJson, readJsonRpc, type JsonRpcId, type JsonRpcMessage } from './read-json-rpc.js';
import { NON_RPC_METHOD, type Reason } from './vocabulary.js';

/** What the caller knows about the server process the line is written to. */
export interface StdioProcessState {
  /** True once the client has sent `initialize` on this process. */
  initializeSeen: boolean;
  /** The version the process negotiated, once its initialize was answered. */
  negotiatedVersion: string | undefined;
  /** Method of a server-initiated request, so the client's answer is grouped under it. */
  serverRequestMethod(id: JsonRpcId): string | undefined;
}

function unknownLine(reason: Reason): ClassifiedMessage {
  return { kind: 'other', method: NON_RPC_METHOD.unparsed, id: null, era: 'unknown', transport: 'stdio', reason, version: null };
}

function legacyLine(rpc: JsonRpcMessage, state: StdioProcessState, inBatch: boolean): Pick<ClassifiedMessage, 'era' | 'reason' | 'version'> {
  const reason: Reason = inBatch ? 'batch' : state.initializeSeen ? 'stdio-process' : 'stdio-pre-init';
  if (rpc.kind === 'request' && rpc.method === 'initialize') {
    const requested = rpc.params?.protocolVersion;
    return { era: 'legacy', reason: inBatch ? 'batch' : 'initialize', version: typeof requested === 'string' ? requested : null };
  }
  if (rpc.kind === 'notification' && rpc.method === 'notifications/initialized' && !inBatch) {
    return { era: 'legacy', reason: 'initialize', version: state.negotiatedVersion ?? null };
  }
  if (rpc.kind === 'response' && !inBatch) return { era: 'legacy', reason: 'client-response', version: state.negotiatedVersion ?? null };
  return { era: 'legacy', reason, version: state.negotiatedVersion ?? null };
}

function classifyElement(value: unknown, state: StdioProcessState, inBatch: boolean): ClassifiedMessage {
  const rpc = readJsonRpc(value);
  switch (rpc.kind) {
    case 'invalid':
      return unknownLine('invalid-message');
    case 'response': {
      const method = (rpc.id === null ? undefined : state.serverRequestMethod(rpc.id)) ?? NON_RPC_METHOD.unknownResponse;
      return { kind: 'response', method, id: rpc.id, transport: 'stdio', ...legacyLine(rpc, state, inBatch) };
    }
    case 'notification':
      return { kind: 'notification', method: rpc.method, id: null, transport: 'stdio', ...legacyLine(rpc, state, inBatch) };
    case 'request': {
      const base = { kind: 'request' as const, method: rpc.method, id: rpc.id, transport: 'stdio' as const };
      const modern = rpc.method === 'initialize' ? undefined : modernVersionOf(rpc.params);
      if (modern !== undefined) return { ...base, era: 'modern', reason: 'modern-meta', version: modern };
      return { ...base, ...legacyLine(rpc, state, inBatch) };
    }
  }
}

/** Classifies the messages of one line a client wrote to a server's stdin. */
export function classifyStdioLine(line: string, state: StdioProcessState): ClassifiedMessage[] {
  const parsed = parseJson(line);
  if (!parsed.ok) return [unknownLine('invalid-json')];
  if (!Array.isArray(parsed.value)) return [classifyElement(parsed.value, state, false)];
  if (parsed.value.length === 0) return [unknownLine('invalid-message')];
  return parsed.value.map((element) => classifyElement(element, state, true));
}
