// The traffic part of a website page (docs/share-pages.md): the range form, the totals,
// the visitors-and-pageviews chart with its data table, and the top lists. Every value shown
// here (pages, referrers, event names) was sent by someone on the internet: it goes through
// the `html` tag like everything else.

import { LISTED_DIMENSIONS, type ListedDimensionName, type ListSpec } from '../model/dimensions.js';
import { addDays } from './stats-range.js';
import { formatDay, truncate } from './format.js';
import { html, type SafeHtml } from './html.js';
import { type DayCounts, dayTime, formatCount, renderTrafficChart, summariseTraffic } from './traffic-chart.js';

/** The top lists, in the page's order: the registry's dimensions that have a table (model/dimensions.ts). */
export const TOP_LISTS: readonly TopListName[] = LISTED_DIMENSIONS.map((d) => d.name);
export type TopListName = ListedDimensionName;
/** Rows shown per top list. */
export const TOP_LIMIT = 10;
/** Custom property keys offered to choose from (the most used first). */
export const PROP_KEYS_LIMIT = 100;

export interface TopList {
  /** How many values the range has in all (only the first TOP_LIMIT are in `rows`). */
  total: number;
  rows: readonly { value: string; count: number }[];
}

export interface WebsiteTraffic {
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Today (UTC), for the preset ranges. */
  today: string;
  /** A range was asked for and could not be used: the default is shown. */
  fellBack: boolean;
  /** Every day of the range, in order. */
  days: readonly DayCounts[];
  lists: Readonly<Record<TopListName, TopList>>;
  /** Custom properties: the keys (the most used first), the one shown with its values, and the one asked for. */
  props: PropsTraffic;
  /** Where this service is reached (`https://host`), for the install snippet. */
  origin: string;
}

export interface PropsTraffic {
  keys: TopList;
  /** The property shown: the one asked for, else the most used; null when the range has none. */
  key: string | null;
  /** Asked for by the page's query (kept when the range changes). */
  asked: string | null;
  values: TopList;
}

/** Preset ranges offered as links: days, today included. */
const PRESETS = [7, 30, 90] as const;

/** The credit the DB-IP Lite licence (CC BY 4.0) asks for wherever countries are shown. */
export const DB_IP_CREDIT = html`<a href="https://db-ip.com">IP Geolocation by DB-IP</a>`;

const LISTS = new Map<string, ListSpec>(LISTED_DIMENSIONS.map((d) => [d.name, d.list]));

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const DEVICES: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' };

/** "Germany (DE)"; an unknown code is shown as it is. */
export function countryLabel(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    const name = REGIONS.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

function valueLabel(list: TopListName, value: string): string {
  if (list === 'country') return countryLabel(value);
  if (list === 'device') return DEVICES[value] ?? value;
  return value;
}

const daysLabel = (n: number) => (n === 1 ? '1 day' : `${formatCount(n)} days`);

function rangeText(from: string, to: string): string {
  return from === to ? formatDay(dayTime(from)) : `${formatDay(dayTime(from))} to ${formatDay(dayTime(to))}`;
}

function renderRange(path: string, t: WebsiteTraffic): SafeHtml {
  const asked = t.props.asked;
  const prop = asked === null ? '' : `&prop=${encodeURIComponent(asked)}`;
  const presets = PRESETS.map((days) => {
    const from = addDays(t.today, -(days - 1));
    const current = from === t.from && t.today === t.to;
    return html`<li><a href="${path}?from=${from}&amp;to=${t.today}${prop}"${current ? html` aria-current="page"` : ''}>Last ${days} days</a></li>`;
  });
  return html`<form class="range-form" method="get" action="${path}">
${asked === null ? '' : html`<input type="hidden" name="prop" value="${asked}">`}
<div class="form-field"><label for="range-from">From</label><input type="date" id="range-from" name="from" value="${t.from}" required></div>
<div class="form-field"><label for="range-to">To</label><input type="date" id="range-to" name="to" value="${t.to}" required></div>
<button class="button" type="submit">Show</button>
</form>
<ul class="range-presets" aria-label="Preset ranges">${presets}</ul>
${t.fellBack ? html`<p class="notice">That range could not be shown (it needs two real days, the second not before the first, 366 days at most), so these are the last 30 days.</p>` : ''}`;
}

function renderTopList(name: TopListName, list: TopList, range: string): SafeHtml {
  const { title, column, unit, caption } = LISTS.get(name) as ListSpec;
  const id = `top-${name}-heading`;
  const shown = list.rows.slice(0, TOP_LIMIT);
  const more = list.total > shown.length ? html`<p>Top ${shown.length} of ${formatCount(list.total)}</p>` : '';
  const body =
    shown.length === 0
      ? html`<p class="muted">None in this range.</p>`
      : html`<table class="data-table top-table">
<caption class="visually-hidden">${caption}, ${range}</caption>
<thead><tr><th scope="col">${column}</th><th scope="col" class="num">${unit}</th></tr></thead>
<tbody>${shown.map((r) => html`<tr><td>${truncate(valueLabel(name, String(r.value)), 300)}</td><td class="num">${formatCount(r.count)}</td></tr>`)}</tbody>
</table>`;
  return html`<section class="card top-list" aria-labelledby="${id}">
<div class="section-head"><h2 id="${id}">${title}</h2>${more}</div>
${body}
${name === 'country' ? html`<p class="credit">${DB_IP_CREDIT}</p>` : ''}
</section>`;
}

/**
 * The custom properties: a form to choose the property (a GET form: no JavaScript needed; it
 * keeps the range) and a table of the chosen one's values, each counting the events that carried it.
 */
function renderProps(path: string, t: WebsiteTraffic, range: string): SafeHtml {
  const { keys, key, values } = t.props;
  const id = 'top-props-heading';
  if (key === null) {
    return html`<section class="card top-list" aria-labelledby="${id}">
<div class="section-head"><h2 id="${id}">Custom properties</h2></div>
<p class="muted">None in this range.</p>
</section>`;
  }
  const options = keys.rows.some((r) => r.value === key) ? keys.rows : [{ value: key, count: 0 }, ...keys.rows];
  const shown = values.rows.slice(0, TOP_LIMIT);
  const more = values.total > shown.length ? html`<p>Top ${shown.length} of ${formatCount(values.total)}</p>` : '';
  const body =
    shown.length === 0
      ? html`<p class="muted">No event carried ${key} in this range.</p>`
      : html`<table class="data-table top-table">
<caption class="visually-hidden">Values of the custom property ${key}, ${range}</caption>
<thead><tr><th scope="col">${truncate(key, 100)}</th><th scope="col" class="num">Events</th></tr></thead>
<tbody>${shown.map((r) => html`<tr><td>${truncate(r.value, 300)}</td><td class="num">${formatCount(r.count)}</td></tr>`)}</tbody>
</table>`;
  return html`<section class="card top-list" aria-labelledby="${id}">
<div class="section-head"><h2 id="${id}">Custom properties</h2>${more}</div>
<form class="prop-form" method="get" action="${path}">
<input type="hidden" name="from" value="${t.from}"><input type="hidden" name="to" value="${t.to}">
<div class="form-field"><label for="prop-key">Property</label><select id="prop-key" name="prop">${options.map(
    (r) => html`<option value="${r.value}"${r.value === key ? html` selected` : ''}>${truncate(r.value, 100)}</option>`,
  )}</select></div>
<button class="button" type="submit">Show</button>
</form>
${body}
</section>`;
}

/** Whether anything at all was counted in the range. */
export function hasTraffic(t: WebsiteTraffic): boolean {
  return t.days.some((d) => d.pageviews > 0 || d.visitors > 0) || t.lists.event.total > 0;
}

/** The traffic sections of the website page; the range form and presets go to `path` (the share page by default). */
export function renderTraffic(websiteId: number, t: WebsiteTraffic, path = `/websites/${websiteId}`): SafeHtml {
  const range = rangeText(t.from, t.to);
  const visitors = t.days.reduce((n, d) => n + d.visitors, 0);
  const pageviews = t.days.reduce((n, d) => n + d.pageviews, 0);

  const head = html`<section class="card" aria-labelledby="traffic-heading">
<div class="section-head"><h2 id="traffic-heading">Traffic</h2><p>${range} (UTC), ${daysLabel(t.days.length)}</p></div>
${renderRange(path, t)}
<dl class="totals">
<div><dt>Visitors</dt><dd>${formatCount(visitors)}</dd></div>
<div><dt>Pageviews</dt><dd>${formatCount(pageviews)}</dd></div>
</dl>
</section>`;

  if (!hasTraffic(t)) {
    const snippet = `<script defer src="${t.origin}/js/script.js" data-website="${websiteId}"></script>`;
    return html`${head}<section class="card empty" aria-labelledby="traffic-empty-title">
<h2 id="traffic-empty-title">No visits recorded in this range</h2>
<p>Visits are counted on pages that load the tracking script:</p>
<p><code>${snippet}</code></p>
</section>`;
  }

  const chart = html`<section class="card chart" aria-labelledby="traffic-chart-heading">
<div class="section-head"><h2 id="traffic-chart-heading">Visitors and pageviews</h2><p>Per day</p></div>
${renderTrafficChart(t.days)}
<ul class="legend"><li class="legend-pageviews">Pageviews</li><li class="legend-visitors">Visitors</li></ul>
<p class="muted">${summariseTraffic(t.days)}</p>
<details><summary>Show the chart’s data</summary>
<table class="data-table traffic-table"><caption class="visually-hidden">Visitors and pageviews per day, ${range}</caption>
<thead><tr><th scope="col">Date</th><th scope="col" class="num">Visitors</th><th scope="col" class="num">Pageviews</th></tr></thead>
<tbody>${t.days.map(
    (d) =>
      html`<tr><td><time datetime="${d.day}">${formatDay(dayTime(d.day))}</time></td><td class="num">${formatCount(d.visitors)}</td><td class="num">${formatCount(d.pageviews)}</td></tr>`,
  )}</tbody>
</table></details>
</section>`;

  return html`${head}${chart}<div class="top-lists">${TOP_LISTS.map((name) => renderTopList(name, t.lists[name], range))}${renderProps(path, t, range)}</div>`;
}
