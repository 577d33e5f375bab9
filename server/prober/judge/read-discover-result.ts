/**
 * Reads a `server/discover` result. Pure. Only the members the era decision
 * needs are checked: a non-empty `supportedVersions` of strings and an object `capabilities`; a
 * `resultType`, when present, must be `complete`. `serverInfo` is self-reported and only shown.
 */
import { isRecord } from '../wire/probe-observation.js';
import { META_SERVER_INFO } from '../../protocol/versions.js';
import { readVersionList } from './select-versions.js';

export interface ServerInfo {
  name: string;
  version: string;
}

export type DiscoverReading =
  | { ok: true; supported: string[]; capabilities: Record<string, unknown>; serverInfo: ServerInfo | null }
  | { ok: false; problem: string };

/** A `{name, version}` pair of non-empty strings, or null. */
export function readServerInfo(value: unknown): ServerInfo | null {
  if (!isRecord(value)) return null;
  const { name, version } = value;
  return typeof name === 'string' && name !== '' && typeof version === 'string' && version !== '' ? { name, version } : null;
}

export function readDiscoverResult(result: unknown): DiscoverReading {
  if (!isRecord(result)) return { ok: false, problem: 'the result is not an object' };
  const supported = readVersionList(result.supportedVersions);
  if (supported === undefined) return { ok: false, problem: 'supportedVersions is not a non-empty list of strings' };
  if (!isRecord(result.capabilities)) return { ok: false, problem: 'capabilities is not an object' };
  if ('resultType' in result && result.resultType !== 'complete') return { ok: false, problem: `resultType is ${JSON.stringify(result.resultType)}` };
  const meta = isRecord(result._meta) ? result._meta : {};
  return { ok: true, supported, capabilities: result.capabilities, serverInfo: readServerInfo(meta[META_SERVER_INFO]) };
}

/** True when the capabilities advertise tools, so that `tools/list` may be asked. */
export function hasToolsCapability(capabilities: Record<string, unknown>): boolean {
  return isRecord(capabilities.tools);
}
