// /api/v1/reports: validate, authorise (queries are scoped to the key's account), analyse when
// asked, store, respond.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AnalysisConfig } from '../../analysis/config.js';
import type { AnalysedPage } from '../../analysis/types.js';
import { FetchError } from '../../analysis/errors.js';
import type { ReportsRepository, ReportSortColumn } from '../../db/reports-repository.js';
import { AnalyserBusyError, type AccountKey } from '../../reports/analysis-pool.js';
import { HttpError, ValidationError, notFound } from '../errors.js';
import { parseId } from '../ids.js';
import { listParams, listPath, pagination } from '../pagination.js';
import { applyPrivacy, planPrivacy } from '../privacy.js';
import { paginatedReportsJson, reportEnvelope } from '../resources/report.js';
import { DeletedResponse, Envelope, IdParam, Page, Paginated } from '../schemas/common.js';
import { Report, ReportCreateBody, ReportListQuery, ReportUpdateBody } from '../schemas/reports.js';
import { check, throwIfAny, validate } from '../validation.js';
import { errorResponses } from '../openapi-responses.js';

/**
 * Runs one analysis for an account (slots are shared fairly between accounts); rejects with
 * FetchError, AnalyserBusyError or the abort reason.
 */
export type Analyser = (url: string, signal: AbortSignal, account: AccountKey) => Promise<AnalysedPage>;

export interface ReportsDeps {
  reports: ReportsRepository;
  analyse: Analyser;
  bands: AnalysisConfig['bands'];
}

/** The score range of a band word: good ≥ good, decent ≥ decent and < good, bad < decent. */
export function bandRange(band: string, bands: AnalysisConfig['bands']): { min: number | null; below: number | null } {
  if (band === 'good') return { min: bands.good, below: null };
  if (band === 'decent') return { min: bands.decent, below: bands.good };
  return { min: null, below: bands.decent };
}

/** Analyses on behalf of a request; a client that disconnects cancels its analysis. */
async function analyseFor(request: FastifyRequest, reply: FastifyReply, analyse: Analyser, url: string): Promise<AnalysedPage> {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client closed the connection'));
  };
  reply.raw.once('close', onClose);
  try {
    return await analyse(url, controller.signal, request.user!.id);
  } catch (error) {
    if (error instanceof FetchError) throw new ValidationError({ url: [error.message] });
    if (error instanceof AnalyserBusyError) {
      throw new HttpError(503, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
    }
    if (controller.signal.aborted) {
      request.log.info('analysis cancelled: the client went away');
      throw new HttpError(499, 'Client Closed Request');
    }
    throw error;
  } finally {
    reply.raw.off('close', onClose);
  }
}

export function reportsRoutes(app: FastifyInstance, { reports, analyse, bands }: ReportsDeps): void {
  const tags = ['reports'];
  const json = (reply: FastifyReply, body: Buffer, status = 200) => reply.code(status).type('application/json; charset=utf-8').send(body);

  app.get(
    '/reports',
    {
      schema: {
        tags,
        summary: 'List reports (filters combine)',
        querystring: Type.Object({ ...ReportListQuery.properties, page: Type.Optional(Page) }),
        response: { 200: Paginated(Type.Ref(Report)), ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const q = validate(ReportListQuery, request.input);
      const p = listParams<ReportSortColumn>(q, request.input, 'id');
      const project = (q.project as string | undefined) ?? null;
      const result = (q.result as string | undefined) ?? null;
      const { total, rows } = await reports.list({
        userId: request.user!.id,
        search: p.search,
        project,
        resultRange: result === null ? null : bandRange(result, bands),
        sortBy: p.sortBy,
        sort: p.sort,
        limit: p.perPage,
        offset: p.offset,
      });
      const info = pagination({
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
      return json(reply, paginatedReportsJson(info, rows));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/reports/:id',
    {
      schema: { tags, summary: 'Show a report', params: IdParam, response: { 200: Envelope(Type.Ref(Report)), ...errorResponses(401, 404, 429) } },
    },
    async (request, reply) => {
      const row = await reports.find(request.user!.id, parseId(request.params.id, 'Report'));
      if (!row) throw notFound('Report');
      return json(reply, reportEnvelope(row, 200));
    },
  );

  app.post(
    '/reports',
    {
      schema: {
        tags,
        summary: 'Generate a report: fetches and analyses the page, stores and returns the report',
        body: ReportCreateBody,
        response: { 201: Envelope(Type.Ref(Report), 201), ...errorResponses(401, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const { values, errors } = check(ReportCreateBody, request.input);
      const fresh = { privacy: 1, password_hash: null };
      const plan =
        errors.privacy || errors.password
          ? null
          : planPrivacy({ privacy: (values.privacy as number | null | undefined) ?? 1, password: values.password as string | undefined }, fresh, errors);
      throwIfAny(errors, ReportCreateBody);
      const page = await analyseFor(request, reply, analyse, values.url as string);
      const privacy = await applyPrivacy(plan!, fresh);
      const row = await reports.create({
        user_id: request.user!.id,
        url: page.url,
        project: page.project,
        result: page.result,
        results: JSON.stringify(page.results),
        privacy: privacy.privacy,
        password_hash: privacy.password_hash,
        generated_at: page.generated_at,
      });
      return json(reply, reportEnvelope(row, 201), 201);
    },
  );

  const update = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const userId = request.user!.id;
    const id = parseId(request.params.id, 'Report');
    const current = await reports.find(userId, id);
    if (!current) throw notFound('Report');
    const { values, errors } = check(ReportUpdateBody, request.input);
    const plan =
      errors.privacy || errors.password
        ? null
        : planPrivacy({ privacy: values.privacy as number | null | undefined, password: values.password as string | undefined }, current, errors);
    throwIfAny(errors, ReportUpdateBody);
    const page = values.results === true ? await analyseFor(request, reply, analyse, current.url) : null;
    const privacy = await applyPrivacy(plan!, current);
    const row = await reports.update(userId, id, {
      privacy: privacy.privacy,
      password_hash: privacy.password_hash,
      ...(page ? { result: page.result, results: JSON.stringify(page.results), generated_at: page.generated_at } : {}),
    });
    if (!row) throw notFound('Report');
    return json(reply, reportEnvelope(row, 200));
  };
  const updateSchema = {
    tags,
    summary: 'Update a report (parameters in the form body or the query string)',
    params: IdParam,
    body: ReportUpdateBody,
    response: { 200: Envelope(Type.Ref(Report)), ...errorResponses(401, 404, 413, 415, 422, 429, 503) },
  };
  app.put<{ Params: { id: string } }>('/reports/:id', { schema: updateSchema }, update);
  app.patch<{ Params: { id: string } }>('/reports/:id', { schema: updateSchema }, update);

  app.delete<{ Params: { id: string } }>(
    '/reports/:id',
    { schema: { tags, summary: 'Delete a report', params: IdParam, response: { 200: DeletedResponse, ...errorResponses(401, 404, 429) } } },
    async (request) => {
      const id = parseId(request.params.id, 'Report');
      if (!(await reports.delete(request.user!.id, id))) throw notFound('Report');
      return { data: { id }, status: 200 };
    },
  );
}
