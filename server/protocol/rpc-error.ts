import type { JsonRpcId } from './read-json-rpc.js';

/** A JSON-RPC error response; `id` null when the request's id is unknown. Pure. */
export function rpcError(id: JsonRpcId | null, code: number, message: string): { jsonrpc: '2.0'; id: JsonRpcId | null; error: { code: number; message: string } } {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
