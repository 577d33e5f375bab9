/**
 * `dry-run --api URL`: the same report, read from a running dashboard's API instead of the store,
 * so a pipeline without the database can ask it.
 */
import type { DryRunJson } from '../../api/api-json.js';
import { callApi } from '../call-api.js';
import type { DryRunResult } from './dry-run.js';

/** The plan and its dry-run report from `GET /api/v1/plans/:id` and `/dry-run`. */
export async function fetchDryRun(api: URL, token: string | undefined, planId: number, at: string | undefined): Promise<DryRunResult> {
  const call = { token, notFound: (detail: string) => `no plan ${planId} at ${api.origin}${detail}` };
  const plan = (await callApi(api, `api/v1/plans/${planId}`, call)) as { id: number; name: string; retireDate: string };
  const query = at === undefined ? '' : `?at=${encodeURIComponent(at)}`;
  const report = (await callApi(api, `api/v1/plans/${planId}/dry-run${query}`, call)) as DryRunJson;
  if (typeof plan?.name !== 'string' || typeof report?.totals !== 'object' || !Array.isArray(report?.callers)) throw new Error(`cannot read the API at ${api.origin}: not an mcp-sunset dry run`);
  return { plan: { id: plan.id, name: plan.name, retireDate: plan.retireDate }, report };
}
