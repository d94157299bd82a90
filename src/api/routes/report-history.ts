// GET /api/v1/reports/{id}/history: every analysis of a report (its creation and each re-run),
// newest first, as the paginator.
import type { ReportHistoryRepository } from '../../db/report-history-repository.js';
import type { ReportsRepository } from '../../db/reports-repository.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, paginate } from '../../http/pagination.js';
import { historyItemResource } from '../../resources/monitor.js';
import { IdParams, Paginated } from '../../http/schemas.js';
import { PageQuery } from '../schemas/monitors.js';
import { HistoryItem } from '../../resources/schemas.js';
import type { Api } from '../../http/type-provider.js';

export function reportHistoryRoutes(
  app: Api,
  { reports, history }: { reports: ReportsRepository; history: ReportHistoryRepository },
) {
  app.get(
    '/reports/:id/history',
    {
      schema: {
        tags: ['reports'],
        summary: "A report's history: its score and check counts at each analysis, newest first",
        params: IdParams('Report'),
        querystring: PageQuery,
        response: { 200: Paginated(HistoryItem), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const reportId = request.params.id;
      if (!(await reports.owns(request.user!.id, reportId))) throw notFound('Report');
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await history.list(reportId, p.perPage, p.offset);
      return paginate({
        items: rows.map(historyItemResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );
}
