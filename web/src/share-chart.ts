/**
 * The legacy-share curve: daily share points, the bridged share beneath them (the part mcp-sunset's
 * legacy bridge served, drawn only when it served any in range), the fitted trend (extended to the
 * projected crossing), the target as a horizontal line, the retire date as a vertical marker and the
 * crossing as a labelled point. The labels say which requests the share counts (work requests or
 * all requests). Refusals, failures, era probes and negotiation (initialize, server/discover) get
 * their own small chart below, never mixed into the share.
 */
import type { ChartDataset, TooltipItem } from 'chart.js';
import type { Plan, ShareResponse } from './api-types.js';
import { Chart, COLORS, type SunsetMarkers } from './chart-setup.js';
import { formatBasis, formatCount, formatDay, formatShare, formatTickShare } from './format.js';

const DAY_MS = 86_400_000;
/** The x axis stretches to the retire date or the crossing, but not past two years ahead. */
const MAX_AHEAD_MS = 730 * DAY_MS;
/** The canvas's accessible name, as web/index.html sets it, and with the bridged line when it is drawn. */
const SHARE_CHART_LABEL = 'Daily legacy share with fitted trend, target line and retire date';
const SHARE_CHART_LABEL_BRIDGED = 'Daily legacy share and bridged share with fitted trend, target line and retire date';

export interface SharePointDatum {
  x: number;
  y: number | null;
  served?: number;
  /** The share's numerator, as the tooltip writes it: in-scope requests, or bridged ones on the bridged line. */
  inScope?: number;
}

/** Datasets carry a stable `key` so tests and tooltips can find them whatever their label. */
export type KeyedLineDataset = ChartDataset<'line', SharePointDatum[]> & { key: 'share' | 'bridged' | 'trend' | 'target' | 'projection' | 'legacyCallers' | 'modernCallers' };

/** Distinct callers per era per day, on an axis of their own: who is moving beside how much is left. */
const CALLER_KEYS: ReadonlySet<string> = new Set(['legacyCallers', 'modernCallers']);
export type KeyedBarDataset = ChartDataset<'bar', SharePointDatum[]> & { key: 'refused' | 'failed' | 'probes' | 'negotiation' };

export interface ShareCharts {
  share: Chart<'line', SharePointDatum[]>;
  outcomes: Chart<'bar', SharePointDatum[]>;
}

function timeAxis(min?: number, max?: number) {
  return {
    type: 'time' as const,
    min,
    max,
    time: { minUnit: 'day' as const },
    grid: { color: COLORS.grid },
    ticks: { maxRotation: 0, autoSkipPadding: 16 },
  };
}

export function createShareCharts(shareCanvas: HTMLCanvasElement, outcomesCanvas: HTMLCanvasElement): ShareCharts {
  const share = new Chart<'line', SharePointDatum[]>(shareCanvas, {
    type: 'line',
    data: { datasets: [] },
    options: {
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: timeAxis(),
        y: { min: 0, grid: { color: COLORS.grid }, ticks: { callback: (value) => formatTickShare(Number(value)) } },
        // Shown only while a callers line is: its legend entry turns it on.
        callers: { display: 'auto', position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, ticks: { precision: 0 }, title: { display: true, text: 'callers' } },
      },
      plugins: {
        // An empty dataset (no crossing to mark) keeps no legend entry.
        legend: { position: 'bottom', labels: { boxHeight: 2, boxWidth: 18, filter: (item, data) => (data.datasets[item.datasetIndex ?? 0]?.data.length ?? 0) > 0 } },
        tooltip: {
          callbacks: {
            title: (items) => formatDay(items[0]?.parsed.x ?? null),
            label: (item: TooltipItem<'line'>) => {
              const raw = item.raw as SharePointDatum;
              if (CALLER_KEYS.has((item.dataset as KeyedLineDataset).key)) return `${item.dataset.label ?? ''}: ${formatCount(item.parsed.y)}`;
              const counts = raw.served === undefined ? '' : ` (${formatCount(raw.inScope)} of ${formatCount(raw.served)} served)`;
              return `${item.dataset.label ?? ''}: ${formatShare(item.parsed.y)}${counts}`;
            },
          },
        },
        sunsetMarkers: { lines: [], points: [] },
      },
    },
  });
  const outcomes = new Chart<'bar', SharePointDatum[]>(outcomesCanvas, {
    type: 'bar',
    data: { datasets: [] },
    options: {
      interaction: { mode: 'index', intersect: false },
      scales: { x: timeAxis(), y: { beginAtZero: true, grid: { color: COLORS.grid }, ticks: { precision: 0 } } },
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 12 } },
        tooltip: { callbacks: { title: (items) => formatDay(items[0]?.parsed.x ?? null) } },
        sunsetMarkers: false,
      },
    },
  });
  return { share, outcomes };
}

function planDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Redraws both charts from one /share answer; `plan` adds the retire and announce markers. */
export function updateShareCharts(charts: ShareCharts, response: ShareResponse, plan: Plan | undefined, scopeLabel: string): void {
  const basis = formatBasis(response.basis);
  const series = response.series.map((p): SharePointDatum => ({ x: Date.parse(p.start), y: p.share, served: p.served, inScope: p.inScope }));
  // Without a bridge the line would be a flat 0% under every curve; empty, it keeps no legend entry.
  const hasBridged = response.series.some((p) => p.bridged > 0);
  const bridged = hasBridged ? response.series.map((p): SharePointDatum => ({ x: Date.parse(p.start), y: p.bridgedShare, served: p.served, inScope: p.bridged })) : [];
  const min = series[0]?.x ?? Date.parse(response.from);
  const end = Date.parse(response.to);
  const retireAt = plan === undefined ? undefined : planDay(plan.retireDate);
  const projectedAt = response.trend.projectedDate === null ? undefined : Date.parse(response.trend.projectedDate);
  const max = Math.min(end + MAX_AHEAD_MS, Math.max(end, (retireAt ?? end) + 3 * DAY_MS, (projectedAt ?? end) + 3 * DAY_MS));

  const projection: SharePointDatum[] = projectedAt === undefined ? [] : [{ x: projectedAt, y: response.target }];
  const projectionLabel = response.trend.projection?.kind === 'reached' ? 'Reached target' : 'Projected crossing';
  const datasets: KeyedLineDataset[] = [
    { key: 'share', label: `${scopeLabel} share of ${basis} (daily)`, data: series, borderColor: COLORS.share, backgroundColor: COLORS.share, borderWidth: 1.5, pointRadius: 1.5, pointHoverRadius: 4, spanGaps: false, order: 1 },
    { key: 'bridged', label: `Bridged share of ${basis} (daily)`, data: bridged, borderColor: COLORS.bridged, backgroundColor: COLORS.bridged, borderWidth: 1.5, pointRadius: 1.5, pointHoverRadius: 4, spanGaps: false, order: 1 },
    {
      key: 'trend',
      label: 'Fitted trend',
      data: response.trend.line.map((p) => ({ x: Date.parse(p.start), y: p.share })),
      borderColor: COLORS.trend,
      backgroundColor: COLORS.trend,
      borderDash: [8, 4],
      borderWidth: 2.5,
      pointRadius: 0,
      order: 0,
    },
    {
      key: 'target',
      label: `Target ${formatShare(response.target)}`,
      data: [{ x: min, y: response.target }, { x: max, y: response.target }],
      borderColor: COLORS.target,
      backgroundColor: COLORS.target,
      borderDash: [2, 3],
      borderWidth: 2,
      pointRadius: 0,
      order: 2,
    },
    { key: 'projection', label: projectionLabel, data: projection, showLine: false, borderColor: COLORS.projection, backgroundColor: COLORS.projection, pointStyle: 'rectRot', pointRadius: 7, pointHoverRadius: 8, order: -1 },
  ];
  // Distinct callers per era, when the answer carries them (the era scope, the whole fleet). Hidden
  // until asked for from the legend, and kept as the reader left them across reloads.
  const shown = new Set<string>();
  charts.share.data.datasets.forEach((dataset, index) => {
    const key = (dataset as KeyedLineDataset).key;
    if (CALLER_KEYS.has(key) && charts.share.isDatasetVisible(index)) shown.add(key);
  });
  const callerLine = (key: 'legacyCallers' | 'modernCallers', label: string, color: string, pick: (p: ShareResponse['series'][number]) => number | null): KeyedLineDataset => ({
    key,
    label,
    data: response.series.some((p) => pick(p) !== null) ? response.series.map((p) => ({ x: Date.parse(p.start), y: pick(p) })) : [],
    yAxisID: 'callers',
    borderColor: color,
    backgroundColor: color,
    borderWidth: 1.5,
    pointRadius: 1.5,
    stepped: 'middle',
    hidden: !shown.has(key),
    order: 3,
  });
  datasets.push(
    callerLine('legacyCallers', 'Distinct legacy callers per day', COLORS.legacyCallers, (p) => p.legacyIntegrations),
    callerLine('modernCallers', 'Distinct modern callers per day', COLORS.modernCallers, (p) => p.modernIntegrations),
  );
  const markers: SunsetMarkers = { lines: [], points: [] };
  if (plan !== undefined && retireAt !== undefined) {
    const announceAt = planDay(plan.announceDate);
    if (announceAt >= min) markers.lines.push({ at: announceAt, label: `Announced ${plan.announceDate}`, color: '#9ca3af' });
    markers.lines.push({ at: retireAt, label: `Retire ${plan.retireDate}`, color: COLORS.retire });
  }
  if (projectedAt !== undefined) {
    markers.points.push({ x: projectedAt, y: response.target, label: `${response.trend.projection?.kind === 'reached' ? 'Reached' : 'Projected'} ${formatDay(projectedAt)}`, color: COLORS.projection });
  }

  const share = charts.share;
  share.data.datasets = datasets;
  Object.assign(share.options.scales!.x!, { min, max });
  share.options.plugins!.sunsetMarkers = markers;
  share.canvas.setAttribute('aria-label', hasBridged ? SHARE_CHART_LABEL_BRIDGED : SHARE_CHART_LABEL);
  share.update();

  const bars = (key: KeyedBarDataset['key'], label: string, color: string): KeyedBarDataset => ({
    key,
    label,
    data: response.series.map((p) => ({ x: Date.parse(p.start), y: p[key] })),
    backgroundColor: color,
    borderWidth: 0,
  });
  const outcomes = charts.outcomes;
  outcomes.data.datasets = [bars('refused', 'Refused (in scope)', COLORS.refused), bars('failed', 'Failed (in scope)', COLORS.failed), bars('probes', 'Era probes', COLORS.probes), bars('negotiation', 'Negotiation (initialize, discover)', COLORS.negotiation)];
  Object.assign(outcomes.options.scales!.x!, { min, max });
  outcomes.update();
}
