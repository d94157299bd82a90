// The share page of one report: the score, its history as a chart when it has been analysed more
// than once, counts by importance, then every check grouped by importance with what was found,
// how to fix it, and its value.

import { CHECK_NAMES } from '../analysis/checks/index.js';
import { readStoredCheck } from '../analysis/checks/stored.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from '../analysis/config.js';
import { bandOf } from '../analysis/score.js';
import type { Importance } from '../analysis/types.js';
import { renderScoreChart, summariseScores, type ChartPoint, type PointNoun } from './chart.js';
import { formatDateTime, isoDateTime, normaliseScore, parseTimestamp, truncate } from './format.js';
import { BAND_ICONS, BAND_WORDS, renderGauge } from './gauge.js';
import { html, safeHref, type SafeHtml } from './html.js';
import { ICON_FAIL, ICON_PASS } from './icons.js';
import { renderDocument } from './layout.js';
import { renderCheckValue } from './values.js';

/** The fields of a stored report the page uses (the API's Report satisfies it). */
export interface ShareReport {
  id: number;
  url: string;
  result: number;
  /** Check name → check object; read defensively, as stored reports may be any JSON. */
  results: unknown;
  generated_at: string;
}

/** One analysis of the report (an item of its history). */
export interface HistoryPoint {
  result: number;
  generated_at: string;
  passed: number;
  failed: number;
}

export interface ReportPageOptions {
  /** Score bands, weights and limits; DEFAULT_CONFIG when absent. */
  config?: AnalysisConfig;
  /** The report's history, oldest first; charted when it holds two analyses or more. */
  history?: readonly HistoryPoint[];
}

const ANALYSES: PointNoun = ['analysis', 'analyses'];
/** Rows in the data table under the history chart, at most (the newest); the chart draws every point given. */
const MAX_HISTORY_ROWS = 250;

interface HistoryRow {
  time: number;
  score: number;
  passed: number;
  failed: number;
}

function historyRows(history: readonly HistoryPoint[]): HistoryRow[] {
  return history.flatMap((h) => {
    const time = parseTimestamp(h?.generated_at);
    const score = normaliseScore(h?.result);
    if (time === null || score === null) return [];
    const count = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0);
    return [{ time, score, passed: count(h.passed), failed: count(h.failed) }];
  });
}

/** The score over time: the chart, a sentence, and the numbers as a table (charts are images to screen readers). */
export function renderHistory(history: readonly HistoryPoint[], config: AnalysisConfig): SafeHtml | '' {
  const rows = historyRows(history);
  if (rows.length < 2) return '';
  const points: ChartPoint[] = rows.map((r) => ({
    time: r.time,
    score: r.score,
    label: `${r.passed} of ${r.passed + r.failed} checks passed`,
  }));
  const shown = [...rows].sort((a, b) => a.time - b.time).slice(-MAX_HISTORY_ROWS);
  return html`<section class="card chart" aria-labelledby="history-heading">
<div class="section-head"><h2 id="history-heading">Score over time</h2><p>${rows.length} analyses</p></div>
${renderScoreChart(points, config.bands, ANALYSES)}
<p class="muted">${summariseScores(points, ANALYSES)}</p>
<details><summary>Show the chart’s data</summary>
<table class="data-table"><caption class="visually-hidden">Score and checks passed at each analysis, oldest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col" class="num">Score</th><th scope="col" class="num">Passed</th><th scope="col" class="num">Failed</th></tr></thead>
<tbody>${shown.map(
    (r) =>
      html`<tr><td class="num"><time datetime="${isoDateTime(r.time)}">${formatDateTime(r.time)}</time></td><td class="num">${r.score}</td><td class="num">${r.passed}</td><td class="num">${r.failed}</td></tr>`,
  )}</tbody>
</table></details>
</section>`;
}

const IMPORTANCES: readonly Importance[] = ['high', 'medium', 'low'];
const IMPORTANCE_TITLES: Record<Importance, string> = {
  high: 'High importance',
  medium: 'Medium importance',
  low: 'Low importance',
};

interface Entry {
  name: string;
  check: Record<string, unknown>;
  passed: boolean;
  importance: Importance;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The checks in the spec's order, then any this version does not know (from older or newer versions). */
function entriesOf(results: unknown): Entry[] {
  if (!isRecord(results)) return [];
  const known: readonly string[] = CHECK_NAMES;
  const names = [
    ...CHECK_NAMES.filter((n) => Object.hasOwn(results, n)),
    ...Object.keys(results).filter((n) => !known.includes(n)),
  ];
  return names.map((name) => {
    const check = isRecord(results[name]) ? (results[name] as Record<string, unknown>) : {};
    const importance = IMPORTANCES.includes(check.importance as Importance) ? (check.importance as Importance) : 'low';
    return { name, check, passed: check.passed === true, importance };
  });
}

/** A safe fragment id: stored names are arbitrary strings. */
function anchorOf(name: string, index: number): string {
  return /^[a-z0-9_]+$/i.test(name) ? `check-${name}` : `check-${index}`;
}

function renderCheck(entry: Entry, index: number, pageUrl: string, config: AnalysisConfig): SafeHtml {
  const { name, check, passed } = entry;
  const stored = readStoredCheck(name, check, config);
  const described = stored.line;
  const anchor = anchorOf(name, index);
  const value = renderCheckValue(stored, { pageUrl, described });
  return html`<article class="check ${passed ? 'check-pass' : 'check-fail'}" id="${anchor}" aria-labelledby="${anchor}-title">
<div class="check-head"><h3 id="${anchor}-title">${stored.known ? stored.label : truncate(stored.label, 80)}</h3><span class="status">${passed ? ICON_PASS : ICON_FAIL}${passed ? 'Passed' : 'Failed'}</span></div>
<p class="check-found">${described}</p>
${
  !passed && stored.why !== null && stored.fix !== null
    ? html`<p class="check-why">${stored.why}</p>
<p class="check-fix"><strong>How to fix:</strong> ${stored.fix}</p>`
    : ''
}
${value ?? ''}
</article>
`;
}

/** The score card: the gauge, the band in words, and checks passed by importance. */
export function renderScoreCard(
  report: Pick<ShareReport, 'result' | 'results'>,
  config: AnalysisConfig = DEFAULT_CONFIG,
): SafeHtml {
  const score = normaliseScore(report.result);
  const band = bandOf(score ?? 0, config.bands);
  const entries = entriesOf(report.results);
  const passedCount = entries.filter((e) => e.passed).length;
  const byImportance = groupsOf(entries);
  return html`<section class="card score-card band-${band}" aria-labelledby="score-title">
${renderGauge(score, band)}
<div class="score-summary">
<h2 id="score-title">Overall score</h2>
<p><span class="badge">${BAND_ICONS[band]}${BAND_WORDS[band]}</span> ${score === null ? 'Score unavailable' : `${score} out of 100`}</p>
<p>${passedCount} of ${entries.length} checks passed.${config.weights.low === 0 && byImportance.some((g) => g.importance === 'low') ? ' Low-importance checks do not affect the score.' : ''}</p>
<table class="counts">
<caption class="visually-hidden">Checks passed and failed by importance</caption>
<thead><tr><th scope="col">Importance</th><th scope="col">Passed</th><th scope="col">Failed</th></tr></thead>
<tbody>${byImportance.map((g) => html`<tr><th scope="row">${g.importance[0].toUpperCase() + g.importance.slice(1)}</th><td>${g.passed}</td><td>${g.list.length - g.passed}</td></tr>`)}</tbody>
</table>
</div>
</section>`;
}

function groupsOf(entries: Entry[]) {
  return IMPORTANCES.map((importance) => {
    const list = entries.filter((e) => e.importance === importance);
    // Failures first: they are what the reader came for.
    return {
      importance,
      list: [...list.filter((e) => !e.passed), ...list.filter((e) => e.passed)],
      passed: list.filter((e) => e.passed).length,
    };
  }).filter((g) => g.list.length > 0);
}

/** Every check, grouped by importance (failures first), with what was found, how to fix it, and its value. */
export function renderChecks(report: Pick<ShareReport, 'url' | 'results'>, config: AnalysisConfig = DEFAULT_CONFIG): SafeHtml {
  const url = typeof report.url === 'string' ? report.url : '';
  const entries = entriesOf(report.results);
  return html`${entries.length === 0 ? html`<section class="card empty"><h2>No checks</h2><p>This report holds no check results.</p></section>` : ''}
${groupsOf(entries).map(
  (g) => html`<section aria-labelledby="importance-${g.importance}">
<div class="section-head"><h2 id="importance-${g.importance}">${IMPORTANCE_TITLES[g.importance]}</h2><p>${g.passed} of ${g.list.length} passed</p></div>
${g.list.map((e) => renderCheck(e, entries.indexOf(e), url, config))}
</section>
`,
)}`;
}

/** The report's share page as a complete HTML document. */
export function renderReportPage(report: ShareReport, options: ReportPageOptions = {}): string {
  const config = options.config ?? DEFAULT_CONFIG;
  const url = typeof report.url === 'string' ? report.url : '';
  const score = normaliseScore(report.result);
  const band = bandOf(score ?? 0, config.bands);
  const generated = parseTimestamp(report.generated_at);
  const entries = entriesOf(report.results);
  const passedCount = entries.filter((e) => e.passed).length;
  const href = safeHref(url);
  const shortUrl = truncate(url, 120);
  const scoreText = score === null ? 'no score' : `score ${score}/100 (${BAND_WORDS[band].toLowerCase()})`;

  const main = html`<section class="card" aria-labelledby="page-title">
<p class="eyebrow">SEO report</p>
<h1 id="page-title">${truncate(url, 300) || 'Unknown page'}</h1>
<p class="page-meta">${generated === null ? 'Generated at an unknown date' : html`Generated <time datetime="${isoDateTime(generated)}">${formatDateTime(generated)}</time>`}${
    href ? html` · <a href="${href}" rel="nofollow noopener noreferrer" class="url">Open the analysed page</a>` : ''
  }</p>
</section>
${renderScoreCard(report, config)}
${renderHistory(options.history ?? [], config)}
${renderChecks(report, config)}`;

  return renderDocument(
    {
      title: `SEO report for ${shortUrl || 'an unknown page'} · Rankscope`,
      description: `SEO report for ${shortUrl || 'an unknown page'}: ${scoreText}, ${passedCount} of ${entries.length} checks passed.`,
    },
    main,
  );
}
