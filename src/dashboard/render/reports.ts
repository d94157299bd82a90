// The reports list and the projects list of the dashboard: filters, tables, paging, the new
// report form. Everything shown comes from the API's JSON (read defensively: names only).
import type { AnalysisConfig } from '../../analysis/config.js';
import { bandOf } from '../../analysis/score.js';
import { formatDateTime, isoDateTime, normaliseScore, parseTimestamp, truncate } from '../../render/format.js';
import { BAND_ICONS, BAND_WORDS } from '../../render/gauge.js';
import { html, type HtmlValue, type SafeHtml } from '../../render/html.js';
import type { ProjectJson, ReportJson } from '../api-types.js';
import { checkboxField, csrfField, errorSummary, inputField, selectField, type FieldErrors } from './forms.js';

/** The paginator's fields the pages read. */
export interface ListPage<T> {
  data: T[];
  meta: { current_page: number; last_page: number; total: number; from: number | null; to: number | null };
}

/** A report and a project as the API answers them (the types of its schemas). */
export type ReportItem = ReportJson;
export type ProjectItem = ProjectJson;

export const PRIVACY_WORDS: Record<string, string> = { '0': 'Public', '1': 'Private', '2': 'Password' };

export const PRIVACY_OPTIONS = [
  { value: '1', label: 'Private: only you' },
  { value: '0', label: 'Public: anyone with the link' },
  { value: '2', label: 'Password: anyone with the password' },
] as const;

/** A dashboard URL with the given query (empty values left out), `page` last. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '' && key !== 'page') params.set(key, String(value));
  }
  if (query.page !== undefined && query.page !== '') params.set('page', String(query.page));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** "Showing 1–25 of 60", and the previous and next pages, keeping the filters. */
export function renderPager(
  meta: ListPage<unknown>['meta'],
  path: string,
  query: Record<string, string | undefined>,
  noun: string,
): HtmlValue {
  const current = meta.current_page;
  const last = Math.max(1, meta.last_page);
  const link = (page: number) => withQuery(path, { ...query, page });
  const range = meta.from !== null && meta.to !== null ? `${meta.from}–${meta.to} of ${meta.total}` : `none of ${meta.total}`;
  return html`<nav class="pager" aria-label="Pages of ${noun}">
<p>Showing ${range} ${noun} · page ${Math.min(current, last)} of ${last}</p>
<div class="actions">${current > 1 ? html`<a href="${link(Math.min(current - 1, last))}" rel="prev">Previous page of ${noun}</a>` : ''}${
    current < last ? html`<a href="${link(current + 1)}" rel="next">Next page of ${noun}</a>` : ''
  }</div>
</nav>`;
}

function dateCell(value: unknown): HtmlValue {
  const time = parseTimestamp(value);
  return time === null ? '–' : html`<time datetime="${isoDateTime(time)}">${formatDateTime(time)}</time>`;
}

/** The score with its band in words and an icon (never colour alone). */
export function scoreWithBand(result: unknown, bands: AnalysisConfig['bands']): SafeHtml {
  const score = normaliseScore(result);
  if (score === null) return html`–`;
  const band = bandOf(score, bands);
  return html`<span class="score-band band-${band}">${score} <span class="badge">${BAND_ICONS[band]}${BAND_WORDS[band]}</span></span>`;
}

export interface NewReportForm {
  csrf: string;
  values?: Record<string, string>;
  errors?: FieldErrors;
  /** Offer "Render with Chromium" (the instance has it). */
  renderAvailable?: boolean;
}

/** The `render` checkbox of the report and monitor forms (docs/rendering.md). */
export function renderField(checked: boolean, errors?: FieldErrors): SafeHtml {
  return checkboxField({
    name: 'render',
    label: 'Render with Chromium',
    checked,
    errors,
    hint: 'Runs the page’s JavaScript first and checks the page as a browser shows it: slower, for sites that build their content with scripts.',
  });
}

export function renderNewReportForm(form: NewReportForm): SafeHtml {
  const values = form.values ?? {};
  return html`<section class="card" aria-labelledby="new-report-title" id="new-report">
<h2 id="new-report-title">New report</h2>
<p>Enter the address of a page: Rankscope fetches and analyses it now, which can take a few seconds.</p>
${errorSummary(form.errors, 'The report was not created:')}
<form method="post" action="/app/reports" data-busy="Analysing…">
${csrfField(form.csrf)}
${inputField({ name: 'url', label: 'Page URL', type: 'text', value: values.url, placeholder: 'https://example.com/page', autocomplete: 'url', required: true, maxlength: 2048, errors: form.errors })}
${selectField({ name: 'privacy', label: 'Who can open its share page', options: PRIVACY_OPTIONS, value: values.privacy ?? '1', errors: form.errors })}
${inputField({ name: 'password', label: 'Share-page password', type: 'password', autocomplete: 'new-password', maxlength: 128, hint: 'Only with “Password”: 1 to 128 characters.', errors: form.errors })}
${form.renderAvailable ? renderField(values.render === '1', form.errors) : ''}
<button class="button" type="submit">Analyse</button>
</form>
</section>`;
}

export interface ReportsListView {
  csrf: string;
  bands: AnalysisConfig['bands'];
  /** The filters as asked (shown in the form, kept by the pager). */
  query: Record<string, string>;
  /** null when the API refused the filters (their messages are in filterErrors). */
  page: ListPage<ReportItem> | null;
  filterErrors?: FieldErrors;
  projects: string[];
  newReport?: { values?: Record<string, string>; errors?: FieldErrors };
  renderAvailable?: boolean;
}

const FILTER_KEYS = ['search', 'project', 'result', 'sort_by', 'sort', 'per_page'] as const;

export function renderReportsList(view: ReportsListView): SafeHtml {
  const { query, page } = view;
  const filtered = ['search', 'project', 'result'].some((k) => query[k]);
  const kept = Object.fromEntries(FILTER_KEYS.map((k) => [k, query[k]]));
  const projects = [...new Set([...view.projects, ...(query.project ? [query.project] : [])])];
  const filters = html`<form class="filters" method="get" action="/app/reports" role="search" aria-label="Filter reports">
${inputField({ name: 'search', label: 'Search URL or project', type: 'search', value: query.search, errors: view.filterErrors })}
${selectField({ name: 'project', label: 'Project', value: query.project ?? '', errors: view.filterErrors, options: [{ value: '', label: 'All projects' }, ...projects.map((p) => ({ value: p, label: p }))] })}
${selectField({
  name: 'result',
  label: 'Score',
  value: query.result ?? '',
  errors: view.filterErrors,
  options: [
    { value: '', label: 'Any score' },
    { value: 'good', label: `Good (${view.bands.good} or more)` },
    { value: 'decent', label: `Decent (${view.bands.decent}–${view.bands.good - 1})` },
    { value: 'bad', label: `Poor (below ${view.bands.decent})` },
  ],
})}
${selectField({
  name: 'sort_by',
  label: 'Sort by',
  value: query.sort_by ?? 'id',
  errors: view.filterErrors,
  options: [
    { value: 'id', label: 'Date created' },
    { value: 'generated_at', label: 'Date analysed' },
    { value: 'url', label: 'URL' },
    { value: 'result', label: 'Score' },
  ],
})}
${selectField({
  name: 'sort',
  label: 'Order',
  value: query.sort ?? 'desc',
  errors: view.filterErrors,
  options: [
    { value: 'desc', label: 'Descending' },
    { value: 'asc', label: 'Ascending' },
  ],
})}
${query.per_page ? html`<input type="hidden" name="per_page" value="${query.per_page}">` : ''}
<button class="button secondary" type="submit">Apply filters</button>
</form>`;

  let body: HtmlValue;
  if (page === null) {
    body = html`${errorSummary(view.filterErrors, 'These filters were refused:')}<p><a href="/app/reports">Show all reports</a></p>`;
  } else if (page.meta.total === 0 && !filtered) {
    body = html`<section class="card empty" aria-labelledby="empty-title"><h2 id="empty-title">No reports yet</h2><p>No reports yet. Enter a page’s URL in the form below to analyse it.</p></section>`;
  } else if (page.data.length === 0) {
    body = html`<section class="card empty" aria-labelledby="empty-title"><h2 id="empty-title">No matching reports</h2><p>No reports match these filters${
      page.meta.total > 0 ? ' on this page' : ''
    }. <a href="/app/reports">Clear the filters</a> to see every report.</p></section>`;
  } else {
    body = html`<div class="table-scroll"><table class="data-table reports-table">
<caption class="visually-hidden">Your reports${filtered ? ', filtered' : ''}</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Project</th><th scope="col">Score</th><th scope="col">Analysed</th><th scope="col">Privacy</th></tr></thead>
<tbody>${page.data.map(
      (r) =>
        html`<tr><th scope="row" class="url-cell"><a href="/app/reports/${r.id}">${truncate(String(r.url ?? ''), 120)}</a></th><td>${r.project}</td><td>${scoreWithBand(
          r.result,
          view.bands,
        )}</td><td>${dateCell(r.generated_at)}</td><td>${PRIVACY_WORDS[String(r.privacy)] ?? r.privacy}</td></tr>`,
    )}</tbody>
</table></div>
${renderPager(page.meta, '/app/reports', kept, 'reports')}`;
  }

  return html`<div class="page-head"><h1>Reports</h1><a class="button secondary" href="#new-report">New report</a></div>
<section class="card">${filters}</section>
${body}
${renderNewReportForm({ csrf: view.csrf, renderAvailable: view.renderAvailable, ...view.newReport })}`;
}

export interface ProjectsListView {
  query: Record<string, string>;
  page: ListPage<ProjectItem> | null;
  errors?: FieldErrors;
}

export function renderProjectsList(view: ProjectsListView): SafeHtml {
  const { query, page } = view;
  const kept = Object.fromEntries(['search', 'sort_by', 'sort', 'per_page'].map((k) => [k, query[k]]));
  const filters = html`<form class="filters" method="get" action="/app/projects" role="search" aria-label="Filter projects">
${inputField({ name: 'search', label: 'Search projects', type: 'search', value: query.search, errors: view.errors })}
${selectField({
  name: 'sort_by',
  label: 'Sort by',
  value: query.sort_by ?? 'created_at',
  errors: view.errors,
  options: [
    { value: 'created_at', label: 'First report' },
    { value: 'project', label: 'Name' },
  ],
})}
${selectField({
  name: 'sort',
  label: 'Order',
  value: query.sort ?? 'desc',
  errors: view.errors,
  options: [
    { value: 'desc', label: 'Descending' },
    { value: 'asc', label: 'Ascending' },
  ],
})}
${query.per_page ? html`<input type="hidden" name="per_page" value="${query.per_page}">` : ''}
<button class="button secondary" type="submit">Apply filters</button>
</form>`;
  let body: HtmlValue;
  if (page === null) {
    body = html`${errorSummary(view.errors, 'These filters were refused:')}<p><a href="/app/projects">Show all projects</a></p>`;
  } else if (page.meta.total === 0 && !query.search) {
    body = html`<section class="card empty" aria-labelledby="empty-title"><h2 id="empty-title">No projects yet</h2><p>No projects yet. A project is the site of a report: <a href="/app/reports#new-report">analyse a page</a> to start one.</p></section>`;
  } else if (page.data.length === 0) {
    body = html`<section class="card empty" aria-labelledby="empty-title"><h2 id="empty-title">No matching projects</h2><p>No projects match. <a href="/app/projects">Clear the search</a> to see every project.</p></section>`;
  } else {
    body = html`<div class="table-scroll"><table class="data-table">
<caption class="visually-hidden">Your projects and their reports</caption>
<thead><tr><th scope="col">Project</th><th scope="col" class="num">Reports</th><th scope="col">First report</th></tr></thead>
<tbody>${page.data.map(
      (p) =>
        html`<tr><th scope="row"><a href="${withQuery('/app/reports', { project: p.project })}">${p.project}<span class="visually-hidden"> reports</span></a></th><td class="num">${p.reports_count}</td><td>${dateCell(
          p.created_at,
        )}</td></tr>`,
    )}</tbody>
</table></div>
${renderPager(page.meta, '/app/projects', kept, 'projects')}`;
  }
  return html`<div class="page-head"><h1>Projects</h1><a class="button secondary" href="/app/reports#new-report">New report</a></div>
<p>A project groups the reports of one site (the host of each report’s address, without “www.”).</p>
<section class="card">${filters}</section>
${body}`;
}
