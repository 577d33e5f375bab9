/**
 * `mcp-sunset join` and `unjoin`: names joined into one caller (an old token's fingerprint, a
 * gateway's name, an mTLS subject, an OAuth client), or given their own history back, made on the
 * store directly (every node folds them at its next policy check) or through a dashboard's API.
 * Both ways answer the API's JSON.
 */
import type { CallerAliasJson, CallerJoinJson } from '../../api/api-json.js';
import { aliasToJson } from '../../api/to-json.js';
import { describeJoinRefusal } from '../../store/compute-caller-join.js';
import type { Store } from '../../store/store.js';
import { loadCallerRecords } from '../../views/load-caller-records.js';
import { UNIDENTIFIED_KEYS } from '../../views/unidentified-keys.js';
import { callApi } from '../call-api.js';
import { UsageError } from '../usage-error.js';
import { commandLineActor, type PauseTarget } from './pause.js';

export interface JoinRequest {
  into: string;
  aliases: readonly string[];
  note: string | null;
}

const path = (...parts: string[]) => `api/v1/integrations/${parts.map(encodeURIComponent).join('/aliases/')}`;

async function knownCaller(store: Store, key: string): Promise<void> {
  const { records } = await loadCallerRecords(store);
  if (!records.has(key)) throw new UsageError(`no caller ${key}: join names into a caller the integrations list shows`);
}

export async function joinAt(target: PauseTarget, request: JoinRequest, now: number): Promise<CallerJoinJson> {
  if (target.kind === 'api') {
    return (await callApi(target.url, `${path(request.into)}/aliases`, { token: target.token, method: 'POST', body: { aliases: request.aliases, note: request.note }, notFound: (detail) => `at ${target.url.origin}${detail}` })) as CallerJoinJson;
  }
  const unnamed = [request.into, ...request.aliases].find((name) => UNIDENTIFIED_KEYS.has(name));
  if (unnamed !== undefined) throw new UsageError(`${unnamed} names nobody: it cannot be joined`);
  await knownCaller(target.store, request.into);
  const result = await target.store.joinCallers({ ...request, by: commandLineActor() }, now);
  if (!('joined' in result)) throw new UsageError(describeJoinRefusal(result).message);
  const { aliasesOf } = await loadCallerRecords(target.store);
  return { caller: request.into, joined: result.joined.map(aliasToJson), aliases: aliasesOf.get(request.into) ?? [] };
}

export async function unjoinAt(target: PauseTarget, from: string, alias: string, now: number): Promise<CallerAliasJson> {
  if (target.kind === 'api') return (await callApi(target.url, path(from, alias), { token: target.token, method: 'DELETE', notFound: (detail) => `at ${target.url.origin}${detail}` })) as CallerAliasJson;
  const joined = (await target.store.listCallerAliases()).find((row) => row.alias === alias && row.caller === from);
  if (joined === undefined) throw new UsageError(`${alias} is not joined into ${from}`);
  const undone = await target.store.unjoinCaller(alias, commandLineActor(), now);
  if (undone === undefined) throw new UsageError(`${alias} is not joined into ${from}`);
  return aliasToJson(undone);
}

export function formatJoin(result: CallerJoinJson): string {
  const lines = result.joined.length === 0 ? [`nothing new: already joined into ${result.caller}`] : result.joined.map((row) => `joined ${row.alias} into ${result.caller}`);
  lines.push(`${result.caller} now counts as its own: ${result.aliases.join(', ') || 'no other name'}`);
  return `${lines.join('\n')}\n`;
}

export function formatUnjoin(row: CallerAliasJson): string {
  return `${row.alias} is its own caller again (it was joined into ${row.caller}); its history is its own\n`;
}
