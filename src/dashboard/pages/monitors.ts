// Monitors: the list, a new monitor, and a monitor's page (settings, run now, delete). Every read
// and write goes through /api/v1/monitors (docs/api.md "Monitors"), so the API's rules, messages
// and authorisation hold here too: another account's monitor is the dashboard's 404.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { backWithApiMessage, failedRead, pathId } from '../api-answers.js';
import { apiFor, formFields, notFoundAppPage, queryFields, redirectWithNotice, sendAppPage, signedIn } from '../context.js';
import type { DashboardDeps, PageModule } from '../deps.js';
import type { FieldErrors } from '../render/forms.js';
import { formatDateTime, parseTimestamp } from '../../render/format.js';
import { listMeta, pageOf } from '../render/monitors-common.js';
import {
  type MonitorFormValues,
  type MonitorView,
  monitorListMain,
  monitorMain,
  newMonitorMain,
  type ReportChoice,
  shortUrl,
} from '../render/monitors.js';
import { dashboardSchema } from '../route-schema.js';
import type { ListOf, Monitor, One, Report } from '../api-types.js';

const PER_PAGE = 25;
/** Reports looked up one by one on a list page when the newest ones do not hold them. */
const MAX_SINGLE_LOOKUPS = 10;

const params = Type.Object({ id: Type.String({ description: 'The monitor id' }) });

type Api = ReturnType<typeof apiFor>;

/** The account's newest reports (for the report choice and the list's names). */
async function newestReports(api: Api): Promise<{ reports: ReportChoice[]; total: number }> {
  const answer = await api.get<ListOf<typeof Report>>('/reports', { per_page: 100, sort_by: 'id', sort: 'desc' });
  if (answer.status !== 200) throw failedRead(answer, 'reports');
  const reports = answer.body.data.map((r) => ({ id: r.id, url: r.url }));
  return { reports, total: listMeta(answer.body).total };
}

async function reportUrl(api: Api, id: number): Promise<string | null> {
  const answer = await api.get<One<typeof Report>>(`/reports/${id}`);
  return answer.status === 200 ? answer.body.data.url : null;
}

export const monitorsPages: PageModule = (app, deps: DashboardDeps) => {
  const bands = deps.config.bands;

  async function sendNewForm(
    request: FastifyRequest,
    reply: FastifyReply,
    values: MonitorFormValues,
    errors?: FieldErrors,
  ): Promise<FastifyReply> {
    const api = apiFor(request, deps.api);
    const { reports } = await newestReports(api);
    // A report chosen elsewhere (a report's page links here) that is not among the newest ones.
    const chosen = Number(Array.isArray(values.report_id) ? values.report_id.at(-1) : values.report_id);
    if (Number.isInteger(chosen) && chosen > 0 && !reports.some((r) => r.id === chosen)) {
      const url = await reportUrl(api, chosen);
      if (url) reports.unshift({ id: chosen, url });
    }
    return sendAppPage(
      request,
      reply,
      { section: 'monitors', title: 'New monitor', status: errors ? 422 : 200 },
      newMonitorMain({ csrf: signedIn(request).csrf, reports, values, errors, renderAvailable: deps.renderer.available() }),
    );
  }

  async function sendMonitorPage(
    request: FastifyRequest,
    reply: FastifyReply,
    monitor: MonitorView,
    form?: { values: MonitorFormValues; errors: FieldErrors },
  ): Promise<FastifyReply> {
    const url = await reportUrl(apiFor(request, deps.api), monitor.report_id);
    return sendAppPage(
      request,
      reply,
      {
        section: 'monitors',
        title: `Monitor of ${url ? shortUrl(url) : `report #${monitor.report_id}`}`,
        status: form ? 422 : 200,
      },
      monitorMain({
        csrf: signedIn(request).csrf,
        monitor,
        reportUrl: url,
        bands,
        renderAvailable: deps.renderer.available(),
        ...form,
      }),
    );
  }

  app.get('/monitors', { schema: dashboardSchema('Monitors: the list (page), newest first', 'page') }, async (request, reply) => {
    const api = apiFor(request, deps.api);
    const answer = await api.get<ListOf<typeof Monitor>>('/monitors', { per_page: PER_PAGE, page: pageOf(queryFields(request)) });
    if (answer.status !== 200) throw failedRead(answer, 'monitors');
    const monitors = answer.body.data;
    const { reports: newest, total: reportCount } = await newestReports(api);
    const names = new Map(newest.map((r) => [r.id, r.url]));
    const missing = [...new Set(monitors.map((m) => m.report_id).filter((id) => !names.has(id)))];
    for (const id of missing.slice(0, MAX_SINGLE_LOOKUPS)) {
      const url = await reportUrl(api, id);
      if (url) names.set(id, url);
    }
    return sendAppPage(
      request,
      reply,
      { section: 'monitors', title: 'Monitors' },
      monitorListMain({ monitors, reports: names, meta: listMeta(answer.body), bands, hasReports: reportCount > 0 }),
    );
  });

  app.get(
    '/monitors/new',
    { schema: dashboardSchema('New monitor: the form (report_id in the query picks the report)', 'page') },
    async (request, reply) => {
      const query = queryFields(request);
      return sendNewForm(request, reply, { report_id: query.report_id ?? '', frequency: 'weekly', alert_drop: '5', email: '1' });
    },
  );

  app.post(
    '/monitors',
    {
      schema: dashboardSchema('Create a monitor (report_id, frequency, alert_drop, email, render): 303 to its page', 'form'),
    },
    async (request, reply) => {
      const fields = formFields(request);
      const answer = await apiFor(request, deps.api).post<One<typeof Monitor>>('/monitors', fields);
      if (answer.status === 201) {
        const m = answer.body.data;
        const next = parseTimestamp(m.next_run_at);
        return redirectWithNotice(
          reply,
          `/app/monitors/${m.id}`,
          `Monitor created. Its first run is due ${next === null ? 'one period from now' : formatDateTime(next)}.`,
        );
      }
      if (answer.status === 422) return sendNewForm(request, reply, fields, answer.body.errors ?? {});
      return backWithApiMessage(reply, '/app/monitors/new', answer);
    },
  );

  app.get(
    '/monitors/:id',
    { schema: { ...dashboardSchema("A monitor's page: its runs, settings, run now, delete", 'page'), params } },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const answer = await apiFor(request, deps.api).get<One<typeof Monitor>>(`/monitors/${id}`);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status !== 200) throw failedRead(answer, 'a monitor');
      return sendMonitorPage(request, reply, answer.body.data);
    },
  );

  app.post(
    '/monitors/:id',
    {
      schema: {
        ...dashboardSchema("Save a monitor's settings (frequency, alert_drop, email, render): 303 back to its page", 'form'),
        params,
      },
    },
    async (request, reply) => {
      const api = apiFor(request, deps.api);
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const fields = formFields(request);
      const answer = await api.put<One<typeof Monitor>>(`/monitors/${id}`, fields);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status === 200) return redirectWithNotice(reply, `/app/monitors/${id}`, 'Monitor settings saved.');
      if (answer.status === 422) {
        const current = await api.get<One<typeof Monitor>>(`/monitors/${id}`);
        if (current.status === 404) return notFoundAppPage(request, reply);
        if (current.status !== 200) throw failedRead(current, 'a monitor');
        return sendMonitorPage(request, reply, current.body.data, { values: fields, errors: answer.body.errors ?? {} });
      }
      return backWithApiMessage(reply, `/app/monitors/${id}`, answer);
    },
  );

  app.post(
    '/monitors/:id/run',
    { schema: { ...dashboardSchema('Run a monitor now: 303 back to its page, saying what the API answered', 'form'), params } },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const answer = await apiFor(request, deps.api).post(`/monitors/${id}/run`);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status === 202) {
        return redirectWithNotice(
          reply,
          `/app/monitors/${id}`,
          'Run queued: the API answered 202 Accepted. The page is analysed again shortly, without moving the schedule. Reload to see the new score.',
        );
      }
      return backWithApiMessage(reply, `/app/monitors/${id}`, answer);
    },
  );

  app.post(
    '/monitors/:id/delete',
    { schema: { ...dashboardSchema('Delete a monitor: 303 to the list', 'form'), params } },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const answer = await apiFor(request, deps.api).delete(`/monitors/${id}`);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status === 200) return redirectWithNotice(reply, '/app/monitors', 'Monitor deleted. Its report stays.');
      return backWithApiMessage(reply, `/app/monitors/${id}`, answer);
    },
  );
};
