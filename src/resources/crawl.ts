import type { Static } from '@sinclair/typebox';
import type { CrawlIssueRow, CrawlPageRow, CrawlRow, IssueCount } from '../db/crawls-repository.js';
import type { CrawlLinkRow } from '../db/crawl-links-repository.js';
import type { Crawl, CrawlIssue, CrawlIssueCount, CrawlLink, CrawlPage } from './schemas.js';

/** The API's Crawl: the row's public fields, the mean score computed from its running sum. */
export function crawlResource(row: CrawlRow): Static<typeof Crawl> {
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    status: row.status,
    max_pages: row.max_pages,
    render: Number(row.render) === 1,
    pages_found: row.pages_found,
    pages_done: row.pages_done,
    pages_failed: row.pages_failed,
    result: row.scored > 0 ? Math.round(row.score_sum / row.scored) : null,
    issues: row.issues,
    external_unchecked: row.external_unchecked,
    started_at: row.started_at,
    finished_at: row.finished_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function crawlPageResource(row: CrawlPageRow): Static<typeof CrawlPage> {
  return {
    url: row.url,
    status_code: row.status_code,
    depth: row.depth,
    report_id: row.report_id,
    result: row.result,
    in_sitemap: row.in_sitemap === 1,
    indexable: row.indexable === 1,
    error: row.error,
  };
}

export function crawlIssueResource(row: CrawlIssueRow): Static<typeof CrawlIssue> {
  return { type: row.type, severity: row.severity as Static<typeof CrawlIssue>['severity'], url: row.url, detail: row.detail };
}

/** A row of the issue summary (GET /crawls/{id}/issues/summary, the CLI's --json). */
export function crawlIssueCountResource(row: IssueCount): Static<typeof CrawlIssueCount> {
  return { type: row.type, severity: row.severity as Static<typeof CrawlIssueCount>['severity'], count: row.count };
}

/** max_pages when the request names none (docs/api.md#crawls). */
export const DEFAULT_MAX_PAGES = 100;

/** The columns of a crawl's pages as CSV (the API's format=csv and the CLI's --csv). */
export const CRAWL_PAGE_COLUMNS = [
  'url',
  'status_code',
  'depth',
  'report_id',
  'result',
  'in_sitemap',
  'indexable',
  'error',
] as const;

/** A page in CSV fields: booleans 1/0 and null an empty field, in CRAWL_PAGE_COLUMNS order. */
export function crawlPageCsvRow(page: ReturnType<typeof crawlPageResource>): (string | number)[] {
  return CRAWL_PAGE_COLUMNS.map((column) => {
    const value = page[column];
    if (value === null) return '';
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value;
  });
}

export function crawlLinkResource(row: CrawlLinkRow): Static<typeof CrawlLink> {
  return {
    url: row.url,
    kind: row.kind,
    status_code: row.status_code,
    final_url: row.final_url,
    error: row.error,
    pages: row.pages,
  };
}

/** The columns of a crawl's links as CSV (the API's /links?format=csv). */
export const CRAWL_LINK_COLUMNS = ['url', 'kind', 'status_code', 'final_url', 'error', 'pages'] as const;

/** A checked link in CSV fields: null an empty field, in CRAWL_LINK_COLUMNS order. */
export function crawlLinkCsvRow(link: ReturnType<typeof crawlLinkResource>): (string | number)[] {
  return CRAWL_LINK_COLUMNS.map((column) => link[column] ?? '');
}
