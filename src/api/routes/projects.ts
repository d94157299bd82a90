// /api/v1/projects: an account's projects (the hosts its reports belong to) and their removal.
import { Type } from '@sinclair/typebox';
import type { ReportsRepository } from '../../db/reports-repository.js';
import type { ReportService } from '../../reports/report-service.js';
import { ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, paginate } from '../../http/pagination.js';
import { Envelope, Paginated } from '../../http/schemas.js';
import { Project, ProjectListQuery } from '../schemas/reports.js';
import type { Api } from '../../http/type-provider.js';

export function projectsRoutes(app: Api, reports: ReportsRepository, service: ReportService): void {
  const tags = ['projects'];

  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: "List the account's projects with their report counts",
        querystring: ProjectListQuery,
        response: { 200: Paginated(Type.Ref(Project)), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const p = listParams<'created_at' | 'project'>(request.query, 'created_at');
      const { total, rows } = await reports.listProjects({
        userId: request.user!.id,
        search: p.search,
        sortBy: p.sortBy,
        sort: p.sort,
        limit: p.perPage,
        offset: p.offset,
      });
      return paginate({
        items: rows,
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [
          ['search', p.search],
          ['sort_by', p.sortBy],
          ['sort', p.sort],
          ['per_page', p.perPage],
        ],
      });
    },
  );

  app.delete(
    '/projects/:project',
    {
      schema: {
        tags,
        summary: "Delete a project: all of the account's reports in it",
        params: Type.Object({ project: Type.String({ description: 'The project name (URL-encoded)' }) }),
        response: {
          200: Envelope(Type.Object({ project: Type.String(), deleted: Type.Integer({ description: 'Reports deleted' }) })),
          ...errorResponses(401, 404, 429),
        },
      },
    },
    async (request) => {
      const { project } = request.params;
      const deletedReports = await service.deleteProject(request.user!.id, project);
      if (deletedReports === 0) throw notFound('Project');
      return ok({ project, deleted: deletedReports });
    },
  );
}
