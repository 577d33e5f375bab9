/**
 * `mcp-sunset pause` and `resume`: one switch that stops (or restarts) every refusal of the chosen
 * plans on every node, made on the store directly (nodes reading it obey within two seconds) or
 * through a running dashboard's API. Both ways answer the API's JSON, so the output is one thing.
 */
import { userInfo } from 'node:os';
import { isPauseActive } from '../../analysis/plan-pause.js';
import { pauseToJson } from '../../api/to-json.js';
import { formatDuration } from '../../lib/parse-duration.js';
import type { Store } from '../../store/store.js';
import { resolvePlanIds } from '../../views/resolve-plan-ids.js';
import { callApi } from '../call-api.js';
import { UsageError } from '../usage-error.js';

export type PauseJson = ReturnType<typeof pauseToJson>;

/** Where the switch is made: the store itself, or a dashboard's API with its admin token. */
export type PauseTarget = { kind: 'store'; store: Store } | { kind: 'api'; url: URL; token: string | undefined };

export interface PauseRequest {
  plans: 'all' | readonly number[];
  forMs: number;
  reason: string;
}

export interface PauseOutcome<K extends 'pauses' | 'resumed'> {
  kind: K;
  plans: 'all' | readonly number[];
  entries: PauseJson[];
  /** The plans' names by id, for the lines. */
  names: ReadonlyMap<number, string>;
}

/** Who a change made on the store itself is recorded as: the command line and its user. */
export function commandLineActor(): string {
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER;
  }
  return user === undefined || user === '' ? 'command line' : `command line (${user})`;
}

async function storeIds(store: Store, plans: 'all' | readonly number[]): Promise<number[]> {
  const resolved = await resolvePlanIds(store, plans);
  if ('missing' in resolved) throw new UsageError(`no plan ${resolved.missing} (or it is archived)`);
  return resolved.ids;
}

async function namesOf(target: PauseTarget): Promise<Map<number, string>> {
  const plans =
    target.kind === 'store'
      ? await target.store.listPlans({ includeArchived: true })
      : ((await callApi(target.url, 'api/v1/plans?includeArchived=true', { token: target.token })) as { plans: { id: number; name: string }[] }).plans;
  return new Map(plans.map((plan) => [plan.id, plan.name]));
}

export async function pausePlansAt(target: PauseTarget, request: PauseRequest, now: number): Promise<PauseOutcome<'pauses'>> {
  let entries: PauseJson[];
  if (target.kind === 'api') {
    const body = { plans: request.plans, for: formatDuration(request.forMs), reason: request.reason };
    entries = ((await callApi(target.url, 'api/v1/pauses', { token: target.token, method: 'POST', body, notFound: (detail) => `at ${target.url.origin}${detail}` })) as { pauses: PauseJson[] }).pauses;
  } else {
    const planIds = await storeIds(target.store, request.plans);
    const stored = planIds.length === 0 ? [] : await target.store.pausePlans({ planIds, reason: request.reason, endsAt: now + request.forMs, by: commandLineActor() }, now);
    entries = stored.map((p) => pauseToJson(p, isPauseActive(p, now)));
  }
  return { kind: 'pauses', plans: request.plans, entries, names: await namesOf(target) };
}

export async function resumePlansAt(target: PauseTarget, plans: 'all' | readonly number[], now: number): Promise<PauseOutcome<'resumed'>> {
  let entries: PauseJson[];
  if (target.kind === 'api') {
    entries = ((await callApi(target.url, 'api/v1/pauses/resume', { token: target.token, method: 'POST', body: { plans }, notFound: (detail) => `at ${target.url.origin}${detail}` })) as { resumed: PauseJson[] }).resumed;
  } else {
    const ids = plans === 'all' ? 'all' : await storeIds(target.store, plans);
    entries = (await target.store.resumePlans(ids, commandLineActor(), now)).map((p) => pauseToJson(p, false));
  }
  return { kind: 'resumed', plans, entries, names: await namesOf(target) };
}

function planLabel(outcome: PauseOutcome<'pauses' | 'resumed'>, id: number): string {
  const name = outcome.names.get(id);
  return name === undefined ? `plan ${id}` : `plan ${id} "${name}"`;
}

/** One line per plan paused or resumed, or one saying nothing was. */
export function formatPauseOutcome(outcome: PauseOutcome<'pauses' | 'resumed'>): string {
  if (outcome.entries.length === 0) {
    if (outcome.kind === 'pauses') return 'nothing paused: no plan is live and does more than observe\n';
    return outcome.plans === 'all' ? 'nothing to resume: no plan is paused\n' : `nothing to resume: ${outcome.plans.map((id) => planLabel(outcome, id)).join(', ')} ${outcome.plans.length === 1 ? 'is' : 'are'} not paused\n`;
  }
  return outcome.entries
    .map((p) =>
      outcome.kind === 'pauses'
        ? `paused ${planLabel(outcome, p.planId)} until ${p.until} by ${p.pausedBy}: ${p.reason}`
        : `resumed ${planLabel(outcome, p.planId)} at ${p.resumedAt} (paused since ${p.startedAt} by ${p.pausedBy}: ${p.reason})`,
    )
    .join('\n')
    .concat('\n');
}
