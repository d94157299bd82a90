// The monitors pages' markup: the list, the new-monitor form, and a monitor's page (its facts,
// the settings form, run now, delete). Values come from the API (docs/api.md "Monitors").
import type { AnalysisConfig } from '../../analysis/config.js';
import { FREQUENCIES } from '../../model/schedule.js';
import { truncate } from '../../render/format.js';
import { html, type HtmlValue } from '../../render/html.js';
import { checkboxField, csrfField, errorSummary, type FieldErrors, inputField, postButton, selectField } from './forms.js';
import type { MonitorJson } from '../api-types.js';
import { type ListMeta, pager, scoreBadge, timeOf } from './monitors-common.js';
import { renderField } from './reports.js';

/** The API's Monitor. */
export type MonitorView = MonitorJson;

/** A report a monitor can re-run: its id and URL. */
export interface ReportChoice {
  id: number;
  url: string;
}

/** The values of a monitor form, as sent (kept when the API refuses them). */
export type MonitorFormValues = Record<string, string | string[] | undefined>;

const FREQUENCY_WORDS: Record<string, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };
const frequencyWord = (f: string) => FREQUENCY_WORDS[f] ?? f;

/** "example.com/page" for a report URL (the scheme dropped), cut so one long URL cannot bloat a page. */
export function shortUrl(url: string): string {
  return truncate(url.replace(/^https?:\/\//, ''), 80);
}

const reportName = (reports: ReadonlyMap<number, string>, id: number) => {
  const url = reports.get(id);
  return url ? shortUrl(url) : `Report #${id}`;
};

const text = (v: string | string[] | undefined) => (Array.isArray(v) ? (v.at(-1) ?? '') : (v ?? ''));

function frequencyField(value: string, errors: FieldErrors | undefined, editing: boolean) {
  return selectField({
    name: 'frequency',
    label: 'Frequency',
    options: [
      ...(value === '' ? [{ value: '', label: 'Choose how often' }] : []),
      ...FREQUENCIES.map((f) => ({ value: f, label: frequencyWord(f) })),
    ],
    value,
    required: true,
    errors,
    hint: editing
      ? 'A new frequency moves the next run to the first time of the new rhythm from now.'
      : 'The first run is one period after the monitor is created.',
  });
}

function alertFields(values: MonitorFormValues, errors: FieldErrors | undefined, renderAvailable: boolean) {
  const email = text(values.email);
  return html`${inputField({
    name: 'alert_drop',
    label: 'Alert when the score drops by (points)',
    type: 'number',
    min: 1,
    max: 100,
    value: text(values.alert_drop),
    errors,
    hint: 'From 1 to 100, compared with the run before. A high-importance check that stops passing always alerts.',
  })}
${checkboxField({
  name: 'email',
  label: "E-mail an alert to the account's address",
  checked: email !== '0',
  errors,
})}
${renderAvailable ? renderField(text(values.render) === '1', errors) : ''}`;
}

export function monitorListMain(options: {
  monitors: MonitorView[];
  reports: ReadonlyMap<number, string>;
  meta: ListMeta;
  bands: AnalysisConfig['bands'];
  hasReports: boolean;
}): HtmlValue {
  const { monitors, reports, meta, bands } = options;
  const head = html`<div class="page-head"><h1>Monitors</h1><div class="actions"><a class="button" href="/app/monitors/new">New monitor</a></div></div>`;
  if (monitors.length === 0 && meta.total === 0) {
    return html`${head}
<section class="card empty" aria-label="No monitors">
<p>No monitors yet. A monitor re-runs one of your reports daily, weekly or monthly and alerts you when its score drops.</p>
${
  options.hasReports
    ? html`<p><a class="button" href="/app/monitors/new">Create your first monitor</a></p>`
    : html`<p>A monitor needs a report to re-run: <a href="/app/reports">go to your reports and create one first</a>.</p>`
}
</section>`;
  }
  const rows = monitors.map(
    (m) => html`<tr>
<td><a href="/app/monitors/${m.id}">${reportName(reports, m.report_id)}</a></td>
<td>${frequencyWord(m.frequency)}</td>
<td class="num">${m.alert_drop} points</td>
<td>${m.email === 1 ? 'On' : 'Off'}</td>
<td>${timeOf(m.last_run_at)}</td>
<td>${scoreBadge(m.last_result, bands)}</td>
<td>${timeOf(m.next_run_at)}</td>
</tr>`,
  );
  return html`${head}
<section class="card" aria-labelledby="monitors-caption">
<div class="table-scroll"><table class="data-table">
<caption id="monitors-caption" class="visually-hidden">Your monitors, newest first</caption>
<thead><tr><th scope="col">Report</th><th scope="col">Frequency</th><th scope="col">Alert drop</th><th scope="col">E-mail alerts</th><th scope="col">Last run</th><th scope="col">Last score</th><th scope="col">Next run</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="7">No monitors on this page. <a href="/app/monitors">Back to the first page of monitors</a></td></tr>`}</tbody>
</table></div>
${pager('/app/monitors', meta, 'monitors', 'Pages of monitors')}
</section>`;
}

export function newMonitorMain(options: {
  csrf: string;
  reports: ReportChoice[];
  values: MonitorFormValues;
  errors?: FieldErrors;
  /** Offer "Render with Chromium" (the instance has it). */
  renderAvailable?: boolean;
}): HtmlValue {
  const { csrf, reports, values, errors } = options;
  const head = html`<div class="page-head"><h1>New monitor</h1><div class="actions"><a href="/app/monitors">Back to monitors</a></div></div>`;
  if (reports.length === 0 && !errors) {
    return html`${head}
<section class="card empty" aria-label="No reports to monitor">
<p>A monitor re-runs a report, and you have none yet. <a href="/app/reports">Go to your reports and create one first</a>.</p>
</section>`;
  }
  const sent = text(values.report_id);
  const reportId = reports.some((r) => String(r.id) === sent) ? sent : '';
  return html`${head}
<section class="card" aria-labelledby="new-monitor-title">
<h2 id="new-monitor-title">Re-run a report on a schedule</h2>
${errorSummary(errors)}
<form method="post" action="/app/monitors" novalidate>
${csrfField(csrf)}
${selectField({
  name: 'report_id',
  label: 'Report',
  options: [
    ...(reportId === '' ? [{ value: '', label: 'Choose a report' }] : []),
    ...reports.map((r) => ({ value: String(r.id), label: `${shortUrl(r.url)} (#${r.id})` })),
  ],
  value: reportId,
  required: true,
  errors,
  hint: 'The report whose page is analysed again at each run.',
})}
${frequencyField(text(values.frequency), errors, false)}
${alertFields(values, errors, options.renderAvailable === true)}
<button class="button" type="submit">Create monitor</button>
</form>
</section>`;
}

export function monitorMain(options: {
  csrf: string;
  monitor: MonitorView;
  reportUrl: string | null;
  bands: AnalysisConfig['bands'];
  values?: MonitorFormValues;
  errors?: FieldErrors;
  renderAvailable?: boolean;
}): HtmlValue {
  const { csrf, monitor: m, bands, errors } = options;
  const values: MonitorFormValues = options.values ?? {
    frequency: m.frequency,
    alert_drop: String(m.alert_drop),
    email: String(m.email),
    render: String(m.render),
  };
  const name = options.reportUrl ? shortUrl(options.reportUrl) : `report #${m.report_id}`;
  return html`<div class="page-head"><h1>Monitor of ${name}</h1><div class="actions"><a href="/app/monitors">Back to monitors</a></div></div>
<section class="card" aria-labelledby="monitor-state">
<h2 id="monitor-state">Runs</h2>
<dl class="facts">
<dt>Report</dt><dd><a href="/app/reports/${m.report_id}">${options.reportUrl ? shortUrl(options.reportUrl) : `Report #${m.report_id}`}</a></dd>
<dt>Last run</dt><dd>${timeOf(m.last_run_at)}</dd>
<dt>Score of the last run</dt><dd>${scoreBadge(m.last_result, bands)}</dd>
<dt>Next scheduled run</dt><dd>${timeOf(m.next_run_at)}</dd>
<dt>Page read as</dt><dd>${m.render === 1 ? 'Rendered with Chromium' : 'Raw HTML'}</dd>
<dt>Created</dt><dd>${timeOf(m.created_at)}</dd>
<dt>Settings last changed</dt><dd>${timeOf(m.updated_at)}</dd>
</dl>
<p>Run now analyses the page again shortly, without moving the schedule.</p>
<div class="actions">${postButton(`/app/monitors/${m.id}/run`, 'Run now', csrf)}</div>
</section>
<section class="card" aria-labelledby="monitor-settings">
<h2 id="monitor-settings">Settings</h2>
${errorSummary(errors)}
<form method="post" action="/app/monitors/${m.id}" novalidate>
${csrfField(csrf)}
${frequencyField(text(values.frequency), errors, true)}
${alertFields(values, errors, options.renderAvailable === true)}
<button class="button" type="submit">Save settings</button>
</form>
</section>
<section class="card" aria-labelledby="monitor-delete">
<h2 id="monitor-delete">Delete this monitor</h2>
<p>The report stays; it is no longer re-run on a schedule.</p>
<div class="actions">${postButton(`/app/monitors/${m.id}/delete`, 'Delete monitor', csrf, { danger: true })}</div>
</section>`;
}
