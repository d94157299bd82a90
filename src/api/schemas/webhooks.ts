import '../formats.js'; // the formats these schemas name
import { Type } from '@sinclair/typebox';
import { EVENT_NAMES } from '../../model/events.js';
import { EventName } from '../../resources/schemas.js';
import { IntegerEnum, Page, PerPage } from '../../http/schemas.js';

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
