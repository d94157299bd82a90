// Crawls (site audits): the list and the "Start a crawl" form, one crawl's live progress (a
// JSON of its counts for the dashboard's script), its issues and pages, the CSV export and
// cancelling. Every read and write goes through /api/v1/crawls (docs/api.md "Crawls"), so
// its validation, messages and account scoping apply unchanged.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { documentResponse } from '../../http/openapi-responses.js';
import { Crawl } from '../../resources/schemas.js';
import type { ApiAnswer } from '../api-client.js';
import { pathId } from '../api-answers.js';
import { apiFor, notFoundAppPage, formFields, queryFields, redirectWithNotice, sendAppPage, signedIn } from '../context.js';
import type { PageModule } from '../deps.js';
import { type CrawlForm, crawlDetailMain, crawlsListMain } from '../render/crawls.js';
import type { FieldErrors } from '../render/forms.js';
import { dashboardSchema } from '../route-schema.js';
import type { CrawlIssue, CrawlIssueCountJson, CrawlPage, ListOf, One } from '../api-types.js';

const LIST_PER_PAGE = 25;
const PAGES_PER_PAGE = 50;
const ISSUES_PER_PAGE = 50;

const idParams = Type.Object({ id: Type.String() });
const listQuery = Type.Object({ page: Type.Optional(Type.String({ description: 'The page of the list (1 first)' })) });
const detailQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'The page of the URL table (1 first)' })),
  issues_page: Type.Optional(Type.String({ description: 'The page of the issues table (1 first)' })),
  type: Type.Optional(Type.String({ description: 'Only issues of these types (comma-separated), as the API’s filter' })),
  severity: Type.Optional(Type.String({ description: 'Only issues of this severity (high, medium, low)' })),
});

/** A dashboard route's schema. */
function crawlsSchema(summary: string, kind: 'page' | 'form', extra: Parameters<typeof dashboardSchema>[2] = []) {
  return dashboardSchema(summary, kind, extra);
}

/** The progress JSON: the API's Crawl, flat (the script reads status and the counts by name). */
const progressResponse = Type.Ref(Crawl, { description: 'The crawl with its live counts, the API’s Crawl fields' });

/** An API answer no page expects (never a rate limit: dashboard calls have none): a bug, left to the error handler. */
function apiRefused(_request: FastifyRequest, _reply: FastifyReply, answer: ApiAnswer): never {
  throw new Error(`the API answered ${answer.status}: ${answer.text.slice(0, 200)}`);
}

function lastValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export const crawlsPages: PageModule = (app, deps) => {
  const bands = deps.config.bands;

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    form: CrawlForm = {},
    errors?: FieldErrors,
  ): Promise<FastifyReply> {
    const { csrf } = signedIn(request);
    const query = queryFields(request);
    const api = apiFor(request, deps.api);
    const answer = await api.get<ListOf<typeof Crawl>>('/crawls', { per_page: LIST_PER_PAGE, page: query.page });
    if (answer.status !== 200) return apiRefused(request, reply, answer);
    const list = answer.body;
    return sendAppPage(
      request,
      reply,
      { section: 'crawls', title: errors ? 'Start a crawl' : 'Crawls', status: errors ? 422 : 200 },
      crawlsListMain({
        crawls: list.data,
        meta: list.meta,
        csrf,
        form,
        errors,
        bands,
        renderAvailable: deps.renderer.available(),
      }),
    );
  }

  app.get(
    '/crawls',
    {
      schema: {
        ...crawlsSchema('Crawls (site audits): the list, newest first, and the form to start one', 'page'),
        querystring: listQuery,
      },
    },
    async (request, reply) => listPage(request, reply),
  );

  app.post(
    '/crawls',
    {
      schema: crawlsSchema(
        'Start a crawl (url, max_pages, sitemap 0/1, render 0/1): 303 to its page; 422 with the API’s message at each field',
        'form',
      ),
    },
    async (request, reply) => {
      const fields = formFields(request);
      const body = {
        url: lastValue(fields.url) ?? '',
        max_pages: lastValue(fields.max_pages) ?? '',
        sitemap: lastValue(fields.sitemap) ?? '0',
        render: lastValue(fields.render) ?? '0',
      };
      const answer = await apiFor(request, deps.api).post<One<typeof Crawl>>('/crawls', body);
      if (answer.status === 202) {
        return redirectWithNotice(reply, `/app/crawls/${answer.body.data.id}`, 'Crawl started. Its counts update while it runs.');
      }
      if (answer.status === 422) {
        return listPage(
          request,
          reply,
          { url: body.url, max_pages: body.max_pages, sitemap: body.sitemap !== '0', render: body.render === '1' },
          answer.body.errors,
        );
      }
      return redirectWithNotice(reply, '/app/crawls', answer.body?.message ?? 'The crawl could not be started.', true);
    },
  );

  app.get(
    '/crawls/:id',
    {
      schema: {
        ...crawlsSchema(
          'A crawl: status, live counts, the issues by type, its issues (type and severity filter them, as the API’s) and pages; 422 for an unknown filter',
          'page',
          [422],
        ),
        params: idParams,
        querystring: detailQuery,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const api = apiFor(request, deps.api);
      const shown = await api.get<One<typeof Crawl>>(`/crawls/${id}`);
      if (shown.status === 404) return notFoundAppPage(request, reply);
      if (shown.status !== 200) return apiRefused(request, reply, shown);
      const crawl = shown.body.data;
      const query = queryFields(request);
      const filter = { type: query.type || undefined, severity: query.severity || undefined };
      const listIssues = (only: { type?: string; severity?: string }) =>
        api.get<ListOf<typeof CrawlIssue>>(`/crawls/${id}/issues`, {
          per_page: ISSUES_PER_PAGE,
          page: query.issues_page,
          ...only,
        });
      const [summary, filtered, pages] = await Promise.all([
        api.get<{ data: CrawlIssueCountJson[] }>(`/crawls/${id}/issues/summary`),
        listIssues(filter),
        api.get<ListOf<typeof CrawlPage>>(`/crawls/${id}/pages`, { per_page: PAGES_PER_PAGE, page: query.page }),
      ]);
      // An unknown type or severity: the API's messages over the whole list, answered 422.
      const refused = filtered.status === 422 ? (filtered.body.errors ?? {}) : null;
      const issues = refused ? await listIssues({}) : filtered;
      for (const answer of [summary, issues, pages]) if (answer.status !== 200) return apiRefused(request, reply, answer);
      const issueList = issues.body;
      const pageList = pages.body;
      return sendAppPage(
        request,
        reply,
        { section: 'crawls', title: `Crawl of ${crawl.project}`, status: refused ? 422 : 200 },
        crawlDetailMain({
          crawl,
          csrf: signedIn(request).csrf,
          summary: summary.body.data,
          issues: issueList.data,
          issuesMeta: issueList.meta,
          filter: refused ? {} : filter,
          filterErrors: refused ?? undefined,
          pages: pageList.data,
          pagesMeta: pageList.meta,
          query,
          bands,
        }),
      );
    },
  );

  app.get(
    '/crawls/:id/progress',
    {
      schema: {
        tags: ['dashboard'],
        summary: "A crawl's live counts in JSON (the API's Crawl fields), for the page's script",
        security: [],
        params: idParams,
        response: {
          ...crawlsSchema('', 'page').response,
          200: progressResponse,
        },
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const shown = await apiFor(request, deps.api).get<One<typeof Crawl>>(`/crawls/${id}`);
      if (shown.status === 404) return notFoundAppPage(request, reply);
      if (shown.status !== 200) return apiRefused(request, reply, shown);
      return reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(shown.body.data);
    },
  );

  app.get(
    '/crawls/:id/pages.csv',
    {
      schema: {
        tags: ['dashboard'],
        summary: "Every page of a crawl in CSV (the API's format=csv), downloaded",
        security: [],
        params: idParams,
        response: {
          ...crawlsSchema('', 'page').response,
          200: documentResponse('The CSV file: a header line, then one line per page (CRLF)', 'text/csv'),
        },
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const csv = await apiFor(request, deps.api).get(`/crawls/${id}/pages`, { format: 'csv' });
      if (csv.status === 404) return notFoundAppPage(request, reply);
      if (csv.status !== 200) return apiRefused(request, reply, csv);
      const disposition = csv.headers['content-disposition'];
      return reply
        .code(200)
        .type('text/csv; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header(
          'Content-Disposition',
          typeof disposition === 'string' ? disposition : `attachment; filename="crawl-${id}-pages.csv"`,
        )
        .send(csv.text);
    },
  );

  app.post(
    '/crawls/:id/cancel',
    {
      schema: {
        ...crawlsSchema('Cancel a crawl: no fetch starts after it; its reports stay', 'form'),
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const api = apiFor(request, deps.api);
      const before = await api.get<One<typeof Crawl>>(`/crawls/${id}`);
      if (before.status === 404) return notFoundAppPage(request, reply);
      if (before.status !== 200) return apiRefused(request, reply, before);
      const answer = await api.delete<One<typeof Crawl>>(`/crawls/${id}`);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status !== 200) return redirectWithNotice(reply, `/app/crawls/${id}`, 'The crawl could not be cancelled.', true);
      const wasActive = ['queued', 'running'].includes(before.body.data.status);
      return redirectWithNotice(
        reply,
        `/app/crawls/${id}`,
        wasActive ? 'Crawl cancelled. Its reports so far stay.' : `The crawl had already ended (${answer.body.data.status}).`,
      );
    },
  );
};
