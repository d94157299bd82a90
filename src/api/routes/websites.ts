// /api/v1/websites: thin handlers — validate (the route's schemas, through Fastify's validator),
// authorise (every query is scoped to the key's account), call the repository, respond.
import type { WebsitesRepository } from '../../db/websites-repository.js';
import { isUniqueViolation } from '../../db/errors.js';
import { NEW_RESOURCE, applyPrivacy } from '../../sharing/privacy-change.js';
import { created, deleted, ok } from '../../http/envelope.js';
import { ValidationError, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, paginate } from '../../http/pagination.js';
import { passwordRule } from '../privacy-rule.js';
import { websiteResource } from '../../resources/website.js';
import { addError, withRules } from '../../http/rules.js';
import { DeletedResponse, Envelope, IdParams, Paginated } from '../../http/schemas.js';
import { WebsiteCreateBody, WebsiteListQuery, WebsiteUpdateBody } from '../schemas/websites.js';
import { Website } from '../../resources/schemas.js';
import type { Api } from '../../http/type-provider.js';

const DOMAIN_TAKEN = 'The domain has already been taken.';

export function websitesRoutes(app: Api, websites: WebsitesRepository): void {
  const tags = ['websites'];
  const params = IdParams('Website');

  app.get(
    '/websites',
    {
      schema: {
        tags,
        summary: 'List websites',
        querystring: WebsiteListQuery,
        response: { 200: Paginated(Website), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { query } = request;
      const p = listParams<'id' | 'domain'>(query, 'id');
      const { total, rows } = await websites.list({
        userId: request.user!.id,
        search: p.search,
        sortBy: p.sortBy,
        sort: p.sort,
        limit: p.perPage,
        offset: p.offset,
      });
      return paginate({
        items: rows.map(websiteResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [
          ['search', p.search],
          ['search_by', query.search_by ?? 'domain'],
          ['sort_by', p.sortBy],
          ['sort', p.sort],
          ['per_page', p.perPage],
        ],
      });
    },
  );

  app.get(
    '/websites/:id',
    {
      schema: { tags, summary: 'Show a website', params, response: { 200: Envelope(Website), ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      const row = await websites.find(request.user!.id, request.params.id);
      if (!row) throw notFound('Website');
      return ok(websiteResource(row));
    },
  );

  app.post(
    '/websites',
    {
      schema: {
        tags,
        summary: 'Create a website',
        body: WebsiteCreateBody,
        response: { 201: Envelope(Website, 201), ...errorResponses(401, 413, 415, 422, 429) },
      },
      attachValidation: true, // "taken" and the password rule answer in the schema's 422 (rules.ts)
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const body = await withRules(request, async (valid, errors) => {
        if (valid.domain && (await websites.domainTaken(userId, valid.domain))) addError(errors, 'domain', DOMAIN_TAKEN);
        passwordRule(valid, NEW_RESOURCE, errors);
      });
      const privacy = await applyPrivacy(body, NEW_RESOURCE);
      try {
        const row = await websites.create({
          user_id: userId,
          domain: body.domain,
          privacy: privacy.privacy,
          password_hash: privacy.password_hash,
          email: body.email ?? null,
          exclude_bots: body.exclude_bots ?? 1,
          exclude_ips: body.exclude_ips ?? null,
          exclude_params: body.exclude_params ?? null,
        });
        return reply.code(201).send(created(websiteResource(row)));
      } catch (error) {
        // Two creates of one domain at once: the unique index decides, the loser gets the same 422.
        if (isUniqueViolation(error)) throw new ValidationError({ domain: [DOMAIN_TAKEN] });
        throw error;
      }
    },
  );

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/websites/:id',
    schema: {
      tags,
      summary: 'Update a website (parameters in the form body or the query string)',
      params,
      body: WebsiteUpdateBody,
      response: { 200: Envelope(Website), ...errorResponses(401, 404, 413, 415, 422, 429) },
    },
    attachValidation: true, // 404 before any 422; the password rule answers in the schema's 422
    handler: async (request) => {
      const userId = request.user!.id;
      const current = await websites.find(userId, request.params.id);
      if (!current) throw notFound('Website');
      const body = await withRules(request, (valid, errors) => passwordRule(valid, current, errors));
      const privacy = await applyPrivacy(body, current);
      // Sent empty, the nullable lists are cleared; the other fields keep their value.
      const row = await websites.update(userId, current.id, {
        privacy: privacy.privacy,
        password_hash: privacy.password_hash,
        ...(body.email != null ? { email: body.email } : {}),
        ...(body.exclude_bots != null ? { exclude_bots: body.exclude_bots } : {}),
        ...(body.exclude_ips !== undefined ? { exclude_ips: body.exclude_ips } : {}),
        ...(body.exclude_params !== undefined ? { exclude_params: body.exclude_params } : {}),
      });
      if (!row) throw notFound('Website');
      return ok(websiteResource(row));
    },
  });

  app.delete(
    '/websites/:id',
    {
      schema: { tags, summary: 'Delete a website', params, response: { 200: DeletedResponse, ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      if (!(await websites.delete(request.user!.id, request.params.id))) throw notFound('Website');
      return deleted(request.params.id);
    },
  );
}
