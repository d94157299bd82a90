// Small pieces the monitors and webhooks pages share: a time cell, a score badge (band word and
// icon beside the colour), and the pager of an API list.
import { type Band, bandOf } from '../../analysis/score.js';
import type { AnalysisConfig } from '../../analysis/config.js';
import { formatDateTime, isoDateTime, parseTimestamp } from '../../render/format.js';
import { BAND_ICONS, BAND_WORDS } from '../../render/gauge.js';
import { html, type HtmlValue, type SafeHtml } from '../../render/html.js';

/** A timestamp of the API for people ("14 Mar 2025, 09:26 UTC"), or `empty` when there is none. */
export function timeOf(value: unknown, empty = 'Never'): SafeHtml {
  const ms = parseTimestamp(value);
  if (ms === null || value === null) return html`${empty}`;
  return html`<time datetime="${isoDateTime(ms)}">${formatDateTime(ms)}</time>`;
}

/** A score with its band in words and an icon (never colour alone); `empty` before any score. */
export function scoreBadge(score: unknown, bands: AnalysisConfig['bands'], empty = 'Not run yet'): SafeHtml {
  if (typeof score !== 'number' || !Number.isFinite(score)) return html`${empty}`;
  const band: Band = bandOf(score, bands);
  return html`<span class="badge band-${band}">${BAND_ICONS[band]}${score}<span class="visually-hidden"> out of 100</span> · ${BAND_WORDS[band]}</span>`;
}

/** The paging part of an API list answer. */
export interface ListMeta {
  current_page: number;
  last_page: number;
  total: number;
}

export function listMeta(body: unknown): ListMeta {
  const b = (body ?? {}) as { meta?: Partial<ListMeta>; current_page?: number; last_page?: number };
  return {
    current_page: Number(b.current_page ?? b.meta?.current_page ?? 1) || 1,
    last_page: Number(b.last_page ?? b.meta?.last_page ?? 1) || 1,
    total: Number(b.meta?.total ?? 0) || 0,
  };
}

/** Previous and next links of a list (`base` a dashboard path; `page` the only parameter). */
export function pager(base: string, meta: ListMeta, noun: string, label: string): HtmlValue {
  if (meta.last_page <= 1 && meta.current_page <= 1) return '';
  const link = (page: number) => `${base}?page=${page}`;
  const page = Math.min(meta.current_page, Math.max(meta.last_page, 1));
  return html`<nav class="pager" aria-label="${label}">
${meta.current_page > 1 ? html`<a href="${link(Math.min(meta.current_page - 1, meta.last_page))}">Previous page of ${noun}</a>` : html`<span></span>`}
<span>Page ${page} of ${meta.last_page} (${meta.total} ${noun})</span>
${meta.current_page < meta.last_page ? html`<a href="${link(meta.current_page + 1)}">Next page of ${noun}</a>` : html`<span></span>`}
</nav>`;
}

/** A positive page number from the query, else undefined (the API's default page). */
export function pageOf(query: Record<string, string>): number | undefined {
  const page = query.page;
  return page && /^[1-9][0-9]{0,8}$/.test(page) ? Number(page) : undefined;
}
