/**
 * chart.js, registered once with only what the dashboard draws, the date-fns time adapter, and a
 * small plugin for the vertical retire-date marker and the labelled projected crossing.
 */
import {
  BarController,
  BarElement,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
  type ChartType,
  type Plugin,
} from 'chart.js';
import 'chartjs-adapter-date-fns';

export interface SunsetMarkers {
  /** Vertical lines across the plot, e.g. the retire date. */
  lines: { at: number; label: string; color: string }[];
  /** Labelled points, e.g. the projected crossing of the target. */
  points: { x: number; y: number; label: string; color: string }[];
}

declare module 'chart.js' {
  interface PluginOptionsByType<TType extends ChartType> {
    sunsetMarkers?: SunsetMarkers | false;
  }
}

export const COLORS = {
  share: '#c2410c',
  bridged: '#be185d',
  trend: '#1d4ed8',
  target: '#15803d',
  projection: '#7c3aed',
  retire: '#374151',
  refused: '#b91c1c',
  failed: '#6b7280',
  probes: '#7c3aed',
  negotiation: '#0e7490',
  legacyCallers: '#92400e',
  modernCallers: '#0f766e',
  grid: 'rgba(17, 24, 39, 0.08)',
  text: '#374151',
} as const;

const markersPlugin: Plugin = {
  id: 'sunsetMarkers',
  afterDatasetsDraw(chart, _args, options) {
    const markers = options as Partial<SunsetMarkers> | undefined;
    const x = chart.scales.x;
    const y = chart.scales.y;
    if (markers === undefined || x === undefined || y === undefined) return;
    const { ctx, chartArea } = chart;
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    // Labels that would overlap move down a row, so "Announced …" and "Retire …" stay readable on a phone.
    const rows: [number, number][][] = [];
    for (const line of markers.lines ?? []) {
      const px = x.getPixelForValue(line.at);
      if (px < chartArea.left - 0.5 || px > chartArea.right + 0.5) continue;
      ctx.strokeStyle = line.color;
      ctx.fillStyle = line.color;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      ctx.setLineDash([]);
      const width = ctx.measureText(line.label).width;
      const textX = px + 4 + width > chartArea.right ? px - 4 - width : px + 4;
      let row = 0;
      while ((rows[row] ?? []).some(([a, b]) => textX < b + 6 && textX + width > a - 6)) row += 1;
      (rows[row] ??= []).push([textX, textX + width]);
      ctx.fillText(line.label, textX, chartArea.top + 12 + row * 15);
    }
    for (const point of markers.points ?? []) {
      const px = x.getPixelForValue(point.x);
      const py = y.getPixelForValue(point.y);
      if (px < chartArea.left - 0.5 || px > chartArea.right + 0.5) continue;
      ctx.fillStyle = point.color;
      const width = ctx.measureText(point.label).width;
      const textX = Math.max(chartArea.left, Math.min(px - width / 2, chartArea.right - width));
      ctx.fillText(point.label, textX, Math.max(chartArea.top + 28, py - 12));
    }
    ctx.restore();
  },
};

Chart.register(BarController, BarElement, Filler, Legend, LinearScale, LineController, LineElement, PointElement, TimeScale, Tooltip, markersPlugin);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';
Chart.defaults.color = COLORS.text;
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;

export { Chart };
