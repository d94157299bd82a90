// The webhooks pages' markup: the list, the form (new and settings), the answer to a create
// (the signing secret, shown once), and a webhook's page with its recent deliveries. Values come
// from the API (docs/api.md "Webhooks").
import { EVENT_NAMES } from '../../model/events.js';
import { truncate } from '../../render/format.js';
import { html, type HtmlValue } from '../../render/html.js';
import { ICON_WARN } from '../../render/icons.js';
import { checkboxField, csrfField, errorSummary, type FieldErrors, inputField, postButton } from './forms.js';
import type { DeliveryJson, WebhookJson } from '../api-types.js';
import { type ListMeta, pager, timeOf } from './monitors-common.js';

/** The API's Webhook. */
export type WebhookView = WebhookJson;

/** The API's WebhookDelivery. */
export type DeliveryView = DeliveryJson;

export type WebhookFormValues = Record<string, string | string[] | undefined>;

const EVENT_WORDS: Record<string, string> = {
  'report.created': 'a report is created (crawls included)',
  'report.updated': 'a report is re-run or changed',
  'report.deleted': 'a report is deleted',
  'monitor.alert': 'a monitor alerts (the score dropped, or an important check failed)',
  'crawl.finished': 'a site audit finishes',
};

/** The host of a webhook's URL, for titles ("Webhook to hooks.example.com"). */
export function webhookHost(url: string): string {
  try {
    return truncate(new URL(url).host, 80);
  } catch {
    return truncate(url, 80);
  }
}

const text = (v: string | string[] | undefined) => (Array.isArray(v) ? (v.at(-1) ?? '') : (v ?? ''));
const list = (v: string | string[] | undefined) =>
  Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [];

function eventsFieldset(checked: readonly string[], errors: FieldErrors | undefined, hint: string) {
  const messages = errors?.events ?? [];
  const describedBy = ['f-events-hint', messages.length ? 'f-events-error' : ''].filter(Boolean).join(' ');
  return html`<fieldset class="events-field" aria-describedby="${describedBy}">
<legend>Events</legend>
<p class="hint" id="f-events-hint">${hint}</p>
${EVENT_NAMES.map((name) => {
  const id = `f-events-${name.replace('.', '-')}`;
  return html`<div class="check-field"><input id="${id}" type="checkbox" name="events[]" value="${name}"${
    checked.includes(name) ? html` checked` : ''
  }><label for="${id}"><code>${name}</code>: ${EVENT_WORDS[name] ?? name}</label></div>`;
})}
${messages.length ? html`<p class="error" id="f-events-error">${ICON_WARN}${messages.join(' ')}</p>` : ''}
</fieldset>`;
}

function webhookFields(values: WebhookFormValues, errors: FieldErrors | undefined, editing: boolean) {
  return html`${inputField({
    name: 'url',
    label: 'Receiver URL',
    type: 'url',
    value: text(values.url),
    required: !editing,
    maxlength: 2048,
    autocomplete: 'url',
    errors,
    hint: 'An http:// or https:// address on the public internet. Each event is sent there by POST, as JSON.',
  })}
${eventsFieldset(
  list(values.events),
  errors,
  editing ? 'The events sent to this URL (with none ticked, the current ones stay).' : 'Choose one or more.',
)}
${checkboxField({ name: 'active', label: 'Active (when off, nothing is sent)', checked: text(values.active) !== '0', errors })}`;
}

export function webhookListMain(options: { webhooks: WebhookView[]; meta: ListMeta }): HtmlValue {
  const { webhooks, meta } = options;
  const head = html`<div class="page-head"><h1>Webhooks</h1><div class="actions"><a class="button" href="/app/webhooks/new">New webhook</a></div></div>`;
  if (webhooks.length === 0 && meta.total === 0) {
    return html`${head}
<section class="card empty" aria-label="No webhooks">
<p>No webhooks yet. A webhook sends a signed JSON message to your URL when a report is created, updated or deleted, when a monitor alerts, or when a site audit finishes.</p>
<p><a class="button" href="/app/webhooks/new">Add your first webhook</a></p>
</section>`;
  }
  const rows = webhooks.map(
    (w) => html`<tr>
<td><a href="/app/webhooks/${w.id}">${truncate(w.url, 100)}</a></td>
<td>${w.events.map((e, i) => html`${i ? ', ' : ''}<code>${e}</code>`)}</td>
<td>${w.active === 1 ? 'Active' : 'Paused'}</td>
<td>${timeOf(w.created_at)}</td>
</tr>`,
  );
  return html`${head}
<section class="card" aria-labelledby="webhooks-caption">
<div class="table-scroll"><table class="data-table">
<caption id="webhooks-caption" class="visually-hidden">Your webhooks, newest first</caption>
<thead><tr><th scope="col">Receiver URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="4">No webhooks on this page. <a href="/app/webhooks">Back to the first page of webhooks</a></td></tr>`}</tbody>
</table></div>
${pager('/app/webhooks', meta, 'webhooks', 'Pages of webhooks')}
</section>`;
}

export function newWebhookMain(options: { csrf: string; values: WebhookFormValues; errors?: FieldErrors }): HtmlValue {
  const { csrf, values, errors } = options;
  return html`<div class="page-head"><h1>New webhook</h1><div class="actions"><a href="/app/webhooks">Back to webhooks</a></div></div>
<section class="card" aria-labelledby="new-webhook-title">
<h2 id="new-webhook-title">Where to send events</h2>
${errorSummary(errors)}
<form method="post" action="/app/webhooks" novalidate>
${csrfField(csrf)}
${webhookFields(values, errors, false)}
<button class="button" type="submit">Create webhook</button>
</form>
</section>`;
}

/** The answer to a create: the secret, in this page only. */
export function createdWebhookMain(webhook: WebhookView, secret: string): HtmlValue {
  return html`<div class="page-head"><h1>Webhook created</h1></div>
<section class="card" aria-labelledby="secret-title">
<h2 id="secret-title">Signing secret</h2>
<p><strong>Copy this secret now: it will not be shown again.</strong> Only this page shows it; if it is lost, delete the webhook and create another.</p>
<p><code class="secret" id="webhook-secret">${secret}</code></p>
<p>Each delivery to <strong>${webhook.url}</strong> carries <code>X-Rankscope-Signature: sha256=…</code>, the hex HMAC-SHA256 of the raw body keyed with this secret. Compute it on your side and compare before trusting a message.</p>
<div class="actions"><a class="button" href="/app/webhooks/${webhook.id}">Open the webhook’s page</a><a href="/app/webhooks">Back to webhooks</a></div>
</section>`;
}

function outcome(d: DeliveryView): string {
  if (d.delivered_at) return 'Delivered';
  if (d.error && /gave up/i.test(d.error)) return 'Failed, given up';
  if (d.attempts > 0) return 'Failed, will retry';
  return 'Waiting to be sent';
}

function deliveriesTable(webhookId: number, deliveries: DeliveryView[], meta: ListMeta): HtmlValue {
  if (deliveries.length === 0 && meta.total === 0) {
    return html`<p class="empty">No deliveries in the last 30 days. When one of the events above happens, its delivery and the receiver's answer appear here.</p>`;
  }
  const rows = deliveries.map(
    (d) => html`<tr>
<td><code>${d.event}</code></td>
<td>${outcome(d)}</td>
<td class="num">${d.status_code ?? 'No answer'}</td>
<td>${d.error ? truncate(d.error, 300) : '—'}</td>
<td class="num">${d.attempts}</td>
<td>${timeOf(d.created_at)}</td>
<td>${timeOf(d.delivered_at, 'Not yet')}</td>
</tr>`,
  );
  return html`<div class="table-scroll"><table class="data-table deliveries">
<caption id="deliveries-caption" class="visually-hidden">Deliveries of the last 30 days, newest first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Outcome</th><th scope="col">Receiver’s answer (HTTP status)</th><th scope="col">Error</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col">Delivered</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="7">No deliveries on this page. <a href="/app/webhooks/${webhookId}">Back to the newest deliveries</a></td></tr>`}</tbody>
</table></div>
${pager(`/app/webhooks/${webhookId}`, meta, 'deliveries', 'Pages of deliveries')}`;
}

export function webhookMain(options: {
  csrf: string;
  webhook: WebhookView;
  deliveries: DeliveryView[];
  deliveriesMeta: ListMeta;
  values?: WebhookFormValues;
  errors?: FieldErrors;
}): HtmlValue {
  const { csrf, webhook: w, errors } = options;
  const current: WebhookFormValues = { url: w.url, events: w.events, active: String(w.active) };
  // A refused form keeps what was sent; events left unticked keep the current ones (the API's rule).
  const values: WebhookFormValues = options.values
    ? { ...current, ...options.values, events: options.values.events ?? w.events }
    : current;
  return html`<div class="page-head"><h1>Webhook to ${webhookHost(w.url)}</h1><div class="actions"><a href="/app/webhooks">Back to webhooks</a></div></div>
<section class="card" aria-labelledby="deliveries-title">
<h2 id="deliveries-title">Recent deliveries</h2>
<p>${w.active === 1 ? 'Active' : 'Paused: nothing is sent'}. Events go to <strong>${w.url}</strong>; a 2xx answer within 10 seconds counts, anything else is retried for about a day.</p>
${deliveriesTable(w.id, options.deliveries, options.deliveriesMeta)}
</section>
<section class="card" aria-labelledby="webhook-settings">
<h2 id="webhook-settings">Settings</h2>
${errorSummary(errors)}
<form method="post" action="/app/webhooks/${w.id}" novalidate>
${csrfField(csrf)}
${webhookFields(values, errors, true)}
<button class="button" type="submit">Save settings</button>
</form>
</section>
<section class="card" aria-labelledby="webhook-delete">
<h2 id="webhook-delete">Delete this webhook</h2>
<p>Its deliveries go with it; one still waiting is never sent.</p>
<div class="actions">${postButton(`/app/webhooks/${w.id}/delete`, 'Delete webhook', csrf, { danger: true })}</div>
</section>`;
}
