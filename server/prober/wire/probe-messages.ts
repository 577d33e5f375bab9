/**
 * The JSON-RPC messages the prober writes. Pure. Modern requests carry the full `_meta` triple;
 * legacy ones are shaped exactly as a 2025 client sends them, with no
 * `io.modelcontextprotocol/*` key at all.
 */
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';
import { METHOD } from '../../protocol/method-names.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../protocol/versions.js';

export interface ClientInfo {
  name: string;
  version: string;
}

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export type OutgoingMessage = JsonRpcRequest | JsonRpcNotification;

function modernMeta(version: string, clientInfo: ClientInfo): Record<string, unknown> {
  return { [META_PROTOCOL_VERSION]: version, [META_CLIENT_CAPABILITIES]: {}, [META_CLIENT_INFO]: clientInfo };
}

export function buildDiscoverRequest(id: JsonRpcId, version: string, clientInfo: ClientInfo): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: METHOD.discover, params: { _meta: modernMeta(version, clientInfo) } };
}

export function buildInitializeRequest(id: JsonRpcId, version: string, clientInfo: ClientInfo): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: METHOD.initialize, params: { protocolVersion: version, capabilities: {}, clientInfo } };
}

export function buildInitializedNotification(): JsonRpcNotification {
  return { jsonrpc: '2.0', method: METHOD.initialized };
}

/** `tools/list` in the era that was chosen: modern with `_meta`, legacy without. */
export function buildToolsListRequest(
  id: JsonRpcId,
  cursor: string | null,
  era: { kind: 'modern'; version: string; clientInfo: ClientInfo } | { kind: 'legacy' },
): JsonRpcRequest {
  const params: Record<string, unknown> = cursor === null ? {} : { cursor };
  if (era.kind === 'modern') params._meta = modernMeta(era.version, era.clientInfo);
  return Object.keys(params).length === 0 ? { jsonrpc: '2.0', id, method: METHOD.toolsList } : { jsonrpc: '2.0', id, method: METHOD.toolsList, params };
}
