// Webhooks: the list, a new webhook (its signing secret shown once, on the answer page), and a
// webhook's page (its recent deliveries, settings, delete). Every read and write goes through
// /api/v1/webhooks (docs/api.md "Webhooks"): the API's rules (the address guard included),
// messages and authorisation hold here too; another account's webhook is the dashboard's 404.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { backWithApiMessage, failedRead, pathId } from '../api-answers.js';
import { apiFor, formFields, notFoundAppPage, queryFields, redirectWithNotice, sendAppPage, signedIn } from '../context.js';
import type { DashboardDeps, PageModule } from '../deps.js';
import type { FieldErrors } from '../render/forms.js';
import { listMeta, pageOf } from '../render/monitors-common.js';
import {
  createdWebhookMain,
  newWebhookMain,
  type WebhookFormValues,
  webhookHost,
  webhookListMain,
  webhookMain,
} from '../render/webhooks.js';
import { dashboardSchema } from '../route-schema.js';
import type { ListOf, One, Webhook, WebhookCreated, WebhookDelivery } from '../api-types.js';

const PER_PAGE = 25;

const params = Type.Object({ id: Type.String({ description: 'The webhook id' }) });

export const webhooksPages: PageModule = (app, deps: DashboardDeps) => {
  /** A webhook's page: the webhook (404 when not the account's), its deliveries, the settings form. */
  async function sendWebhookPage(
    request: FastifyRequest,
    reply: FastifyReply,
    form?: { values: WebhookFormValues; errors: FieldErrors },
  ): Promise<FastifyReply> {
    const api = apiFor(request, deps.api);
    const id = pathId(request);
    if (id === null) return notFoundAppPage(request, reply);
    const shown = await api.get<One<typeof Webhook>>(`/webhooks/${id}`);
    if (shown.status === 404) return notFoundAppPage(request, reply);
    if (shown.status !== 200) throw failedRead(shown, 'a webhook');
    const webhook = shown.body.data;
    const page = form ? undefined : pageOf(queryFields(request));
    const listed = await api.get<ListOf<typeof WebhookDelivery>>(`/webhooks/${id}/deliveries`, { per_page: PER_PAGE, page });
    if (listed.status !== 200) throw failedRead(listed, 'deliveries');
    return sendAppPage(
      request,
      reply,
      { section: 'webhooks', title: `Webhook to ${webhookHost(webhook.url)}`, status: form ? 422 : 200 },
      webhookMain({
        csrf: signedIn(request).csrf,
        webhook,
        deliveries: listed.body.data,
        deliveriesMeta: listMeta(listed.body),
        ...form,
      }),
    );
  }

  const sendNewForm = (request: FastifyRequest, reply: FastifyReply, values: WebhookFormValues, errors?: FieldErrors) =>
    sendAppPage(
      request,
      reply,
      { section: 'webhooks', title: 'New webhook', status: errors ? 422 : 200 },
      newWebhookMain({ csrf: signedIn(request).csrf, values, errors }),
    );

  app.get('/webhooks', { schema: dashboardSchema('Webhooks: the list (page), newest first', 'page') }, async (request, reply) => {
    const answer = await apiFor(request, deps.api).get<ListOf<typeof Webhook>>('/webhooks', {
      per_page: PER_PAGE,
      page: pageOf(queryFields(request)),
    });
    if (answer.status !== 200) throw failedRead(answer, 'webhooks');
    return sendAppPage(
      request,
      reply,
      { section: 'webhooks', title: 'Webhooks' },
      webhookListMain({ webhooks: answer.body.data, meta: listMeta(answer.body) }),
    );
  });

  app.get('/webhooks/new', { schema: dashboardSchema('New webhook: the form', 'page') }, async (request, reply) =>
    sendNewForm(request, reply, { url: '', events: [], active: '1' }),
  );

  app.post(
    '/webhooks',
    {
      schema: dashboardSchema(
        'Create a webhook (url, events[], active): the answer page shows its signing secret, this once',
        'form',
        [200],
      ),
    },
    async (request, reply) => {
      const fields = formFields(request);
      const answer = await apiFor(request, deps.api).post<One<typeof WebhookCreated>>('/webhooks', fields);
      if (answer.status === 201) {
        const { secret, ...webhook } = answer.body.data;
        // Shown in this answer only (no redirect: the secret must not sit in a cookie or a URL).
        return sendAppPage(
          request,
          reply,
          { section: 'webhooks', title: 'Webhook created' },
          createdWebhookMain(webhook, secret),
        );
      }
      if (answer.status === 422) return sendNewForm(request, reply, fields, answer.body.errors ?? {});
      return backWithApiMessage(reply, '/app/webhooks/new', answer);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: { ...dashboardSchema("A webhook's page: its recent deliveries, settings, delete", 'page'), params },
    },
    async (request, reply) => sendWebhookPage(request, reply),
  );

  app.post(
    '/webhooks/:id',
    {
      schema: {
        ...dashboardSchema("Save a webhook's settings (url, events[], active): 303 back to its page", 'form'),
        params,
      },
    },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const fields = formFields(request);
      const answer = await apiFor(request, deps.api).put<One<typeof Webhook>>(`/webhooks/${id}`, fields);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status === 200) return redirectWithNotice(reply, `/app/webhooks/${id}`, 'Webhook settings saved.');
      if (answer.status === 422) return sendWebhookPage(request, reply, { values: fields, errors: answer.body.errors ?? {} });
      return backWithApiMessage(reply, `/app/webhooks/${id}`, answer);
    },
  );

  app.post(
    '/webhooks/:id/delete',
    { schema: { ...dashboardSchema('Delete a webhook and its deliveries: 303 to the list', 'form'), params } },
    async (request, reply) => {
      const id = pathId(request);
      if (id === null) return notFoundAppPage(request, reply);
      const answer = await apiFor(request, deps.api).delete(`/webhooks/${id}`);
      if (answer.status === 404) return notFoundAppPage(request, reply);
      if (answer.status === 200) return redirectWithNotice(reply, '/app/webhooks', 'Webhook deleted, with its deliveries.');
      return backWithApiMessage(reply, `/app/webhooks/${id}`, answer);
    },
  );
};
