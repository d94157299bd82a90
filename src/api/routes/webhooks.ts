// /api/v1/webhooks: thin handlers — validate (the route's schemas, then the rules below: the
// events list and the target's address guard), authorise (every query is scoped to the key's
// account), call the repository or the webhook service, respond.
import type { WebhookDeliveriesRepository } from '../../db/webhook-deliveries-repository.js';
import type { WebhooksRepository } from '../../db/webhooks-repository.js';
import { parseEventList, storedEvents } from '../../model/webhook-events.js';
import { newWebhookSecret } from '../../webhooks/signature.js';
import type { WebhookService } from '../../webhooks/webhook-service.js';
import { created, deleted, ok } from '../../http/envelope.js';
import { type FieldErrors, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { listParams, listPath, paginate } from '../../http/pagination.js';
import { createdWebhookResource, deliveryResource, webhookResource } from '../../resources/webhook.js';
import { addError, withRules } from '../../http/rules.js';
import { DeletedResponse, Envelope, IdParams, Paginated } from '../../http/schemas.js';
import { WebhookCreateBody, WebhookListQuery, WebhookUpdateBody } from '../schemas/webhooks.js';
import { Webhook, WebhookCreated, WebhookDelivery } from '../../resources/schemas.js';
import type { Api } from '../../http/type-provider.js';

export interface WebhooksDeps {
  webhooks: WebhooksRepository;
  deliveries: WebhookDeliveriesRepository;
  service: WebhookService;
}

/** An entry named in a message is cut to this length (the input may be any size). */
const MAX_NAMED = 64;

/** The `events` rule: a string or an array naming one or more events (absent: only on update). */
function eventsRule(value: unknown, required: boolean, errors: FieldErrors): void {
  if (errors.events) return; // the schema refused it already (text that cannot be stored)
  if (value === undefined || value === null) {
    if (required) addError(errors, 'events', 'The events field is required.');
    return;
  }
  const outcome = parseEventList(value);
  if (outcome.ok) return;
  if (outcome.problem === 'empty') addError(errors, 'events', 'The events field is required.');
  else if (outcome.problem === 'type') addError(errors, 'events', 'The events must be a string or an array.');
  else {
    const entry = outcome.entry.length > MAX_NAMED ? `${outcome.entry.slice(0, MAX_NAMED)}…` : outcome.entry;
    addError(errors, 'events', `The events field contains an invalid event: ${entry}.`);
  }
}

/** The stored form of events that passed eventsRule; null when none were sent. */
function eventsToStore(value: unknown): string | null {
  const outcome = value === undefined || value === null ? null : parseEventList(value);
  return outcome?.ok ? storedEvents(outcome.events) : null;
}

export function webhooksRoutes(app: Api, { webhooks, deliveries, service }: WebhooksDeps): void {
  const tags = ['webhooks'];
  const params = IdParams('Webhook');

  /** The address guard on a url that passed the schema (DNS-resolved: private networks refused). */
  const targetRule = async (url: string | null | undefined, errors: FieldErrors) => {
    if (!url) return;
    const refused = await service.refusedTarget(url);
    if (refused) addError(errors, 'url', refused);
  };

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'List webhooks (newest first)',
        querystring: WebhookListQuery,
        response: { 200: Paginated(Webhook), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await webhooks.list(request.user!.id, p.perPage, p.offset);
      return paginate({
        items: rows.map(webhookResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: { tags, summary: 'Show a webhook', params, response: { 200: Envelope(Webhook), ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      const row = await webhooks.find(request.user!.id, request.params.id);
      if (!row) throw notFound('Webhook');
      return ok(webhookResource(row));
    },
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Create a webhook (its secret is in this answer only)',
        body: WebhookCreateBody,
        response: { 201: Envelope(WebhookCreated, 201), ...errorResponses(401, 413, 415, 422, 429) },
      },
      attachValidation: true, // the events list and the address guard answer in the schema's 422 (rules.ts)
    },
    async (request, reply) => {
      const body = await withRules(request, async (valid, errors) => {
        await targetRule(valid.url, errors);
        eventsRule(valid.events, true, errors);
      });
      const row = await webhooks.create({
        user_id: request.user!.id,
        url: body.url,
        events: eventsToStore(body.events) ?? '',
        active: body.active ?? 1,
        secret: newWebhookSecret(),
      });
      return reply.code(201).send(created(createdWebhookResource(row)));
    },
  );

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/webhooks/:id',
    schema: {
      tags,
      summary: 'Update a webhook (parameters in the form body or the query string)',
      params,
      body: WebhookUpdateBody,
      response: { 200: Envelope(Webhook), ...errorResponses(401, 404, 413, 415, 422, 429) },
    },
    attachValidation: true, // 404 before any 422; the events list and the address guard answer in the schema's 422
    handler: async (request) => {
      const userId = request.user!.id;
      const current = await webhooks.find(userId, request.params.id);
      if (!current) throw notFound('Webhook');
      const body = await withRules(request, async (valid, errors) => {
        await targetRule(valid.url, errors);
        eventsRule(valid.events, false, errors);
      });
      const events = eventsToStore(body.events);
      // Sent empty, a field keeps its value (none of them can be cleared).
      const row = await webhooks.update(userId, current.id, {
        ...(body.url != null ? { url: body.url } : {}),
        ...(events !== null ? { events } : {}),
        ...(body.active != null ? { active: body.active } : {}),
      });
      if (!row) throw notFound('Webhook');
      return ok(webhookResource(row));
    },
  });

  app.delete(
    '/webhooks/:id',
    {
      schema: { tags, summary: 'Delete a webhook', params, response: { 200: DeletedResponse, ...errorResponses(401, 404, 429) } },
    },
    async (request) => {
      if (!(await webhooks.delete(request.user!.id, request.params.id))) throw notFound('Webhook');
      return deleted(request.params.id);
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: "A webhook's deliveries of the last 30 days (newest first) and what the receiver answered",
        params,
        querystring: WebhookListQuery,
        response: { 200: Paginated(WebhookDelivery), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const hook = await webhooks.find(request.user!.id, request.params.id);
      if (!hook) throw notFound('Webhook');
      const p = listParams<'id'>(request.query, 'id');
      const { total, rows } = await deliveries.list(hook.id, p.perPage, p.offset);
      return paginate({
        items: rows.map(deliveryResource),
        total,
        page: p.page,
        perPage: p.perPage,
        path: listPath(request),
        query: [['per_page', p.perPage]],
      });
    },
  );
}
