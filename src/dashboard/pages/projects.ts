// The projects page: the account's projects (the sites of its reports) with their report
// counts, each linking to its reports. Read through the API, in process.
import { apiFor, queryFields, sendAppPage } from '../context.js';
import type { PageModule } from '../deps.js';
import type { FieldErrors } from '../render/forms.js';
import { type ListPage, type ProjectItem, renderProjectsList } from '../render/reports.js';
import { dashboardSchema } from '../route-schema.js';

const KEYS = ['search', 'sort_by', 'sort', 'per_page', 'page'] as const;

export const projectsPages: PageModule = (app, deps) => {
  app.get(
    '/projects',
    {
      schema: dashboardSchema('Projects: each with its report count (search, sort_by, sort, per_page, page)', 'page', [422]),
    },
    async (request, reply) => {
      const query = queryFields(request);
      const asked = Object.fromEntries(KEYS.filter((k) => query[k] !== undefined).map((k) => [k, query[k]]));
      const list = await apiFor(request, deps.api).get<ListPage<ProjectItem>>('/projects', asked);
      const refused = list.status === 422;
      if (!refused && list.status !== 200) throw new Error(`projects list: API answered ${list.status}`);
      const errors = refused ? ((list.body as { errors?: FieldErrors }).errors ?? {}) : undefined;
      return sendAppPage(
        request,
        reply,
        { section: 'projects', title: refused ? 'Projects: filters refused' : 'Projects', status: refused ? 422 : 200 },
        renderProjectsList({ query: asked, page: refused ? null : list.body, errors }),
      );
    },
  );
};
