// Websites: the list, add one, its settings (every setting the API takes) with its tracking
// snippet, delete, and its stats over a date range. Everything goes through /api/v1/websites,
// so another account's id answers the dashboard 404 and changes nothing; the stats page reads
// the traffic only after the API has shown the website to this account.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../../web/routes.js';
import { statsRange, utcDay } from '../../render/stats-range.js';
import { loadTraffic } from '../../web/website-traffic.js';
import { backWithApiMessage, fieldErrors, pathId } from '../api-answers.js';
import { apiFor, formFields, notFoundAppPage, queryFields, redirectWithNotice, sendAppPage, signedIn } from '../context.js';
import type { PageModule } from '../deps.js';
import {
  type ApiWebsite,
  NEW_WEBSITE_VALUES,
  renderNewWebsite,
  renderWebsiteDetail,
  renderWebsiteList,
  renderWebsiteStats,
  valuesOf,
  type WebsiteValues,
} from '../render/websites.js';
import { dashboardSchema } from '../route-schema.js';
import type { ListOf, Website } from '../api-types.js';

const PER_PAGE = 25;
const idParams = Type.Object({ id: Type.String({ description: 'The website id (another account’s answers 404)' }) });
const listQuery = Type.Object({
  search: Type.Optional(Type.String({ description: 'A part of the domain' })),
  page: Type.Optional(Type.String({ description: 'The page of the list' })),
});
const rangeQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'First day (UTC), YYYY-MM-DD; default: 29 days before today' })),
  to: Type.Optional(
    Type.String({ description: 'Last day (UTC), YYYY-MM-DD; an unusable range shows the last 30 days with a note' }),
  ),
  prop: Type.Optional(
    Type.String({ description: 'The custom property whose values are shown; default: the one the most events carried' }),
  ),
});

/** The posted values, kept for a refused form. */
function postedValues(fields: Record<string, string | string[]>, base: WebsiteValues): WebsiteValues {
  const values: WebsiteValues = { ...base };
  for (const [key, value] of Object.entries(fields)) {
    // A checkbox sends its hidden 0 then 1: the last value counts (the API reads a form the same way).
    values[key] = Array.isArray(value) ? value[value.length - 1] : value;
  }
  return values;
}

export const websitesPages: PageModule = (app, deps) => {
  /** The website, when the API shows it to this account; otherwise the reply already sent (404). */
  async function websiteOr404(request: FastifyRequest, reply: FastifyReply): Promise<ApiWebsite | null> {
    const id = pathId(request);
    if (id === null) {
      notFoundAppPage(request, reply);
      return null;
    }
    const answer = await apiFor(request, deps.api).get<{ data: ApiWebsite }>(`/websites/${id}`);
    if (answer.status === 200) return answer.body.data;
    if (answer.status === 404) notFoundAppPage(request, reply);
    else throw new Error(`GET /websites/${id} answered ${answer.status}`);
    return null;
  }

  app.get(
    '/websites',
    {
      schema: {
        ...dashboardSchema('Websites: the list, with search and paging', 'page', [422]),
        querystring: listQuery,
      },
    },
    async (request, reply) => {
      const query = queryFields(request);
      const search = (query.search ?? '').trim();
      const page = /^[1-9][0-9]{0,8}$/.test(query.page ?? '') ? Number(query.page) : 1;
      const answer = await apiFor(request, deps.api).get<ListOf<typeof Website>>('/websites', {
        search,
        page,
        per_page: PER_PAGE,
        sort_by: 'id',
        sort: 'desc',
      });
      const page422 = answer.status === 422;
      if (answer.status !== 200 && !page422) throw new Error(`GET /websites answered ${answer.status}`);
      const body = answer.body;
      return sendAppPage(
        request,
        reply,
        { section: 'websites', title: search ? `Websites matching “${search}”` : 'Websites', status: page422 ? 422 : 200 },
        renderWebsiteList({
          websites: page422 ? [] : body.data,
          page: page422 ? 1 : Number(body.meta.current_page),
          lastPage: page422 ? 1 : Number(body.meta.last_page),
          total: page422 ? 0 : Number(body.meta.total),
          search,
          errors: page422 ? fieldErrors(answer) : undefined,
        }),
      );
    },
  );

  app.get('/websites/new', { schema: dashboardSchema('Add a website: the form', 'page') }, async (request, reply) =>
    sendAppPage(
      request,
      reply,
      { section: 'websites', title: 'Add a website' },
      renderNewWebsite(signedIn(request).csrf, NEW_WEBSITE_VALUES),
    ),
  );

  app.post(
    '/websites',
    {
      schema: dashboardSchema(
        'Add a website (domain, privacy, password, email, exclude_bots, exclude_ips, exclude_params): 303 to its page',
        'form',
      ),
    },
    async (request, reply) => {
      const fields = formFields(request);
      const answer = await apiFor(request, deps.api).post<{ data: ApiWebsite }>('/websites', fields);
      if (answer.status === 201) {
        const website = answer.body.data;
        return redirectWithNotice(
          reply,
          `/app/websites/${website.id}`,
          `Website ${website.domain} added. Put the tracking snippet on its pages to count visits.`,
        );
      }
      if (answer.status === 422) {
        return sendAppPage(
          request,
          reply,
          { section: 'websites', title: 'Add a website', status: 422 },
          renderNewWebsite(signedIn(request).csrf, postedValues(fields, NEW_WEBSITE_VALUES), fieldErrors(answer)),
        );
      }
      return backWithApiMessage(reply, '/app/websites/new', answer);
    },
  );

  app.get(
    '/websites/:id',
    { schema: { ...dashboardSchema('A website: its settings, tracking snippet and links', 'page'), params: idParams } },
    async (request, reply) => {
      const website = await websiteOr404(request, reply);
      if (!website) return reply;
      return sendAppPage(
        request,
        reply,
        { section: 'websites', title: `Website ${website.domain}` },
        renderWebsiteDetail({ website, csrf: signedIn(request).csrf, origin: originOf(request), values: valuesOf(website) }),
      );
    },
  );

  app.post(
    '/websites/:id',
    {
      schema: {
        ...dashboardSchema(
          'Save a website’s settings (privacy, password, email, exclude_bots, exclude_ips, exclude_params): 303 to its page',
          'form',
        ),
        params: idParams,
      },
    },
    async (request, reply) => {
      const website = await websiteOr404(request, reply);
      if (!website) return reply;
      const fields = formFields(request);
      const answer = await apiFor(request, deps.api).put<{ data: ApiWebsite }>(`/websites/${website.id}`, fields);
      if (answer.status === 200) return redirectWithNotice(reply, `/app/websites/${website.id}`, 'Settings saved.');
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status === 422) {
        return sendAppPage(
          request,
          reply,
          { section: 'websites', title: `Website ${website.domain}`, status: 422 },
          renderWebsiteDetail({
            website,
            csrf: signedIn(request).csrf,
            origin: originOf(request),
            values: postedValues(fields, valuesOf(website)),
            errors: fieldErrors(answer),
          }),
        );
      }
      return backWithApiMessage(reply, `/app/websites/${website.id}`, answer);
    },
  );

  app.post(
    '/websites/:id/delete',
    {
      schema: {
        ...dashboardSchema('Delete a website and its counted visits: 303 to the list', 'form'),
        params: idParams,
      },
    },
    async (request, reply) => {
      const website = await websiteOr404(request, reply);
      if (!website) return reply;
      const answer = await apiFor(request, deps.api).delete(`/websites/${website.id}`);
      if (answer.status === 200) return redirectWithNotice(reply, '/app/websites', `Website ${website.domain} deleted.`);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      return backWithApiMessage(reply, `/app/websites/${website.id}`, answer);
    },
  );

  app.get(
    '/websites/:id/stats',
    {
      schema: {
        ...dashboardSchema('A website’s stats over a date range (default: the last 30 days)', 'page'),
        params: idParams,
        querystring: rangeQuery,
      },
    },
    async (request, reply) => {
      const website = await websiteOr404(request, reply);
      if (!website) return reply;
      const query = queryFields(request);
      const range = statsRange({ from: query.from, to: query.to }, deps.clock);
      const traffic = await loadTraffic(
        deps.stats,
        website.id,
        range,
        { today: utcDay(deps.clock.now()), origin: originOf(request) },
        query.prop,
      );
      return sendAppPage(
        request,
        reply,
        { section: 'websites', title: `Stats of ${website.domain}` },
        renderWebsiteStats(website, traffic),
      );
    },
  );
};
