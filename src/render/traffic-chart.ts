// The traffic chart of a website page: visitors and pageviews per day as two lines in an inline
// SVG, named and summarised for screen readers by its <title> and <desc> (the page adds a
// legend and the numbers as a table beside it). Pageviews are a solid line, visitors a dashed
// one, so the two differ without colour.

import { formatDay } from './format.js';
import { html, type SafeHtml } from './html.js';

export interface DayCounts {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  visitors: number;
  pageviews: number;
}

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 56;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 30;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** Past this many days, the lines carry no markers: they would merge into a smear. */
const MAX_MARKERS = 62;

const NUMBER = new Intl.NumberFormat('en-GB');
/** Axis labels stay short ("15K") so they fit left of the plot at a phone's larger font size. */
const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const round = (n: number) => Math.round(n * 10) / 10;

/** "1,234". */
export function formatCount(n: number): string {
  return NUMBER.format(n);
}

/** Milliseconds of a YYYY-MM-DD day's start (UTC). */
export const dayTime = (day: string) => Date.parse(`${day}T00:00:00Z`);

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The y axis: a round step (1, 2 or 5 × 10ⁿ, at least 1) and its top, 4 steps or fewer above 0. */
export function yScale(max: number): { step: number; top: number } {
  if (!(max > 0)) return { step: 1, top: 4 };
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude);
  return { step, top: Math.ceil(max / step) * step };
}

/** Sentence summarising the range, also used as the chart's <desc>. */
export function summariseTraffic(days: readonly DayCounts[]): string {
  if (days.length === 0) return 'No days in this range.';
  const range =
    days.length === 1
      ? `on ${formatDay(dayTime(days[0].day))}`
      : `from ${formatDay(dayTime(days[0].day))} to ${formatDay(dayTime(days[days.length - 1].day))}`;
  const visitors = days.reduce((n, d) => n + d.visitors, 0);
  const pageviews = days.reduce((n, d) => n + d.pageviews, 0);
  if (pageviews === 0 && visitors === 0) return `No visits ${range}.`;
  const busiest = days.reduce((best, d) => (d.pageviews > best.pageviews ? d : best), days[0]);
  const peak =
    days.length > 1
      ? ` The busiest day was ${formatDay(dayTime(busiest.day))}, with ${plural(busiest.pageviews, 'pageview', 'pageviews')} by ${plural(busiest.visitors, 'visitor', 'visitors')}.`
      : '';
  return `${plural(visitors, 'visitor', 'visitors')} and ${plural(pageviews, 'pageview', 'pageviews')} ${range}.${peak}`;
}

export function renderTrafficChart(days: readonly DayCounts[]): SafeHtml {
  const n = days.length;
  const { step, top } = yScale(Math.max(0, ...days.map((d) => Math.max(d.visitors, d.pageviews))));
  const x = (i: number) => round(n <= 1 ? LEFT + PLOT_W / 2 : LEFT + (i / (n - 1)) * PLOT_W);
  const y = (count: number) => round(TOP + (1 - count / top) * PLOT_H);

  const grid = Array.from({ length: top / step + 1 }, (_, i) => i * step).map(
    (v) =>
      html`<line class="chart-grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}"/><text class="chart-label" x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${COMPACT.format(v)}</text>`,
  );

  // The first and last days, and the middle one when there is room between them.
  const label = (i: number, anchor: 'start' | 'middle' | 'end') =>
    html`<text class="chart-label" x="${x(i)}" y="${HEIGHT - 8}" text-anchor="${anchor}">${formatDay(dayTime(days[i].day))}</text>`;
  const xLabels =
    n === 0
      ? ''
      : n === 1
        ? label(0, 'middle')
        : [label(0, 'start'), n >= 7 ? label(Math.floor((n - 1) / 2), 'middle') : '', label(n - 1, 'end')];

  const series = (key: 'visitors' | 'pageviews', unit: [string, string]) => {
    const coords = days.map((d, i) => `${x(i)},${y(d[key])}`);
    const line = n > 1 ? html`<polyline class="chart-series chart-${key}" points="${coords.join(' ')}"/>` : '';
    // Days without any are left unmarked: a row of beads along the axis says nothing.
    const markers =
      n <= MAX_MARKERS
        ? days.map((d, i) =>
            d[key] === 0 && n > 1
              ? ''
              : html`<circle class="chart-marker chart-${key}" cx="${x(i)}" cy="${y(d[key])}" r="3.5"><title>${formatDay(dayTime(d.day))}: ${plural(d[key], ...unit)}</title></circle>`,
          )
        : '';
    return html`<g class="chart-${key}-series">${line}${markers}</g>`;
  };

  const title =
    n === 0
      ? 'Visitors and pageviews per day'
      : `Visitors and pageviews per day, ${formatDay(dayTime(days[0].day))} to ${formatDay(dayTime(days[n - 1].day))}`;
  return html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="traffic-chart-title traffic-chart-desc">
<title id="traffic-chart-title">${title}</title>
<desc id="traffic-chart-desc">${summariseTraffic(days)}</desc>
${grid}${xLabels}
${series('pageviews', ['pageview', 'pageviews'])}${series('visitors', ['visitor', 'visitors'])}
</svg>`;
}
