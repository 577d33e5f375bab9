/**
 * A plan's enforcement as an ordered list: each window with its date, its state now and what it
 * refused (or, in a dry run, would have), then the gate in words and the exemptions with their ends.
 */
import type { Enforcement, TimelineWindow } from './api-types.js';
import { h } from './dom.js';
import { formatCount, formatDay, formatTime } from './format.js';

/** What each timeline entry is called; the digest names its stages the same way. */
export const WINDOW_LABEL: Readonly<Record<TimelineWindow['kind'], string>> = {
  announce: 'Announced',
  brownout: 'Brownout',
  'block-new': 'New callers blocked',
  retire: 'Retire date',
  cut: 'Cut',
  backstop: 'Gate backstop',
  pause: 'Paused',
};

const STATE_LABEL: Readonly<Record<TimelineWindow['state'], string>> = { past: 'past', 'in-force': 'in force', upcoming: 'upcoming' };

export const PHASE_LABEL: Readonly<Record<Enforcement['phase'], string>> = {
  observing: 'Observing',
  announced: 'Announced',
  brownout: 'Brownout',
  'blocking-new': 'Blocking new callers',
  cut: 'Cut',
  'gate-holding': 'Gate holding',
  paused: 'Paused',
};

const OVERLAP_NOTE = 'A request refused while windows overlap is counted in each window it falls in.';

function when(window: TimelineWindow): string {
  if (window.kind === 'brownout' || window.kind === 'pause') return `${formatTime(window.at)} – ${formatTime(window.endsAt)}`;
  return formatDay(window.at);
}

function counts(window: TimelineWindow): HTMLElement | null {
  if (window.counts === null) return null;
  const { refused, wouldBlock, from, to, bucket } = window.counts;
  const title = `Counted from ${formatTime(from)} to ${formatTime(to)} on ${bucket} rows. ${OVERLAP_NOTE}`;
  return h(
    'span',
    { class: 'timeline-counts', title, 'data-testid': 'timeline-counts', 'data-refused': refused, 'data-would-block': wouldBlock },
    h('span', { 'data-testid': 'timeline-refused' }, `${formatCount(refused)} refused`),
    ' · ',
    h('span', { 'data-testid': 'timeline-would-block' }, `${formatCount(wouldBlock)} would-block`),
  );
}

/** A pause's who: who paused it, and who ended it early. */
function pauseWho(enforcement: Enforcement, window: TimelineWindow): string | null {
  if (window.kind !== 'pause') return null;
  const pause = enforcement.pauses.find((p) => p.startedAt === window.at);
  if (pause === undefined) return null;
  return pause.resumedBy === null ? ` (by ${pause.pausedBy})` : ` (by ${pause.pausedBy}; ended early by ${pause.resumedBy})`;
}

/** How many callers were told of this stage, and how many notices failed. */
function noticesLine(window: TimelineWindow): HTMLElement | null {
  const notices = window.notices;
  if (notices === null || notices.delivered + notices.failed + notices.sending === 0) return null;
  const failed = notices.failed === 0 ? '' : `, ${formatCount(notices.failed)} failed`;
  return h('span', { class: 'timeline-notices small', 'data-testid': 'timeline-notices', 'data-delivered': notices.delivered, 'data-failed': notices.failed }, `${formatCount(notices.delivered)} notice${notices.delivered === 1 ? '' : 's'} delivered${failed}`);
}

function windowItem(enforcement: Enforcement, window: TimelineWindow): HTMLElement {
  return h(
    'li',
    { class: `timeline-item is-${window.state}`, 'data-testid': 'timeline-window', 'data-kind': window.kind, 'data-state': window.state },
    h('span', { class: 'timeline-when' }, when(window)),
    h('span', { class: 'timeline-what' }, WINDOW_LABEL[window.kind], window.note === null ? null : h('span', { class: 'muted' }, ` — ${window.note}`), h('span', { class: 'muted' }, pauseWho(enforcement, window))),
    h('span', { class: `badge timeline-state state-${window.state}` }, STATE_LABEL[window.state]),
    counts(window),
    noticesLine(window),
  );
}

export function renderPlanTimeline(enforcement: Enforcement): HTMLElement {
  const { gate, exemptions } = enforcement;
  return h(
    'div',
    { class: 'plan-enforcement', 'data-testid': 'plan-enforcement', 'data-phase': enforcement.phase },
    h('p', { class: 'small' }, 'Now: ', h('strong', { 'data-testid': 'plan-phase' }, PHASE_LABEL[enforcement.phase]), h('span', { class: 'muted' }, ` · action ${enforcement.action}`)),
    h('ol', { class: 'timeline', 'aria-label': 'Enforcement timeline' }, ...enforcement.timeline.map((window) => windowItem(enforcement, window))),
    enforcement.timeline.some((w) => w.counts !== null) ? h('p', { class: 'muted small' }, OVERLAP_NOTE) : null,
    h('p', { class: 'small', 'data-testid': 'plan-gate' }, h('strong', {}, 'Gate: '), gate.words),
    gate.holdingCallers.length === 0
      ? null
      : h('p', { class: 'small', 'data-testid': 'plan-gate-holding' }, 'Holding: ', gate.holdingCallers.map((c) => `${c.integration} (last ${formatDay(c.lastUse)})`).join(', ')),
    exemptions.length === 0
      ? null
      : h(
          'ul',
          { class: 'exemption-list small', 'aria-label': 'Exemptions', 'data-testid': 'plan-exemption-list' },
          ...exemptions.map((e) =>
            h(
              'li',
              { 'data-testid': 'plan-exemption', 'data-active': e.active },
              h('span', { class: 'key' }, e.integration),
              ` exempt through ${formatDay(e.until)} `,
              h('span', { class: `badge ${e.active ? 'status-exempt' : ''}` }, e.active ? 'active' : 'lapsed'),
              e.note === null ? null : h('span', { class: 'muted' }, ` — ${e.note}`),
            ),
          ),
        ),
  );
}
