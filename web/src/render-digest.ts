/**
 * The weekly digest as one printable sheet: the period, the share against last week, the plans,
 * who moved, who is left to phone, the split of legacy work, and when the next digest goes out.
 * Every figure is the API's (the document the webhooks are sent); this only writes it down.
 */
import type { DigestResponse } from './api-types.js';
import { emptyState, h, replaceChildren } from './dom.js';
import { digestSection } from './digest-section.js';
import { formatBasis, formatCount, formatDay, formatPoints, formatShare, formatTime } from './format.js';
import { renderDigestMovers } from './render-digest-movers.js';
import { renderDigestPlans } from './render-digest-plans.js';
import { renderDigestRemaining } from './render-digest-remaining.js';

type Span = DigestResponse['period'];

/** "2026-05-04 to 2026-05-10": a period's `to` is the start of the day after its last. */
export function formatSpan(span: Span): string {
  return `${formatDay(span.from)} to ${formatDay(Date.parse(span.to) - 1)}`;
}

function head(digest: DigestResponse): HTMLElement {
  return h(
    'header',
    { class: 'digest-head', 'data-testid': 'digest-head' },
    h('p', { class: 'brand' }, 'mcp-sunset'),
    h('h1', { 'data-testid': 'digest-title' }, 'Weekly digest'),
    h(
      'p',
      { class: 'digest-meta' },
      'Week ',
      h('strong', { 'data-testid': 'digest-period', 'data-from': digest.period.from, 'data-to': digest.period.to }, formatSpan(digest.period)),
      ' · generated ',
      h('span', { 'data-testid': 'digest-generated', 'data-at': digest.generatedAt }, formatTime(digest.generatedAt)),
    ),
    h('p', { class: 'muted small' }, `Against the week ${formatSpan(digest.previous)}. The week ends today, counted up to the time it was generated. Times are UTC.`),
  );
}

function figure(label: string, value: string, testId: string): HTMLElement {
  return h('div', { class: 'digest-figure' }, h('dt', {}, label), h('dd', { 'data-testid': testId }, value));
}

function shareSection({ share }: DigestResponse): HTMLElement {
  const counts =
    share.current === null
      ? 'Nothing was served this week, so there is no share to give.'
      : `${formatCount(share.legacyRequests)} legacy of ${formatCount(share.servedRequests)} served ${formatBasis(share.basis)} this week; target ${formatShare(share.target)}.`;
  return digestSection(
    'digest-share',
    `Legacy share of served ${formatBasis(share.basis)}`,
    h(
      'dl',
      { class: 'digest-figures' },
      figure('This week', formatShare(share.current), 'share-current'),
      figure('Last week', formatShare(share.previous), 'share-previous'),
      figure('Change', formatPoints(share.change), 'share-change'),
    ),
    h('p', { 'data-testid': 'share-counts' }, counts),
    h('p', { 'data-testid': 'share-trend', 'data-kind': share.trend.kind }, share.trend.reason),
  );
}

function splitSection({ legacy }: DigestResponse['callers']): HTMLElement {
  const title = 'Who sends the legacy work';
  if (legacy.total === 0) return digestSection('digest-split', title, emptyState('No legacy work was served this week.', 'digest-split-empty'));
  const part = (n: number) => `${formatCount(n)} (${formatShare(n / legacy.total)})`;
  return digestSection(
    'digest-split',
    title,
    h(
      'dl',
      { class: 'digest-figures' },
      figure('Identifiable callers', part(legacy.identifiable), 'split-identifiable'),
      figure('Unknown installed base', part(legacy.unknown), 'split-unknown'),
      figure('All legacy work', formatCount(legacy.total), 'split-total'),
    ),
    h('p', { class: 'muted small' }, 'Identifiable callers can be phoned; the unknown installed base only hears of the retirement from the announcement headers and the refusals.'),
    peopleFigures(legacy.people),
  );
}

/** Distinct people behind the legacy work, week on week; said only where a verified credential named someone. */
function peopleFigures(people: DigestResponse['callers']['legacy']['people']): HTMLElement | null {
  if (people.thisWeek === 0 && people.lastWeek === 0) return null;
  return h(
    'div',
    { class: 'digest-group', 'data-testid': 'split-people-group' },
    h(
      'dl',
      { class: 'digest-figures' },
      figure('People on legacy this week', formatCount(people.thisWeek), 'split-people'),
      figure('The week before', formatCount(people.lastWeek), 'split-people-previous'),
    ),
    h('p', { class: 'muted small' }, 'Distinct people served legacy work, as verified credentials (OAuth tokens) named them: one person behind two callers counts once.'),
  );
}

function scheduleSection({ schedule, lastSent }: DigestResponse): HTMLElement {
  const next =
    schedule === null
      ? 'This node sends no digest on a schedule.'
      : `Next digest: ${formatTime(schedule.nextRun)} (schedule “${schedule.expression}” in ${schedule.timeZone}).`;
  const last =
    lastSent === null
      ? 'No digest has been sent yet.'
      : `Last sent: ${formatTime(lastSent.finishedAt ?? lastSent.claimedAt)}, ${lastSent.kind} by ${lastSent.requestedBy} from ${lastSent.node}, for the week ${formatSpan(lastSent.period)}: ${lastSent.status}.`;
  return digestSection(
    'digest-schedule',
    'Schedule',
    h('p', { 'data-testid': 'schedule-next', 'data-scheduled': schedule !== null }, next),
    h('p', { 'data-testid': 'last-sent', 'data-id': lastSent?.id ?? null }, last),
  );
}

/** The dashboard's address as the digest's readers reach it; only a web address becomes a link. */
function linksFooter({ links }: DigestResponse): HTMLElement {
  const link = (url: string, testId: string) => (/^https?:\/\//i.test(url) ? h('a', { href: url, 'data-testid': testId }, url) : h('span', { 'data-testid': testId }, url));
  return h('footer', { class: 'digest-links small', 'data-testid': 'digest-links' }, 'Dashboard: ', link(links.dashboard, 'digest-dashboard-link'), ' · This page: ', link(links.print, 'digest-print-link'));
}

export function renderDigest(root: HTMLElement, digest: DigestResponse): void {
  replaceChildren(
    root,
    head(digest),
    shareSection(digest),
    renderDigestPlans(digest.plans),
    renderDigestMovers(digest.callers),
    renderDigestRemaining(digest.callers),
    splitSection(digest.callers),
    scheduleSection(digest),
    linksFooter(digest),
  );
}
