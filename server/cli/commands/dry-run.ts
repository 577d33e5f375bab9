/**
 * `mcp-sunset dry-run --plan ID [--at DATE] [--fail-on …]`: who a cut of the plan's scope on a date
 * would refuse, from the stored counts; the same JSON as GET /api/v1/plans/:id/dry-run, or a table
 * to read, and with `--fail-on` a gate for CI (dry-run-gate.ts).
 */
import type { DryRunJson } from '../../api/api-json.js';
import { dryRunToJson } from '../../api/to-json.js';
import type { Store } from '../../store/store.js';
import type { PlanRecord } from '../../store/records/plan-record.js';
import { loadDryRun } from '../../views/load-dry-run.js';
import { UsageError } from '../usage-error.js';
import type { GateVerdict } from './dry-run-gate.js';

export interface DryRunResult {
  plan: Pick<PlanRecord, 'id' | 'name' | 'retireDate'>;
  report: DryRunJson;
}

/** The report on a cut on `at` (the plan's retire date unless given); a UsageError when there is no such plan. */
export async function buildDryRun(store: Store, planId: number, at: string | undefined, now: number): Promise<DryRunResult> {
  const plan = await store.getPlan(planId);
  if (plan === undefined) throw new UsageError(`no plan ${planId}`);
  return { plan, report: dryRunToJson(plan.id, await loadDryRun(store, plan, at ?? plan.retireDate, now)) };
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

function callerRows(callers: DryRunJson['callers'], n: (value: number) => string): string[][] {
  return callers.map((c) => [
    c.integration + (c.identifiable ? '' : ' (unidentified)'),
    c.displayName ?? '',
    c.owner ?? '',
    c.contact ?? '',
    n(c.requestsPerDay),
    c.people === null ? '—' : n(c.people),
    c.lastSeen?.slice(0, 10) ?? '',
    c.versions.join(' '),
    c.transports.join(' '),
    c.migration ?? '',
    toldWords(c.told),
    c.savedBy === null ? 'refused' : `exempt until ${c.savedBy.until}`,
  ]);
}

const HEADER = ['integration', 'name', 'owner', 'contact', 'req/day', 'people', 'last seen', 'versions', 'transports', 'moving', 'told', 'on the cut'];

/** "2 notices, last 12-01; call 12-03", "—" when nothing was said. */
function toldWords(told: DryRunJson['callers'][number]['told']): string {
  const parts = [];
  if (told.notices > 0) parts.push(`${told.notices} notice${told.notices === 1 ? '' : 's'}, last ${told.lastNoticeAt?.slice(5, 10) ?? ''}`);
  if (told.lastContactAt !== null) parts.push(`contact ${told.lastContactAt.slice(5, 10)}`);
  return parts.length === 0 ? '—' : parts.join('; ');
}
const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The gate's verdict, then the callers that fail it. */
export function formatGate(verdict: GateVerdict): string {
  const lines = [`gate --fail-on ${verdict.failOn}: ${verdict.failed ? 'FAIL' : 'pass'}, ${verdict.reason}`];
  if (verdict.callers.length > 0) lines.push(...table([HEADER, ...callerRows(verdict.callers, number)]));
  return `${lines.join('\n')}\n`;
}

/** The report as a terminal table: who is refused, who is saved, and the refused share. */
export function formatDryRun({ plan, report }: DryRunResult): string {
  const n = number;
  const { totals } = report;
  const lines = [
    `mcp-sunset dry run: plan ${plan.id} "${plan.name}", if the cut came on ${report.at}` + (report.at === plan.retireDate ? ' (its retire date)' : ` (its retire date is ${plan.retireDate})`),
    `counts of ${report.window.from} to ${report.window.to} (${n(report.window.days)} days)`,
    report.refusedShare === null
      ? 'no served work requests in this window'
      : `would refuse ${totals.refusedCallers} of ${totals.callers} callers in scope: ${n(totals.refusedRequests)} of ${n(totals.servedRequests)} served work requests (${(100 * report.refusedShare).toFixed(2)}%)`,
  ];
  if (totals.refusedPeople > 0) lines.push(`${n(totals.refusedPeople)} ${totals.refusedPeople === 1 ? 'person' : 'people'} behind them, as their credentials name them`);
  if (totals.savedCallers > 0) lines.push(`${totals.savedCallers} saved by an exemption`);
  if (report.callers.length > 0) lines.push('', ...table([HEADER, ...callerRows(report.callers, n)]));
  if (report.live !== null) lines.push('', `live, the plan being in dryrun: ${n(report.live.wouldBlock)} of these requests were marked would-block`);
  return `${lines.join('\n')}\n`;
}
