// /api/v1/monitors: scheduled re-runs of a report. Thin handlers — validate (the route's schemas),
// authorise (every query is scoped to the key's account; another account's report is "invalid"
// like an unknown one), call the repository or the monitor service, respond. What one account
// may take: at most MAX_MONITORS monitors, and "run now" of one monitor once a minute (counted
// in the shared WindowCounter, so API, dashboard and every instance share it).
import type { MonitorsRepository } from '../../db/monitors-repository.js';
import type { ReportsRepository } from '../../db/reports-repository.js';
import { isIdInRange } from '../../ids.js';
import type { MonitorService } from '../../monitors/monitor-service.js';
import { created, deleted, ok } from '../../http/envelope.js';
import { notFound, tooManyAttempts, ValidationError } from '../../http/errors.js';
import type { WindowCounter } from '../../limits/window-counter.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, paginate } from '../../http/pagination.js';
import { monitorResource } from '../../resources/monitor.js';
import { addError, withRules } from '../../http/rules.js';
import { DeletedResponse, Envelope, IdParams, Paginated } from '../../http/schemas.js';
import { MonitorCreateBody, MonitorUpdateBody, PageQuery } from '../schemas/monitors.js';
import { Monitor } from '../../resources/schemas.js';
import { renderRule, type RenderAvailability } from '../render-rule.js';
import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/type-provider.js';

/** Laravel's `exists` message for report_id. */
export const REPORT_ID_INVALID = 'The selected report id is invalid.';

/** "Run now" of one monitor: once in this window. */
export const RUN_NOW_WINDOW_MS = 60_000;

/** The 422 on report_id of an account that has its MAX_MONITORS already. */
export const tooManyMonitors = (max: number) => `The account already has ${max} monitors, the most it may have.`;

export interface MonitorsDeps {
  monitors: MonitorsRepository;
  reports: ReportsRepository;
  service: MonitorService;
  /** MAX_MONITORS: monitors one account may have. */
  maxMonitors: number;
  /** The shared window counter (Redis when configured): "run now" once a minute per monitor. */
  counter: WindowCounter;
  /** The instance's renderer: `render` needs Chromium. */
  renderer: RenderAvailability;
}

export function monitorsRoutes(app: Api, { monitors, reports, service, maxMonitors, counter, renderer }: MonitorsDeps): void {
  const tags = ['monitors'];
  const params = IdParams('Monitor');

  app.get(
    '/monitors',
    {
      schema: {
        tags,
        summary: 'List monitors, newest first',
        querystring: PageQuery,
        response: { 200: Paginated(Monitor), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await monitors.list(request.user!.id, p.perPage, p.offset);
      return paginate({
        items: rows.map(monitorResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );

  app.get(
    '/monitors/:id',
    {
      schema: { tags, summary: 'Show a monitor', params, response: { 200: Envelope(Monitor), ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      const row = await monitors.find(request.user!.id, request.params.id);
      if (!row) throw notFound('Monitor');
      return ok(monitorResource(row));
    },
  );

  app.post(
    '/monitors',
    {
      schema: {
        tags,
        summary: 'Create a monitor: its first run is one period after now (creating runs nothing)',
        body: MonitorCreateBody,
        response: { 201: Envelope(Monitor, 201), ...errorResponses(401, 413, 415, 422, 429) },
      },
      attachValidation: true, // report_id's `exists` answers in the schema's 422 (rules.ts)
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const body = await withRules(request, async (valid, errors) => {
        const reportId = valid.report_id;
        if (typeof reportId === 'number' && !(isIdInRange(reportId) && (await reports.owns(userId, reportId)))) {
          addError(errors, 'report_id', REPORT_ID_INVALID);
        }
        renderRule(valid.render === 1, renderer, errors);
      });
      const row = await monitors.create(
        {
          user_id: userId,
          report_id: body.report_id,
          frequency: body.frequency,
          alert_drop: body.alert_drop ?? 5,
          email: body.email ?? 1,
          render: body.render ?? 0,
        },
        maxMonitors,
      );
      if (!row) throw new ValidationError({ report_id: [tooManyMonitors(maxMonitors)] });
      return reply.code(201).send(created(monitorResource(row)));
    },
  );

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/monitors/:id',
    schema: {
      tags,
      summary: 'Update a monitor (parameters in the form body or the query string); a new frequency moves next_run_at',
      params,
      body: MonitorUpdateBody,
      response: { 200: Envelope(Monitor), ...errorResponses(401, 404, 413, 415, 422, 429) },
    },
    attachValidation: true, // 404 before any 422
    handler: async (request) => {
      const current = await monitors.find(request.user!.id, request.params.id);
      if (!current) throw notFound('Monitor');
      const body = await withRules(request, (valid, errors) => renderRule(valid.render === 1, renderer, errors));
      const row = await monitors.update(current, {
        ...(body.frequency != null ? { frequency: body.frequency } : {}),
        ...(body.alert_drop != null ? { alert_drop: body.alert_drop } : {}),
        ...(body.email != null ? { email: body.email } : {}),
        ...(body.render != null ? { render: body.render } : {}),
      });
      if (!row) throw notFound('Monitor');
      return ok(monitorResource(row));
    },
  });

  app.delete(
    '/monitors/:id',
    {
      schema: { tags, summary: 'Delete a monitor', params, response: { 200: DeletedResponse, ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      if (!(await monitors.delete(request.user!.id, request.params.id))) throw notFound('Monitor');
      return deleted(request.params.id);
    },
  );

  app.post(
    '/monitors/:id/run',
    {
      schema: {
        tags,
        summary:
          'Queue a run of the monitor now (its schedule is unchanged); once a minute per monitor, else 429 with Retry-After',
        params,
        response: {
          202: Type.Object({ data: Monitor, status: Type.Literal(202) }),
          ...errorResponses(401, 404, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const row = await monitors.find(request.user!.id, request.params.id);
      if (!row) throw notFound('Monitor');
      // Counted before the run is queued, atomically, so runs asked for at once cannot all pass.
      const key = `monitor-run:${row.id}`;
      const hit = await counter.incr(key, RUN_NOW_WINDOW_MS);
      if (hit.count > 1) throw tooManyAttempts(Math.max(1, Math.ceil(hit.ttl / 1000)));
      try {
        await service.queueRun(row);
      } catch (error) {
        await counter.decr(key); // nothing was queued: the minute is not used up
        throw error;
      }
      return reply.code(202).send({ data: monitorResource(row), status: 202 as const });
    },
  );
}
