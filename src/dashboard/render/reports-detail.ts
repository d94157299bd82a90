// One report in the dashboard: the share page's score card, history chart and checks, with
// the owner's controls: privacy and password, re-run, delete, and the share page's link.
import type { AnalysisConfig } from '../../analysis/config.js';
import { formatDateTime, isoDateTime, parseTimestamp, truncate } from '../../render/format.js';
import { html, safeHref, type SafeHtml } from '../../render/html.js';
import { type HistoryPoint, renderChecks, renderHistory, renderScoreCard } from '../../render/report.js';
import type { ReportJson } from '../api-types.js';
import { csrfField, errorSummary, inputField, postButton, selectField, type FieldErrors } from './forms.js';
import { PRIVACY_OPTIONS, PRIVACY_WORDS, renderField, withQuery } from './reports.js';

/** The report as the API answers it (the type of its schema). */
export type ReportDetail = ReportJson;

export interface ReportDetailView {
  csrf: string;
  config: AnalysisConfig;
  report: ReportDetail;
  /** Newest first, as the API lists it. */
  history: HistoryPoint[];
  /** The privacy form as posted, when the API refused it. */
  privacyForm?: { values: Record<string, string>; errors: FieldErrors };
  /** Offer "Render with Chromium" on the re-run (the instance has it). */
  renderAvailable?: boolean;
}

/** The re-run: with the render choice (as the report was last analysed) where Chromium is available. */
function rerunForm(view: ReportDetailView): SafeHtml {
  const { report, csrf } = view;
  if (!view.renderAvailable) return postButton(`/app/reports/${report.id}/rerun`, 'Re-run the analysis', csrf);
  return html`<form method="post" action="/app/reports/${report.id}/rerun">${csrfField(csrf)}
${renderField(report.rendered === true)}
<button class="button" type="submit">Re-run the analysis</button></form>`;
}

function privacyCard(view: ReportDetailView): SafeHtml {
  const { report, csrf } = view;
  const form = view.privacyForm;
  const current = PRIVACY_WORDS[String(report.privacy)] ?? String(report.privacy);
  const passwordHint = report.password
    ? 'A password is set: leave this empty to keep it, or enter a new one.'
    : 'Required for “Password”: 1 to 128 characters.';
  return html`<section class="card" aria-labelledby="privacy-title" id="privacy">
<h2 id="privacy-title">Privacy</h2>
<p>Now: <strong>${current}</strong>. ${
    report.privacy === 1
      ? 'Only you can see this report; its share page answers “not found” to everyone else.'
      : report.privacy === 2
        ? 'Its share page asks for the password.'
        : 'Anyone with the link can open its share page.'
  }</p>
${errorSummary(form?.errors, 'The privacy was not changed:')}
<form method="post" action="/app/reports/${report.id}">
${csrfField(csrf)}
${selectField({ name: 'privacy', label: 'Who can open the share page', options: PRIVACY_OPTIONS, value: form?.values.privacy ?? String(report.privacy), errors: form?.errors })}
${inputField({ name: 'password', label: 'Share-page password', type: 'password', autocomplete: 'new-password', maxlength: 128, hint: passwordHint, errors: form?.errors })}
<button class="button" type="submit">Save privacy</button>
</form>
</section>`;
}

export function renderReportDetail(view: ReportDetailView): SafeHtml {
  const { report, csrf, config } = view;
  const url = typeof report.url === 'string' ? report.url : '';
  const href = safeHref(url);
  const generated = parseTimestamp(report.generated_at);
  const history = renderHistory(view.history, config);
  return html`<div class="page-head"><div><p class="eyebrow">Report</p><h1 class="url-title">${truncate(url, 300) || 'Unknown page'}</h1></div></div>
<section class="card report-meta" aria-label="About this report">
<p class="page-meta">Project <a href="${withQuery('/app/reports', { project: report.project })}">${report.project}<span class="visually-hidden"> reports</span></a> · ${
    generated === null
      ? 'analysed at an unknown date'
      : html`analysed <time datetime="${isoDateTime(generated)}">${formatDateTime(generated)}</time>`
  }${report.rendered === true ? ' · rendered with Chromium' : ''}${
    href ? html` · <a href="${href}" rel="nofollow noopener noreferrer">Open the analysed page</a>` : ''
  }${report.privacy !== 1 ? html` · <a href="/reports/${report.id}">Open the share page</a>` : ''}</p>
<div class="actions">
${rerunForm(view)}
${postButton(`/app/reports/${report.id}/delete`, 'Delete this report', csrf, { danger: true })}
</div>
</section>
${renderScoreCard(report, config)}
${
  history ||
  html`<section class="card" aria-labelledby="history-heading"><h2 id="history-heading">Score over time</h2><p>${
    view.history.length === 1 ? 'One analysis so far.' : 'No analyses listed.'
  } Re-run the analysis to chart the score over time.</p></section>`
}
${privacyCard(view)}
${renderChecks(report, config)}`;
}
