// Shared by the crawl tests: start a crawl through the API, run its jobs until it has ended
// (drain, or the real workers when a test started them), and read its pages and issues.
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

export interface CrawlBody {
  id: number;
  url: string;
  project: string;
  status: string;
  max_pages: number;
  render: boolean;
  pages_found: number;
  pages_done: number;
  pages_failed: number;
  result: number | null;
  issues: number;
  external_unchecked: number;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PageBody {
  url: string;
  status_code: number | null;
  depth: number | null;
  report_id: number | null;
  result: number | null;
  in_sitemap: boolean;
  indexable: boolean;
  error: string | null;
}

export interface IssueBody {
  type: string;
  severity: string;
  url: string;
  detail: string;
}

const ENDED = new Set(['finished', 'failed', 'cancelled']);

/** POST /api/v1/crawls, asserting the 202; the queued crawl. */
export async function startCrawl(t: TestApp, key: string, form: Record<string, string>): Promise<CrawlBody> {
  const res = await t.call(key, { method: 'POST', url: '/api/v1/crawls', form });
  assert.equal(res.statusCode, 202, res.body);
  return res.json().data;
}

export async function showCrawl(t: TestApp, key: string, id: number): Promise<CrawlBody> {
  const res = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/**
 * Runs the crawl's jobs until it has ended: `drain` runs what is due (slots hand over and poll,
 * so the loop drains again); with `workers` the app's own workers run them and this only waits.
 */
export async function runUntilEnded(
  t: TestApp,
  key: string,
  id: number,
  { workers = false, timeoutMs = 30_000 } = {},
): Promise<CrawlBody> {
  let crawl!: CrawlBody;
  await until(
    async () => {
      if (!workers) await t.services.jobs.drain();
      crawl = await showCrawl(t, key, id);
      return ENDED.has(crawl.status);
    },
    { timeoutMs, what: `crawl ${id} to end` },
  );
  return crawl;
}

/** Starts a crawl and runs it to its end. */
export async function crawlSite(
  t: TestApp,
  key: string,
  form: Record<string, string>,
  options?: { workers?: boolean; timeoutMs?: number },
): Promise<CrawlBody> {
  const started = await startCrawl(t, key, form);
  return runUntilEnded(t, key, started.id, options);
}

/** Every page row, through the paginator (100 a page). */
export async function allPages(t: TestApp, key: string, id: number): Promise<PageBody[]> {
  const rows: PageBody[] = [];
  for (let page = 1; ; page++) {
    const res = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${id}/pages?per_page=100&page=${page}` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    rows.push(...body.data);
    if (page >= body.meta.last_page) return rows;
  }
}

export async function allIssues(t: TestApp, key: string, id: number): Promise<IssueBody[]> {
  const rows: IssueBody[] = [];
  for (let page = 1; ; page++) {
    const res = await t.call(key, { method: 'GET', url: `/api/v1/crawls/${id}/issues?per_page=100&page=${page}` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    rows.push(...body.data);
    if (page >= body.meta.last_page) return rows;
  }
}

/** The ten issue types a crawl reported before the catalogue grew: tests about them read only these. */
export const FIRST_TEN_TYPES: ReadonlySet<string> = new Set([
  'broken_link',
  'non_indexable_in_sitemap',
  'canonical_to_non_200',
  'duplicate_title',
  'orphan_page',
  'redirect_chain',
  'redirect_to_broken',
  'duplicate_meta_description',
  'missing_from_sitemap',
  'mixed_content',
]);

/** The issues of the first ten types, in the API's order. */
export async function firstTenIssues(t: TestApp, key: string, id: number): Promise<IssueBody[]> {
  return (await allIssues(t, key, id)).filter((issue) => FIRST_TEN_TYPES.has(issue.type));
}

/** The page rows by URL. */
export function byUrl(rows: readonly PageBody[]): Map<string, PageBody> {
  return new Map(rows.map((row) => [row.url, row]));
}

/** A sitemap urlset of these URLs. */
export function urlset(urls: readonly string[]): { type: string; body: string } {
  return {
    type: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
      .map((u) => `<url><loc>${u}</loc></url>`)
      .join('')}</urlset>`,
  };
}

export function sitemapIndex(urls: readonly string[]): { type: string; body: string } {
  return {
    type: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
      .map((u) => `<sitemap><loc>${u}</loc></sitemap>`)
      .join('')}</sitemapindex>`,
  };
}

export function robotsTxt(text: string): { type: string; body: string } {
  return { type: 'text/plain', body: text };
}

/** The paths a site was asked for, without the 404 probe's random one. */
export function probePaths(paths: readonly string[]): string[] {
  return paths.filter((p) => p.endsWith('-404-check'));
}
