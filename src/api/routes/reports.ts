// /api/v1/reports: validate (the route's schemas, through Fastify's validator), authorise
// (queries are scoped to the key's account), call the report service or the repository, respond.
import type { AnalysisConfig } from '../../analysis/config.js';
import type { ReportsRepository, ReportSortColumn } from '../../db/reports-repository.js';
import type { ReportService } from '../../reports/report-service.js';
import { scoreRange } from '../../reports/score-bands.js';
import { NEW_RESOURCE } from '../../sharing/privacy-change.js';
import { analysingFor } from '../analysis-request.js';
import { deleted } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, pagination } from '../../http/pagination.js';
import { passwordRule } from '../privacy-rule.js';
import { renderRule, type RenderAvailability } from '../render-rule.js';
import { JSON_UTF8, createdReportJson, reportPageJson, shownReportJson } from '../../resources/report.js';
import { withRules } from '../../http/rules.js';
import { DeletedResponse, Encoded, IdParams } from '../../http/schemas.js';
import { ReportCreateBody, ReportListQuery, ReportUpdateBody } from '../schemas/reports.js';
import { ReportCreated, ReportPage, ReportShown } from '../../resources/schemas.js';
import type { Api } from '../../http/type-provider.js';

export interface ReportsDeps {
  reports: ReportsRepository;
  service: ReportService;
  bands: AnalysisConfig['bands'];
  /** The instance's renderer: `render` needs Chromium. */
  renderer: RenderAvailability;
}

export function reportsRoutes(app: Api, { reports, service, bands, renderer }: ReportsDeps): void {
  const tags = ['reports'];
  const params = IdParams('Report');

  app.get(
    '/reports',
    {
      schema: {
        tags,
        summary: 'List reports (filters combine)',
        querystring: ReportListQuery,
        response: { 200: Encoded(ReportPage), ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const p = listParams<ReportSortColumn>(query, 'id');
      const project = query.project ?? null;
      const result = query.result ?? null;
      const { total, rows } = await reports.list({
        userId: request.user!.id,
        search: p.search,
        project,
        resultRange: result === null ? null : scoreRange(result, bands),
        sortBy: p.sortBy,
        sort: p.sort,
        limit: p.perPage,
        offset: p.offset,
      });
      const page = pagination({
        count: rows.length,
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [
          ['search', p.search],
          ['project', project],
          ['result', result],
          ['sort_by', p.sortBy],
          ['sort', p.sort],
          ['per_page', p.perPage],
        ],
      });
      return reply.type(JSON_UTF8).send(reportPageJson(page, rows));
    },
  );

  app.get(
    '/reports/:id',
    {
      schema: {
        tags,
        summary: 'Show a report',
        params,
        response: { 200: Encoded(ReportShown), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) => {
      const row = await reports.find(request.user!.id, request.params.id);
      if (!row) throw notFound('Report');
      return reply.type(JSON_UTF8).send(shownReportJson(row));
    },
  );

  app.post(
    '/reports',
    {
      schema: {
        tags,
        summary: 'Generate a report: fetches and analyses the page, stores and returns the report',
        body: ReportCreateBody,
        response: { 201: Encoded(ReportCreated), ...errorResponses(401, 413, 415, 422, 429, 503) },
      },
      attachValidation: true, // the password rule answers in the schema's 422 (rules.ts)
    },
    async (request, reply) => {
      const body = await withRules(request, (valid, errors) => {
        passwordRule(valid, NEW_RESOURCE, errors);
        renderRule(valid.render === true, renderer, errors);
      });
      const report = { ...body, render: body.render === true };
      const row = await analysingFor(request, reply, (signal) => service.create(request.user!.id, report, signal));
      return reply.code(201).type(JSON_UTF8).send(createdReportJson(row));
    },
  );

  const updateSchema = {
    tags,
    summary: 'Update a report (parameters in the form body or the query string)',
    params,
    body: ReportUpdateBody,
    response: { 200: Encoded(ReportShown), ...errorResponses(401, 404, 413, 415, 422, 429, 503) },
  };
  app.route({
    method: ['PUT', 'PATCH'],
    url: '/reports/:id',
    schema: updateSchema,
    attachValidation: true, // 404 before any 422; the password rule answers in the schema's 422
    handler: async (request, reply) => {
      const current = await reports.find(request.user!.id, request.params.id);
      if (!current) throw notFound('Report');
      const body = await withRules(request, (valid, errors) => {
        passwordRule(valid, current, errors);
        // Without a re-run nothing is analysed, so nothing is rendered either.
        renderRule(valid.results === true && valid.render === true, renderer, errors);
      });
      const change = {
        privacy: body.privacy,
        password: body.password,
        rerun: body.results === true,
        render: body.render === true,
      };
      const row = await analysingFor(request, reply, (signal) => service.update(current, change, signal));
      if (!row) throw notFound('Report');
      return reply.type(JSON_UTF8).send(shownReportJson(row));
    },
  });

  app.delete(
    '/reports/:id',
    {
      schema: { tags, summary: 'Delete a report', params, response: { 200: DeletedResponse, ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      if (!(await service.delete(request.user!.id, request.params.id))) throw notFound('Report');
      return deleted(request.params.id);
    },
  );
}
