import { META_SERVER_INFO } from './versions.js';
import { isRecord } from './is-record.js';

/**
 * A modern result in the shape a legacy client expects: without `resultType`, which legacy results
 * never carried, and without the per-result serverInfo the legacy client got once in its
 * InitializeResult. Undefined for a result that is not complete (`input_required` asks the client
 * for something through a retry the legacy era has no words for), so the caller refuses it rather
 * than pass on half an answer. Pure.
 */
export function legacyResultOf(result: unknown): Record<string, unknown> | undefined {
  if (!isRecord(result)) return undefined;
  const { resultType, _meta, ...rest } = result;
  if (resultType !== undefined && resultType !== 'complete') return undefined;
  if (!isRecord(_meta)) return rest;
  const { [META_SERVER_INFO]: _serverInfo, ...meta } = _meta;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}
