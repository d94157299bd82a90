// The websites pages: the list, the new-website form, a website's settings with its tracking
// snippet, and its stats (the share page's traffic sections). Every value comes from the API.
import { DEFAULT_PRIVACY, Privacy } from '../../model/privacy.js';
import { formatDay, isoDateTime, parseTimestamp, truncate } from '../../render/format.js';
import { html, type HtmlValue, type SafeHtml } from '../../render/html.js';
import { renderTraffic, type WebsiteTraffic } from '../../render/traffic.js';
import type { WebsiteJson } from '../api-types.js';
import {
  checkboxField,
  csrfField,
  errorSummary,
  inputField,
  postButton,
  selectField,
  textareaField,
  type FieldErrors,
} from './forms.js';

/** A website in the API's words. */
export type ApiWebsite = WebsiteJson;

/** The settings form's values: the posted strings (a refused form shows what was sent). */
export type WebsiteValues = Record<string, string | undefined>;

const PRIVACY_LABELS: Record<number, string> = {
  [Privacy.Public]: 'Public',
  [Privacy.Private]: 'Private',
  [Privacy.Password]: 'Password',
};

const PRIVACY_OPTIONS = [
  { value: String(Privacy.Public), label: 'Public' },
  { value: String(Privacy.Private), label: 'Private' },
  { value: String(Privacy.Password), label: 'Password' },
];

export const privacyLabel = (privacy: number) => PRIVACY_LABELS[privacy] ?? String(privacy);

/** The install snippet (docs/analytics.md#the-tracker). */
export function trackingSnippet(origin: string, websiteId: number): string {
  return `<script defer src="${origin}/js/script.js" data-website="${websiteId}"></script>`;
}

/** The form's values of a stored website. */
export function valuesOf(website: ApiWebsite): WebsiteValues {
  return {
    privacy: String(website.privacy),
    email: website.email === 1 ? '1' : '0',
    exclude_bots: website.exclude_bots === 1 ? '1' : '0',
    exclude_ips: website.exclude_ips ?? '',
    exclude_params: website.exclude_params ?? '',
  };
}

/** The values of a new website's form before anything is sent. */
export const NEW_WEBSITE_VALUES: WebsiteValues = {
  domain: '',
  privacy: String(DEFAULT_PRIVACY),
  email: '0',
  exclude_bots: '1',
  exclude_ips: '',
  exclude_params: '',
};

/** The settings every website has (create and edit alike; the domain is asked only on create). */
function settingsFields(values: WebsiteValues, errors: FieldErrors | undefined, hasPassword: boolean): SafeHtml {
  return html`${selectField({
    name: 'privacy',
    label: 'Share page',
    options: PRIVACY_OPTIONS,
    value: values.privacy,
    errors,
    hint: 'Public: anyone with the link sees its share page and traffic. Private: no share page. Password: the share page asks for the password below.',
  })}
${inputField({
  name: 'password',
  label: 'Share-page password',
  type: 'password',
  autocomplete: 'new-password',
  maxlength: 128,
  errors,
  hint: hasPassword
    ? 'A password is set. Leave this empty to keep it; used only with the privacy “Password”.'
    : 'Needed only with the privacy “Password”: 1 to 128 characters.',
})}
${checkboxField({ name: 'email', label: 'E-mail me a periodic traffic digest of this website', checked: values.email === '1', errors })}
${checkboxField({ name: 'exclude_bots', label: 'Do not count bots, crawlers and headless browsers', checked: values.exclude_bots === '1', errors })}
${textareaField({
  name: 'exclude_ips',
  label: 'Excluded IP addresses',
  value: values.exclude_ips,
  errors,
  hint: 'One IPv4 or IPv6 address or CIDR range per line (e.g. 203.0.113.0/24). Visits from them are not counted.',
})}
${textareaField({
  name: 'exclude_params',
  label: 'Excluded query parameters',
  value: values.exclude_params,
  errors,
  hint: 'One query parameter name per line (e.g. session). They are removed from page addresses before anything is stored.',
})}`;
}

function dayOf(timestamp: string): HtmlValue {
  const ms = parseTimestamp(timestamp);
  return ms === null ? '' : html`<time datetime="${isoDateTime(ms)}">${formatDay(ms)}</time>`;
}

export interface WebsiteList {
  websites: ApiWebsite[];
  page: number;
  lastPage: number;
  total: number;
  search: string;
  errors?: FieldErrors;
}

function listHref(page: number, search: string): string {
  const query = new URLSearchParams();
  if (search) query.set('search', search);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `/app/websites?${text}` : '/app/websites';
}

export function renderWebsiteList(list: WebsiteList): SafeHtml {
  const { websites, page, lastPage, total, search } = list;
  const head = html`<div class="page-head"><h1>Websites</h1><div class="actions"><a class="button" href="/app/websites/new">Add a website</a></div></div>`;
  if (total === 0 && !search && !list.errors) {
    return html`${head}<section class="card empty" aria-labelledby="empty-title">
<h2 id="empty-title">No websites yet</h2>
<p>Add one to count its traffic: you get a tracking snippet to put on its pages, then its stats.</p>
<p><a class="button" href="/app/websites/new">Add a website</a></p>
</section>`;
  }
  const searchForm = html`<form class="filters" method="get" action="/app/websites" role="search">
${inputField({ name: 'search', label: 'Search domains', type: 'search', value: search, errors: list.errors, maxlength: 255 })}
<button class="button secondary" type="submit">Search</button>
${search ? html`<a href="/app/websites">Show every website</a>` : ''}
</form>`;
  const table =
    websites.length === 0
      ? html`<p class="empty">${search ? html`No website’s domain contains “${search}”. Try another search, or <a href="/app/websites/new">add a website</a>.` : html`No websites on this page. <a href="/app/websites">Go to the first page</a>.`}</p>`
      : html`<div class="table-scroll"><table class="data-table">
<caption class="visually-hidden">Your websites${search ? `, domains containing “${search}”` : ''}</caption>
<thead><tr><th scope="col">Domain</th><th scope="col">Share page</th><th scope="col">Added</th><th scope="col">Stats</th></tr></thead>
<tbody>${websites.map(
          (w) =>
            html`<tr><th scope="row"><a href="/app/websites/${w.id}">${truncate(w.domain, 255)}</a></th><td>${privacyLabel(w.privacy)}</td><td>${dayOf(w.created_at)}</td><td><a href="/app/websites/${w.id}/stats" aria-label="Stats of ${w.domain}">Stats</a></td></tr>`,
        )}</tbody>
</table></div>`;
  const pager =
    lastPage > 1
      ? html`<nav class="pager" aria-label="Pages of websites">
${page > 1 ? html`<a href="${listHref(page - 1, search)}" rel="prev">Previous page</a>` : html`<span></span>`}
<span>Page ${Math.min(page, lastPage)} of ${lastPage} (${total} websites)</span>
${page < lastPage ? html`<a href="${listHref(page + 1, search)}" rel="next">Next page</a>` : html`<span></span>`}
</nav>`
      : '';
  return html`${head}<section class="card" aria-label="Your websites">${searchForm}${errorSummary(list.errors)}${table}${pager}</section>`;
}

export function renderNewWebsite(csrf: string, values: WebsiteValues, errors?: FieldErrors): SafeHtml {
  return html`<div class="page-head"><h1>Add a website</h1><div class="actions"><a href="/app/websites">Back to the websites</a></div></div>
<section class="card" aria-labelledby="new-website-title">
<h2 id="new-website-title">The website and its settings</h2>
${errorSummary(errors)}
<form method="post" action="/app/websites" novalidate>
${csrfField(csrf)}
${inputField({
  name: 'domain',
  label: 'Domain',
  value: values.domain,
  required: true,
  maxlength: 255,
  autocomplete: 'off',
  placeholder: 'www.example.com',
  errors,
  hint: 'The host name of the site (a pasted address like https://www.example.com/page is reduced to www.example.com). Its subdomains count too.',
})}
${settingsFields(values, errors, false)}
<button class="button" type="submit">Add the website</button>
</form>
</section>`;
}

export interface WebsiteDetail {
  website: ApiWebsite;
  csrf: string;
  origin: string;
  values: WebsiteValues;
  errors?: FieldErrors;
}

export function renderWebsiteDetail({ website, csrf, origin, values, errors }: WebsiteDetail): SafeHtml {
  const id = website.id;
  const shareLink =
    website.privacy === Privacy.Private
      ? html`<p>The share page is off (private). Choose “Public” or “Password” below to share the traffic.</p>`
      : html`<p><a href="/websites/${id}">Open the public share page of ${website.domain}</a>${
          website.privacy === Privacy.Password ? ' (it asks for the password)' : ''
        }</p>`;
  return html`<div class="page-head"><h1>${website.domain}</h1><div class="actions"><a class="button" href="/app/websites/${id}/stats">Stats of ${website.domain}</a><a href="/app/websites">Back to the websites</a></div></div>
<section class="card" aria-labelledby="snippet-title">
<h2 id="snippet-title">Tracking snippet</h2>
<p>Put this tag in the <code>&lt;head&gt;</code> of every page of ${website.domain}. It sets no cookie; visits then appear in the stats.</p>
<pre class="snippet" id="snippet" data-copy="the snippet">${trackingSnippet(origin, id)}</pre>
${shareLink}
</section>
<section class="card" aria-labelledby="settings-title">
<h2 id="settings-title">Settings</h2>
<p>Domain: <strong>${website.domain}</strong> (it does not change; delete the website and add it again for another domain). Added ${dayOf(website.created_at)}.</p>
${errorSummary(errors)}
<form method="post" action="/app/websites/${id}" novalidate>
${csrfField(csrf)}
${settingsFields(values, errors, website.password)}
<button class="button" type="submit">Save the settings</button>
</form>
</section>
<section class="card" aria-labelledby="delete-title">
<h2 id="delete-title">Delete</h2>
<p>Deleting ${website.domain} deletes its settings and every visit counted for it. It cannot be undone.</p>
<div class="actions">${postButton(`/app/websites/${id}/delete`, `Delete ${website.domain}`, csrf, { danger: true })}</div>
</section>`;
}

export function renderWebsiteStats(website: ApiWebsite, traffic: WebsiteTraffic): SafeHtml {
  const id = website.id;
  return html`<div class="page-head"><h1>Stats of ${website.domain}</h1><div class="actions"><a href="/app/websites/${id}">Settings and tracking snippet of ${website.domain}</a></div></div>
${renderTraffic(id, traffic, `/app/websites/${id}/stats`)}`;
}
