// The crawls (site audits) pages: the list with the "Start a crawl" form, and one crawl's
// status and live counts, issues and pages. Values come from the API's JSON (docs/api.md
// "Crawls"); every one is escaped by the `html` tag.
import type { AnalysisConfig } from '../../analysis/config.js';
import { bandOf } from '../../analysis/score.js';
import { formatDateTime, isoDateTime, normaliseScore, parseTimestamp, truncate } from '../../render/format.js';
import { BAND_ICONS, BAND_WORDS } from '../../render/gauge.js';
import { html, type HtmlValue, safeHref, type SafeHtml } from '../../render/html.js';
import { ICON_FAIL, ICON_WARN } from '../../render/icons.js';
import type { CrawlIssueCountJson, CrawlIssueJson, CrawlJson, CrawlPageJson } from '../api-types.js';
export type { CrawlIssueCountJson, CrawlIssueJson, CrawlJson, CrawlPageJson };
import { checkboxField, csrfField, errorSummary, type FieldErrors, inputField, postButton } from './forms.js';

/** The paginator's numbers (docs/api.md "Lists"). */
export interface ListMeta {
  current_page: number;
  last_page: number;
  total: number;
  from: number | null;
  to: number | null;
}

export interface CrawlForm {
  url?: string;
  max_pages?: string;
  sitemap?: boolean;
  render?: boolean;
}

const STATUS_WORDS: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  finished: 'Finished',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export const isActive = (status: string) => status === 'queued' || status === 'running';

const MAX_URL = 200;

function when(value: string | null): HtmlValue {
  const ms = parseTimestamp(value);
  return ms === null
    ? html`<span class="muted">–</span>`
    : html`<time datetime="${isoDateTime(ms)}">${formatDateTime(ms)}</time>`;
}

function statusWord(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

function scoreBadge(score: number | null, bands: AnalysisConfig['bands']): HtmlValue {
  const value = normaliseScore(score);
  if (value === null) return html`<span class="muted">none yet</span>`;
  const band = bandOf(value, bands);
  return html`<span class="badge band-${band}">${BAND_ICONS[band]}${value} · ${BAND_WORDS[band]}</span>`;
}

/** A link to a page of the list, keeping the other query fields. */
/** Previous / next links of a list (`noun`: what it lists, so each pager's links say where they go). */
function pagerLinks(base: string, param: string, meta: ListMeta, noun: string, keep: Record<string, string> = {}): HtmlValue {
  if (meta.last_page <= 1) return '';
  const href = (page: number) => {
    const query = new URLSearchParams({ ...keep, [param]: String(page) });
    return `${base}?${query.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages of ${noun}">
${meta.current_page > 1 ? html`<a href="${href(meta.current_page - 1)}" rel="prev">Previous page of ${noun}</a>` : html`<span></span>`}
<span>Page ${meta.current_page} of ${meta.last_page} (${meta.total} ${noun} in all)</span>
${meta.current_page < meta.last_page ? html`<a href="${href(meta.current_page + 1)}" rel="next">Next page of ${noun}</a>` : html`<span></span>`}
</nav>`;
}

/** The `render` checkbox of the crawl form (docs/rendering.md), where the instance has Chromium. */
function renderCrawlField(checked: boolean, errors: FieldErrors | undefined): SafeHtml {
  return checkboxField({
    name: 'render',
    label: 'Render with Chromium',
    checked,
    errors,
    hint: 'Runs each page’s JavaScript first: follows the links scripts add and reports what they change. Several times slower; for sites that build their content with scripts.',
  });
}

export function startCrawlForm(
  csrf: string,
  form: CrawlForm,
  errors: FieldErrors | undefined,
  renderAvailable = false,
): SafeHtml {
  return html`<section class="card" id="start" aria-labelledby="start-title">
<h2 id="start-title">Start a crawl</h2>
${errorSummary(errors)}
<form method="post" action="/app/crawls" class="crawl-form">
${csrfField(csrf)}
${inputField({
  name: 'url',
  label: 'Start page URL',
  type: 'text',
  value: form.url,
  required: true,
  placeholder: 'https://example.com/',
  autocomplete: 'url',
  maxlength: 2048,
  errors,
  hint: 'The crawl follows links on this host (and its www. twin) only.',
})}
${inputField({
  name: 'max_pages',
  label: 'Most pages to crawl',
  type: 'number',
  value: form.max_pages,
  min: 1,
  errors,
  hint: 'Leave it empty for 100 (or this server’s limit, when lower).',
})}
${checkboxField({ name: 'sitemap', label: 'Also read the sitemaps (robots.txt Sitemap: lines and /sitemap.xml)', checked: form.sitemap ?? true, errors })}
${renderAvailable ? renderCrawlField(form.render ?? false, errors) : ''}
<button class="button" type="submit">Start the crawl</button>
</form>
</section>`;
}

export function crawlsListMain(options: {
  crawls: CrawlJson[];
  meta: ListMeta;
  csrf: string;
  form: CrawlForm;
  errors?: FieldErrors;
  bands: AnalysisConfig['bands'];
  /** Offer "Render with Chromium" (the instance has it). */
  renderAvailable?: boolean;
}): SafeHtml {
  const { crawls, meta } = options;
  // A refused form comes first, so its messages are the first thing seen.
  const list =
    crawls.length === 0
      ? meta.current_page > 1
        ? html`<section class="card empty"><p>No crawls on this page.</p><p><a href="/app/crawls">Back to the first page of crawls</a></p></section>`
        : html`<section class="card empty" aria-labelledby="empty-title"><h2 id="empty-title">No crawls yet</h2>
<p>A crawl audits a whole site: it follows the links from a start page, analyses every page it finds (each becomes a report), and lists what only shows across pages: broken links, redirect chains, duplicate titles, orphan pages and sitemap mistakes.</p>
<p>Start one with the form below.</p></section>`
      : html`<section class="card" aria-labelledby="list-title">
<h2 id="list-title">Your crawls</h2>
<div class="table-scroll crawl-scroll"><table class="data-table crawl-list">
<caption class="visually-hidden">Crawls, newest first</caption>
<thead><tr><th scope="col">Start page</th><th scope="col">Status</th><th scope="col">Pages done / found</th><th scope="col">Issues</th><th scope="col">Score</th><th scope="col">Started</th><th scope="col">Finished</th></tr></thead>
<tbody>${crawls.map(
          (c) => html`<tr>
<th scope="row" class="crawl-url"><a href="/app/crawls/${c.id}">${truncate(c.url, MAX_URL)}<span class="visually-hidden"> (the crawl’s page)</span></a></th>
<td>${statusWord(c.status)}</td>
<td class="num">${c.pages_done} / ${c.pages_found}${c.pages_failed > 0 ? html` <span class="muted">(${c.pages_failed} failed)</span>` : ''}</td>
<td class="num">${isActive(c.status) ? html`<span class="muted">when it ends</span>` : c.issues}</td>
<td>${scoreBadge(c.result, options.bands)}</td>
<td>${when(c.started_at)}</td>
<td>${when(c.finished_at)}</td>
</tr>`,
        )}</tbody>
</table></div>
${pagerLinks('/app/crawls', 'page', meta, 'crawls')}
</section>`;
  return html`<div class="page-head"><h1>Crawls</h1>${crawls.length > 0 ? html`<div class="actions"><a class="button" href="#start">Start a crawl</a></div>` : ''}</div>
${options.errors ? '' : list}
${startCrawlForm(options.csrf, options.form, options.errors, options.renderAvailable)}
${options.errors ? list : ''}`;
}

/** The badge class of a severity (low: grey, never the "pass" green) and its icon, beside its word. */
const SEVERITY_CLASSES: Record<string, string> = { high: 'band-bad', medium: 'band-decent', low: 'severity-low' };
const SEVERITY_ICONS: Record<string, SafeHtml> = { high: ICON_FAIL, medium: ICON_WARN, low: ICON_WARN };

const ISSUE_WORDS: Record<string, string> = {
  broken_link: 'Broken link',
  redirect_chain: 'Redirect chain',
  duplicate_title: 'Duplicate title',
  duplicate_meta_description: 'Duplicate meta description',
  non_indexable_in_sitemap: 'Not indexable, yet in a sitemap',
  orphan_page: 'Orphan page',
  missing_from_sitemap: 'Missing from the sitemap',
};

function urlText(url: string): HtmlValue {
  const href = safeHref(url);
  const text = truncate(url, MAX_URL);
  return href
    ? html`<a class="url" href="${href}" rel="nofollow noopener noreferrer">${text}</a>`
    : html`<span class="url">${text}</span>`;
}

/** An issue type in words: the few with a phrase of their own, else its name with spaces ("redirect_loop": "Redirect loop"). */
export function issueWords(type: string): string {
  const words = ISSUE_WORDS[type];
  if (words) return words;
  const spaced = type.replace(/_/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A severity as a badge: its word always (never the colour alone), with its icon. */
function severityBadge(severity: string): SafeHtml {
  return html`<span class="badge ${SEVERITY_CLASSES[severity] ?? 'band-decent'}">${SEVERITY_ICONS[severity] ?? ICON_WARN}${severity}</span>`;
}

/** The issues list's filters, as the API takes them. */
export interface IssueFilter {
  type?: string;
  severity?: string;
}

const SEVERITIES = ['high', 'medium', 'low'] as const;

/** The crawl page with these issue filters, at its issues table. */
function filteredHref(crawlId: number, filter: IssueFilter): string {
  const query = new URLSearchParams();
  if (filter.type) query.set('type', filter.type);
  if (filter.severity) query.set('severity', filter.severity);
  const search = query.toString();
  return `/app/crawls/${crawlId}${search ? `?${search}` : ''}#issues`;
}

/** The issues counted by type (the API's summary): each type opens the issues list filtered by it. */
function summarySection(summary: CrawlIssueCountJson[], crawl: CrawlJson): SafeHtml | '' {
  if (summary.length === 0) return '';
  return html`<section class="card" id="summary" aria-labelledby="summary-title">
<h2 id="summary-title">Issues by type</h2>
<div class="table-scroll crawl-scroll"><table class="data-table crawl-summary">
<caption class="visually-hidden">Issue types found, most severe first, then the most frequent; each type links to its issues</caption>
<thead><tr><th scope="col">Issue type</th><th scope="col">Severity</th><th scope="col">Issues</th></tr></thead>
<tbody>${summary.map(
    (row) => html`<tr data-summary="${row.type}">
<th scope="row"><a href="${filteredHref(crawl.id, { type: row.type })}">${issueWords(row.type)}<span class="visually-hidden"> (show the ${row.count} ${row.count === 1 ? 'issue' : 'issues'})</span></a> <code class="muted">${row.type}</code></th>
<td>${severityBadge(row.severity)}</td>
<td class="num">${row.count}</td>
</tr>`,
  )}</tbody>
</table></div>
</section>`;
}

/** Links to the issues of one severity (and back to all), the current one marked. */
function severityLinks(crawlId: number, filter: IssueFilter): SafeHtml {
  const link = (severity: string | undefined, label: string) => {
    const current = (filter.severity ?? undefined) === severity;
    return html`<li><a href="${filteredHref(crawlId, { type: filter.type, severity })}"${current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  };
  return html`<ul class="range-presets" aria-label="Issues by severity">${link(undefined, 'Every severity')}${SEVERITIES.map((s) => link(s, `Severity ${s}`))}</ul>`;
}

function issuesSection(
  issues: CrawlIssueJson[],
  meta: ListMeta,
  crawl: CrawlJson,
  keep: Record<string, string>,
  filter: IssueFilter,
  filterErrors: FieldErrors | undefined,
): SafeHtml {
  const filtered = Boolean(filter.type || filter.severity);
  const types = filter.type ? filter.type.split(',').map((type) => issueWords(type.trim())) : [];
  const what = [types.length > 0 ? types.join(', ') : '', filter.severity ? `severity ${filter.severity}` : '']
    .filter((part) => part !== '')
    .join(', ');
  const refusal = filterErrors
    ? html`<div class="error-summary" role="alert"><p>That filter cannot be used: ${Object.values(filterErrors)
        .flat()
        .join(' ')} Every issue is listed instead.</p></div>`
    : '';
  const scope = filtered
    ? html`<p>Only the issues of ${what}. <a href="${filteredHref(crawl.id, {})}">Show every issue</a></p>`
    : '';
  const body =
    issues.length === 0
      ? filtered
        ? html`<p>No issues match this filter.</p>`
        : isActive(crawl.status)
          ? html`<p>Issues are found once the crawl has ended.</p>`
          : html`<p>No site-level issues found${crawl.status === 'finished' ? '' : ' (the crawl did not finish)'}.</p>`
      : html`<div class="table-scroll crawl-scroll"><table class="data-table crawl-issues">
<caption class="visually-hidden">Site-level issues${filtered ? html` of ${what}` : ''}, most severe first</caption>
<thead><tr><th scope="col">Issue</th><th scope="col">Severity</th><th scope="col">URL</th><th scope="col">Detail</th></tr></thead>
<tbody>${issues.map(
          (i) => html`<tr data-issue="${i.type}">
<th scope="row">${issueWords(i.type)}</th>
<td>${severityBadge(i.severity)}</td>
<td class="crawl-url">${urlText(i.url)}</td>
<td class="crawl-detail">${truncate(i.detail, 600)}</td>
</tr>`,
        )}</tbody>
</table></div>
${pagerLinks(`/app/crawls/${crawl.id}`, 'issues_page', meta, 'issues', keep)}`;
  return html`<section class="card" id="issues" aria-labelledby="issues-title">
<h2 id="issues-title">Issues${filtered ? html`: ${what}` : ''}${issues.length > 0 ? html` <span class="muted">(${meta.total})</span>` : ''}</h2>
${refusal}
${crawl.issues > 0 || filtered ? severityLinks(crawl.id, filter) : ''}
${scope}
${body}
</section>`;
}

function pageStatus(p: CrawlPageJson): HtmlValue {
  if (p.status_code !== null) return html`<span class="num">${p.status_code}</span>`;
  return html`<span class="muted">no answer</span>`;
}

function pagesSection(pages: CrawlPageJson[], meta: ListMeta, crawl: CrawlJson, keep: Record<string, string>): SafeHtml {
  const body =
    pages.length === 0
      ? meta.current_page > 1
        ? html`<p>No pages on this page of the list. <a href="/app/crawls/${crawl.id}">Back to the first page of URLs</a></p>`
        : html`<p>No pages recorded yet.${isActive(crawl.status) ? ' They appear here as the crawl finds them: refresh the page.' : ''}</p>`
      : html`<div class="table-scroll crawl-scroll"><table class="data-table crawl-pages">
<caption class="visually-hidden">The URLs the crawl recorded, in discovery order</caption>
<thead><tr><th scope="col">URL</th><th scope="col">HTTP status</th><th scope="col">Score</th><th scope="col">Depth</th><th scope="col">In sitemap</th><th scope="col">Indexable</th><th scope="col">Note</th></tr></thead>
<tbody>${pages.map(
          (p) => html`<tr>
<th scope="row" class="crawl-url">${urlText(p.url)}</th>
<td>${pageStatus(p)}</td>
<td class="num">${
            p.report_id !== null
              ? html`<a href="/app/reports/${p.report_id}">${p.result ?? 'report'}<span class="visually-hidden"> (the report of ${truncate(p.url, MAX_URL)})</span></a>`
              : html`<span class="muted">–</span>`
          }</td>
<td class="num">${p.depth ?? html`<span class="muted">sitemap only</span>`}</td>
<td>${p.in_sitemap ? 'yes' : 'no'}</td>
<td>${p.indexable ? 'yes' : 'no'}</td>
<td class="crawl-detail">${p.error ? truncate(p.error, 300) : ''}</td>
</tr>`,
        )}</tbody>
</table></div>
${pagerLinks(`/app/crawls/${crawl.id}`, 'page', meta, 'URLs', keep)}`;
  return html`<section class="card" aria-labelledby="pages-title">
<div class="section-head crawl-section-head"><h2 id="pages-title">Pages${pages.length > 0 ? html` <span class="muted">(${meta.total})</span>` : ''}</h2>
<a class="button secondary" href="/app/crawls/${crawl.id}/pages.csv" download>Export CSV<span class="visually-hidden"> of every page of this crawl</span></a></div>
${body}
</section>`;
}

export function crawlDetailMain(options: {
  crawl: CrawlJson;
  csrf: string;
  summary: CrawlIssueCountJson[];
  issues: CrawlIssueJson[];
  issuesMeta: ListMeta;
  filter: IssueFilter;
  filterErrors?: FieldErrors;
  pages: CrawlPageJson[];
  pagesMeta: ListMeta;
  query: Record<string, string>;
  bands: AnalysisConfig['bands'];
}): SafeHtml {
  const { crawl, csrf } = options;
  const active = isActive(crawl.status);
  const self = `/app/crawls/${crawl.id}`;
  // Each table's pager keeps the other's page and the issue filters.
  const filters: Record<string, string> = {};
  if (options.filter.type) filters.type = options.filter.type;
  if (options.filter.severity) filters.severity = options.filter.severity;
  const keepForIssues: Record<string, string> = { ...(options.query.page ? { page: options.query.page } : {}), ...filters };
  const keepForPages: Record<string, string> = {
    ...(options.query.issues_page ? { issues_page: options.query.issues_page } : {}),
    ...filters,
  };
  return html`<div class="page-head"><h1 class="crawl-title">Crawl of ${truncate(crawl.url, MAX_URL)}</h1>
<div class="actions">${active ? postButton(`${self}/cancel`, 'Cancel the crawl', csrf, { danger: true }) : ''}<a href="/app/crawls">All crawls</a></div></div>
<section class="card" aria-labelledby="progress-title">
<h2 id="progress-title">Progress</h2>
${crawl.render ? html`<p>Each page is rendered with Chromium: its links and checks come from the DOM its scripts built.</p>` : ''}
<div class="crawl-progress" data-poll="${self}/progress" data-status="${crawl.status}">
<dl class="totals">
<div><dt>Status</dt><dd class="crawl-status" data-field="status">${crawl.status}</dd></div>
<div><dt>Pages found</dt><dd data-field="pages_found">${crawl.pages_found}</dd></div>
<div><dt>Pages done</dt><dd data-field="pages_done">${crawl.pages_done}</dd></div>
<div><dt>No answer</dt><dd data-field="pages_failed">${crawl.pages_failed}</dd></div>
<div><dt>Issues</dt><dd data-field="issues">${crawl.issues}</dd></div>
<div><dt>Mean score</dt><dd data-field="result">${crawl.result ?? '–'}</dd></div>
</dl>
</div>
${
  active
    ? html`<p class="muted">The counts update by themselves while the crawl runs. <a href="${self}">Refresh the counts</a></p>`
    : crawl.status === 'failed'
      ? html`<p>The crawl failed: the start page could not be fetched. Its row below says why.</p>`
      : ''
}
<dl class="crawl-facts">
<div><dt>Start page</dt><dd>${urlText(crawl.url)}</dd></div>
<div><dt>Most pages</dt><dd>${crawl.max_pages}</dd></div>
<div><dt>Started</dt><dd>${when(crawl.started_at)}</dd></div>
<div><dt>Finished</dt><dd>${when(crawl.finished_at)}</dd></div>
</dl>
</section>
${summarySection(options.summary, crawl)}
${issuesSection(options.issues, options.issuesMeta, crawl, keepForIssues, options.filter, options.filterErrors)}
${pagesSection(options.pages, options.pagesMeta, crawl, keepForPages)}`;
}
