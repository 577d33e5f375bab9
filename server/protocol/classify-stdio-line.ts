/**
 * Classifies one client→server stdio line. Pure. On stdio an `initialize`
 * opens a legacy scope for the whole process, yet each line that carries the modern envelope is
 * still modern: eras are decided per message.
 */
import { cancelledRequestId } from './cancelled-request-id.js';
import { classified, type ClassifiedMessage } from './classified-message.js';
import { modernVersionOf } from './classify-rpc-message.js';
import { parseJson, readJsonRpc, type JsonRpcId, type JsonRpcMessage } from './read-json-rpc.js';
import { NON_RPC_METHOD, type Reason } from './vocabulary.js';
import { METHOD } from './method-names.js';
import { MAX_BATCH_MESSAGES } from './max-batch-messages.js';

/** What the caller knows about the server process the line is written to. */
export interface StdioProcessState {
  /** True once the client has sent `initialize` on this process. */
  initializeSeen: boolean;
  /** The version the process negotiated, once its initialize was answered. */
  negotiatedVersion: string | undefined;
  /** Method of a server-initiated request, so the client's answer is grouped under it. */
  serverRequestMethod(id: JsonRpcId): string | undefined;
}

export interface StdioLineClassification {
  messages: ClassifiedMessage[];
  /** Ids of the requests the line cancels (`notifications/cancelled`). */
  cancels: JsonRpcId[];
  /** True when the line was a JSON-RPC batch. */
  batch: boolean;
}

function unknownLine(reason: Reason): ClassifiedMessage {
  return classified({ kind: 'other', method: NON_RPC_METHOD.unparsed, id: null, era: 'unknown', transport: 'stdio', reason, version: null });
}

function legacyReason(rpc: JsonRpcMessage, state: StdioProcessState, inBatch: boolean): Reason {
  if (inBatch) return 'batch';
  if (rpc.kind === 'request' && rpc.method === METHOD.initialize) return 'initialize';
  if (rpc.kind === 'notification' && rpc.method === METHOD.initialized) return 'initialize';
  if (rpc.kind === 'response') return 'client-response';
  return state.initializeSeen ? 'stdio-process' : 'stdio-pre-init';
}

function classifyElement(rpc: JsonRpcMessage, state: StdioProcessState, inBatch: boolean): ClassifiedMessage {
  const negotiated = state.negotiatedVersion ?? null;
  switch (rpc.kind) {
    case 'invalid':
      return unknownLine('invalid-message');
    case 'response': {
      const method = (rpc.id === null ? undefined : state.serverRequestMethod(rpc.id)) ?? NON_RPC_METHOD.unknownResponse;
      return classified({ kind: 'response', method, id: rpc.id, era: 'legacy', transport: 'stdio', reason: legacyReason(rpc, state, inBatch), version: negotiated });
    }
    case 'notification':
      return classified({ kind: 'notification', method: rpc.method, id: null, era: 'legacy', transport: 'stdio', reason: legacyReason(rpc, state, inBatch), version: negotiated });
    case 'request': {
      if (rpc.method === METHOD.initialize) {
        const requested = rpc.params?.protocolVersion;
        return classified({ kind: 'request', method: rpc.method, id: rpc.id, era: 'legacy', transport: 'stdio', reason: legacyReason(rpc, state, inBatch), version: typeof requested === 'string' ? requested : null });
      }
      const modern = modernVersionOf(rpc.params);
      if (modern !== undefined) return classified({ kind: 'request', method: rpc.method, id: rpc.id, era: 'modern', transport: 'stdio', reason: 'modern-meta', version: modern });
      return classified({ kind: 'request', method: rpc.method, id: rpc.id, era: 'legacy', transport: 'stdio', reason: legacyReason(rpc, state, inBatch), version: negotiated });
    }
  }
}

/** A client line past the bound the sidecar reads: one message, which nothing shows modern. */
export function unreadLine(): StdioLineClassification {
  return { messages: [unknownLine('body-too-large')], cancels: [], batch: false };
}

/**
 * Classifies the messages of one line a client wrote to a server's stdin, and what it cancels.
 * `readLine` reads the line: the full parse by default, as it is the faster (see `readClassifiableJson`).
 */
export function classifyStdioLine(line: string, state: StdioProcessState, readLine: typeof parseJson = parseJson): StdioLineClassification {
  const parsed = readLine(line);
  if (!parsed.ok) return { messages: [unknownLine('invalid-json')], cancels: [], batch: false };
  const inBatch = Array.isArray(parsed.value);
  const elements: unknown[] = inBatch ? (parsed.value as unknown[]) : [parsed.value];
  if (elements.length === 0) return { messages: [unknownLine('invalid-message')], cancels: [], batch: inBatch };
  if (elements.length > MAX_BATCH_MESSAGES) {
    const message = classified({ kind: 'other', method: NON_RPC_METHOD.unparsed, id: null, era: 'legacy', transport: 'stdio', reason: 'batch-too-large', version: state.negotiatedVersion ?? null });
    return { messages: [message], cancels: [], batch: true };
  }
  const cancels: JsonRpcId[] = [];
  const messages = elements.map((element) => {
    const rpc = readJsonRpc(element);
    const cancelled = cancelledRequestId(rpc);
    if (cancelled !== undefined) cancels.push(cancelled);
    return classifyElement(rpc, state, inBatch);
  });
  return { messages, cancels, batch: inBatch };
}
