import type { Static } from '@sinclair/typebox';
import type { DeliveryRow } from '../db/webhook-deliveries-repository.js';
import type { WebhookRow } from '../db/webhooks-repository.js';
import { eventsOf } from '../model/webhook-events.js';
import type { Webhook, WebhookCreated, WebhookDelivery } from './schemas.js';

/** The API's Webhook: never its secret (shown once, by createdWebhookResource). */
export function webhookResource(row: WebhookRow): Static<typeof Webhook> {
  return {
    id: row.id,
    url: row.url,
    events: eventsOf(row.events),
    active: row.active,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createdWebhookResource(row: WebhookRow): Static<typeof WebhookCreated> {
  return { ...webhookResource(row), secret: row.secret };
}

/** A delivery as listed: its outcome, not its body. */
export function deliveryResource(row: DeliveryRow): Static<typeof WebhookDelivery> {
  return {
    id: row.id,
    event: eventsOf(row.event)[0],
    attempts: row.attempts,
    status_code: row.status_code,
    error: row.error,
    delivered_at: row.delivered_at,
    created_at: row.created_at,
  };
}
