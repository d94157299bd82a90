// The score-over-time chart of a website page (one point per report) and of a report page (one
// point per analysis in its history): inline SVG, described for screen readers by its <title>
// and <desc> and by a text summary and data table beside it.

import type { AnalysisConfig } from '../analysis/config.js';
import { formatDateTime, formatDay } from './format.js';
import { html, type SafeHtml } from './html.js';

export interface ChartPoint {
  /** Milliseconds since the epoch. */
  time: number;
  /** 0–100. */
  score: number;
  /** What the point is (the report's URL), for its tooltip. */
  label: string;
}

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 48;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 30;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** Past this many reports, points are drawn as the line only: circles would merge into a smear. */
const MAX_MARKERS = 200;

const y = (score: number) => TOP + ((100 - score) / 100) * PLOT_H;
const round = (n: number) => Math.round(n * 10) / 10;

/** What one point is, singular and plural ("report", "reports"; "analysis", "analyses"). */
export type PointNoun = readonly [one: string, many: string];
const REPORTS: PointNoun = ['report', 'reports'];

/** Sentence summarising the series, also used as the chart's <desc>. */
export function summariseScores(points: readonly ChartPoint[], [one, many]: PointNoun = REPORTS): string {
  if (points.length === 0) return `No ${many} yet.`;
  const sorted = [...points].sort((a, b) => a.time - b.time);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (sorted.length === 1) return `One ${one}, on ${formatDay(first.time)}, scored ${first.score}.`;
  const scores = sorted.map((p) => p.score);
  return `${sorted.length} ${many} from ${formatDay(first.time)} to ${formatDay(last.time)}; scores ranged from ${Math.min(...scores)} to ${Math.max(...scores)}, and the latest scored ${last.score}.`;
}

export function renderScoreChart(
  points: readonly ChartPoint[],
  bands: AnalysisConfig['bands'],
  noun: PointNoun = REPORTS,
): SafeHtml {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  const t0 = sorted[0]?.time ?? 0;
  const t1 = sorted.at(-1)?.time ?? 0;
  const x = (t: number) => (t1 === t0 ? LEFT + PLOT_W / 2 : LEFT + ((t - t0) / (t1 - t0)) * PLOT_W);
  const coords = sorted.map((p) => [round(x(p.time)), round(y(p.score))] as const);

  const grid = [0, 25, 50, 75, 100].map(
    (s) =>
      html`<line class="chart-grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(s)}" y2="${y(s)}"/><text class="chart-label" x="${LEFT - 6}" y="${y(s) + 4}" text-anchor="end">${s}</text>`,
  );
  const thresholds = (['good', 'decent'] as const)
    .filter((band) => bands[band] > 0 && bands[band] <= 100)
    .map(
      (band) =>
        html`<line class="chart-band-${band}" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(bands[band])}" y2="${y(bands[band])}" stroke-dasharray="4 4"/>`,
    );
  const sameDay = sorted.length === 0 || formatDay(t0) === formatDay(t1);
  const xLabels = sameDay
    ? html`<text class="chart-label" x="${LEFT + PLOT_W / 2}" y="${HEIGHT - 8}" text-anchor="middle">${sorted.length ? formatDay(t0) : ''}</text>`
    : html`<text class="chart-label" x="${LEFT}" y="${HEIGHT - 8}" text-anchor="start">${formatDay(t0)}</text><text class="chart-label" x="${WIDTH - RIGHT}" y="${HEIGHT - 8}" text-anchor="end">${formatDay(t1)}</text>`;
  const line =
    coords.length > 1 ? html`<polyline class="chart-line" points="${coords.map(([cx, cy]) => `${cx},${cy}`).join(' ')}"/>` : '';
  const markers =
    sorted.length <= MAX_MARKERS
      ? sorted.map(
          (p, i) =>
            html`<circle class="chart-point" cx="${coords[i][0]}" cy="${coords[i][1]}" r="4"><title>${formatDateTime(p.time)}: ${p.score} (${p.label.slice(0, 200)})</title></circle>`,
        )
      : '';

  return html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc">
<title id="chart-title">Score over time</title>
<desc id="chart-desc">${summariseScores(sorted, noun)}</desc>
${grid}${thresholds}${xLabels}
${line}${markers}
</svg>`;
}
