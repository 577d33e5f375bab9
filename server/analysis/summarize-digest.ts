/**
 * The weekly digest in sentences, one per line, as a chat channel shows it and a person can forward.
 * Pure: words around the numbers composeDigest judged, nothing judged again here.
 */
import type { DigestCaller } from './classify-digest-callers.js';
import type { Digest, Span } from './compose-digest.js';
import type { EnforcementEntryKind } from './compute-enforcement-timeline.js';
import { formatDay, formatPercent, formatPoints } from './format-numbers.js';

const STAGE_WORDS: Readonly<Record<EnforcementEntryKind, string>> = {
  announce: 'announcement',
  brownout: 'brownout',
  'block-new': 'block-new',
  retire: 'retire date',
  cut: 'cut',
  backstop: 'backstop',
  pause: 'pause',
};

function nameOf(caller: DigestCaller): string {
  return caller.displayName === null ? caller.integration : `${caller.displayName} (${caller.integration})`;
}

function count(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** "1 person", "12 people". */
function people(n: number): string {
  return n === 1 ? '1 person' : `${n.toLocaleString('en-US')} people`;
}

function names(callers: readonly DigestCaller[]): string {
  return callers.length === 0 ? 'none' : callers.map(nameOf).join(', ');
}

/** The last day inside a period (its `to` is the start of the day after). */
function lastDay(span: Span): string {
  return formatDay(span.to - 1);
}

function shareLine(digest: Digest): string {
  const { share, period } = digest;
  const head = `Week ${formatDay(period.from)} to ${lastDay(period)}:`;
  if (share.current === null) return `${head} no legacy-era work was measured (nothing served). ${share.trend.reason}`;
  const before = share.previous === null ? 'nothing served the week before' : `${formatPercent(share.previous)} the week before, ${signed(share.change!)}`;
  return `${head} legacy share of served ${share.basis === 'work-requests' ? 'work' : 'requests'} ${formatPercent(share.current)} (${count(share.legacyRequests, 'request')} of ${share.servedRequests.toLocaleString('en-US')}; ${before}). ${share.trend.reason}`;
}

/** A change with its direction: "+0.37 pp", "−2.70 pp", "0.00 pp". */
function signed(change: number): string {
  const text = formatPoints(change);
  return change > 0 && text !== formatPoints(0) ? `+${text}` : text;
}

/** "2026-12-08 14:00 UTC": a pause ends at a minute, not a millisecond. */
function minute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function planLine(plan: Digest['plans'][number]): string {
  const pause = plan.pause === null ? '' : ` Paused until ${minute(plan.pause.endsAt)}: ${plan.pause.reason}.`;
  const next = plan.nextStage === null ? 'no stage left to come' : `next: ${STAGE_WORDS[plan.nextStage.kind]} on ${formatDay(plan.nextStage.at)}`;
  return `Plan "${plan.name}" (${plan.scopeLabel}, ${plan.action}): ${plan.status}, phase ${plan.phase}, retire date ${plan.retireDate}, ${next}.${pause}`;
}

export type SummarizedDigest = Digest & { summary: string[] };

export function summarizeDigest(digest: Digest): string[] {
  const { callers } = digest;
  const lines = [shareLine(digest), ...digest.plans.map(planLine)];
  if (digest.plans.length === 0) lines.push('No retirement plan yet.');
  lines.push(`Moved this week: ${names(callers.moved)}.`);
  if (callers.startedMigrating.length > 0) lines.push(`Started migrating: ${names(callers.startedMigrating)}.`);
  if (callers.wentQuiet.length > 0) lines.push(`Went quiet (no traffic this week): ${names(callers.wentQuiet)}.`);
  // People only where a credential named them: a caller without is not a caller of nobody.
  const remaining = callers.remaining.map((c) => `${nameOf(c)}${c.owner === null ? '' : ` [${c.owner}]`} ${count(c.legacyRequests, 'request')}${c.legacyPeople === null ? '' : ` from ${people(c.legacyPeople)}`} (${formatPercent(c.shareOfLegacy)})`);
  const more = callers.remainingCount > callers.remaining.length ? ` and ${callers.remainingCount - callers.remaining.length} more` : '';
  lines.push(callers.remainingCount === 0 ? 'No identifiable caller sent legacy work this week.' : `Largest remaining identifiable callers: ${remaining.join('; ')}${more}.`);
  if (callers.legacy.total > 0) lines.push(`Unknown installed base: ${count(callers.legacy.unknown, 'legacy request')} (${formatPercent(callers.legacy.unknown / callers.legacy.total)} of legacy) from callers nobody can phone.`);
  const { thisWeek, lastWeek } = callers.legacy.people;
  if (thisWeek > 0 || lastWeek > 0) lines.push(`People served legacy work: ${people(thisWeek)} this week, ${lastWeek.toLocaleString('en-US')} the week before (distinct, as verified credentials named them).`);
  lines.push(`Dashboard: ${digest.links.dashboard} · Print view: ${digest.links.print}`);
  return lines;
}
