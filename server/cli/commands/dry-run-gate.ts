/**
 * The CI gate of `mcp-sunset dry-run --fail-on …`: whether a cut would refuse what a pipeline must
 * not break, judged on the dry run's report. Pure.
 */
import type { DryRunCallerJson, DryRunJson } from '../../api/api-json.js';

/**
 * What fails the gate:
 * - `identifiable`: any caller that can be told apart (and so phoned) would be refused;
 * - `any`: anything would be refused, unidentified traffic included;
 * - `share`: the refused share of served work requests would be above the fraction.
 */
export type FailOn = { kind: 'identifiable' } | { kind: 'any' } | { kind: 'share'; fraction: number };

export interface GateVerdict {
  /** As given on the command line. */
  failOn: string;
  failed: boolean;
  /** One line saying why. */
  reason: string;
  /** The refused callers the gate is about, in the report's order. */
  callers: DryRunCallerJson[];
}

const FRACTION = /^share:((?:0|1)(?:\.\d+)?|\.\d+)$/;

/** `identifiable`, `any` or `share:<fraction>` (0 to 1); undefined for anything else. */
export function parseFailOn(text: string): FailOn | undefined {
  if (text === 'identifiable' || text === 'any') return { kind: text };
  const match = FRACTION.exec(text);
  if (match === null) return undefined;
  const fraction = Number(match[1]);
  return fraction <= 1 ? { kind: 'share', fraction } : undefined;
}

function describeFailOn(failOn: FailOn): string {
  return failOn.kind === 'share' ? `share:${failOn.fraction}` : failOn.kind;
}

const percent = (share: number) => `${(100 * share).toFixed(2)}%`;
const callers = (n: number) => `${n} ${n === 1 ? 'caller' : 'callers'}`;

/** Judges the report: a caller an exemption saves on the cut date is never refused. */
export function judgeDryRun(report: DryRunJson, failOn: FailOn): GateVerdict {
  const refused = report.callers.filter((c) => c.savedBy === null);
  const base = { failOn: describeFailOn(failOn) };
  switch (failOn.kind) {
    case 'identifiable': {
      const named = refused.filter((c) => c.identifiable);
      return named.length > 0
        ? { ...base, failed: true, reason: `${callers(named.length)} that can be told apart would be refused`, callers: named }
        : { ...base, failed: false, reason: 'no caller that can be told apart would be refused', callers: [] };
    }
    case 'any':
      return refused.length > 0
        ? { ...base, failed: true, reason: `${callers(refused.length)} would be refused (${report.totals.refusedRequests} served work requests)`, callers: refused }
        : { ...base, failed: false, reason: 'nothing would be refused', callers: [] };
    case 'share': {
      const share = report.refusedShare;
      if (share === null) return { ...base, failed: false, reason: 'no served work requests in the window', callers: [] };
      return share > failOn.fraction
        ? { ...base, failed: true, reason: `the refused share, ${percent(share)}, is above ${percent(failOn.fraction)}`, callers: refused }
        : { ...base, failed: false, reason: `the refused share, ${percent(share)}, is within ${percent(failOn.fraction)}`, callers: [] };
    }
  }
}
