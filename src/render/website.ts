// The share page of a website: its traffic over a range of days (when the page is given it),
// then its pages' latest scores and the score over time.

import { DEFAULT_CONFIG, type AnalysisConfig } from '../analysis/config.js';
import { bandOf } from '../analysis/score.js';
import { renderScoreChart, summariseScores, type ChartPoint } from './chart.js';
import { formatDateTime, formatDay, isoDateTime, normaliseScore, parseTimestamp, truncate } from './format.js';
import { BAND_ICONS, BAND_WORDS } from './gauge.js';
import { html, type SafeHtml } from './html.js';
import { renderDocument } from './layout.js';
import { formatCount } from './traffic-chart.js';
import { renderTraffic, type WebsiteTraffic } from './traffic.js';

export interface ShareWebsite {
  id: number;
  domain: string;
}

/** One stored report of the website's pages. */
export interface WebsiteReportRow {
  id: number;
  url: string;
  result: number;
  generated_at: string;
  /** Whether the report's own share page is public, so the row may link to /reports/{id}. */
  isPublic: boolean;
}

export interface WebsitePageOptions {
  /** Score bands; DEFAULT_CONFIG when absent. */
  config?: AnalysisConfig;
  /** The traffic of the chosen range; the page shows scores only without it. */
  traffic?: WebsiteTraffic;
}

/** Rows in the data table of the chart, at most: the chart itself draws every report. */
const MAX_DATA_ROWS = 250;

interface Row {
  id: number;
  url: string;
  score: number;
  time: number | null;
  isPublic: boolean;
}

function rowsOf(reports: readonly WebsiteReportRow[]): Row[] {
  return reports.flatMap((r) => {
    const score = normaliseScore(r?.result);
    if (score === null) return [];
    return [
      { id: Number(r.id), url: String(r.url ?? ''), score, time: parseTimestamp(r.generated_at), isPublic: r.isPublic === true },
    ];
  });
}

/** The newest report of each URL, ordered by URL. */
function latestPerUrl(rows: readonly Row[]): Row[] {
  const latest = new Map<string, Row>();
  for (const row of rows) {
    const seen = latest.get(row.url);
    if (!seen || (row.time ?? -Infinity) > (seen.time ?? -Infinity)) latest.set(row.url, row);
  }
  return [...latest.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

function scoreBadge(score: number, config: AnalysisConfig): SafeHtml {
  const band = bandOf(score, config.bands);
  return html`<span class="badge band-${band}">${BAND_ICONS[band]}${score} <span class="visually-hidden">out of 100, </span>${BAND_WORDS[band]}</span>`;
}

function dateCell(time: number | null): SafeHtml {
  return time === null
    ? html`<span class="muted">unknown</span>`
    : html`<time datetime="${isoDateTime(time)}">${formatDay(time)}</time>`;
}

function pageCell(row: Row): SafeHtml {
  const text = truncate(row.url, 300);
  return row.isPublic && Number.isSafeInteger(row.id) ? html`<a href="/reports/${row.id}">${text}</a>` : html`${text}`;
}

export function renderWebsitePage(
  website: ShareWebsite,
  reports: readonly WebsiteReportRow[],
  options: WebsitePageOptions = {},
): string {
  const config = options.config ?? DEFAULT_CONFIG;
  const domain = truncate(String(website.domain ?? ''), 253);
  const rows = rowsOf(reports);
  const latest = latestPerUrl(rows);
  const points: ChartPoint[] = rows.flatMap((r) => (r.time === null ? [] : [{ time: r.time, score: r.score, label: r.url }]));
  const newest = points.reduce<number | null>((max, p) => (max === null || p.time > max ? p.time : max), null);

  const head = html`<section class="card" aria-labelledby="page-title">
<p class="eyebrow">Website</p>
<h1 id="page-title">${domain}</h1>
${
  rows.length === 0
    ? ''
    : html`<p class="page-meta">${latest.length === 1 ? '1 page' : `${latest.length} pages`} analysed${
        newest === null ? '' : html` · latest report <time datetime="${isoDateTime(newest)}">${formatDateTime(newest)}</time>`
      }</p>`
}
</section>`;

  const body =
    rows.length === 0
      ? html`<section class="card empty" aria-labelledby="empty-title"><h2 id="empty-title">No reports yet</h2><p>Scores will appear here once pages of ${domain} have been analysed.</p></section>`
      : html`<section class="card chart" aria-labelledby="chart-heading">
<div class="section-head"><h2 id="chart-heading">Score over time</h2></div>
${points.length > 0 ? renderScoreChart(points, config.bands) : ''}
<p class="muted">${summariseScores(points)}</p>
${
  points.length > 0
    ? html`<details><summary>Show the chart’s data</summary>
<table class="data-table"><caption class="visually-hidden">Score of every report, oldest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Page</th><th scope="col" class="num">Score</th></tr></thead>
<tbody>${[...points]
        .sort((a, b) => a.time - b.time)
        .slice(-MAX_DATA_ROWS)
        .map(
          (p) =>
            html`<tr><td class="num">${formatDay(p.time)}</td><td>${truncate(p.label, 300)}</td><td class="num">${p.score}</td></tr>`,
        )}</tbody>
</table></details>`
    : ''
}
</section>
<section class="card" aria-labelledby="pages-heading">
<div class="section-head"><h2 id="pages-heading">Pages</h2><p>Latest score of each page</p></div>
<table class="data-table stack">
<caption class="visually-hidden">Latest score of each analysed page of ${domain}</caption>
<thead><tr><th scope="col">Page</th><th scope="col">Score</th><th scope="col">Date</th></tr></thead>
<tbody>${latest.map((row) => html`<tr><td>${pageCell(row)}</td><td class="num">${scoreBadge(row.score, config)}</td><td>${dateCell(row.time)}</td></tr>`)}</tbody>
</table>
</section>`;

  const traffic = options.traffic;
  const scores =
    rows.length === 0
      ? 'no reports yet.'
      : `${latest.length === 1 ? '1 page' : `${latest.length} pages`} analysed. ${summariseScores(points)}`;
  let description = `SEO scores of ${domain}: ${scores}`;
  if (traffic) {
    const visitors = traffic.days.reduce((n, d) => n + d.visitors, 0);
    const pageviews = traffic.days.reduce((n, d) => n + d.pageviews, 0);
    description = `Traffic and SEO scores of ${domain}: ${formatCount(visitors)} ${visitors === 1 ? 'visitor' : 'visitors'} and ${formatCount(pageviews)} ${pageviews === 1 ? 'pageview' : 'pageviews'} in the range shown; ${scores}`;
  }

  return renderDocument(
    { title: `${domain}: ${traffic ? 'traffic and SEO scores' : 'SEO scores'} · Rankscope`, description },
    html`${head}${traffic ? renderTraffic(Number(website.id), traffic) : ''}${body}`,
  );
}
