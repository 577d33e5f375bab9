/** Requests per day, stacked by era, transport or version (/api/v1/traffic, kind=request). */
import type { ChartDataset } from 'chart.js';
import type { TrafficResponse, VolumeGroup } from './api-types.js';
import { Chart, COLORS } from './chart-setup.js';
import { formatCount, formatDay } from './format.js';

export interface VolumePoint {
  x: number;
  y: number;
}

export type KeyedVolumeDataset = ChartDataset<'bar', VolumePoint[]> & { key: string };

/** Fixed colours where the vocabulary is closed, so "legacy" is always the same orange. */
const KNOWN_COLORS: ReadonlyMap<string, string> = new Map(Object.entries({
  legacy: '#ea580c',
  modern: '#2563eb',
  unknown: '#9ca3af',
  'streamable-http': '#2563eb',
  'http+sse': '#dc2626',
  stdio: '#16a34a',
  other: '#9ca3af',
  '(none)': '#d1d5db',
}));
const PALETTE = ['#2563eb', '#ea580c', '#0891b2', '#a16207', '#be123c', '#4d7c0f', '#7c3aed', '#0f766e', '#c026d3', '#525252'];
/** Stack order: the legacy side at the bottom, where the eye compares it best. */
const ORDER: Readonly<Record<VolumeGroup, readonly string[]>> = {
  era: ['legacy', 'modern', 'unknown'],
  transport: ['http+sse', 'streamable-http', 'stdio'],
  version: [],
};

export function createVolumeChart(canvas: HTMLCanvasElement): Chart<'bar', VolumePoint[]> {
  return new Chart<'bar', VolumePoint[]>(canvas, {
    type: 'bar',
    data: { datasets: [] },
    options: {
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { type: 'time', stacked: true, time: { minUnit: 'day' }, grid: { color: COLORS.grid }, ticks: { maxRotation: 0, autoSkipPadding: 16 } },
        y: { stacked: true, beginAtZero: true, grid: { color: COLORS.grid }, ticks: { precision: 0, callback: (value) => formatCount(Number(value)) } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 12 } },
        tooltip: { callbacks: { title: (items) => formatDay(items[0]?.parsed.x ?? null), label: (item) => `${item.dataset.label ?? ''}: ${formatCount(item.parsed.y)}` } },
        sunsetMarkers: false,
      },
    },
  });
}

/** Groups in a stable order: the closed vocabulary first, then the rest by volume (versions: newest first). */
function orderGroups(groupBy: VolumeGroup, totals: ReadonlyMap<string, number>): string[] {
  const known = ORDER[groupBy].filter((g) => totals.has(g));
  const rest = [...totals.keys()].filter((g) => !known.includes(g));
  rest.sort(groupBy === 'version' ? (a, b) => b.localeCompare(a) : (a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0));
  return [...known, ...rest];
}

/** Group names are client-chosen (a version called `constructor`): read only what the answer owns. */
function ownCounts(counts: Record<string, number>): Map<string, number> {
  return new Map(Object.entries(counts));
}

export function updateVolumeChart(chart: Chart<'bar', VolumePoint[]>, response: TrafficResponse, groupBy: VolumeGroup): void {
  const groups = orderGroups(groupBy, ownCounts(response.totals));
  const series = response.series.map((p) => ({ x: Date.parse(p.start), counts: ownCounts(p.counts) }));
  chart.data.datasets = groups.map((group, index): KeyedVolumeDataset => ({
    key: group,
    label: group,
    data: series.map((p) => ({ x: p.x, y: p.counts.get(group) ?? 0 })),
    backgroundColor: KNOWN_COLORS.get(group) ?? PALETTE[index % PALETTE.length],
    borderWidth: 0,
    stack: 'volume',
  }));
  chart.update();
}
