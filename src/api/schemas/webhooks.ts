import { Type } from '@sinclair/typebox';
import { EVENT_NAMES } from '../../events.js';
import { IntegerEnum, Page, PerPage, StringEnum, Timestamp } from './common.js';

const EventName = StringEnum(EVENT_NAMES);
const ONE_EVENT = `(?:${EVENT_NAMES.map((name) => name.replace(/\./g, '\\.')).join('|')})`;

/**
 * Written as a comma-separated string or as an array (form `events[]=…`, a JSON array). The
 * validator passes it through as sent; the routes' rule (routes/webhooks.ts) reads it.
 */
const Events = Type.Union(
  [
    Type.String({ pattern: `^\\s*${ONE_EVENT}(?:\\s*,\\s*${ONE_EVENT})*\\s*$`, description: 'Comma-separated event names' }),
    Type.Array(EventName, { minItems: 1, description: 'Event names (form: events[]=…)' }),
  ],
  { description: `One or more of ${EVENT_NAMES.join(', ')}` },
);
const Url = Type.String({
  maxLength: 2048,
  format: 'webhook-url',
  description: 'Absolute http(s) URL the events are POSTed to; it must resolve to a public address (as report URLs)',
});
const Active = IntegerEnum([0, 1], { description: '0 inactive (nothing is sent), 1 active' });

export const WebhookListQuery = Type.Object({
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const WebhookCreateBody = Type.Object({
  url: Url,
  events: Events,
  active: Type.Optional({ ...Active, default: 1 }),
});

export const WebhookUpdateBody = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  active: Type.Optional(Active),
});

const webhookFields = {
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(EventName),
  active: IntegerEnum([0, 1]),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields, { $id: 'Webhook' });

/** The create answer: the Webhook and, this once, its secret. */
export const WebhookCreated = Type.Object({
  ...webhookFields,
  secret: Type.String({
    description: 'The HMAC-SHA256 key of X-Rankscope-Signature. Shown only in this response: store it now.',
  }),
});

export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    event: EventName,
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: "The receiver's last HTTP status; null when none answered",
    }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed; null once delivered' }),
    delivered_at: Type.Union([Timestamp, Type.Null()], { description: 'When a receiver answered 2xx; null until then' }),
    created_at: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
