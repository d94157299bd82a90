import '../formats.js'; // the formats these schemas name
import { Type } from '@sinclair/typebox';
import { IntegerEnum, Page, PerPage, StringEnum } from '../../http/schemas.js';

export const crawlCreateBody = (maxPages: number) =>
  Type.Object({
    url: Type.String({
      maxLength: 2048,
      format: 'http-url',
      description:
        'The start page, validated like a report’s url (a bare host gets https://); the crawl stays on its host and its www. twin',
    }),
    max_pages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxPages,
        description: 'URLs the crawl records at most: 1 to CRAWL_MAX_PAGES (default 100)',
      }),
    ),
    sitemap: Type.Optional({
      ...IntegerEnum([0, 1], { description: '1: also seed from robots.txt Sitemap: lines and /sitemap.xml (default 1)' }),
    }),
    external: Type.Optional({
      ...IntegerEnum([0, 1], {
        description:
          '1: also check every link to another host, every image and every hreflang target on another host, once each (default 1); 0: no such request',
      }),
    }),
    render: Type.Optional({
      ...IntegerEnum([0, 1], {
        description:
          '1: render each HTML page in Chromium, find its links in the rendered DOM and compare it with the raw HTML (default 0; needs Chromium: GET /health shows render)',
      }),
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

export const CrawlLinksQuery = Type.Object({
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
  format: Type.Optional(StringEnum(['json', 'csv'], { description: 'csv: every checked link, as a CSV file' })),
});

export const CrawlIssuesQuery = Type.Object({
  type: Type.Optional(
    Type.String({
      maxLength: 4096,
      format: 'issue-types',
      description: 'Only these issue types: one, or several comma-separated (docs/audit-issues.md lists them)',
    }),
  ),
  severity: Type.Optional(StringEnum(['high', 'medium', 'low'], { description: 'Only issues of this severity' })),
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});
