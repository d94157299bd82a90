// The reports pages: the list (filters, sort, paging) with the new report form, one report
// (score, history chart, checks, privacy, re-run, delete). Every read and write goes through the
// API (in process), so its rules, messages and authorisation hold here too.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HistoryPoint } from '../../render/report.js';
import { apiMessage, fieldErrors, pathId } from '../api-answers.js';
import { apiFor, formFields, notFoundAppPage, queryFields, redirectWithNotice, sendAppPage, signedIn } from '../context.js';
import type { DashboardDeps, PageModule } from '../deps.js';
import type { FieldErrors } from '../render/forms.js';
import { type ReportDetail, renderReportDetail } from '../render/reports-detail.js';
import { type ListPage, type ProjectItem, type ReportItem, renderReportsList } from '../render/reports.js';
import { dashboardSchema } from '../route-schema.js';
import type { One, Report } from '../api-types.js';
import { projectsPages } from './projects.js';

const idParams = Type.Object({ id: Type.String() });
const LIST_KEYS = ['search', 'project', 'result', 'sort_by', 'sort', 'per_page', 'page'] as const;

type Api = ReturnType<typeof apiFor>;

/** A form field as one string: a checkbox after its hidden 0 sends both, and the last one counts. */
const lastValue = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.at(-1) : value) ?? '';

/** The project names for the filter's select (the first 100, by name). */
async function projectNames(api: Api): Promise<string[]> {
  const answer = await api.get<ListPage<ProjectItem>>('/projects', { sort_by: 'project', sort: 'asc', per_page: 100 });
  return answer.status === 200 ? answer.body.data.map((p) => p.project) : [];
}

async function sendList(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: DashboardDeps,
  query: Record<string, string>,
  newReport?: { values?: Record<string, string>; errors?: FieldErrors },
): Promise<FastifyReply> {
  const api = apiFor(request, deps.api);
  const asked = Object.fromEntries(LIST_KEYS.filter((k) => query[k] !== undefined).map((k) => [k, query[k]]));
  const [list, projects] = await Promise.all([api.get<ListPage<ReportItem>>('/reports', asked), projectNames(api)]);
  const refused = list.status === 422;
  if (!refused && list.status !== 200) throw new Error(`reports list: API answered ${list.status}`);
  const status = newReport?.errors || refused ? 422 : 200;
  return sendAppPage(
    request,
    reply,
    { section: 'reports', title: refused ? 'Reports: filters refused' : 'Reports', status },
    renderReportsList({
      csrf: signedIn(request).csrf,
      bands: deps.config.bands,
      query: asked,
      page: refused ? null : list.body,
      filterErrors: refused ? fieldErrors(list) : undefined,
      projects,
      newReport,
      renderAvailable: deps.renderer.available(),
    }),
  );
}

async function sendDetail(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: DashboardDeps,
  id: string,
  privacyForm?: { values: Record<string, string>; errors: FieldErrors },
): Promise<FastifyReply> {
  const api = apiFor(request, deps.api);
  const [shown, history] = await Promise.all([
    api.get<{ data: ReportDetail }>(`/reports/${id}`),
    api.get<ListPage<HistoryPoint>>(`/reports/${id}/history`, { per_page: 100 }),
  ]);
  if (shown.status === 404) return notFoundAppPage(request, reply);
  if (shown.status !== 200) throw new Error(`report: API answered ${shown.status}`);
  const report = shown.body.data;
  return sendAppPage(
    request,
    reply,
    { section: 'reports', title: `Report for ${String(report.url).slice(0, 80)}`, status: privacyForm ? 422 : 200 },
    renderReportDetail({
      csrf: signedIn(request).csrf,
      config: deps.config,
      report,
      history: history.status === 200 ? history.body.data : [],
      privacyForm,
      renderAvailable: deps.renderer.available(),
    }),
  );
}

export const reportsPages: PageModule = (app, deps) => {
  app.get(
    '/reports',
    {
      schema: dashboardSchema(
        'Reports: the list (search, project, result, sort_by, sort, per_page, page) and the new report form',
        'page',
        [422],
      ),
    },
    async (request, reply) => sendList(request, reply, deps, queryFields(request)),
  );

  app.post(
    '/reports',
    {
      schema: dashboardSchema(
        'New report (fields url, privacy, password, render): the page is analysed now, then 303 to the report',
        'form',
      ),
    },
    async (request, reply) => {
      const fields = formFields(request);
      const body = { url: fields.url, privacy: fields.privacy, password: fields.password, render: fields.render };
      const created = await apiFor(request, deps.api).post<One<typeof Report>>('/reports', body);
      if (created.status === 201) {
        const { id, result } = created.body.data;
        return redirectWithNotice(reply, `/app/reports/${id}`, `Report created: the page scored ${result} out of 100.`);
      }
      if (created.status === 422) {
        const values = Object.fromEntries(['url', 'privacy', 'render'].map((k) => [k, lastValue(fields[k])]));
        return sendList(request, reply, deps, {}, { values, errors: fieldErrors(created) });
      }
      return redirectWithNotice(reply, '/app/reports', apiMessage(created, 'The report could not be created.'), true);
    },
  );

  app.get(
    '/reports/:id',
    {
      schema: {
        ...dashboardSchema('One report: score, history chart, checks, privacy, re-run and delete', 'page'),
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      return sendDetail(request, reply, deps, id);
    },
  );

  app.post(
    '/reports/:id',
    {
      schema: {
        ...dashboardSchema('Change the privacy of a report (fields privacy, password): 303 to the report', 'form'),
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const fields = formFields(request);
      const updated = await apiFor(request, deps.api).put(`/reports/${id}`, {
        privacy: fields.privacy,
        password: fields.password,
      });
      if (updated.status === 404) return notFoundAppPage(request, reply);
      if (updated.status === 200) return redirectWithNotice(reply, `/app/reports/${id}`, 'Privacy saved.');
      if (updated.status === 422) {
        const privacy = typeof fields.privacy === 'string' ? fields.privacy : '';
        return sendDetail(request, reply, deps, id, { values: { privacy }, errors: fieldErrors(updated) });
      }
      return redirectWithNotice(reply, `/app/reports/${id}`, apiMessage(updated, 'The privacy was not changed.'), true);
    },
  );

  app.post(
    '/reports/:id/rerun',
    {
      schema: {
        ...dashboardSchema('Re-run the analysis of a report (field render): 303 to the report', 'form'),
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const { render } = formFields(request);
      const rerun = await apiFor(request, deps.api).put<One<typeof Report>>(`/reports/${id}`, {
        results: '1',
        ...(render === undefined ? {} : { render }),
      });
      if (rerun.status === 404) return notFoundAppPage(request, reply);
      if (rerun.status === 200) {
        return redirectWithNotice(
          reply,
          `/app/reports/${id}`,
          `Analysis re-run: the page scored ${rerun.body.data.result} out of 100.`,
        );
      }
      const reason = Object.values(fieldErrors(rerun)).flat()[0] ?? apiMessage(rerun, 'The analysis failed.');
      return redirectWithNotice(reply, `/app/reports/${id}`, `The analysis was not re-run: ${reason}`, true);
    },
  );

  app.post(
    '/reports/:id/delete',
    {
      schema: {
        ...dashboardSchema('Delete a report: 303 to the reports', 'form'),
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const removed = await apiFor(request, deps.api).delete(`/reports/${id}`);
      if (removed.status === 404) return notFoundAppPage(request, reply);
      if (removed.status !== 200) {
        return redirectWithNotice(reply, `/app/reports/${id}`, apiMessage(removed, 'The report was not deleted.'), true);
      }
      return redirectWithNotice(reply, '/app/reports', 'Report deleted.');
    },
  );

  projectsPages(app, deps);
};
