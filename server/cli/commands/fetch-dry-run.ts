/**
 * `dry-run --api URL`: the same report, read from a running dashboard's API instead of the store,
 * so a pipeline without the database can ask it.
 */
import type { DryRunJson } from '../../api/api-json.js';
import { UsageError } from '../usage-error.js';
import type { DryRunResult } from './dry-run.js';

const TIMEOUT_MS = 30_000;

/** A path under the API's base URL, which may itself carry a path prefix. */
function under(base: URL, path: string): URL {
  const root = new URL(base);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  return new URL(path, root);
}

async function getJson(url: URL, token: string | undefined, planId: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) }, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot read the API at ${url.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok && body !== undefined) return body;
  const said = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  const detail = typeof said === 'string' ? `: ${said}` : '';
  if (response.status === 404) throw new UsageError(`no plan ${planId} at ${url.origin}${detail}`);
  if (response.status === 400) throw new UsageError(`the API refused the request${detail}`);
  if (response.status === 401) throw new Error(`the API at ${url.origin} refused the admin token (401); pass --token or set MCP_SUNSET_ADMIN_TOKEN`);
  throw new Error(`cannot read the API at ${url.origin}: ${response.ok ? 'the answer is not JSON' : `${response.status}${detail}`}`);
}

/** The plan and its dry-run report from `GET /api/v1/plans/:id` and `/dry-run`. */
export async function fetchDryRun(api: URL, token: string | undefined, planId: number, at: string | undefined): Promise<DryRunResult> {
  const plan = (await getJson(under(api, `api/v1/plans/${planId}`), token, planId)) as { id: number; name: string; retireDate: string };
  const query = at === undefined ? '' : `?at=${encodeURIComponent(at)}`;
  const report = (await getJson(under(api, `api/v1/plans/${planId}/dry-run${query}`), token, planId)) as DryRunJson;
  if (typeof plan?.name !== 'string' || typeof report?.totals !== 'object' || !Array.isArray(report?.callers)) throw new Error(`cannot read the API at ${api.origin}: not an mcp-sunset dry run`);
  return { plan: { id: plan.id, name: plan.name, retireDate: plan.retireDate }, report };
}
