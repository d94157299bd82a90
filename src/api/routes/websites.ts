// /api/v1/websites: thin handlers — validate, authorise (every query is scoped to the key's
// account), call the repository, respond.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { WebsitesRepository } from '../../db/websites-repository.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ValidationError, notFound } from '../errors.js';
import { parseId } from '../ids.js';
import { listParams, listPath, paginate } from '../pagination.js';
import { applyPrivacy, planPrivacy } from '../privacy.js';
import { websiteResource } from '../resources/website.js';
import { DeletedResponse, Envelope, IdParam, Page, Paginated } from '../schemas/common.js';
import { Website, WebsiteCreateBody, WebsiteListQuery, WebsiteUpdateBody } from '../schemas/websites.js';
import { addError, check, throwIfAny, validate } from '../validation.js';
import { errorResponses } from '../openapi-responses.js';

const DOMAIN_TAKEN = 'The domain has already been taken.';

export function websitesRoutes(app: FastifyInstance, websites: WebsitesRepository): void {
  const tags = ['websites'];

  app.get(
    '/websites',
    {
      schema: {
        tags,
        summary: 'List websites',
        querystring: Type.Object({ ...WebsiteListQuery.properties, page: Type.Optional(Page) }),
        response: { 200: Paginated(Website), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const q = validate(WebsiteListQuery, request.input);
      const p = listParams<'id' | 'domain'>(q, request.input, 'id');
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
          ['search_by', (q.search_by as string | undefined) ?? 'domain'],
          ['sort_by', p.sortBy],
          ['sort', p.sort],
          ['per_page', p.perPage],
        ],
      });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/websites/:id',
    {
      schema: {
        tags,
        summary: 'Show a website',
        params: IdParam,
        response: { 200: Envelope(Website), ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      const row = await websites.find(request.user!.id, parseId(request.params.id, 'Website'));
      if (!row) throw notFound('Website');
      return { data: websiteResource(row), status: 200 };
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
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const { values, errors } = check(WebsiteCreateBody, request.input);
      const domain = values.domain as string | undefined;
      if (domain && (await websites.domainTaken(userId, domain))) addError(errors, 'domain', DOMAIN_TAKEN);
      const plan = errors.privacy || errors.password
        ? null
        : planPrivacy(
            { privacy: (values.privacy as number | null | undefined) ?? 1, password: values.password as string | undefined },
            { privacy: 1, password_hash: null },
            errors,
          );
      throwIfAny(errors, WebsiteCreateBody);
      const privacy = await applyPrivacy(plan!, { privacy: 1, password_hash: null });
      try {
        const row = await websites.create({
          user_id: userId,
          domain: domain!,
          privacy: privacy.privacy,
          password_hash: privacy.password_hash,
          email: (values.email as number | null | undefined) ?? null,
          exclude_bots: (values.exclude_bots as number | null | undefined) ?? 1,
          exclude_ips: (values.exclude_ips as string | null | undefined) ?? null,
          exclude_params: (values.exclude_params as string | null | undefined) ?? null,
        });
        reply.code(201);
        return { data: websiteResource(row), status: 201 };
      } catch (error) {
        // Two creates of one domain at once: the unique index decides, the loser gets the same 422.
        if (isUniqueViolation(error)) throw new ValidationError({ domain: [DOMAIN_TAKEN] });
        throw error;
      }
    },
  );

  const update = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const userId = request.user!.id;
    const id = parseId(request.params.id, 'Website');
    const current = await websites.find(userId, id);
    if (!current) throw notFound('Website');
    const { values, errors } = check(WebsiteUpdateBody, request.input);
    const plan = errors.privacy || errors.password
      ? null
      : planPrivacy({ privacy: values.privacy as number | null | undefined, password: values.password as string | undefined }, current, errors);
    throwIfAny(errors, WebsiteUpdateBody);
    const privacy = await applyPrivacy(plan!, current);
    // Sent empty, the nullable lists are cleared; the other fields keep their value.
    const row = await websites.update(userId, id, {
      privacy: privacy.privacy,
      password_hash: privacy.password_hash,
      ...(values.email != null ? { email: values.email as number } : {}),
      ...(values.exclude_bots != null ? { exclude_bots: values.exclude_bots as number } : {}),
      ...('exclude_ips' in values ? { exclude_ips: values.exclude_ips as string | null } : {}),
      ...('exclude_params' in values ? { exclude_params: values.exclude_params as string | null } : {}),
    });
    if (!row) throw notFound('Website');
    return { data: websiteResource(row), status: 200 };
  };
  const updateSchema = {
    tags,
    summary: 'Update a website (parameters in the form body or the query string)',
    params: IdParam,
    body: WebsiteUpdateBody,
    response: { 200: Envelope(Website), ...errorResponses(401, 404, 413, 415, 422, 429) },
  };
  app.put<{ Params: { id: string } }>('/websites/:id', { schema: updateSchema }, update);
  app.patch<{ Params: { id: string } }>('/websites/:id', { schema: updateSchema }, update);

  app.delete<{ Params: { id: string } }>(
    '/websites/:id',
    {
      schema: { tags, summary: 'Delete a website', params: IdParam, response: { 200: DeletedResponse, ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      const id = parseId(request.params.id, 'Website');
      if (!(await websites.delete(request.user!.id, id))) throw notFound('Website');
      return { data: { id }, status: 200 };
    },
  );
}
