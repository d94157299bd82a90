// /api/v1/crawls: site audits. Thin handlers: validate (schemas, max_pages up to
// CRAWL_MAX_PAGES, then the start URL's address check, answering 422 before anything is
// stored or fetched), authorise (every query is scoped to the key's account), call the crawl
// service or repository, respond. The crawl itself runs in jobs (src/crawl/).
import { Type } from '@sinclair/typebox';
import type { CrawlsRepository } from '../../db/crawls-repository.js';
import type { CrawlLinksRepository } from '../../db/crawl-links-repository.js';
import type { CrawlService } from '../../crawl/crawl-service.js';
import { CSV_TYPE, toCsv } from '../../http/csv.js';
import { ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, paginate } from '../../http/pagination.js';
import {
  CRAWL_LINK_COLUMNS,
  CRAWL_PAGE_COLUMNS,
  crawlIssueCountResource,
  crawlIssueResource,
  crawlLinkCsvRow,
  crawlLinkResource,
  crawlPageCsvRow,
  crawlPageResource,
  crawlResource,
  DEFAULT_MAX_PAGES,
} from '../../resources/crawl.js';
import { addError, withRules } from '../../http/rules.js';
import { Envelope, IdParams, Paginated } from '../../http/schemas.js';
import { CrawlIssuesQuery, CrawlLinksQuery, CrawlListQuery, CrawlPagesQuery, crawlCreateBody } from '../schemas/crawls.js';
import { Crawl, CrawlIssue, CrawlIssueCount, CrawlLink, CrawlPage } from '../../resources/schemas.js';
import type { Api } from '../../http/type-provider.js';
import { renderRule, type RenderAvailability } from '../render-rule.js';

export interface CrawlsDeps {
  crawls: CrawlsRepository;
  links: CrawlLinksRepository;
  service: CrawlService;
  /** CRAWL_MAX_PAGES: the largest max_pages. */
  maxPages: number;
  /** The instance's renderer: `render` needs Chromium. */
  renderer: RenderAvailability;
}

export function crawlsRoutes(app: Api, { crawls, links, service, maxPages, renderer }: CrawlsDeps): void {
  const tags = ['crawls'];
  const params = IdParams('Crawl');

  app.get(
    '/crawls',
    {
      schema: {
        tags,
        summary: 'List crawls, newest first',
        querystring: CrawlListQuery,
        response: { 200: Paginated(Crawl), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await crawls.list(request.user!.id, p.perPage, p.offset);
      return paginate({
        items: rows.map(crawlResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );

  app.get(
    '/crawls/:id',
    {
      schema: {
        tags,
        summary: 'Show a crawl, with its live counts',
        params,
        response: { 200: Envelope(Crawl), ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      const row = await crawls.find(request.user!.id, request.params.id);
      if (!row) throw notFound('Crawl');
      return ok(crawlResource(row));
    },
  );

  app.post(
    '/crawls',
    {
      schema: {
        tags,
        summary: 'Start a site audit: answers 202 at once; the crawl runs in jobs',
        body: crawlCreateBody(maxPages),
        response: {
          202: Type.Object({ data: Crawl, status: Type.Literal(202) }),
          ...errorResponses(401, 413, 415, 422, 429),
        },
      },
      attachValidation: true, // the address check answers in the schema's 422 (rules.ts)
    },
    async (request, reply) => {
      const body = await withRules(request, async (valid, errors) => {
        renderRule(valid.render === 1, renderer, errors);
        // Only once everything else is valid: an invalid request resolves and fetches nothing.
        if (Object.keys(errors).length === 0 && typeof valid.url === 'string') {
          const refused = await service.refusedStart(valid.url);
          if (refused !== null) addError(errors, 'url', refused);
        }
      });
      const row = await service.create(request.user!.id, {
        url: body.url,
        max_pages: body.max_pages ?? Math.min(DEFAULT_MAX_PAGES, maxPages),
        sitemap: body.sitemap ?? 1,
        external: body.external ?? 1,
        render: body.render ?? 0,
      });
      return reply.code(202).send({ data: crawlResource(row), status: 202 as const });
    },
  );

  app.delete(
    '/crawls/:id',
    {
      schema: {
        tags,
        summary: 'Cancel a crawl: no fetch starts after this answers; its reports stay',
        params,
        response: { 200: Envelope(Crawl), ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      const row = await service.cancel(request.user!.id, request.params.id);
      if (!row) throw notFound('Crawl');
      return ok(crawlResource(row));
    },
  );

  app.get(
    '/crawls/:id/pages',
    {
      schema: {
        tags,
        summary: "A crawl's pages (every URL fetched or skipped), in discovery order; format=csv exports them all",
        params,
        querystring: CrawlPagesQuery,
        response: {
          200: {
            description: 'A page of rows (the paginator); with format=csv, every row in CSV (CRLF)',
            content: { 'application/json': { schema: Paginated(CrawlPage) }, 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const crawl = await crawls.find(request.user!.id, request.params.id);
      if (!crawl) throw notFound('Crawl');
      if (request.query.format === 'csv') {
        const rows: (string | number)[][] = [];
        for await (const batch of crawls.allPages(crawl.id)) {
          for (const row of batch) rows.push(crawlPageCsvRow(crawlPageResource(row)));
        }
        return reply
          .type(CSV_TYPE)
          .header('Content-Disposition', `attachment; filename="crawl-${crawl.id}-pages.csv"`)
          .send(toCsv(CRAWL_PAGE_COLUMNS, rows));
      }
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await crawls.listPages(crawl.id, p.perPage, p.offset);
      return paginate({
        items: rows.map(crawlPageResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );

  app.get(
    '/crawls/:id/issues',
    {
      schema: {
        tags,
        summary: "A crawl's site-level issues, most severe first; type (comma-separated) and severity filter them",
        params,
        querystring: CrawlIssuesQuery,
        response: { 200: Paginated(CrawlIssue), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const crawl = await crawls.find(request.user!.id, request.params.id);
      if (!crawl) throw notFound('Crawl');
      const p = listParams<'id'>(request.query, 'id');
      // The format gave `type` back trimmed and known, or null (nothing to filter on).
      const type = request.query.type ?? null;
      const severity = request.query.severity ?? null;
      const { total, rows } = await crawls.listIssues(crawl.id, p.perPage, p.offset, {
        types: type ? type.split(',') : undefined,
        severity: severity ?? undefined,
      });
      return paginate({
        items: rows.map(crawlIssueResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [
          ['type', type],
          ['severity', severity],
          ['per_page', p.perPage],
        ],
      });
    },
  );

  app.get(
    '/crawls/:id/links',
    {
      schema: {
        tags,
        summary:
          "A crawl's checked links to other hosts, images and hreflang targets, in discovery order; format=csv exports them all",
        params,
        querystring: CrawlLinksQuery,
        response: {
          200: {
            description: 'A page of rows (the paginator); with format=csv, every row in CSV (CRLF)',
            content: { 'application/json': { schema: Paginated(CrawlLink) }, 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const crawl = await crawls.find(request.user!.id, request.params.id);
      if (!crawl) throw notFound('Crawl');
      if (request.query.format === 'csv') {
        const rows: (string | number)[][] = [];
        for await (const batch of links.all(crawl.id)) {
          for (const row of batch) rows.push(crawlLinkCsvRow(crawlLinkResource(row)));
        }
        return reply
          .type(CSV_TYPE)
          .header('Content-Disposition', `attachment; filename="crawl-${crawl.id}-links.csv"`)
          .send(toCsv(CRAWL_LINK_COLUMNS, rows));
      }
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await links.list(crawl.id, p.perPage, p.offset);
      return paginate({
        items: rows.map(crawlLinkResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );

  app.get(
    '/crawls/:id/issues/summary',
    {
      schema: {
        tags,
        summary: "A crawl's issues counted by type: most severe first, then the most frequent",
        params,
        response: { 200: Envelope(Type.Array(CrawlIssueCount)), ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      const crawl = await crawls.find(request.user!.id, request.params.id);
      if (!crawl) throw notFound('Crawl');
      return ok((await crawls.issueSummary(crawl.id)).map(crawlIssueCountResource));
    },
  );
}
