import { Type } from '@sinclair/typebox';
import { IntegerEnum, Page, PerPage, StringEnum, Timestamp } from './common.js';

export const CRAWL_STATUSES = ['queued', 'running', 'finished', 'cancelled', 'failed'] as const;

export const CrawlCreateBody = Type.Object({
  // Validated like a report's url (contract): the same format and length, so a malformed url
  // is a 422 here rather than an exception in the address check (which parses it).
  url: Type.String({
    maxLength: 2048,
    format: 'http-url',
    description: 'The start page (validated like a report’s url); the crawl stays on its host and its www. twin',
  }),
  max_pages: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Pages (URLs) the crawl records at most: 1 to CRAWL_MAX_PAGES (default 100)' }),
  ),
  sitemap: Type.Optional({
    ...IntegerEnum([0, 1], { description: '1: also seed from robots.txt Sitemap: lines and /sitemap.xml (default 1)' }),
  }),
});

export const CrawlListQuery = Type.Object({
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const CrawlPagesQuery = Type.Object({
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
  format: Type.Optional(StringEnum(['json', 'csv'], { description: 'csv: every page, as a CSV file' })),
});

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const Count = Type.Integer({ minimum: 0 });

export const Crawl = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'The start page' }),
    project: Type.String({ description: 'The host without www.: the project of the reports it creates' }),
    status: StringEnum(CRAWL_STATUSES),
    max_pages: Type.Integer({ minimum: 1 }),
    pages_found: { ...Count, description: 'URLs recorded (fetched or skipped): the rows of /pages' },
    pages_done: { ...Count, description: 'Fetched URLs that answered (any status)' },
    pages_failed: { ...Count, description: 'Fetched URLs that got no answer (timeout, refused, blocked)' },
    result: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'The mean score of the analysed pages (null until one is done)',
    }),
    issues: { ...Count, description: 'Site-level issues found (counted when the crawl finishes)' },
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Crawl' },
);

export const CrawlPage = Type.Object(
  {
    url: Type.String(),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status it answered (no redirect followed)' }),
    depth: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Links from the start page (0); null for a URL only a sitemap lists',
    }),
    report_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The report of an analysed HTML page' }),
    result: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
    in_sitemap: Type.Boolean(),
    indexable: Type.Boolean(),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it was not fetched, answered nothing, or is not a page',
    }),
  },
  { $id: 'CrawlPage' },
);

export const CrawlIssue = Type.Object(
  {
    type: Type.String({ description: 'broken_link, redirect_chain, duplicate_title, … (README "Site audits")' }),
    severity: StringEnum(['high', 'medium', 'low']),
    url: Type.String({ description: 'The URL the issue is about' }),
    detail: Type.String({ description: 'The related pages' }),
  },
  { $id: 'CrawlIssue' },
);
