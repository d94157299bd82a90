// /api/v1/account: the key's own account.
import type { ReportsRepository } from '../../db/reports-repository.js';
import type { WebsitesRepository } from '../../db/websites-repository.js';
import { ok } from '../../http/envelope.js';
import { Envelope } from '../../http/schemas.js';
import { Account } from '../schemas/reports.js';
import { errorResponses } from '../../http/openapi-responses.js';
import type { Api } from '../../http/type-provider.js';

export function accountRoutes(app: Api, reports: ReportsRepository, websites: WebsitesRepository): void {
  app.get(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'The account the API key belongs to',
        response: { 200: Envelope(Account), ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const user = request.user!;
      const [counts, websitesCount] = await Promise.all([reports.countsFor(user.id), websites.countFor(user.id)]);
      return ok({
        id: user.id,
        email: user.email,
        reports_count: counts.reports,
        projects_count: counts.projects,
        websites_count: websitesCount,
        created_at: user.created_at,
        updated_at: user.updated_at,
      });
    },
  );
}
