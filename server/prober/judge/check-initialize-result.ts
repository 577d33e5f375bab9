/**
 * The positive-evidence checklist. Pure. Legacy is
 * selected only when every item holds; only then is `notifications/initialized` ever sent.
 */
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';
import { isRecord, isSameId } from '../wire/probe-observation.js';
import type { ServerInfo } from './read-discover-result.js';

export const CHECKLIST_ITEMS = ['jsonrpc', 'id', 'result-only', 'protocol-version', 'capabilities', 'server-name', 'server-version'] as const;
export type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];

export type InitializeCheck =
  | { ok: true; version: string; capabilities: Record<string, unknown>; serverInfo: ServerInfo }
  | { ok: false; item: ChecklistItem; detail: string };

const fail = (item: ChecklistItem, detail: string): InitializeCheck => ({ ok: false, item, detail });
const shown = (value: unknown) => JSON.stringify(value ?? null);
const isFilled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Checks an answer to `initialize` sent with `sentId`. `accept` is the configured legacy set, or
 * the advertised ∩ configured set when the server named its versions.
 */
export function checkInitializeResult(message: unknown, sentId: JsonRpcId, accept: readonly string[]): InitializeCheck {
  if (!isRecord(message) || message.jsonrpc !== '2.0') return fail('jsonrpc', 'the answer is not a JSON-RPC 2.0 object');
  if (!isSameId(message.id, sentId)) return fail('id', `the answer carries id ${shown(message.id)}, the request ${shown(sentId)}`);
  if (!('result' in message) || 'error' in message) return fail('result-only', 'the answer must carry exactly a result and no error');
  const result = isRecord(message.result) ? message.result : {};
  const version = result.protocolVersion;
  if (typeof version !== 'string' || !accept.includes(version)) {
    return fail('protocol-version', `protocolVersion ${shown(version)} is not one of ${accept.join(', ')}`);
  }
  if (!isRecord(result.capabilities)) return fail('capabilities', `capabilities is ${shown(result.capabilities)}, not an object`);
  const serverInfo = isRecord(result.serverInfo) ? result.serverInfo : {};
  if (!isFilled(serverInfo.name)) return fail('server-name', `serverInfo.name is ${shown(serverInfo.name)}`);
  if (!isFilled(serverInfo.version)) return fail('server-version', `serverInfo.version is ${shown(serverInfo.version)}`);
  return { ok: true, version, capabilities: result.capabilities, serverInfo: { name: serverInfo.name, version: serverInfo.version } };
}
